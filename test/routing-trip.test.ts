// Trips on real OSM data (Heidelberg, Monaco and Andorra in one dataset; driving and walking), the
// engine called as the worker calls it and then through a real server: OSRM's trip service
// (/osrm/trip/v1/…) and Waymark's /optimize. A trip over N points is never slower than the order
// given (routed by directions) and, for N ≤ 8, the best order of all permutations, found here by
// brute force on the /matrix durations of the same points; the fixed first and last points and the
// round trip are honoured and the waypoint indexes agree with the legs (12, 25 and 100 points: never
// slower than the order given either, on the table whose cells the legs are); points the network does not
// join are NoTrips; bad inputs are 400s with OSRM's codes (or Waymark's body on /optimize) and cost
// nothing; a trip costs one routing unit.
import test from 'ava';
import { existsSync } from 'node:fs';
import { answerMatrix } from '../workers/routing/answer/matrix.js';
import { DEFAULT_SNAP_RULE } from '../workers/routing/answer/place.js';
import { answerTrip } from '../workers/routing/answer/trip.js';
import type { RoutingGraph } from '../core/routing/graph-file.js';
import { sanitizeOptimize } from '../src/routing/sanitize/optimize.js';
import { call, errorBodyFault, rateLimit, seededRandom, type Answer } from './helpers/http.js';
import { directionsOn, haversine, latLng, type Parsed } from './helpers/routing.js';
import type { TestServer } from './helpers/server.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import { serveRouting, type ServedRouting } from './helpers/routing-server.js';
import { bestOrderTime, orderTime } from './helpers/trips.js';
import type { LonLat } from '../core/geo/types.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const ANDORRA = sharedFile('osm', 'andorra.osm.pbf');
const HEIDELBERG = sharedFile('osm', 'heidelberg.osm.pbf');
const FILES = [MONACO, ANDORRA, HEIDELBERG];
/** Heidelberg's centre, Monaco, and Andorra la Vella: [west, south, east, north]. */
const HEIDELBERG_BOX = [8.66, 49.39, 8.71, 49.42] as const;
const MONACO_BOX = [7.41, 43.727, 7.437, 43.745] as const;
const ANDORRA_BOX = [1.51, 42.5, 1.54, 42.515] as const;

let server: TestServer;
let served: ServedRouting | undefined;
let key: string;
let meteredKey: string;
let driving: RoutingGraph;
let walking: RoutingGraph;

test.before(async () => {
  if (!FILES.every(existsSync)) return;
  served = await serveRouting('routing-trip', FILES, ['driving', 'walking'], [1.41, 42.43, 8.78, 49.45]);
  ({ server, key, meteredKey } = served);
  driving = served.graphs.driving!;
  walking = served.graphs.walking!;
});

test.after.always(() => served?.close());

/** The seven combinations OSRM supports, as query strings (roundtrip=false with neither end fixed is NotImplemented). */
const COMBINATIONS = [
  'roundtrip=true&source=any&destination=any',
  'roundtrip=true&source=first&destination=any',
  'roundtrip=true&source=any&destination=last',
  'roundtrip=true&source=first&destination=last',
  'roundtrip=false&source=first&destination=any',
  'roundtrip=false&source=any&destination=last',
  'roundtrip=false&source=first&destination=last',
];
const endsOf = (combination: string) => {
  const query = new URLSearchParams(combination);
  return {
    roundtrip: query.get('roundtrip') === 'true',
    first: query.get('source') === 'first',
    last: query.get('destination') === 'last',
  };
};

const randomPoints = (random: () => number, [w, s, e, n]: readonly number[], count: number): LonLat[] =>
  Array.from({ length: count }, () => [w! + random() * (e! - w!), s! + random() * (n! - s!)]);

const pointsParam = (points: LonLat[]) => points.map(latLng).join('|');

function parsed(answer: ReturnType<typeof answerTrip>): Parsed {
  return answer.ok ? { ok: true, body: JSON.parse(answer.body) } : answer;
}

/** OSRM's trip body (or /optimize's) on a graph, the query checked as /optimize checks it. */
function tripOn(graph: RoutingGraph, query: string, body: 'osrm' | 'optimize' = 'osrm'): Parsed {
  return parsed(answerTrip(graph, sanitizeOptimize(new URLSearchParams(query)), body));
}

function okTrip(graph: RoutingGraph, query: string, body: 'osrm' | 'optimize' = 'osrm'): any {
  const answer = tripOn(graph, query, body);
  if (!answer.ok) throw new Error(`${query.slice(0, 200)}: ${answer.code} ${answer.message}`);
  return answer.body;
}

/** Seconds between every two points (the /matrix answer; the element limit left aside), null where the network does not join them. */
function durations(graph: RoutingGraph, points: LonLat[]): (number | null)[][] {
  const rules = points.map(() => DEFAULT_SNAP_RULE);
  const answer = answerMatrix(graph, {
    mode: graph.mode,
    sources: points,
    destinations: points,
    annotations: ['duration'],
    sourceRules: rules,
    destinationRules: rules,
    avoid: 0,
  });
  if (!answer.ok) throw new Error(answer.message);
  return JSON.parse(answer.body).durations;
}

/**
 * `count` random points of the box, each of which can be reached from every other (one strongly
 * connected set): twice as many are drawn, and those joined both ways with the best-joined one kept.
 */
function joinedPoints(
  graph: RoutingGraph,
  random: () => number,
  box: readonly number[],
  count: number,
): { points: LonLat[]; table: number[][] } {
  for (;;) {
    const drawn = randomPoints(random, box, 2 * count);
    let table: (number | null)[][];
    try {
      table = durations(graph, drawn);
    } catch {
      continue; // a point with no road within reach: draw again
    }
    const joined = (i: number, j: number) => table[i]![j] !== null && table[j]![i] !== null;
    const reach = drawn.map((_, i) => drawn.filter((_, j) => joined(i, j)).length);
    const anchor = reach.indexOf(Math.max(...reach));
    const kept = drawn
      .map((_, i) => i)
      .filter((i) => joined(anchor, i))
      .slice(0, count);
    if (kept.length === count) return { points: kept.map((i) => drawn[i]!), table: kept.map((i) => kept.map((j) => table[i]![j]!)) };
  }
}

/** The order visited, from OSRM's waypoints: the point at each waypoint_index. */
function visitOrderOf(body: any): number[] {
  const order: number[] = [];
  body.waypoints.forEach((waypoint: any, point: number) => (order[waypoint.waypoint_index] = point));
  return order;
}

/** Seconds of a trip in `order` on the table (and back to its start for a round trip). */
function tableTime(table: number[][], order: readonly number[], roundtrip: boolean): number {
  return orderTime((from, to) => table[from]![to]!, order, roundtrip);
}

/** The least time of every order the trip may take on the table, by brute force over all permutations. */
function bestTableTime(table: number[][], combination: string): number {
  const { roundtrip, first, last } = endsOf(combination);
  return bestOrderTime(table.length, (from, to) => table[from]![to]!, { roundtrip, fixedStart: first, fixedEnd: last });
}

/** Seconds of the route through the points in the order given (and back to the first for a round trip), each leg the fastest on its own as a trip's. */
function givenOrderSeconds(graph: RoutingGraph, points: LonLat[], roundtrip: boolean): number {
  const stops = roundtrip ? [...points, points[0]!] : points;
  const via = stops.slice(1, -1);
  const answer = directionsOn(
    graph,
    `mode=${graph.mode}&origin=${latLng(stops[0]!)}&destination=${latLng(stops.at(-1)!)}${via.length > 0 ? `&waypoints=${pointsParam(via)}` : ''}` +
      '&continue_straight=false&steps=false&overview=false',
  );
  if (!answer.ok) throw new Error(answer.message);
  return answer.body.routes[0].duration;
}

/** Where the trip body says each fixed end is, and that the legs run between the waypoints in the order visited. */
function checkTrip(t: any, body: any, points: LonLat[], combination: string, where: string): void {
  const { roundtrip, first, last } = endsOf(combination);
  const n = points.length;
  t.is(body.code, 'Ok', where);
  t.is(body.trips.length, 1, where);
  t.is(body.waypoints.length, n, where);
  t.true(
    body.waypoints.every((w: any) => w.trips_index === 0),
    where,
  );
  const order = visitOrderOf(body);
  t.deepEqual(
    [...order].sort((a, b) => a - b),
    points.map((_, i) => i),
    `${where}: waypoint indexes are not 0…n-1`,
  );
  const legs = body.trips[0].legs;
  t.is(legs.length, roundtrip ? n : n - 1, where);
  if (first) t.is(order[0], 0, `${where}: does not start at the first point`);
  if (last && (!roundtrip || first)) t.is(order[n - 1], n - 1, `${where}: does not end at the last point`);
  if (last && roundtrip && !first) t.is(order[0], n - 1, `${where}: a round trip to the last point starts there (as OSRM)`);
  // Each leg departs from the waypoint visited at its index and arrives at the next (the first again at a round trip's end).
  const location = (point: number) => body.waypoints[point].location as LonLat;
  legs.forEach((leg: any, k: number) => {
    const depart = leg.steps[0].maneuver;
    const arrive = leg.steps.at(-1).maneuver;
    t.is(depart.type, 'depart', where);
    t.true(haversine(depart.location, location(order[k]!)) < 2, `${where}: leg ${k} departs away from its waypoint`);
    t.true(haversine(arrive.location, location(order[(k + 1) % n]!)) < 2, `${where}: leg ${k} arrives away from the next waypoint`);
  });
  const sum = legs.reduce((total: number, leg: any) => total + leg.duration, 0);
  t.true(Math.abs(sum - body.trips[0].duration) < 0.1 * legs.length + 1e-9, where);
}

dataTest('up to 8 points a trip is the best order of all permutations, never slower than the order given', FILES, (t) => {
  const random = seededRandom(8);
  for (let n = 2; n <= 8; n++) {
    const { points, table } = joinedPoints(driving, random, HEIDELBERG_BOX, n);
    for (const combination of COMBINATIONS) {
      const where = `${n} points, ${combination}`;
      const body = okTrip(driving, `points=${pointsParam(points)}&${combination}&steps=true`);
      checkTrip(t, body, points, combination, where);
      const { roundtrip } = endsOf(combination);
      const order = visitOrderOf(body);
      // On the table: the best of all orders (0.1 s a leg of rounding in the table's seconds).
      const best = bestTableTime(table, combination);
      const chosen = tableTime(table, order, roundtrip);
      t.true(chosen <= best * 1.02 + 0.1 * n, `${where}: ${chosen} s, best ${best} s`);
      // Routed: each leg is the table's, and the whole never slower than the order given.
      t.true(Math.abs(body.trips[0].duration - chosen) <= 0.1 * n, `${where}: legs ${body.trips[0].duration} s, table ${chosen} s`);
      t.true(body.trips[0].duration <= givenOrderSeconds(driving, points, roundtrip) + 0.1 * n, where);
    }
  }
});

dataTest('larger trips (12, 25, 100 points): ends honoured, indexes consistent, never slower than the order given', FILES, (t) => {
  const random = seededRandom(9);
  for (const n of [12, 25, 100]) {
    const { points, table } = joinedPoints(driving, random, HEIDELBERG_BOX, n);
    const given = points.map((_, i) => i);
    for (const combination of n === 100 ? [COMBINATIONS[0]!, COMBINATIONS[6]!] : COMBINATIONS) {
      const where = `${n} points, ${combination}`;
      const { roundtrip } = endsOf(combination);
      const body = okTrip(driving, `points=${pointsParam(points)}&${combination}&steps=true&overview=false`);
      checkTrip(t, body, points, combination, where);
      // The legs are the table's (checked against directions above): the order given, on the table, is what directions would take.
      const chosen = tableTime(table, visitOrderOf(body), roundtrip);
      t.true(Math.abs(body.trips[0].duration - chosen) <= 0.1 * n, `${where}: legs ${body.trips[0].duration} s, table ${chosen} s`);
      t.true(
        chosen <= tableTime(table, given, roundtrip) + 0.1 * n,
        `${where}: ${chosen} s against ${tableTime(table, given, roundtrip)} s`,
      );
    }
  }
});

dataTest('/optimize body: the trip as directions answer it, its waypoints in the order visited, and that order', FILES, (t) => {
  const random = seededRandom(10);
  const { points } = joinedPoints(walking, random, MONACO_BOX, 6);
  for (const combination of [COMBINATIONS[0]!, COMBINATIONS[5]!]) {
    const query = `points=${pointsParam(points)}&mode=walking&${combination}&geometries=geojson`;
    const osrm = okTrip(walking, query);
    const optimize = okTrip(walking, query, 'optimize');
    const order = visitOrderOf(osrm);
    const stops = endsOf(combination).roundtrip ? [...order, order[0]!] : order;
    t.deepEqual(optimize.order, stops, combination);
    t.deepEqual(optimize.routes, osrm.trips, combination);
    t.deepEqual(
      optimize.waypoints,
      stops.map((point) => {
        const { trips_index, waypoint_index, ...waypoint } = osrm.waypoints[point];
        return waypoint;
      }),
      combination,
    );
    t.is(optimize.code, 'Ok');
    t.is(optimize.routes[0].geometry.type, 'LineString');
  }
});

dataTest('points the network does not join are NoTrips; a point far from any road NoSegment', FILES, (t) => {
  const random = seededRandom(11);
  const monaco = joinedPoints(driving, random, MONACO_BOX, 3).points;
  const andorra = joinedPoints(driving, random, ANDORRA_BOX, 2).points;
  const apart = tripOn(driving, `points=${pointsParam([...monaco, ...andorra])}`);
  t.false(apart.ok);
  if (!apart.ok) {
    t.is(apart.code, 'NoTrips');
    t.regex(apart.message, /no trip visits every point: the driving road network does not lead from points\[\d\] to points\[\d\]/);
  }
  const sea = tripOn(driving, `points=${pointsParam([...monaco, [7.5, 43.6]])}`);
  t.false(sea.ok);
  if (!sea.ok) {
    t.is(sea.code, 'NoSegment');
    t.regex(sea.message, /no road for driving within 2000 m of points\[3\]/);
  }
});

// Through a real server.

const coords = (points: LonLat[]) => points.map(([lon, lat]) => `${lon},${lat}`).join(';');
const get = (pathAndQuery: string, apiKey = key): Promise<Answer> =>
  call(`${server.url}${pathAndQuery}${pathAndQuery.includes('?') ? '&' : '?'}key=${apiKey}`);
const ok = async (pathAndQuery: string): Promise<any> => {
  const answer = await get(pathAndQuery);
  if (answer.status !== 200) throw new Error(`${pathAndQuery}: ${answer.status} ${answer.text}`);
  return answer.body;
};
async function refusal(t: any, pathAndQuery: string, status: number, code: string | undefined, named: RegExp): Promise<void> {
  const answer = await get(pathAndQuery);
  t.is(answer.status, status, `${pathAndQuery}: ${answer.text}`);
  t.is(errorBodyFault(answer), null, pathAndQuery);
  t.is(answer.body?.code, code, `${pathAndQuery}: ${answer.text}`);
  t.regex(answer.body?.message ?? '', named, pathAndQuery);
}

dataTest('HTTP: OSRM trip and /optimize answer the engine, under /api/v1 and /v1, with .json, skip_waypoints', FILES, async (t) => {
  const random = seededRandom(12);
  const { points } = joinedPoints(driving, random, HEIDELBERG_BOX, 7);
  // Hints left out to compare with the engine, which is asked without OSRM's extras.
  const osrm = await ok(
    `/api/v1/osrm/trip/v1/driving/${coords(points)}?source=first&roundtrip=false&steps=true&geometries=polyline6&generate_hints=false`,
  );
  t.deepEqual(osrm, okTrip(driving, `points=${pointsParam(points)}&source=first&roundtrip=false&steps=true&geometries=polyline6`));
  checkTrip(t, osrm, points, 'roundtrip=false&source=first&destination=any', 'HTTP');
  t.deepEqual(
    await ok(
      `/v1/osrm/trip/v1/driving/${coords(points)}.json?source=first&roundtrip=false&steps=true&geometries=polyline6&generate_hints=false`,
    ),
    osrm,
  );
  // OSRM's defaults: a round trip from any point (as directions, steps are on unless steps=false).
  const plain = await ok(`/api/v1/osrm/trip/v1/driving/${encodeURIComponent(coords(points))}`);
  t.is(plain.trips[0].legs.length, 7);
  t.true(plain.trips[0].legs[0].steps.length > 0);
  const { waypoints, ...rest } = plain;
  t.deepEqual(await ok(`/api/v1/osrm/trip/v1/driving/${coords(points)}?skip_waypoints=true`), rest);
  t.is(waypoints.length, 7);
  // Options it takes as the route service does (bearings and radiuses `;`-separated), continue_straight taken and without effect.
  const options = await ok(
    `/api/v1/osrm/trip/v1/driving/${coords(points)}?overview=false&steps=false&radiuses=${Array(7).fill('unlimited').join(';')}` +
      '&continue_straight=true&hints=;;;;;;&generate_hints=false&annotations=false',
  );
  t.false('geometry' in options.trips[0]);
  t.is(options.trips[0].duration, plain.trips[0].duration);
  const optimize = await ok(`/api/v1/optimize?points=${pointsParam(points)}&destination=last&roundtrip=false`);
  t.deepEqual(optimize, okTrip(driving, `points=${pointsParam(points)}&destination=last&roundtrip=false`, 'optimize'));
  t.is(optimize.order.at(-1), 6);
  t.is(optimize.order.length, 7);
  t.deepEqual(await ok(`/v1/optimize?points=${pointsParam(points)}&destination=last&roundtrip=false`), optimize);
});

dataTest('HTTP: bad inputs are 400s (OSRM codes on the OSRM path), unroutable ones NoTrips / NoSegment', FILES, async (t) => {
  const random = seededRandom(13);
  const { points } = joinedPoints(driving, random, MONACO_BOX, 4);
  const trip = `/api/v1/osrm/trip/v1/driving/${coords(points)}`;
  await refusal(t, `${trip}?roundtrip=false`, 400, 'NotImplemented', /not supported.*source=first or destination=last/);
  await refusal(t, `${trip}?roundtrip=false&source=any&destination=any`, 400, 'NotImplemented', /not supported/);
  await refusal(t, `/api/v1/osrm/trip/v1/driving/${coords(Array(101).fill(points[0]))}`, 400, 'TooBig', /at most 100/);
  // As OSRM: an unsupported combination is told before the size.
  await refusal(
    t,
    `/api/v1/osrm/trip/v1/driving/${coords(Array(101).fill(points[0]))}?roundtrip=false`,
    400,
    'NotImplemented',
    /not supported/,
  );
  await refusal(t, `/api/v1/osrm/trip/v1/driving/${coords([points[0]!])}`, 400, 'InvalidOptions', /at least two coordinates/);
  await refusal(t, `/api/v1/osrm/trip/v1/driving/${coords([points[0]!])}?roundtrip=false`, 400, 'InvalidOptions', /at least two/);
  await refusal(t, `${trip}?roundtrip=yes`, 400, 'InvalidValue', /'roundtrip': 'yes' is not true or false/);
  await refusal(t, `${trip}?source=last`, 400, 'InvalidValue', /'source': 'last' is not one of any, first/);
  await refusal(t, `${trip}?destination=first`, 400, 'InvalidValue', /'destination': 'first' is not one of any, last/);
  await refusal(t, `${trip}?steps=maybe`, 400, 'InvalidValue', /'steps'/);
  await refusal(t, `${trip}?continue_straight=yes`, 400, 'InvalidValue', /'continue_straight'/);
  await refusal(
    t,
    `${trip}?bearings=0,20`,
    400,
    'InvalidOptions',
    /Number of elements in bearings size 1 does not match coordinate size 4/,
  );
  await refusal(t, `${trip}?annotations=node`, 400, 'InvalidValue', /'annotations': 'node'/);
  // As on route: each leg annotated, one entry per piece of its line, summing to the leg.
  for (const leg of (await ok(`${trip}?annotations=true&overview=false&steps=false`)).trips[0].legs) {
    t.is(leg.annotation.distance.length, leg.annotation.speed.length);
    const sum = leg.annotation.duration.reduce((a: number, b: number) => a + b, 0);
    t.true(Math.abs(sum - leg.duration) < 0.2, `${sum} s for ${leg.duration} s`);
  }
  await refusal(t, `${trip}?alternatives=true`, 400, 'InvalidQuery', /'alternatives'/);
  await refusal(t, `${trip}?roundtrip=true&roundtrip=false`, 400, 'InvalidQuery', /'roundtrip'/);
  await refusal(t, `${trip}?exclude=highway`, 400, 'InvalidValue', /^Exclude flag combination is not supported/);
  t.is((await ok(`${trip}?exclude=motorway,ferry`)).code, 'Ok');
  await refusal(t, `${trip}?waypoints=0;3`, 400, 'InvalidQuery', /'waypoints'/);
  await refusal(t, `/api/v1/osrm/trip/v1/flying/${coords(points)}`, 400, 'InvalidUrl', /profile 'flying'/);
  await refusal(
    t,
    `/api/v1/osrm/trip/v1/driving/${coords(points)};7.5,43.6`,
    400,
    'NoSegment',
    /no road for driving within 2000 m of points\[4\]/,
  );
  const andorra = joinedPoints(driving, random, ANDORRA_BOX, 1).points;
  await refusal(t, `/api/v1/osrm/trip/v1/driving/${coords([...points, ...andorra])}`, 400, 'NoTrips', /no trip visits every point/);

  const optimize = `/api/v1/optimize?points=${pointsParam(points)}`;
  await refusal(t, '/api/v1/optimize?mode=driving', 400, undefined, /missing parameter 'points'/);
  await refusal(t, `/api/v1/optimize?points=${latLng(points[0]!)}`, 400, undefined, /'points': at least 2 positions/);
  await refusal(t, `/api/v1/optimize?points=${pointsParam(Array(101).fill(points[0]))}`, 400, undefined, /'points': at most 100 values/);
  await refusal(t, `/api/v1/optimize?points=${latLng(points[0]!)}|x`, 400, undefined, /'points\[1\]': 'x' is not a position/);
  await refusal(
    t,
    `${optimize}&roundtrip=false`,
    400,
    undefined,
    /'roundtrip', 'source' and 'destination'.*source=first or destination=last/,
  );
  await refusal(t, `${optimize}&source=any&destination=last&mode=flying`, 400, undefined, /'mode': 'flying'/);
  await refusal(t, `${optimize}&source=first&source=any`, 400, undefined, /'source': it can only be given once/);
  await refusal(t, `${optimize}&radiuses=1|2`, 400, undefined, /'radiuses': 2 entries for 4 points; give one per point \(points\)/);
  await refusal(t, `/api/v1/optimize?points=${pointsParam([...points, ...andorra])}`, 422, 'NoTrips', /no trip visits every point/);
  await refusal(t, `/api/v1/optimize?points=${pointsParam(points)}|43.6,7.5`, 422, 'NoSegment', /points\[4\]/);
});

dataTest(
  'HTTP metering: a trip is one routing unit whatever its size; a refused one costs nothing',
  FILES,
  async (t) => {
    const random = seededRandom(14);
    const { points } = joinedPoints(driving, random, MONACO_BOX, 30);
    const remaining = async (pathAndQuery: string, status = 200): Promise<number> => {
      const answer = await get(pathAndQuery, meteredKey);
      t.is(answer.status, status, answer.text);
      const left = rateLimit(answer.headers).remaining;
      return left === null ? NaN : Number(left);
    };
    const start = await remaining(`/api/v1/osrm/trip/v1/driving/${coords(points.slice(0, 3))}`);
    const afterBig = await remaining(`/api/v1/osrm/trip/v1/driving/${coords(points)}`);
    t.is(start - afterBig, 1);
    const afterOptimize = await remaining(`/api/v1/optimize?points=${pointsParam(points)}`);
    t.is(afterBig - afterOptimize, 1);
    // Refused before metering: no rate-limit headers; an unroutable answer releases its unit.
    t.true(Number.isNaN(await remaining(`/api/v1/optimize?points=${pointsParam(points)}&roundtrip=false`, 400)));
    t.true(Number.isNaN(await remaining(`/api/v1/osrm/trip/v1/driving/${coords(points)}?roundtrip=false`, 400)));
    t.is(await remaining(`/api/v1/optimize?points=${pointsParam(points.slice(0, 3))}|43.6,7.5`, 422), afterOptimize);
    t.is(afterOptimize - (await remaining(`/api/v1/optimize?points=${pointsParam(points.slice(0, 2))}`)), 1);
  },
  true,
);
