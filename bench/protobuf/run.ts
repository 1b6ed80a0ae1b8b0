/**
 * Issue 14's protobuf benchmark, on Heidelberg imported into a fresh data folder, through
 * `waymark serve` (the full gateway, an Enterprise key): for each endpoint, one request as JSON
 * and as protobuf (`format=pbf`), its body size, then `wrk -t1 -c4` on each format for a few
 * seconds with the server's CPU seconds per request (bench/lib/cpu.ts). Both bodies are checked
 * to be 200s before measuring.
 *
 *   npm run bench:protobuf [-- --duration 3]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import type { ServerChild } from '../lib/child.js';
import { measureCpu } from '../lib/cpu.js';
import { describeSource, fmtInt, fmtPct, fmtUs, markdownTable, publishReport } from '../lib/report.js';
import { runWrk } from '../lib/wrk.js';
import { createEnterpriseKey, importArgs, startWaymarkServe } from '../maps/waymark.js';

const HEIDELBERG = join(PACKAGE_ROOT, '..', 'shared', 'data', 'osm', 'heidelberg.osm.pbf');
const BISMARCKPLATZ = '49.4095652,8.6932299';
const HAUPTBAHNHOF = '49.4034737,8.6754223';
const ALTSTADT = '49.4152352,8.7208818';

/** A 10×10 grid of points around the centre, `lat,lng|…`. */
const GRID = Array.from({ length: 10 }, (_, i) => `${(49.395 + 0.003 * i).toFixed(4)},${(8.665 + 0.005 * i).toFixed(4)}`).join('|');

const CASES: { name: string; path: string; query: string }[] = [
  {
    name: 'directions (polyline, steps)',
    path: '/directions',
    query: `origin=${BISMARCKPLATZ}&destination=${ALTSTADT}&waypoints=${HAUPTBAHNHOF}&steps=true`,
  },
  {
    name: 'directions (GeoJSON, steps)',
    path: '/directions',
    query: `origin=${BISMARCKPLATZ}&destination=${ALTSTADT}&steps=true&geometries=geojson`,
  },
  { name: 'isochrone (5, 10 min)', path: '/isochrone', query: `center=${BISMARCKPLATZ}&time=5,10` },
  { name: 'matrix 10×10', path: '/matrix', query: `sources=${GRID}&destinations=${GRID}` },
  { name: 'geocoding search', path: '/geocoding/search', query: 'text=Hauptstra%C3%9Fe%2010' },
  { name: 'geocoding autocomplete', path: '/geocoding/autocomplete', query: 'text=Bismarckpl' },
  { name: 'geocoding structured', path: '/geocoding/search/structured', query: 'address=Hauptstra%C3%9Fe%2010&locality=Heidelberg' },
  { name: 'geocoding reverse', path: '/geocoding/reverse', query: 'point.lat=49.4095&point.lon=8.6932&size=10' },
];

async function bodyBytes(url: string): Promise<number> {
  const response = await fetch(url);
  const body = await response.arrayBuffer();
  if (response.status !== 200)
    throw new Error(`${url.replace(/key=[^&]+/, 'key=…')} answered ${response.status}: ${Buffer.from(body).toString()}`);
  return body.byteLength;
}

/** wrk on `url`: requests per second and the server's CPU per request. */
async function load(server: ServerChild, url: string, durationS: number): Promise<{ rps: number; cpuPerRequest: number }> {
  const { value: wrk, processSeconds } = await measureCpu(server.pid, undefined, () =>
    runWrk({ url, connections: 4, threads: 1, durationS }),
  );
  if (wrk.non2xx > 0) throw new Error(`${wrk.non2xx} non-2xx answers from ${url.replace(/key=[^&]+/, 'key=…')}`);
  return { rps: wrk.requestsPerSec, cpuPerRequest: (processSeconds ?? NaN) / wrk.requests };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { duration: { type: 'string', default: '3' } } });
  const durationS = Number(values.duration);
  const source = describeSource();
  const workDir = mkdtempSync(join(tmpdir(), 'waymark-bench-protobuf-'));
  let server: ServerChild | undefined;
  try {
    const dataDir = join(workDir, 'data');
    console.error('importing Heidelberg…');
    const imported = spawnSync(process.execPath, importArgs(HEIDELBERG, dataDir), { stdio: ['ignore', 'ignore', 'inherit'] });
    if (imported.status !== 0) throw new Error('waymark import failed');
    const key = createEnterpriseKey(dataDir, ['routing', 'geocoding']);
    server = await startWaymarkServe(dataDir, undefined);
    const base = `http://127.0.0.1:${server.port}/api/v1`;
    const rows: string[][] = [];
    for (const { name, path, query } of CASES) {
      const json = `${base}${path}?${query}&key=${key}`;
      const pbf = `${json}&format=pbf`;
      const [jsonBytes, pbfBytes] = [await bodyBytes(json), await bodyBytes(pbf)];
      const jsonLoad = await load(server, json, durationS);
      const pbfLoad = await load(server, pbf, durationS);
      rows.push([
        name,
        fmtInt(jsonBytes),
        fmtInt(pbfBytes),
        fmtPct(pbfBytes / jsonBytes),
        fmtUs(jsonLoad.cpuPerRequest),
        fmtUs(pbfLoad.cpuPerRequest),
        fmtInt(jsonLoad.rps),
        fmtInt(pbfLoad.rps),
      ]);
      console.error(`${name}: ${jsonBytes} B → ${pbfBytes} B, CPU ${fmtUs(jsonLoad.cpuPerRequest)} → ${fmtUs(pbfLoad.cpuPerRequest)}`);
    }
    publishReport('protobuf', 'Protobuf bodies against JSON', source, [
      [
        '## Body size and server CPU per request',
        '',
        `Heidelberg, driving; \`wrk -t1 -c4\` for ${durationS} s per format; CPU: the \`waymark serve\` process (main thread and routing workers) over the run, divided by the requests. Bodies uncompressed.`,
        '',
        markdownTable(
          [
            'endpoint',
            'JSON bytes',
            'protobuf bytes',
            'protobuf / JSON',
            'CPU/request JSON',
            'CPU/request protobuf',
            'req/s JSON',
            'req/s protobuf',
          ],
          rows,
          ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
        ),
      ],
    ]);
  } finally {
    await server?.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
