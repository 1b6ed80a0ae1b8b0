/**
 * Issue 12's raster benchmark, on Heidelberg imported into a fresh data folder, through
 * `waymark serve` (the full gateway, an Enterprise key), with 1 and with 2 pool threads
 * (`WAYMARK_THREADS`):
 * - cold tiles: 256 px (`.png`) and 512 px (`@2x.png`) at z12–16, each in a metatile not drawn
 *   before, one request at a time (latency p50/p99), then as many at once as there are threads
 *   (tiles/s; each job also draws the other tiles of its metatile, which are not counted);
 * - cached tiles: `wrk -t1 -c50` over tiles drawn before, beside the vector tiles of the same
 *   coordinates on the same server (the aim: cached raster tiles at the vector tiles' rate);
 * - static maps: 600×400 at random places, one marker and a path, one request at a time;
 * - vector tiles and geocoding searches (wrk -c10) alone and while a second wrk keeps the pool
 *   saturated with static maps of places never drawn (interleaved rounds, as the routing
 *   benchmark's tiles under load): rendering must not slow the front end.
 * tileserver-gl's raster endpoint is not measured: it needs MapLibre Native, whose npm package
 * downloads its binary from outside the registry, which cannot be installed here.
 *
 *   npm run bench:raster [-- --samples 8 --duration 10]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { osmBounds } from '../../data-pipeline/osm/index.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { STYLES } from '../../core/maps/style-catalog.js';
import type { ServerChild } from '../lib/child.js';
import { measureCpu } from '../lib/cpu.js';
import { fmtInt, fmtMs, fmtUs, markdownTable, publishReport } from '../lib/report.js';
import { seededRandom, writeWrkScript } from '../lib/request-list.js';
import { freshTiles, quantileMs, timedGet } from '../lib/tile-latency.js';
import { runWrk } from '../lib/wrk.js';
import { measureTilesUnderLoad, medianWrk } from '../routing/tiles-under-load.js';
import { createEnterpriseKey, importArgs, startWaymarkServe } from '../maps/waymark.js';
import type { BBox } from '../../core/geo/types.js';
import { TILE_MAX_ZOOM } from '../../core/maps/zoom.js';

const HEIDELBERG = join(PACKAGE_ROOT, '..', 'shared', 'data', 'osm', 'heidelberg.osm.pbf');
const ZOOMS = [12, 13, 14, 15, 16];
const SIZES = [
  { name: '256 px', suffix: '.png' },
  { name: '512 px', suffix: '@2x.png' },
] as const;
const THREADS = [1, 2];
const STYLE = STYLES[0]!.slug;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { samples: { type: 'string', default: '8' }, duration: { type: 'string', default: '10' } } });
  const samples = Number(values.samples);
  const durationS = Number(values.duration);
  const workDir = mkdtempSync(join(tmpdir(), 'waymark-bench-raster-'));
  const children: ServerChild[] = [];
  try {
    const dataDir = join(workDir, 'data');
    console.error('importing Heidelberg…');
    const imported = spawnSync(process.execPath, importArgs(HEIDELBERG, dataDir), { stdio: ['ignore', 'ignore', 'inherit'] });
    if (imported.status !== 0) throw new Error('waymark import failed');
    const key = createEnterpriseKey(dataDir, ['maps', 'geocoding']);
    const [w, s, e, n] = await osmBounds(HEIDELBERG);
    const bounds: BBox = [w, s, e, n];
    const sections: string[][] = [];
    const cachedPaths: { raster: string[]; vector: string[] } = { raster: [], vector: [] };

    for (const threads of THREADS) {
      // The same tiles for each thread count, none drawn before: the disk cache of the last server goes.
      rmSync(join(dataDir, 'current', 'raster-cache'), { recursive: true, force: true });
      const random = seededRandom(12);
      const taken = new Set<string>();
      const server = await startWaymarkServe(dataDir, undefined, {
        name: `waymark serve, ${threads} thread(s)`,
        env: { WAYMARK_THREADS: String(threads) },
      });
      children.push(server);
      const base = `http://127.0.0.1:${server.port}/api/v1`;
      const rows: string[][] = [];
      for (const size of SIZES) {
        for (const z of ZOOMS) {
          const path = ([x, y]: [number, number]) => `/styles/${STYLE}/tiles/${z}/${x}/${y}${size.suffix}`;
          const oneByOne = freshTiles(bounds, z, samples, random, taken);
          const latencies: number[] = [];
          for (const tile of oneByOne) latencies.push(await timedGet(`${base}${path(tile)}?key=${key}`));
          latencies.sort((a, b) => a - b);
          const together = freshTiles(bounds, z, samples, random, taken);
          const started = performance.now();
          for (let i = 0; i < together.length; i += threads) {
            await Promise.all(together.slice(i, i + threads).map((tile) => timedGet(`${base}${path(tile)}?key=${key}`)));
          }
          const rate = together.length === 0 ? '–' : ((together.length * 1000) / (performance.now() - started)).toFixed(1);
          rows.push([
            size.name,
            `z${z}`,
            `${latencies.length} + ${together.length}`,
            quantileMs(latencies, 0.5),
            quantileMs(latencies, 0.99),
            rate,
          ]);
          if (threads === THREADS[0]) {
            cachedPaths.raster.push(...oneByOne.map(path));
            if (z <= TILE_MAX_ZOOM) cachedPaths.vector.push(...oneByOne.map(([x, y]) => `/tiles/shortbread/${z}/${x}/${y}.pbf`));
          }
          console.error(`${threads} thread(s) ${size.name} z${z}: cold p50 ${quantileMs(latencies, 0.5)}, ${rate} tiles/s`);
        }
      }
      sections.push([
        `## Cold tiles, ${threads} pool thread(s)`,
        '',
        `Style \`${STYLE}\`; each tile in a metatile drawn by no request before (fewer at low zooms, where the extract has few metatiles). Latency: one request at a time; tiles/s: ${threads} request(s) at once, each drawing a metatile of 2×2 tiles (the siblings not counted).`,
        '',
        markdownTable(['tile', 'zoom', 'requests (one by one + together)', 'p50', 'p99', 'tiles/s'], rows, ['l', 'l', 'r', 'r', 'r', 'r']),
      ]);
      if (threads !== THREADS[THREADS.length - 1]) {
        await server.stop();
        children.pop();
      }
    }

    const server = children[children.length - 1]!;
    const base = `http://127.0.0.1:${server.port}/api/v1`;
    const cachedRows: string[][] = [];
    const vectorScript = join(workDir, 'vector.lua');
    const cachedLists = [
      ['raster tiles drawn before (PNG, 256 and 512 px)', cachedPaths.raster, join(workDir, 'raster.lua')],
      ['vector tiles of the same coordinates (z ≤ 14)', cachedPaths.vector, vectorScript],
    ] as const;
    for (const [name, paths, script] of cachedLists) {
      writeWrkScript(
        script,
        paths.map((p) => `/api/v1${p}?key=${key}`),
      );
      const { value: result, processSeconds } = await measureCpu(server.pid, undefined, () =>
        runWrk({ url: `${base}/styles`, connections: 50, durationS, script, headers: { 'Accept-Encoding': 'gzip' } }),
      );
      if (result.non2xx > 0) throw new Error(`${name}: ${result.non2xx} answers outside 2xx/3xx`);
      const cpuPerTile = processSeconds === null ? '–' : fmtUs(processSeconds / result.requests);
      const kbPerAnswer = (result.bytesPerSec / result.requestsPerSec / 1024).toFixed(1);
      cachedRows.push([
        name,
        String(paths.length),
        kbPerAnswer,
        fmtInt(result.requestsPerSec),
        fmtMs(result.latency.p50),
        fmtMs(result.latency.p99),
        cpuPerTile,
      ]);
    }
    sections.push([
      '## Cached tiles beside vector tiles',
      '',
      `\`wrk -t1 -c50 -d${durationS}s\` cycling through the paths, same server (2 threads), not pinned. KB per answer: wrk's bytes received (headers included) per request; the rates also differ by what the kernel copies, so the server's CPU per tile (all its threads, from /proc) is the like-for-like figure.`,
      '',
      markdownTable(['tiles', 'paths', 'KB per answer', 'tiles/s', 'p50', 'p99', 'server CPU per tile'], cachedRows, [
        'l',
        'r',
        'r',
        'r',
        'r',
        'r',
        'r',
      ]),
    ]);

    const random = seededRandom(13);
    const staticLatencies: number[] = [];
    for (let i = 0; i < samples * 2; i++) {
      const lon = bounds[0] + random() * (bounds[2] - bounds[0]);
      const lat = bounds[1] + random() * (bounds[3] - bounds[1]);
      const query = `style=${STYLE}&center=${lat},${lon}&zoom=14&size=600x400&markers=${lat},${lon}&path=${lat},${lon}|${lat + 0.003},${lon + 0.004}|${lat + 0.001},${lon + 0.008}`;
      staticLatencies.push(await timedGet(`${base}/staticmap?${query}&key=${key}`));
    }
    staticLatencies.sort((a, b) => a - b);
    sections.push([
      '## Static maps',
      '',
      'Each 600×400 at zoom 14 around a random point of the extract, with one marker and a three-point path, one request at a time (2 threads).',
      '',
      markdownTable(
        ['requests', 'p50', 'p99'],
        [[String(staticLatencies.length), quantileMs(staticLatencies, 0.5), quantileMs(staticLatencies, 0.99)]],
        ['r', 'r', 'r'],
      ),
    ]);
    // Static maps of places never drawn, for the background: the pool stays busy throughout.
    const busy = join(workDir, 'static-maps.lua');
    writeWrkScript(
      busy,
      Array.from({ length: 2000 }, () => {
        const lat = bounds[1] + random() * (bounds[3] - bounds[1]);
        const lon = bounds[0] + random() * (bounds[2] - bounds[0]);
        return `/api/v1/staticmap?style=${STYLE}&center=${lat.toFixed(5)},${lon.toFixed(5)}&zoom=15&size=800x600&key=${key}`;
      }),
    );
    const searches = join(workDir, 'searches.lua');
    writeWrkScript(
      searches,
      ['Hauptstraße 120, Heidelberg', 'Bismarckplatz', 'Im Neuenheimer Feld 371', 'Heidelberger Schloss', 'Bergheimer Straße 58'].map(
        (text) => `/api/v1/geocoding/search?text=${encodeURIComponent(text)}&key=${key}`,
      ),
    );
    const underLoadRows: string[][] = [];
    for (const [name, script] of [
      ['vector tiles', vectorScript],
      ['geocoding search', searches],
    ] as const) {
      const scenarios = await measureTilesUnderLoad(
        { url: `${base}/styles`, connections: 10, durationS, script, headers: { 'Accept-Encoding': 'gzip' } },
        [{ name: 'static maps saturating the pool', wrk: { url: `${base}/styles`, connections: 8, script: busy } }],
        { rounds: 2, warmupS: 2, durationS },
      );
      const [alone, loaded] = scenarios.map((scenario) => medianWrk(scenario.tiles));
      const background = medianWrk(scenarios[1]!.background);
      underLoadRows.push([
        name,
        fmtInt(alone!.rps),
        fmtMs(alone!.p50),
        fmtMs(alone!.p99),
        fmtInt(loaded!.rps),
        fmtMs(loaded!.p50),
        fmtMs(loaded!.p99),
        background.rps.toFixed(1),
      ]);
    }
    sections.push([
      '## The front end while rendering is saturated',
      '',
      `\`wrk -t1 -c10\` on vector tiles (the paths above) and on five geocoding searches, ${durationS} s, median of 2 interleaved rounds, alone and while a second wrk (8 connections) asks for 800×600 static maps of places never drawn.`,
      '',
      markdownTable(
        ['requests', 'alone req/s', 'alone p50', 'alone p99', 'loaded req/s', 'loaded p50', 'loaded p99', 'static maps/s meanwhile'],
        underLoadRows,
        ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
      ),
    ]);
    publishReport('raster', 'Raster tiles and static maps', 'this checkout', sections, [
      "tileserver-gl's raster endpoint is not measured: it needs MapLibre Native, whose npm package downloads its binary from outside the registry.",
    ]);
  } finally {
    for (const child of children) await child.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
