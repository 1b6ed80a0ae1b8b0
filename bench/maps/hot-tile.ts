/**
 * Issue 12's question, part 3 of the maps benchmark: how close does `waymark serve` come, through
 * its full gateway, to bare uWebSockets.js on one hot tile — the biggest z14 tile of the served
 * dataset, requested over and over? Side by side in one run, interleaved rounds:
 * - bare uWebSockets.js sending that tile's stored bytes from memory (servers/bare-tile.ts);
 * - `waymark serve` with its tile cache (the default);
 * - `waymark serve` with `WAYMARK_TILE_CACHE_MB=0`: every tile read from the MBTiles;
 * - optionally `waymark serve` of a baseline checkout (`--baseline DIR`, built), e.g. the commit
 *   before the cache, for "no slower on the uncached path".
 * Each Waymark server gets its own copy of the data folder (one server per folder) and the key.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { startChild, type ServerChild } from '../lib/child.js';
import { describeMeasurement, interference, measureServers, summarize, type loadSettings, type Target } from '../lib/load.js';
import { fmtInt, fmtMs, fmtPct, fmtUs, markdownTable } from '../lib/report.js';
import { checkUsageCounted, usedUnits, type Metered } from '../lib/usage-check.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { largestTile, tileBytes } from './mbtiles.js';
import { ACCEPT_GZIP, checkRefusedWithoutKey, checkTileAnswers, tileKey } from './tile-load.js';
import { importedMbtiles, startWaymarkServe, TILE_PATH_PREFIX, TILE_SERVICE } from './waymark.js';

/** The load: `wrk -t1 -c50`. */
export const HOT_TILE_CONNECTIONS = 50;
const HOT_TILE_ZOOM = 14;
const BARE_SERVER = join(PACKAGE_ROOT, 'dist', 'bench', 'maps', 'servers', 'bare-tile.js');

interface HotTarget extends Target {
  child: ServerChild;
  metered?: Metered;
}

export interface HotTileOptions {
  /** The imported data folder (with the Enterprise key) whose dataset is served. */
  dataDir: string;
  key: string;
  /** Where the data folder copies go. */
  workDir: string;
  load: ReturnType<typeof loadSettings>;
  /** A built checkout whose `bin/waymark.js serve` is measured too. */
  baseline?: string;
  /** Started servers are added here, for the driver to stop. */
  children: ServerChild[];
}

export async function hotTileSection(options: HotTileOptions): Promise<string[]> {
  const { dataDir, key, workDir, load, children } = options;
  const mbtiles = importedMbtiles(dataDir);
  const tile = largestTile(mbtiles, HOT_TILE_ZOOM);
  const heading = '## One hot tile: waymark serve, cached and uncached, vs bare uWebSockets.js';
  if (!tile) return [heading, '', `Not measured: the archive has no z${HOT_TILE_ZOOM} tile.`];
  const stored = tileBytes(mbtiles, [tile]);
  const bytes = stored.get(tileKey(tile))!.length;
  const path = `${TILE_PATH_PREFIX}${tileKey(tile)}.pbf`;
  const base = (c: ServerChild) => `http://127.0.0.1:${c.port}`;

  const waymarkTarget = async (
    label: string,
    folder: string,
    serve: { env?: Record<string, string>; bin?: string },
  ): Promise<HotTarget> => {
    const copy = join(workDir, `hot-tile-${folder}`);
    cpSync(dataDir, copy, { recursive: true, verbatimSymlinks: true });
    const child = await startWaymarkServe(copy, load.serverCpu, { name: label, ...serve });
    children.push(child);
    return {
      name: label,
      child,
      pid: child.pid,
      url: `${base(child)}${path}?key=${key}`,
      headers: ACCEPT_GZIP,
      metered: { port: child.port, key, service: TILE_SERVICE },
    };
  };
  const bareChild = await startChild(BARE_SERVER, { cpu: load.serverCpu, env: { BARE_TILE_MBTILES: mbtiles, BARE_TILE: tileKey(tile) } });
  children.push(bareChild);
  const targets: HotTarget[] = [
    {
      name: 'bare uWebSockets.js, the tile from memory',
      child: bareChild,
      pid: bareChild.pid,
      url: base(bareChild) + path,
      headers: ACCEPT_GZIP,
    },
    await waymarkTarget('waymark serve, tile cache on (default)', 'cached', {}),
    await waymarkTarget('waymark serve, WAYMARK_TILE_CACHE_MB=0', 'uncached', { env: { WAYMARK_TILE_CACHE_MB: '0' } }),
  ];
  if (options.baseline) {
    targets.push(
      await waymarkTarget(`waymark serve of ${options.baseline}`, 'baseline', { bin: join(options.baseline, 'bin', 'waymark.js') }),
    );
  }

  console.error(`hot tile ${tileKey(tile)} (${fmtInt(bytes)} bytes gzip): checking every server's answer…`);
  for (const target of targets) {
    await checkTileAnswers(target.name, () => target.url, [tile], stored);
    if (target.metered) await checkRefusedWithoutKey(target.name, base(target.child) + path);
  }
  const before = await Promise.all(targets.map((t) => (t.metered ? usedUnits(t.metered) : 0)));
  const hotLoad = { ...load, connections: HOT_TILE_CONNECTIONS };
  const measured = await measureServers('hot tile', targets, hotLoad, `, one tile: ${tileKey(tile)}`);
  const usageLines: string[] = [];
  for (const [i, m] of measured.entries()) {
    if (m.target.metered) usageLines.push(checkUsageCounted((await usedUnits(m.target.metered)) - before[i]!, m, HOT_TILE_CONNECTIONS));
  }

  const rows = measured.map((m) => ({ name: m.target.name, ...summarize(m.runs) }));
  const bareRps = rows[0]!.rps;
  const table = markdownTable(
    ['Server', 'tiles/s', 'p50', 'p99', 'tiles/s vs bare', 'server CPU busy', 'server CPU per tile', 'tiles/s per round'],
    rows.map((r) => [
      r.name,
      fmtInt(r.rps),
      fmtMs(r.p50),
      fmtMs(r.p99),
      fmtPct(r.rps / bareRps),
      r.cpuUse === null ? 'n/a' : fmtPct(r.cpuUse),
      r.cpuPerReq === null ? 'n/a' : fmtUs(r.cpuPerReq),
      r.perRound,
    ]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
  const [, cached, uncached, baseline] = rows;
  const aims = [
    `- Cached tile through the full gateway / bare uWebSockets.js (aim ≥ 90 %): ${fmtPct(cached!.rps / bareRps)}: ${cached!.rps >= 0.9 * bareRps ? 'PASS' : 'MISS'}`,
  ];
  if (baseline) {
    const ratio = uncached!.rps / baseline.rps;
    const cpu =
      uncached!.cpuPerReq !== null && baseline.cpuPerReq !== null
        ? `; CPU per tile ${fmtUs(uncached!.cpuPerReq)} against ${fmtUs(baseline.cpuPerReq)}`
        : '';
    aims.push(
      `- Uncached path / the baseline in tiles/s (aim: no slower; at least 0.97×, for the noise between rounds): ${ratio.toFixed(2)}×${cpu}: ${ratio >= 0.97 ? 'PASS' : 'MISS'}`,
    );
  }
  return [
    heading,
    '',
    `The biggest z${HOT_TILE_ZOOM} tile of the dataset, ${tileKey(tile)} (${fmtInt(bytes)} bytes as stored, gzip), requested by every connection, ` +
      '`Accept-Encoding: gzip`; Waymark with `?key=` (Enterprise key), the access log at the default level to /dev/null. ' +
      'Every server first answered the tile with the stored bytes, and every Waymark refused it without key (401).',
    describeMeasurement(hotLoad, 'server', HOT_TILE_CONNECTIONS),
    interference(measured.flatMap((m) => m.runs)),
    '',
    table,
    '',
    ...aims,
    ...usageLines.map((line) => `- Usage check: ${line}`),
  ];
}
