/**
 * Part 1 of the maps benchmark: one OSM extract imported by `waymark import --osm` (OSM only,
 * into a fresh data folder each time) and by tilemaker, in turns for some rounds, each run timed
 * with its process tree's peak memory; then the tile count and size of the MBTiles each wrote.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { waitForQuiet } from '../lib/cpu.js';
import { measureCommand, type CommandMeasurement } from '../lib/measure-command.js';
import { median } from '../lib/report.js';
import { summarizeMbtiles, type MbtilesSummary } from './mbtiles.js';
import { tilemakerArgs, type TilemakerSetup } from './tilemaker.js';
import { importArgs, importedMbtiles } from './waymark.js';

export interface ImportRuns {
  /** Successful runs, one per round (fewer when a run failed). */
  runs: CommandMeasurement[];
  /** The archive of the last successful run; null when none succeeded. */
  mbtiles: MbtilesSummary | null;
  /** Why a run gave no archive (exit status and the end of its stderr); later rounds are skipped. */
  failure: string | null;
  /** Runs that started with the machine still busy after the quiet wait. */
  busyStarts: number;
}

export interface ImportComparison {
  extract: string;
  inputBytes: number;
  tilemaker: ImportRuns;
  /** Null when `waymark import` could not run at all (see the report's notes). */
  waymark: ImportRuns | null;
  /** The data folder of Waymark's last successful import, for the serving benchmark. */
  waymarkDataDir: string | null;
}

/** Median wall and CPU time; the highest peaks over the rounds. */
export function aggregate(runs: CommandMeasurement[]) {
  const cpu = runs.map((r) => r.cpuS);
  const maxRss = runs.map((r) => r.maxProcessRssBytes);
  return {
    wallS: median(runs.map((r) => r.wallS)),
    cpuS: cpu.every((c) => c !== null) ? median(cpu as number[]) : null,
    peakTreeRssBytes: Math.max(...runs.map((r) => r.peakTreeRssBytes)),
    maxProcessRssBytes: maxRss.every((m) => m !== null) ? Math.max(...(maxRss as number[])) : null,
  };
}

function lastLines(file: string, count: number): string {
  return readFileSync(file, 'utf8').replace(/\r/g, '\n').trim().split('\n').slice(-count).join('\n');
}

/** One more run into `runs`, unless an earlier one failed. */
async function runOnce(
  runs: ImportRuns,
  quietWaitMs: number,
  command: string,
  args: string[],
  logPrefix: string,
  output: string,
): Promise<boolean> {
  if (runs.failure) return false;
  // A quiet machine for each run: other jobs' bursts would show up as import time.
  if (quietWaitMs > 0 && !(await waitForQuiet(0.15, quietWaitMs))) runs.busyStarts++;
  const m = await measureCommand(command, args, { logPrefix });
  const status = m.signal ? `signal ${m.signal}` : `exit code ${m.exitCode}`;
  if (m.exitCode !== 0) runs.failure = `${status}: ${lastLines(m.stderrFile, 5)}`;
  else if (!existsSync(output)) runs.failure = `exit code 0 but no ${output}`;
  else {
    runs.runs.push(m);
    runs.mbtiles = summarizeMbtiles(output);
    return true;
  }
  return false;
}

const noRuns = (): ImportRuns => ({ runs: [], mbtiles: null, failure: null, busyStarts: 0 });

export async function compareImport(
  osm: string,
  workDir: string,
  { rounds, quietWaitMs }: { rounds: number; quietWaitMs: number },
  tilemaker: TilemakerSetup,
  waymarkUnavailable: string | null,
): Promise<ImportComparison> {
  const extract = basename(osm).replace(/\.osm\.pbf$/, '');
  const dir = join(workDir, extract);
  mkdirSync(dir, { recursive: true });
  const tilemakerRuns = noRuns();
  const waymarkRuns = waymarkUnavailable ? null : noRuns();
  let waymarkDataDir: string | null = null;
  for (let round = 1; round <= rounds; round++) {
    const tilemakerOutput = join(dir, `tilemaker-${round}.mbtiles`);
    console.error(`  ${extract}, round ${round}: tilemaker…`);
    await runOnce(
      tilemakerRuns,
      quietWaitMs,
      'tilemaker',
      tilemakerArgs(tilemaker, osm, tilemakerOutput),
      join(dir, `tilemaker-${round}`),
      tilemakerOutput,
    );
    if (!waymarkRuns) continue;
    const dataDir = join(dir, `waymark-data-${round}`);
    mkdirSync(dataDir);
    console.error(`  ${extract}, round ${round}: waymark import…`);
    if (
      await runOnce(
        waymarkRuns,
        quietWaitMs,
        process.execPath,
        importArgs(osm, dataDir),
        join(dir, `waymark-import-${round}`),
        importedMbtiles(dataDir),
      )
    ) {
      waymarkDataDir = dataDir;
    }
  }
  return { extract, inputBytes: statSync(osm).size, tilemaker: tilemakerRuns, waymark: waymarkRuns, waymarkDataDir };
}
