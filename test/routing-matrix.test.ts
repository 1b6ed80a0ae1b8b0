// The matrix (/matrix, many-to-many on the contraction hierarchy) on real OSM extracts: Monaco and
// Andorra in one driving graph. Every cell of a random matrix equals the point-to-point directions'
// duration and distance (or is null exactly where directions say NoRoute, e.g. Monaco → Andorra);
// through HTTP the body lists snapped waypoints as directions do, a request is metered one routing
// unit per started 100 elements, more than 10,000 elements is a 400 that costs nothing, and fuzzed
// parameters answer a uniform 400 or a 200, never a 500.
import test from 'ava';
import { existsSync } from 'node:fs';
import { answerMatrix } from '../workers/routing/answer/matrix.js';
import type { RoutingGraph } from '../core/routing/graph-file.js';
import { MAX_MATRIX_ELEMENTS, matrixUnits, sanitizeMatrix } from '../src/routing/sanitize/matrix.js';
import { ApiError } from '../src/http/errors.js';
import { assertError, call, errorBodyFault, hostileUrlValue, pick, rateLimit, seededRandom, type Answer } from './helpers/http.js';
import { directionsOn, latLng } from './helpers/routing.js';
import type { TestServer } from './helpers/server.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import { serveRouting, type ServedRouting } from './helpers/routing-server.js';
import type { LonLat } from '../core/geo/types.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const ANDORRA = sharedFile('osm', 'andorra.osm.pbf');
const FILES = [MONACO, ANDORRA];

let server: TestServer;
let served: ServedRouting | undefined;
let key: string;
/** A key of its own for the metering test, which reads the quota left: other tests run at the same time. */
let meteredKey: string;
let graph: RoutingGraph;

test.before(async () => {
  if (!FILES.every(existsSync)) return;
  served = await serveRouting('routing-matrix', FILES, ['driving'], [1.41, 42.43, 7.491, 43.77]);
  ({ server, key, meteredKey } = served);
  graph = served.graphs.driving!;
});

test.after.always(() => served?.close());

/** Random points on land in Monaco and its French edge, and a few in Andorra (another network of the same graph). */
function randomPoints(seed: number, monaco: number, andorra: number): LonLat[] {
  const random = seededRandom(seed);
  const inBox = ([w, s, e, n]: number[]): LonLat => [w! + random() * (e! - w!), s! + random() * (n! - s!)];
  return [
    ...Array.from({ length: monaco }, () => inBox([7.405, 43.725, 7.44, 43.75])),
    ...Array.from({ length: andorra }, () => inBox([1.5, 42.49, 1.55, 42.55])),
  ];
}

const matrixQuery = (sources: LonLat[], destinations: LonLat[], extra = '') =>
  `sources=${sources.map(latLng).join('|')}&destinations=${destinations.map(latLng).join('|')}${extra}`;

function matrixOn(query: string): any {
  const answer = answerMatrix(graph, sanitizeMatrix(new URLSearchParams(query)));
  if (!answer.ok) throw new Error(`${answer.code}: ${answer.message}`);
  return JSON.parse(answer.body);
}

const get = (path: string, query: string, apiKey = key): Promise<Answer> => call(`${server.url}${path}?${query}&key=${apiKey}`);

dataTest('every cell equals point-to-point directions; null exactly where directions say NoRoute', FILES, (t) => {
  const sources = randomPoints(1, 22, 3);
  const destinations = randomPoints(2, 18, 2);
  const body = matrixOn(matrixQuery(sources, destinations));
  t.is(body.code, 'Ok');
  t.is(body.durations.length, sources.length);
  t.is(body.distances[0].length, destinations.length);
  let routed = 0;
  let unreachable = 0;
  sources.forEach((from, i) => {
    destinations.forEach((to, j) => {
      const directions = directionsOn(graph, `origin=${latLng(from)}&destination=${latLng(to)}&steps=false&overview=false`);
      const [duration, distance] = [body.durations[i][j], body.distances[i][j]];
      if (!directions.ok) {
        t.is(directions.code, 'NoRoute', directions.message);
        if (duration !== null || distance !== null) t.fail(`cell ${i},${j}: directions say NoRoute, the matrix ${duration} s`);
        unreachable++;
        return;
      }
      const route = directions.body.routes[0];
      // Both are rounded to 0.1; the sums differ only by float rounding, so at most one step.
      if (Math.abs(duration - route.duration) > 0.1001 || Math.abs(distance - route.distance) > 0.1001) {
        t.fail(`cell ${i},${j}: matrix ${duration} s ${distance} m, directions ${route.duration} s ${route.distance} m`);
      }
      routed++;
    });
  });
  // Monaco ↔ Andorra pairs (3 × 18 + 22 × 2 at least) are unreachable; most others are routed.
  t.true(unreachable >= 3 * 18 + 22 * 2, `${unreachable} unreachable cells`);
  t.true(routed > 300, `${routed} routed cells`);
});

dataTest('annotations pick the tables; a point given as source and destination is 0 to itself', FILES, (t) => {
  const points = randomPoints(3, 4, 0);
  const durationsOnly = matrixOn(matrixQuery(points, points, '&annotations=duration'));
  t.deepEqual(Object.keys(durationsOnly).sort(), ['code', 'destinations', 'durations', 'sources']);
  const distancesOnly = matrixOn(matrixQuery(points, points, '&annotations=distance'));
  t.deepEqual(Object.keys(distancesOnly).sort(), ['code', 'destinations', 'distances', 'sources']);
  points.forEach((_, i) => t.is(durationsOnly.durations[i][i], 0));
  points.forEach((_, i) => t.is(distancesOnly.distances[i][i], 0));
});

dataTest(
  "source_/destination_ bearings and radiuses, and snapping, place each point as directions' bearings and radiuses do",
  FILES,
  (t) => {
    const [a, b, c] = randomPoints(6, 3, 0) as [LonLat, LonLat, LonLat];
    for (const [bearings, radiuses] of [
      ['90,90|', '|500'],
      ['|270,90', 'unlimited|'],
    ] as const) {
      const matrix = matrixOn(
        matrixQuery([a, b], [c], `&source_bearings=${bearings}&source_radiuses=${radiuses}&destination_bearings=0,180&snapping=any`),
      );
      for (const [i, source] of [a, b].entries()) {
        const [bearing, radius] = [bearings.split('|')[i], radiuses.split('|')[i]];
        const directions = directionsOn(
          graph,
          `origin=${latLng(source)}&destination=${latLng(c)}&bearings=${bearing}|0,180&radiuses=${radius}|&snapping=any`,
        );
        if (!directions.ok) throw new Error(directions.message);
        t.deepEqual(matrix.sources[i], directions.body.waypoints[0]);
        t.deepEqual(matrix.destinations[0], directions.body.waypoints[1]);
        t.is(matrix.durations[i][0], directions.body.routes[0].duration);
      }
    }
    const tooNear = answerMatrix(graph, sanitizeMatrix(new URLSearchParams(matrixQuery([a], [c], '&destination_radiuses=0'))));
    t.true(!tooNear.ok && tooNear.code === 'NoSegment' && /within 0 m of destinations\[0\]/.test(tooNear.message));
  },
);

dataTest('HTTP: the body lists snapped waypoints as directions do, under /api/v1 and /v1', FILES, async (t) => {
  const [a, b, c] = randomPoints(4, 3, 0) as [LonLat, LonLat, LonLat];
  const matrix = await get('/api/v1/matrix', matrixQuery([a, b], [c]));
  t.is(matrix.status, 200, matrix.text);
  t.is(matrix.headers.get('content-type'), 'application/json');
  const directions = await get('/api/v1/directions', `origin=${latLng(a)}&destination=${latLng(c)}`);
  t.is(directions.status, 200);
  t.deepEqual(matrix.body.sources[0], directions.body.waypoints[0]);
  t.deepEqual(matrix.body.destinations[0], directions.body.waypoints[1]);
  t.is(matrix.body.durations[0][0], directions.body.routes[0].duration);
  const short = await get('/v1/matrix', matrixQuery([a, b], [c]));
  t.deepEqual(short.body, matrix.body);
});

dataTest('HTTP: one routing unit per started 100 elements, reserved up front; a refused request costs nothing', FILES, async (t) => {
  const points = randomPoints(5, 20, 0);
  const many = Array.from({ length: 101 }, (_, i) => points[i % points.length]!);
  const remaining = async (query: string): Promise<number> => {
    const answer = await get('/api/v1/matrix', query, meteredKey);
    t.is(answer.status, 200, answer.text);
    return Number(rateLimit(answer.headers).remaining);
  };
  const start = await remaining(matrixQuery(points.slice(0, 1), points.slice(0, 1))); // 1 element: 1 unit
  const after100 = await remaining(matrixQuery(points.slice(0, 10), points.slice(0, 10))); // 100: 1 unit
  t.is(start - after100, 1);
  const after101 = await remaining(matrixQuery(points.slice(0, 1), many)); // 1 × 101: 2 units
  t.is(after100 - after101, 2);
  const after400 = await remaining(matrixQuery(points, points)); // 400: 4 units
  t.is(after101 - after400, 4);
  // 101 × 100 elements: refused before metering, naming the limit.
  const refused = await get('/api/v1/matrix', matrixQuery(many, many.slice(0, 100)), meteredKey);
  t.regex(assertError(t, refused, 400), new RegExp(`10100.*limit is ${MAX_MATRIX_ELEMENTS}`));
  const afterRefused = await remaining(matrixQuery(points.slice(0, 1), points.slice(0, 1)));
  t.is(after400 - afterRefused, 1);
  t.deepEqual([1, 100, 101, 10_000].map(matrixUnits), [1, 1, 2, 100]);
});

dataTest('HTTP: a point far from any road is a 422 NoSegment naming it', FILES, async (t) => {
  // Out in the Gulf of Lion, within the dataset's bounds (farther out is a 400: routing-coverage.test.ts).
  const answer = await get('/api/v1/matrix', matrixQuery([[7.42, 43.735]], [[5.0, 43.0]]));
  t.regex(assertError(t, answer, 422), /destinations\[0\]/);
  t.is(answer.body.code, 'NoSegment');
});

test('parameter checks: each bad input is a 400 naming its parameter', (t) => {
  const refusal = (query: string): string => {
    try {
      sanitizeMatrix(new URLSearchParams(query));
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 400) return error.message;
      throw error;
    }
    return t.fail(`accepted ${query}`) as never;
  };
  const ok = 'sources=43.73,7.42&destinations=43.74,7.43';
  t.regex(refusal('destinations=43.74,7.43'), /missing parameter 'sources'/);
  t.regex(refusal('sources=43.73,7.42'), /missing parameter 'destinations'/);
  t.regex(refusal('sources=43.73,7.42|x&destinations=43.74,7.43'), /'sources\[1\]'/);
  t.regex(refusal('sources=43.73,7.42&destinations=91,7.43'), /destinations\[0\] latitude/);
  t.regex(refusal(`${ok}&annotations=speed`), /'annotations'.*'speed' is not one of duration, distance/);
  t.regex(refusal(`${ok}&annotations=duration,duration`), /'annotations'.*more than once/);
  t.regex(refusal(`${ok}&mode=flying`), /'mode'/);
  t.regex(refusal(`${ok}&source_bearings=90,10|`), /'source_bearings': 2 entries for 1 points; give one per point \(sources\)/);
  t.regex(refusal(`${ok}&destination_bearings=90`), /'destination_bearings': '90'/);
  t.regex(refusal(`${ok}&source_radiuses=-3`), /'source_radiuses': '-3'/);
  t.regex(refusal(`${ok}&destination_radiuses=1|2`), /'destination_radiuses': 2 entries/);
  t.regex(refusal(`${ok}&snapping=all`), /'snapping'/);
  t.regex(refusal(`${ok}&sources=43.7,7.4`), /'sources'.*only be given once/);
  const hundredOne = Array(101).fill('43.73,7.42').join('|');
  t.regex(refusal(`sources=${hundredOne}&destinations=${Array(100).fill('43.73,7.42').join('|')}`), /10100.*limit is 10000/);
  t.notThrows(() =>
    sanitizeMatrix(
      new URLSearchParams(`sources=${Array(100).fill('43.73,7.42').join('|')}&destinations=${Array(100).fill('43.73,7.42').join('|')}`),
    ),
  );
});

dataTest('fuzz over HTTP: hostile parameter values answer a uniform 400 or a 200, never a 500', FILES, async (t) => {
  const random = seededRandom(14);
  const valid: Record<string, string> = {
    sources: '43.73,7.42|43.74,7.43',
    destinations: '43.735,7.425',
    mode: 'driving',
    annotations: 'duration,distance',
    source_bearings: '90,45|',
    source_radiuses: 'unlimited|100',
    destination_bearings: '0,180',
    destination_radiuses: '50',
    snapping: 'any',
  };
  for (let i = 0; i < 60; i++) {
    const name = pick(random, Object.keys(valid));
    const query = Object.entries(valid)
      .map(([k, v]) => `${k}=${k === name ? hostileUrlValue(random, v) : encodeURIComponent(v)}`)
      .join('&');
    const answer = await call(`${server.url}/api/v1/matrix?${query}&key=${key}`);
    if (answer.status === 200) continue;
    t.true([400, 414, 422, 431].includes(answer.status), `${answer.status} for ${name}: ${answer.text.slice(0, 200)}`);
    if (answer.status === 400 || answer.status === 422) t.is(errorBodyFault(answer), null);
  }
});
