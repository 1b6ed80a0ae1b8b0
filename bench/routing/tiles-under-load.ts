/**
 * Part 4 of the routing benchmark: the front end must not be blocked by routing. Tile latency of
 * one server at a fixed, moderate number of connections, measured alone and while a second wrk
 * saturates its routing endpoints (directions, then isochrones), in interleaved rounds: the tile
 * figures alone are the baseline of the same run.
 */
import { median } from '../lib/report.js';
import { runWrk, type WrkOptions, type WrkResult } from '../lib/wrk.js';

export interface Background {
  name: string;
  wrk: Omit<WrkOptions, 'durationS'>;
}

export interface TileScenario {
  /** `alone`, or the background load's name. */
  name: string;
  tiles: WrkResult[];
  /** The background wrk runs, one per round (none alone). */
  background: WrkResult[];
}

export interface TileSettings {
  rounds: number;
  warmupS: number;
  durationS: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function checked(name: string, result: WrkResult): WrkResult {
  if (result.non2xx) throw new Error(`${name}: ${result.non2xx} responses were not 2xx/3xx`);
  return result;
}

/** One tile run, with `background` (started a warm-up earlier and ending a second after) or alone. */
async function tileRun(tiles: WrkOptions, background: Background | null, warmupS: number): Promise<[WrkResult, WrkResult | null]> {
  if (!background) {
    if (warmupS > 0) await runWrk({ ...tiles, durationS: warmupS });
    return [checked('tiles', await runWrk(tiles)), null];
  }
  const loading = runWrk({ ...background.wrk, durationS: warmupS + tiles.durationS + 1 });
  await sleep(warmupS * 1000);
  const measured = await runWrk(tiles);
  return [checked('tiles', measured), checked(background.name, await loading)];
}

export async function measureTilesUnderLoad(tiles: WrkOptions, backgrounds: Background[], settings: TileSettings): Promise<TileScenario[]> {
  const scenarios: { name: string; background: Background | null; result: TileScenario }[] = [null, ...backgrounds].map((b) => ({
    name: b?.name ?? 'alone',
    background: b,
    result: { name: b?.name ?? 'alone', tiles: [], background: [] },
  }));
  for (let round = 1; round <= settings.rounds; round++) {
    for (const s of scenarios) {
      const [tileResult, backgroundResult] = await tileRun({ ...tiles, durationS: settings.durationS }, s.background, settings.warmupS);
      s.result.tiles.push(tileResult);
      if (backgroundResult) s.result.background.push(backgroundResult);
      console.error(
        `  round ${round}  tiles ${s.name.padEnd(40)} ${tileResult.requestsPerSec.toFixed(0).padStart(6)} req/s  p50 ${tileResult.latency.p50} ms  p99 ${tileResult.latency.p99} ms` +
          (backgroundResult ? `  (background ${backgroundResult.requestsPerSec.toFixed(0)} req/s)` : ''),
      );
    }
  }
  return scenarios.map((s) => s.result);
}

/** Medians over the rounds of wrk runs. */
export function medianWrk(runs: WrkResult[]): { rps: number; p50: number; p99: number } {
  return {
    rps: median(runs.map((r) => r.requestsPerSec)),
    p50: median(runs.map((r) => r.latency.p50)),
    p99: median(runs.map((r) => r.latency.p99)),
  };
}
