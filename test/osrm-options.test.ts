// OSRM's request options on route, table and nearest, through a real server on real Monaco data:
// approaches (curb: arrive and depart with the point on the right-hand side), bearings, radiuses and
// snapping on table and nearest as on route, route annotations (one entry per piece of the leg's
// line, summing to the leg, and an OSM node id per point), hints (returned per waypoint, a round
// trip gives the same answer, a foreign or stale one is ignored), nearest `number`, and route
// `waypoints` (via points).
import test from 'ava';
import { existsSync } from 'node:fs';
import { call, type Answer } from './helpers/http.js';
import type { LonLat } from '../core/geo/types.js';
import type { TestServer } from './helpers/server.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import { serveRouting, type ServedRouting } from './helpers/routing-server.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const FILES = [MONACO];

let server: TestServer;
let served: ServedRouting | undefined;
let key: string;

test.before(async () => {
  if (!existsSync(MONACO)) return;
  served = await serveRouting('osrm-options', FILES, ['driving', 'walking'], [7.4, 43.72, 7.44, 43.76]);
  ({ server, key } = served);
});

test.after.always(() => served?.close());

const CASINO: LonLat = [7.4276, 43.7394];
const FONTVIEILLE: LonLat = [7.4154, 43.7302];
const PORT: LonLat = [7.4222, 43.7352];
const LARVOTTO: LonLat = [7.4357, 43.7445];
/** 14 m off Quai Albert 1er, a two-way road by the port: arriving from the casino, the fastest way stops across the road from it. */
const QUAI: LonLat = [7.4225, 43.734];
const coords = (points: LonLat[]) => points.map(([lon, lat]) => `${lon},${lat}`).join(';');

const get = (pathAndQuery: string): Promise<Answer> =>
  call(`${server.url}${pathAndQuery}${pathAndQuery.includes('?') ? '&' : '?'}key=${key}`);
const ok = async (pathAndQuery: string): Promise<any> => {
  const answer = await get(pathAndQuery);
  if (answer.status !== 200) throw new Error(`${pathAndQuery}: ${answer.status} ${answer.text}`);
  return answer.body;
};
const route = (mode: string, points: LonLat[], query = '') => ok(`/api/v1/osrm/route/v1/${mode}/${coords(points)}?${query}`);

/** Whether `p` lies right of the line from `a` to `b` (a flat frame is enough for the sign). */
function rightOf(a: LonLat, b: LonLat, p: LonLat): boolean {
  const k = Math.cos((a[1] * Math.PI) / 180);
  return (b[0] - a[0]) * k * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) * k < 0;
}

/** The route's first and last pieces (geometries=geojson, overview=full). */
function ends(body: any): { first: [LonLat, LonLat]; last: [LonLat, LonLat] } {
  const line: LonLat[] = body.routes[0].geometry.coordinates;
  return { first: [line[0]!, line[1]!], last: [line[line.length - 2]!, line[line.length - 1]!] };
}

dataTest('approaches=curb arrives and departs with the point on the right, opposite on the left, at a cost', FILES, async (t) => {
  const full = 'overview=full&geometries=geojson';
  const free = await route('driving', [CASINO, QUAI], full);
  const curb = await route('driving', [CASINO, QUAI], `${full}&approaches=unrestricted;curb`);
  const opposite = await route('driving', [CASINO, QUAI], `${full}&approaches=;opposite`);
  // The fastest way arrives with the point on its left: across the road.
  t.false(rightOf(...ends(free).last, QUAI));
  t.true(rightOf(...ends(curb).last, QUAI));
  t.false(rightOf(...ends(opposite).last, QUAI));
  // Kerb side means going round: longer, and the same place.
  t.true(curb.routes[0].duration > free.routes[0].duration + 10, `${curb.routes[0].duration} vs ${free.routes[0].duration}`);
  t.deepEqual(curb.waypoints[1].location, free.waypoints[1].location);
  t.deepEqual(opposite.routes[0].duration, free.routes[0].duration);
  // Departing from the quai: curb leaves with it on the right, opposite with it on the left.
  const leaving = await route('driving', [QUAI, LARVOTTO], `${full}&approaches=curb;`);
  t.true(rightOf(...ends(leaving).first, QUAI));
  const leavingOpposite = await route('driving', [QUAI, LARVOTTO], `${full}&approaches=opposite;`);
  t.false(rightOf(...ends(leavingOpposite).first, QUAI));
  // The table takes the same approaches: its durations are the routes'.
  const table = await ok(`/api/v1/osrm/table/v1/driving/${coords([CASINO, QUAI])}?sources=0&destinations=1&approaches=;curb`);
  t.true(Math.abs(table.durations[0][0] - curb.routes[0].duration) <= 0.2, `${table.durations[0][0]} vs ${curb.routes[0].duration}`);
  const freeTable = await ok(`/api/v1/osrm/table/v1/driving/${coords([CASINO, QUAI])}?sources=0&destinations=1`);
  t.true(Math.abs(freeTable.durations[0][0] - free.routes[0].duration) <= 0.2);
});

dataTest('table and nearest take bearings, radiuses and snapping as route does', FILES, async (t) => {
  // A bearing at the destination (heading west along the quai, then east) changes the table's durations as it changes the route's.
  const durations: number[] = [];
  for (const bearing of ['270,45', '90,45']) {
    const routed = await route('driving', [CASINO, QUAI], `bearings=;${bearing}`);
    durations.push(routed.routes[0].duration);
    const table = await ok(`/api/v1/osrm/table/v1/driving/${coords([CASINO, QUAI])}?sources=0&destinations=1&bearings=;${bearing}`);
    t.true(
      Math.abs(table.durations[0][0] - routed.routes[0].duration) <= 0.2,
      `${bearing}: ${table.durations[0][0]} vs ${routed.routes[0].duration}`,
    );
    const nearest = await ok(`/api/v1/osrm/nearest/v1/driving/${QUAI[0]},${QUAI[1]}?bearings=${bearing}`);
    t.deepEqual(nearest.waypoints[0].location, routed.waypoints[1].location);
  }
  // Arriving heading west is not arriving heading east.
  t.not(durations[0], durations[1]);
  // The casino point is 19.5 m from its road: within 1 m nothing.
  const tooNear = await get(`/api/v1/osrm/table/v1/driving/${coords([CASINO, QUAI])}?radiuses=1;`);
  t.is(tooNear.status, 400);
  t.is(tooNear.body.code, 'NoSegment');
  t.regex(tooNear.body.message, /within 1 m of sources\[0\]/);
  t.is((await get(`/api/v1/osrm/nearest/v1/driving/${CASINO[0]},${CASINO[1]}?radiuses=1`)).body.code, 'NoSegment');
  t.is((await get(`/api/v1/osrm/nearest/v1/driving/${CASINO[0]},${CASINO[1]}?radiuses=unlimited&snapping=any`)).status, 200);
});

dataTest('nearest number: that many nearest pieces of road, nearest first', FILES, async (t) => {
  const one = await ok(`/api/v1/osrm/nearest/v1/driving/${PORT[0]},${PORT[1]}`);
  t.is(one.waypoints.length, 1);
  for (const number of [5, 100]) {
    const many = await ok(`/api/v1/osrm/nearest/v1/driving/${PORT[0]},${PORT[1]}?number=${number}`);
    t.is(many.waypoints.length, number);
    const distances: number[] = many.waypoints.map((w: any) => w.distance);
    t.deepEqual(
      distances,
      [...distances].sort((a, b) => a - b),
    );
    t.is(distances[0], one.waypoints[0].distance);
    // Distinct pieces: no two answers share a hint (a hint names its segment and piece).
    t.is(new Set(many.waypoints.map((w: any) => w.hint)).size, number);
  }
  const westward = await ok(`/api/v1/osrm/nearest/v1/walking/${PORT[0]},${PORT[1]}?number=10&bearings=270,30&generate_hints=false`);
  t.is(westward.waypoints.length, 10);
  t.false(westward.waypoints.some((w: any) => 'hint' in w));
});

dataTest('annotations: one entry per piece of each leg, summing to the leg', FILES, async (t) => {
  const body = await route('driving', [CASINO, PORT, LARVOTTO], 'annotations=true&overview=full&geometries=geojson');
  const [best] = body.routes;
  let pieces = 0;
  for (const leg of best.legs) {
    const { annotation } = leg;
    t.deepEqual(Object.keys(annotation).sort(), ['datasources', 'distance', 'duration', 'metadata', 'nodes', 'speed', 'weight']);
    const count = annotation.distance.length;
    for (const name of ['duration', 'speed', 'weight', 'datasources']) t.is(annotation[name].length, count, name);
    // One OSM node id per point of the leg's line, every point of an OSM import having one.
    t.is(annotation.nodes.length, count + 1);
    t.true(annotation.nodes.every((id: number) => Number.isInteger(id) && id > 0));
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    // Each entry to the thousandth, the leg to the tenth.
    t.true(Math.abs(sum(annotation.distance) - leg.distance) <= 0.05 + 0.0005 * count, `${sum(annotation.distance)} vs ${leg.distance}`);
    t.true(Math.abs(sum(annotation.duration) - leg.duration) <= 0.05 + 0.0005 * count, `${sum(annotation.duration)} vs ${leg.duration}`);
    t.deepEqual(annotation.weight, annotation.duration);
    t.true(annotation.datasources.every((source: number) => source === 0));
    t.deepEqual(annotation.metadata, { datasource_names: ['lua profile'] });
    annotation.speed.forEach((speed: number, k: number) => {
      // Speeds are of the unrounded figures: compared where rounding does not matter.
      const ratio = annotation.distance[k] / annotation.duration[k];
      if (annotation.duration[k] > 1) t.true(Math.abs(speed - ratio) <= 0.1 + 0.01 * ratio, `speed ${k}: ${speed} vs ${ratio}`);
      t.true(speed >= 0 && speed < 60, `speed ${k}: ${speed}`);
    });
    pieces += count;
  }
  // The legs' pieces are the route line's: its points less one.
  t.is(pieces, best.geometry.coordinates.length - 1);
  const some = await route('walking', [CASINO, PORT], 'annotations=distance,speed');
  t.deepEqual(Object.keys(some.routes[0].legs[0].annotation).sort(), ['distance', 'speed']);
  t.false('annotation' in (await route('walking', [CASINO, PORT], 'annotations=false')).routes[0].legs[0]);
  t.false('annotation' in (await route('walking', [CASINO, PORT])).routes[0].legs[0]);
});

dataTest('hints: a round trip gives the same answer; a foreign or stale hint is ignored; generate_hints=false', FILES, async (t) => {
  const points = [CASINO, QUAI];
  const plain = await route('driving', points, 'approaches=;curb&steps=true');
  const hints: string[] = plain.waypoints.map((w: any) => w.hint);
  t.true(hints.every((hint) => /^[A-Za-z0-9_-]+$/.test(hint)));
  const hinted = `hints=${hints.join(';')}`;
  t.deepEqual(await route('driving', points, `approaches=;curb&steps=true&${hinted}`), plain);
  // A matching hint places the point without a search, so the radius is not searched either (as OSRM).
  t.deepEqual(await route('driving', points, `approaches=;curb&steps=true&${hinted}&radiuses=1;1`), plain);
  t.is((await get(`/api/v1/osrm/route/v1/driving/${coords(points)}?radiuses=1;1`)).body.code, 'NoSegment');
  // A hint of another graph (walking), of another coordinate, or one hint empty: each ignored.
  const walkingHints = (await route('walking', points)).waypoints.map((w: any) => w.hint);
  const foreign = [`hints=${walkingHints.join(';')}`, `hints=${[...hints].reverse().join(';')}`, `hints=AAAA;${hints[1]}`];
  for (const query of foreign) {
    t.deepEqual(await route('driving', points, `approaches=;curb&steps=true&${query}`), plain, query);
    t.is((await get(`/api/v1/osrm/route/v1/driving/${coords(points)}?${query}&radiuses=1;unlimited`)).body.code, 'NoSegment', query);
  }
  t.deepEqual(await route('driving', points, `approaches=;curb&steps=true&hints=;${hints[1]}`), plain);
  // A hint with any byte changed (segment, piece, position, count, check) answers as OSRM would: the same route, another snap, or an OSRM error, never a 500.
  const bytes = Buffer.from(hints[0]!, 'base64url');
  for (let i = 0; i < bytes.length; i++) {
    for (const value of [0, 0xff, bytes[i]! ^ 0x01]) {
      const mutated = Buffer.from(bytes);
      mutated[i] = value;
      const answer = await get(`/api/v1/osrm/route/v1/driving/${coords(points)}?snapping=any&hints=${mutated.toString('base64url')};`);
      t.true(
        answer.status === 200 || (answer.status === 400 && typeof answer.body.code === 'string'),
        `byte ${i} = ${value}: ${answer.text}`,
      );
    }
  }
  t.false((await route('driving', points, 'generate_hints=false')).waypoints.some((w: any) => 'hint' in w));
  // Table and nearest answer hints too, and take them back.
  const table = await ok(`/api/v1/osrm/table/v1/driving/${coords([CASINO, PORT, LARVOTTO])}`);
  const tableHints = table.sources.map((w: any) => w.hint).join(';');
  t.deepEqual(table.destinations.map((w: any) => w.hint).join(';'), tableHints);
  t.deepEqual(await ok(`/api/v1/osrm/table/v1/driving/${coords([CASINO, PORT, LARVOTTO])}?hints=${tableHints}`), table);
  const nearest = await ok(`/api/v1/osrm/nearest/v1/driving/${PORT[0]},${PORT[1]}`);
  t.deepEqual(await ok(`/api/v1/osrm/nearest/v1/driving/${PORT[0]},${PORT[1]}?hints=${nearest.waypoints[0].hint}`), nearest);
  t.deepEqual(nearest.waypoints[0].hint, (await route('driving', [PORT, CASINO])).waypoints[0].hint);
});

dataTest('waypoints: the coordinates left out are via points, passed through without ending a leg', FILES, async (t) => {
  const points = [CASINO, PORT, FONTVIEILLE];
  const legs = await route('driving', points, 'steps=true&annotations=duration');
  const via = await route('driving', points, 'steps=true&annotations=duration&waypoints=0;2');
  t.is(legs.routes[0].legs.length, 2);
  t.is(via.routes[0].legs.length, 1);
  t.deepEqual(
    via.waypoints.map((w: any) => w.location),
    [legs.waypoints[0].location, legs.waypoints[2].location],
  );
  t.true(Math.abs(via.routes[0].distance - legs.routes[0].distance) <= 0.1);
  t.true(Math.abs(via.routes[0].duration - legs.routes[0].duration) <= 0.1);
  t.is(via.routes[0].geometry, legs.routes[0].geometry);
  const types = via.routes[0].legs[0].steps.map((step: any) => step.maneuver.type);
  t.is(types.filter((type: string) => type === 'arrive').length, 1);
  t.is(types.filter((type: string) => type === 'depart').length, 1);
  const [first, second] = legs.routes[0].legs;
  t.is(via.routes[0].legs[0].annotation.duration.length, first.annotation.duration.length + second.annotation.duration.length);
  // All of them waypoints: the plain route.
  t.deepEqual(await route('driving', points, 'steps=true&annotations=duration&waypoints=0;1;2'), legs);
});
