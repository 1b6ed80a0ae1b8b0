// OSM node ids through OSRM's services, on a small OSM network whose node ids (beyond 2^32) are
// known, imported and served for real: route, match and trip `annotations=nodes` (one id per point of
// each leg's line, the ends of the pieces a start or end inside one lies on), nearest's `nodes` (in
// OSRM v6's order), and match tracepoint hints (present by default, absent with generate_hints=false,
// placing the point again when sent back to route).
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { snapOfHint } from '../workers/routing/graph/hint.js';
import { call, type Answer } from './helpers/http.js';
import type { LonLat } from '../core/geo/types.js';
import { serveRouting, type ServedRouting } from './helpers/routing-server.js';

/** Node ids past 2^32, so a 32-bit store of them would show. */
const BASE = 10_000_000_000;
/** Way 1 (two-way primary, west to east along lat 48): node k at lon 8 + k / 1000, id BASE + k. */
const mainNode = (k: number) => BASE + k;
const MAIN_NODES = [0, 1, 2, 3, 4, 5].map(mainNode);
/** Way 2 (two-way) goes north from main node 2; way 3 (one-way) east along lat 48.002 and back down to main node 4. */
const NORTH = [BASE + 11, BASE + 12];
const ONEWAY = [BASE + 12, BASE + 22, BASE + 23, BASE + 24, mainNode(4)];

const OSM = `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6" generator="waymark test">
  ${MAIN_NODES.map((id, k) => `<node id="${id}" lat="48.0" lon="${8 + k / 1000}" version="1"/>`).join('\n  ')}
  <node id="${BASE + 11}" lat="48.001" lon="8.002" version="1"/>
  <node id="${BASE + 12}" lat="48.002" lon="8.002" version="1"/>
  <node id="${BASE + 22}" lat="48.002" lon="8.003" version="1"/>
  <node id="${BASE + 23}" lat="48.002" lon="8.004" version="1"/>
  <node id="${BASE + 24}" lat="48.001" lon="8.004" version="1"/>
  <way id="1" version="1">
    ${MAIN_NODES.map((id) => `<nd ref="${id}"/>`).join('')}
    <tag k="highway" v="primary"/><tag k="name" v="Hauptstraße"/>
  </way>
  <way id="2" version="1">
    <nd ref="${mainNode(2)}"/>${NORTH.map((id) => `<nd ref="${id}"/>`).join('')}
    <tag k="highway" v="residential"/><tag k="name" v="Nordweg"/>
  </way>
  <way id="3" version="1">
    ${ONEWAY.map((id) => `<nd ref="${id}"/>`).join('')}
    <tag k="highway" v="residential"/><tag k="oneway" v="yes"/><tag k="name" v="Schleife"/>
  </way>
</osm>
`;
const KNOWN_IDS = new Set([...MAIN_NODES, ...NORTH, ...ONEWAY]);

let dir = '';
let served: ServedRouting;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-osrm-nodes-'));
  const file = join(dir, 'nodes.osm');
  writeFileSync(file, OSM);
  served = await serveRouting('osrm-nodes', [file], ['driving'], [7.99, 47.99, 8.01, 48.01]);
});

test.after.always(async () => {
  await served?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A point 3 m north of way 1 at `lon`. */
const onMain = (lon: number): LonLat => [lon, 48.00003];
const coords = (points: LonLat[]) => points.map(([lon, lat]) => `${lon},${lat}`).join(';');
const get = (pathAndQuery: string): Promise<Answer> =>
  call(`${served.server.url}${pathAndQuery}${pathAndQuery.includes('?') ? '&' : '?'}key=${served.key}`);
const ok = async (pathAndQuery: string): Promise<any> => {
  const answer = await get(pathAndQuery);
  if (answer.status !== 200) throw new Error(`${pathAndQuery}: ${answer.status} ${answer.text}`);
  return answer.body;
};

/** Way 1's node ids a leg from `from` to `to` (both inside pieces of it) lists: the piece ends around each, and every node between. */
function mainNodesBetween(from: number, to: number): number[] {
  const [a, b] = [(from - 8) * 1000, (to - 8) * 1000];
  const ks: number[] = [];
  if (a < b) for (let k = Math.floor(a); k <= Math.ceil(b); k++) ks.push(k);
  else for (let k = Math.ceil(a); k >= Math.floor(b); k--) ks.push(k);
  return ks.map(mainNode);
}

test('route annotations=nodes: the OSM id of every point travelled, the piece ends around a start and end inside pieces', async (t) => {
  const route = (points: LonLat[], query: string) => ok(`/api/v1/osrm/route/v1/driving/${coords(points)}?${query}`);
  for (const [from, to] of [
    [0.0005, 0.0045],
    [0.0045, 0.0005],
    [0.0013, 0.0018],
  ] as const) {
    const body = await route([onMain(8 + from), onMain(8 + to)], 'annotations=nodes,distance&overview=full&geometries=geojson');
    const [leg] = body.routes[0].legs;
    t.deepEqual(leg.annotation.nodes, mainNodesBetween(8 + from, 8 + to), `${from} → ${to}`);
    // One id per point of the line: the pieces' entries and one more.
    t.is(leg.annotation.nodes.length, leg.annotation.distance.length + 1);
    t.is(leg.annotation.nodes.length, body.routes[0].geometry.coordinates.length);
  }
  // A start exactly at a node names that node (OSRM would add a piece of no length from the node behind it).
  const atNode = await route([[8.001, 48], onMain(8.0045)], 'annotations=nodes');
  t.deepEqual(atNode.routes[0].legs[0].annotation.nodes, [1, 2, 3, 4, 5].map(mainNode));
  // annotations=true has nodes too, as OSRM's; a via point that ends no leg joins two legs' ids.
  const all = await route([onMain(8.0005), onMain(8.0025), onMain(8.0045)], 'annotations=true&waypoints=0;2');
  const [leg] = all.routes[0].legs;
  // The via point is a point of the line too: it keeps the id the leg arriving there gave it (the piece's end ahead).
  t.deepEqual(leg.annotation.nodes, [...mainNodesBetween(8.0005, 8.0025), ...mainNodesBetween(8.0025, 8.0045).slice(1)]);
  t.is(leg.annotation.nodes.length, leg.annotation.speed.length + 1);
  // Round the loop: way 1, north on way 2, the one-way back down; ids exact past 2^32.
  const loop = await route([onMain(8.0015), [8.004, 48.0015]], 'annotations=nodes');
  t.deepEqual(loop.routes[0].legs[0].annotation.nodes, [mainNode(1), mainNode(2), ...NORTH, BASE + 22, BASE + 23, BASE + 24]);
});

test('match annotations=nodes per leg, and a hint per tracepoint unless generate_hints=false', async (t) => {
  const lons = [8.0004, 8.0013, 8.0026, 8.0034, 8.0046];
  const trace = coords(lons.map(onMain));
  const body = await ok(`/api/v1/osrm/match/v1/driving/${trace}?annotations=nodes,duration&radiuses=${lons.map(() => 10).join(';')}`);
  t.is(body.matchings.length, 1);
  body.matchings[0].legs.forEach((leg: any, i: number) => {
    t.deepEqual(leg.annotation.nodes, mainNodesBetween(lons[i]!, lons[i + 1]!), `leg ${i}`);
    t.is(leg.annotation.nodes.length, leg.annotation.duration.length + 1);
  });
  for (const tracepoint of body.tracepoints) t.regex(tracepoint.hint, /^[A-Za-z0-9_-]+$/);
  const hintless = await ok(`/api/v1/osrm/match/v1/driving/${trace}?generate_hints=false`);
  for (const tracepoint of hintless.tracepoints) t.false('hint' in tracepoint);
  // Waymark's own /match has no hints, as /directions.
  const own = await ok(`/api/v1/match?points=${lons.map((lon) => `48.00003,${lon}`).join('|')}`);
  for (const tracepoint of own.tracepoints) t.false('hint' in tracepoint);

  // A tracepoint's hint places its point again: decoded here, and sent back to route.
  const first = body.tracepoints[0];
  const last = body.tracepoints[lons.length - 1];
  const graph = served.graphs.driving!;
  const [lon0, lat0] = onMain(lons[0]!);
  t.deepEqual(
    snapOfHint(graph, first.hint, lon0, lat0, {})?.location.map((x) => Math.round(x * 1e6) / 1e6),
    first.location,
  );
  const routed = await ok(
    `/api/v1/osrm/route/v1/driving/${coords([onMain(lons[0]!), onMain(lons[lons.length - 1]!)])}?hints=${first.hint};${last.hint}`,
  );
  t.deepEqual(
    routed.waypoints.map((w: any) => w.location),
    [first.location, last.location],
  );
  t.deepEqual(
    routed.waypoints.map((w: any) => w.hint),
    [first.hint, last.hint],
  );
});

test('trip annotations=nodes: each leg one known id per point', async (t) => {
  const points = [onMain(8.0005), onMain(8.0045), [8.00203, 48.0015] as LonLat];
  const body = await ok(`/api/v1/osrm/trip/v1/driving/${coords(points)}?annotations=nodes,distance`);
  t.is(body.trips[0].legs.length, 3);
  for (const leg of body.trips[0].legs) {
    t.is(leg.annotation.nodes.length, leg.annotation.distance.length + 1);
    for (const id of leg.annotation.nodes) t.true(KNOWN_IDS.has(id), `${id}`);
  }
});

test("nearest nodes: the snapped piece's ends in OSRM's order, 0 for a direction a bearing closed", async (t) => {
  const nodes = async (point: LonLat, query = '') =>
    (await ok(`/api/v1/osrm/nearest/v1/driving/${coords([point])}?${query}`)).waypoints.map((w: any) => w.nodes);
  // A two-way road: [the piece's far end, its near end] in the way's direction.
  t.deepEqual(await nodes(onMain(8.0005)), [[mainNode(1), mainNode(0)]]);
  // Heading along the way only: [the point before the piece, its start], at the first piece its two ends.
  t.deepEqual(await nodes(onMain(8.0005), 'bearings=90,20'), [[mainNode(0), mainNode(1)]]);
  t.deepEqual(await nodes(onMain(8.0015), 'bearings=90,20'), [[mainNode(0), mainNode(1)]]);
  // Heading against it only: [the far end, 0].
  t.deepEqual(await nodes(onMain(8.0015), 'bearings=270,20'), [[mainNode(2), 0]]);
  // A one-way road, as OSRM: [the point before the piece, its start].
  t.deepEqual(await nodes([8.0035, 48.00203]), [[BASE + 12, BASE + 22]]);
  // Several roads: each its own pair.
  const many = await nodes([8.00203, 48.0001], 'number=2');
  t.is(many.length, 2);
  for (const pair of many) for (const id of pair) t.true(id === 0 || KNOWN_IDS.has(id), `${id}`);
});

test('annotations with odd values are refused with a 400, never a 500', async (t) => {
  const route = `/api/v1/osrm/route/v1/driving/${coords([onMain(8.0005), onMain(8.0045)])}`;
  for (const value of ['nodes,nodes', 'node', 'NODES', '', ',', 'nodes,', 'true,nodes', 'nodes;duration', '%00', 'nodes%2Cnodes']) {
    const answer = await get(`${route}?annotations=${value}`);
    t.is(answer.status, 400, `${value}: ${answer.text}`);
    t.is(answer.body?.code, 'InvalidValue', `${value}: ${answer.text}`);
  }
});
