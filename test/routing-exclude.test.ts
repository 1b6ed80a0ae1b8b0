// Excluding road classes (OSRM's `exclude=motorway,toll,ferry`, Waymark's `avoid=motorways,tolls,ferries`)
// on real OSM extracts: Heidelberg (the A5 and A656, foot and bicycle ferries over the Neckar; its
// walking graph keeps a core, so the overlay is cut from it),
// Monaco (the A8 and its tolls, a ferry), Andorra (toll roads). For random pairs and
// every class and combination a mode has, the engine's route never enters a road of an excluded
// class and takes as long as a plain Dijkstra on the uncontracted edge-based graph that skips them;
// snapping passes excluded roads by; routes with via points and alternatives travel no piece the OSM
// tags themselves (read with osmium, not through the profiles) put in an excluded class;
// /directions, /matrix and OSRM's route and table through a real
// server answer the same; bad values are a 400 naming the parameter (OSRM paths: InvalidValue).
import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXCLUDABLE_CLASSES, ROAD_CLASSES, classMask, type RoadClass, type TravelMode } from '../core/routing/network.js';
import { IMPASSABLE, classesOfNode, originalNode } from '../core/routing/graph-format.js';
import { readRoadNetworks } from '../data-pipeline/routing/osm-network.js';
import { answerDirections } from '../workers/routing/answer/directions.js';
import { answerMatrix } from '../workers/routing/answer/matrix.js';
import { pathThrough, searchHierarchy } from '../workers/routing/graph/ch-search.js';
import { endpointOfSnap, targetOfSnap } from '../workers/routing/graph/endpoint.js';
import { excluding } from '../workers/routing/graph/exclude.js';
import type { RoutingGraph } from '../core/routing/graph-file.js';
import { snap, type Snap } from '../workers/routing/graph/snap.js';
import { workspaceOf } from '../workers/routing/graph/workspace.js';
import { avoidWordOf } from '../src/routing/sanitize/avoid.js';
import { sanitizeDirections } from '../src/routing/sanitize/endpoints.js';
import { sanitizeMatrix } from '../src/routing/sanitize/matrix.js';
import { ApiError } from '../src/http/errors.js';
import { call, errorBodyFault, seededRandom, type Answer } from './helpers/http.js';
import { directionsOn, graphOf, latLng, openGraph, referenceDeciseconds, writeRoutingDataset } from './helpers/routing.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import type { LonLat } from '../core/geo/types.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const ANDORRA = sharedFile('osm', 'andorra.osm.pbf');
const HEIDELBERG = sharedFile('osm', 'heidelberg.osm.pbf');
const FILES = [MONACO, ANDORRA, HEIDELBERG];

/** Where random points are drawn: [west, south, east, north]. */
const BOXES = {
  monaco: [7.4, 43.72, 7.46, 43.76],
  andorra: [1.45, 42.45, 1.75, 42.6],
  // The city and the A5 and A656 west of it.
  heidelberg: [8.5, 49.33, 8.78, 49.5],
} as const;
type Region = keyof typeof BOXES;

let server: TestServer;
let dataDir: string;
let key: string;
const graphs = new Map<string, RoutingGraph>();

test.before(async () => {
  if (!FILES.every(existsSync)) return;
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-routing-exclude-'));
  const monacoDir = await writeRoutingDataset(dataDir, [MONACO], ['driving', 'walking', 'cycling'], [7.4, 43.72, 7.46, 43.76]);
  for (const mode of ['driving', 'walking', 'cycling'] as const) graphs.set(`monaco ${mode}`, openGraph(monacoDir, mode));
  const andorra = await readRoadNetworks([ANDORRA], () => {});
  graphs.set('andorra driving', graphOf(andorra.driving, join(dataDir, 'andorra-driving.graph')));
  const heidelberg = await readRoadNetworks([HEIDELBERG], () => {});
  graphs.set('heidelberg driving', graphOf(heidelberg.driving, join(dataDir, 'heidelberg-driving.graph')));
  graphs.set('heidelberg cycling', graphOf(heidelberg.cycling, join(dataDir, 'heidelberg-cycling.graph')));
  // Its contraction stops at the degree limit before the ferries come up: the overlay is the core's edges to and from them.
  graphs.set('heidelberg walking', graphOf(heidelberg.walking, join(dataDir, 'heidelberg-walking.graph')));
  server = await startTestServer({ dataDir });
  const account = await server.signUp();
  await server.store.setTier(account.orgId, 'pro');
  key = (await server.createKey(account)).value;
});

test.after.always(async () => {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Every non-empty set of the classes a mode may exclude. */
function combinations(mode: TravelMode): RoadClass[][] {
  const classes = EXCLUDABLE_CLASSES[mode];
  const sets: RoadClass[][] = [];
  for (let bits = 1; bits < 1 << classes.length; bits++) sets.push(classes.filter((_, i) => (bits >> i) & 1));
  return sets;
}

function randomPoint(random: () => number, region: Region): LonLat {
  const [west, south, east, north] = BOXES[region];
  return [west + random() * (east - west), south + random() * (north - south)];
}

/** The nodes of the engine's fastest path on `view`, or null. */
function enginePath(view: RoutingGraph, from: Snap, to: Snap): number[] | null {
  const workspace = workspaceOf(view);
  const meeting = searchHierarchy(view, workspace, endpointOfSnap(view, from), targetOfSnap(view, to));
  return meeting ? pathThrough(view, workspace, meeting.node, meeting.loopEdge).nodes : null;
}

const CASES: [string, Region, TravelMode][] = [
  ['heidelberg driving', 'heidelberg', 'driving'],
  ['heidelberg cycling', 'heidelberg', 'cycling'],
  ['heidelberg walking', 'heidelberg', 'walking'],
  ['monaco driving', 'monaco', 'driving'],
  ['monaco walking', 'monaco', 'walking'],
  ['andorra driving', 'andorra', 'driving'],
];
const PAIRS = 150;

for (const [name, region, mode] of CASES) {
  dataTest(
    `${name}: with each class and combination excluded, ${PAIRS} random routes never use one and take as long as a Dijkstra that skips them`,
    FILES,
    (t) => {
      const graph = graphs.get(name)!;
      for (const classes of combinations(mode)) {
        const mask = classMask(classes);
        const view = excluding(graph, mask);
        const random = seededRandom(mask * 7919 + 17);
        let routed = 0;
        let detours = 0;
        let mismatches = 0;
        for (let i = 0; i < PAIRS; i++) {
          const [a, b] = [randomPoint(random, region), randomPoint(random, region)];
          const from = snap(view, a[0], a[1], 2000);
          const to = snap(view, b[0], b[1], 2000);
          if (!from || !to) continue;
          const context = `${name} exclude=${classes.join(',')} ${a} → ${b}`;
          for (const s of [from, to]) {
            // Never on a road all of whose directions are excluded; only on directions that are not.
            const passable = [2 * s.segment, 2 * s.segment + 1].filter((node) => graph.nodeWeight[node] !== IMPASSABLE);
            t.false(
              passable.every((node) => (classesOfNode(graph.segmentClasses, node) & mask) !== 0),
              `${context}: snapped onto an excluded road`,
            );
            t.true(
              endpointOfSnap(view, s).nodes.every((node) => (classesOfNode(graph.segmentClasses, node) & mask) === 0),
              context,
            );
          }
          const reference = referenceDeciseconds(graph, from, to, mask);
          const path = enginePath(view, from, to);
          const answer = directionsOn(
            graph,
            `origin=${latLng(a)}&destination=${latLng(b)}&mode=${mode}&avoid=${classes.map(avoidWordOf).join(',')}&steps=false&overview=false`,
          );
          if (path === null) {
            t.is(reference, Infinity, `${context}: no path, but a Dijkstra finds ${reference / 10} s`);
            t.false(answer.ok, context);
            continue;
          }
          routed++;
          const excludedOnPath = path.filter((node) => (classesOfNode(graph.segmentClasses, originalNode(graph, node)) & mask) !== 0);
          t.deepEqual(excludedOnPath, [], `${context}: the route enters excluded nodes`);
          t.true(answer.ok, context);
          const duration = answer.ok ? answer.body.routes[0].duration * 10 : NaN;
          const same = Math.abs(duration - reference) <= 2 + 0.002 * reference;
          if (!same) mismatches++;
          t.true(same, `${context}: ${duration / 10} s, a Dijkstra skipping the classes finds ${reference / 10} s`);
          if (referenceDeciseconds(graph, from, to) < reference) detours++;
        }
        t.log(`${name} exclude=${classes.join(',')}: ${routed} routed, ${detours} longer than without the exclusion`);
        t.is(mismatches, 0);
        t.true(routed > PAIRS / 4, `${name} exclude=${classes.join(',')}: most pairs routable`);
      }
    },
  );
}

dataTest('each class is on some fastest routes without the exclusion (the exclusion is not vacuous)', FILES, (t) => {
  const expected: [string, Region, RoadClass][] = [
    ['heidelberg driving', 'heidelberg', 'motorway'],
    ['monaco walking', 'monaco', 'ferry'],
    ['monaco driving', 'monaco', 'motorway'],
    // Monaco's tolls (the A8's toll gates, above the town) are on no fastest route within it.
    ['andorra driving', 'andorra', 'toll'],
  ];
  for (const [name, region, roadClass] of expected) {
    const graph = graphs.get(name)!;
    const mask = classMask([roadClass]);
    const random = seededRandom(99);
    let using = 0;
    for (let i = 0; i < 2000 && using === 0; i++) {
      const [a, b] = [randomPoint(random, region), randomPoint(random, region)];
      const from = snap(graph, a[0], a[1], 2000);
      const to = snap(graph, b[0], b[1], 2000);
      const path = from && to ? enginePath(graph, from, to) : null;
      if (path?.some((node) => (classesOfNode(graph.segmentClasses, originalNode(graph, node)) & mask) !== 0)) using++;
    }
    t.true(using > 0, `${name}: no fastest route uses a ${roadClass} road`);
  }
});

/**
 * The road classes (ROAD_CLASSES bits) of each directed piece "a>b" between consecutive OSM nodes of
 * the extract's ways, from their OSM tags as OSRM v6's car.lua classes them (WayHandlers.classes:
 * highway=motorway and motorway_link, toll / toll:forward / toll:backward = yes, route=ferry), read
 * with osmium: a check that does not go through Waymark's profiles or graph.
 */
function osmClassPieces(file: string): Map<string, number> {
  const filter = ['w/highway=motorway,motorway_link', 'w/toll', 'w/toll:forward', 'w/toll:backward', 'w/route=ferry'];
  const opl = spawnSync('osmium', ['tags-filter', file, ...filter, '-R', '-f', 'opl', '-o', '-'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (opl.status !== 0) throw new Error(`osmium tags-filter: ${opl.stderr}`);
  const [motorway, toll, ferry] = (['motorway', 'toll', 'ferry'] as const).map((name) => classMask([name]));
  const pieces = new Map<string, number>();
  for (const line of opl.stdout.split('\n')) {
    if (!line.startsWith('w')) continue;
    const tags = new Map((/ T(\S*)/.exec(line)?.[1] ?? '').split(',').map((pair) => pair.split('=') as [string, string]));
    const nodes = (/ N(\S*)/.exec(line)?.[1] ?? '').split(',').map((ref) => ref.slice(1));
    const highway = tags.get('highway');
    const both = (highway === 'motorway' || highway === 'motorway_link' ? motorway! : 0) | (tags.get('route') === 'ferry' ? ferry! : 0);
    const tollOf = (direction: string) => ((tags.get(`toll:${direction}`) ?? tags.get('toll')) === 'yes' ? toll! : 0);
    const [forward, backward] = [both | tollOf('forward'), both | tollOf('backward')];
    for (let k = 1; k < nodes.length; k++) {
      const [a, b] = [nodes[k - 1], nodes[k]];
      pieces.set(`${a}>${b}`, (pieces.get(`${a}>${b}`) ?? 0) | forward);
      pieces.set(`${b}>${a}`, (pieces.get(`${b}>${a}`) ?? 0) | backward);
    }
  }
  return pieces;
}

dataTest(
  'driving with each class and combination excluded: 100 random routes (via points, alternatives) per region never travel a piece OSM tags put in one',
  FILES,
  (t) => {
    for (const [name, region, file] of [
      ['monaco driving', 'monaco', MONACO],
      ['andorra driving', 'andorra', ANDORRA],
      ['heidelberg driving', 'heidelberg', HEIDELBERG],
    ] as const) {
      const graph = graphs.get(name)!;
      const classed = osmClassPieces(file);
      // Most points drawn near the classed roads (within ~1 km), the others anywhere in the box.
      const classedNodes = new Set([...classed.keys()].flatMap((piece) => piece.split('>')));
      const near: LonLat[] = [];
      for (let p = 0; p < graph.pointNodeId.length; p++)
        if (classedNodes.has(String(graph.pointNodeId[p])))
          near.push([graph.coordinates[2 * p]! * 1e-7, graph.coordinates[2 * p + 1]! * 1e-7]);
      for (const classes of combinations('driving')) {
        const mask = classMask(classes);
        const random = seededRandom(34 + mask);
        const draw = (): LonLat => {
          if (random() < 0.4) return randomPoint(random, region);
          const [lon, lat] = near[Math.floor(random() * near.length)]!;
          return [lon + (random() - 0.5) * 0.02, lat + (random() - 0.5) * 0.015];
        };
        let routes = 0;
        let excludedBefore = 0;
        for (let i = 0; i < 100; i++) {
          const points = Array.from({ length: 2 + Math.floor(random() * 3) }, draw);
          const via = points.slice(1, -1);
          const query =
            `origin=${latLng(points[0]!)}&destination=${latLng(points.at(-1)!)}${via.length > 0 ? `&waypoints=${via.map(latLng).join('|')}` : ''}` +
            `&avoid=${classes.map(avoidWordOf).join(',')}&alternatives=2&steps=false&overview=false`;
          const answer = answerDirections(graph, { ...sanitizeDirections(new URLSearchParams(query)).params, annotations: ['nodes'] });
          if (!answer.ok) continue;
          for (const route of JSON.parse(answer.body).routes) {
            routes++;
            for (const leg of route.legs) {
              const nodes: number[] = leg.annotation.nodes;
              const travelled = nodes.slice(1).map((b, k) => `${nodes[k]}>${b}`);
              const onClass = travelled.filter((piece) => ((classed.get(piece) ?? 0) & mask) !== 0);
              t.deepEqual(onClass, [], `${name} exclude=${classes.join(',')} ${JSON.stringify(points)}`);
            }
          }
          const plain = answerDirections(graph, {
            ...sanitizeDirections(new URLSearchParams(query.replace(/&avoid=[^&]*/, ''))).params,
            annotations: ['nodes'],
          });
          if (plain.ok) {
            const nodes: number[] = JSON.parse(plain.body).routes[0].legs.flatMap((leg: any) => leg.annotation.nodes);
            if (nodes.slice(1).some((b, k) => ((classed.get(`${nodes[k]}>${b}`) ?? 0) & mask) !== 0)) excludedBefore++;
          }
        }
        t.log(
          `${name} exclude=${classes.join(',')}: ${routes} routes, ${excludedBefore} of the fastest without the exclusion use the class`,
        );
        t.true(routes >= 30, `${name} exclude=${classes.join(',')}: ${routes} routes`);
      }
    }
  },
);

dataTest('the matrix with avoid equals the Dijkstra that skips the classes, cell by cell', FILES, (t) => {
  const graph = graphs.get('heidelberg driving')!;
  const view = excluding(graph, classMask(['motorway']));
  const random = seededRandom(5);
  const points: LonLat[] = [];
  while (points.length < 8) {
    const point = randomPoint(random, 'heidelberg');
    if (snap(view, point[0], point[1], 2000)) points.push(point);
  }
  const params = sanitizeMatrix(
    new URLSearchParams({ sources: points.map(latLng).join('|'), destinations: points.map(latLng).join('|'), avoid: 'motorways' }),
  );
  const answer = answerMatrix(graph, params);
  t.true(answer.ok);
  const body = JSON.parse((answer as { body: string }).body);
  const snaps = points.map(([lon, lat]) => snap(view, lon, lat, 2000)!);
  snaps.forEach((from, i) =>
    snaps.forEach((to, j) => {
      const reference = referenceDeciseconds(graph, from, to, classMask(['motorway']));
      const cell = body.durations[i][j];
      if (reference === Infinity) t.is(cell, null);
      else t.true(Math.abs(cell * 10 - reference) <= 2 + 0.002 * reference, `${i} → ${j}: ${cell} s, Dijkstra ${reference / 10} s`);
    }),
  );
});

test('avoid: unknown, repeated and empty classes, and a class the mode lacks, are 400s naming the parameter', (t) => {
  const base = 'origin=43.73,7.42&destination=43.74,7.43';
  const refused = (query: string, message: RegExp) => {
    const error = t.throws(() => sanitizeDirections(new URLSearchParams(`${base}&${query}`)), { instanceOf: ApiError });
    t.is(error?.statusCode, 400, query);
    t.regex(error?.message ?? '', message, query);
    const matrix = t.throws(() => sanitizeMatrix(new URLSearchParams(`sources=43.73,7.42&destinations=43.74,7.43&${query}`)));
    t.regex(matrix?.message ?? '', message, `matrix ${query}`);
  };
  refused('avoid=highways', /invalid parameter 'avoid': 'highways' is not one of motorways, tolls, ferries/);
  refused('avoid=motorway', /'motorway' is not one of motorways, tolls, ferries/);
  refused('avoid=', /invalid parameter 'avoid': '' is not one of/);
  refused('avoid=tolls,', /invalid parameter 'avoid': '' is not one of/);
  refused('avoid=tolls,tolls', /invalid parameter 'avoid': 'tolls,tolls' names a road class more than once/);
  refused('mode=walking&avoid=motorways', /invalid parameter 'avoid': walking cannot avoid motorways; it may avoid ferries/);
  refused('mode=cycling&avoid=ferries,tolls', /cycling cannot avoid tolls/);
  refused('avoid=tolls&avoid=ferries', /'avoid'/);
  // An unknown mode is the mode's error only, whatever its name.
  for (const mode of ['__proto__', 'constructor', 'foot'])
    refused(`mode=${mode}&avoid=motorways`, /^invalid parameter 'mode': '[^']+' is not one of driving, walking, cycling$/);
  t.is(sanitizeDirections(new URLSearchParams(`${base}&avoid=ferries,motorways,tolls`)).params.avoid, classMask([...ROAD_CLASSES]));
  t.is(sanitizeDirections(new URLSearchParams(`${base}&mode=walking&avoid=ferries`)).params.avoid, classMask(['ferry']));
  t.is(sanitizeDirections(new URLSearchParams(base)).params.avoid, 0);
});

// Through HTTP, on Monaco.
const CASINO: LonLat = [7.4276, 43.7394];
const FONTVIEILLE: LonLat = [7.4154, 43.7302];
const coords = (points: LonLat[]) => points.map(([lon, lat]) => `${lon},${lat}`).join(';');

const get = (pathAndQuery: string): Promise<Answer> => {
  const joiner = pathAndQuery.includes('?') ? '&' : '?';
  return call(`${server.url}${pathAndQuery}${joiner}key=${key}`);
};

async function refusal(t: ExecutionContext, pathAndQuery: string, code: string, message: RegExp): Promise<void> {
  const answer = await get(pathAndQuery);
  t.is(answer.status, 400, `${pathAndQuery}: ${answer.text}`);
  t.is(errorBodyFault(answer), null, pathAndQuery);
  t.is(answer.body?.code, code, `${pathAndQuery}: ${answer.text}`);
  t.regex(answer.body?.message ?? '', message, pathAndQuery);
}

dataTest('HTTP: OSRM exclude equals Waymark avoid on route and table, and both equal the engine', FILES, async (t) => {
  const graph = graphs.get('monaco driving')!;
  const random = seededRandom(3);
  // Random pairs, the first few that excluding the motorway and its tolls makes longer among them.
  const pairs: LonLat[][] = [];
  const both = excluding(graph, classMask(['motorway', 'toll']));
  let detours = 0;
  for (let tries = 0; tries < 2000 && pairs.length < 14; tries++) {
    const points = [randomPoint(random, 'monaco'), randomPoint(random, 'monaco')];
    const [from, to] = points.map(([lon, lat]) => snap(both, lon, lat, 2000));
    const detour =
      from && to && referenceDeciseconds(graph, from, to) < referenceDeciseconds(graph, from, to, classMask(['motorway', 'toll']));
    if (detour && detours < 4) detours++, pairs.push(points);
    else if (!detour && pairs.length - detours < 10) pairs.push(points);
  }
  let longer = 0;
  for (const points of pairs) {
    for (const classes of [['motorway'], ['toll'], ['motorway', 'toll']] as RoadClass[][]) {
      const avoid = classes.map(avoidWordOf).join(',');
      const osrm = await get(`/api/v1/osrm/route/v1/driving/${coords(points)}?exclude=${classes.join(',')}&overview=full`);
      const own = await get(
        `/api/v1/directions?origin=${latLng(points[0]!)}&destination=${latLng(points[1]!)}&avoid=${avoid}&overview=full`,
      );
      const plain = await get(`/api/v1/directions?origin=${latLng(points[0]!)}&destination=${latLng(points[1]!)}&overview=full`);
      t.is(osrm.status, own.status, `${points} ${avoid}: ${osrm.text} / ${own.text}`);
      if (own.status !== 200) continue;
      t.deepEqual(osrm.body.routes, own.body.routes, `${points} ${avoid}`);
      const engine = directionsOn(graph, `origin=${latLng(points[0]!)}&destination=${latLng(points[1]!)}&avoid=${avoid}&overview=full`);
      t.deepEqual(own.body, engine.ok ? engine.body : engine);
      if (plain.status === 200 && own.body.routes[0].duration > plain.body.routes[0].duration) longer++;
      const table = await get(`/api/v1/osrm/table/v1/driving/${coords(points)}?exclude=${classes.join(',')}&annotations=duration,distance`);
      const matrix = await get(
        `/api/v1/matrix?sources=${points.map(latLng).join('|')}&destinations=${points.map(latLng).join('|')}&avoid=${avoid}`,
      );
      t.is(table.status, 200, table.text);
      t.deepEqual(table.body.durations, matrix.body.durations);
      t.deepEqual(table.body.distances, matrix.body.distances);
      // The matrix cell is the route's duration, as without avoid.
      t.true(Math.abs(matrix.body.durations[0][1] - own.body.routes[0].duration) <= 0.2, `${points} ${avoid}: matrix vs route`);
    }
  }
  t.true(longer > 0, 'some routes avoid the A8 or its tolls at a cost');
  // Walking excludes ferries.
  const walk = await get(`/api/v1/osrm/route/v1/walking/${coords([CASINO, FONTVIEILLE])}?exclude=ferry`);
  t.is(walk.status, 200, walk.text);
});

dataTest('HTTP: bad exclude is InvalidValue with OSRM message, bad avoid a 400 naming it, nearest refuses exclude', FILES, async (t) => {
  const route = `/api/v1/osrm/route/v1/driving/${coords([CASINO, FONTVIEILLE])}`;
  const table = `/api/v1/osrm/table/v1/driving/${coords([CASINO, FONTVIEILLE])}`;
  for (const path of [route, table]) {
    await refusal(
      t,
      `${path}?exclude=foo`,
      'InvalidValue',
      /^Exclude flag combination is not supported: 'foo' is not a class driving may exclude/,
    );
    await refusal(t, `${path}?exclude=`, 'InvalidValue', /^Exclude flag combination is not supported/);
    await refusal(t, `${path}?exclude=motorway,,toll`, 'InvalidValue', /^Exclude flag combination is not supported/);
    await refusal(t, `${path}?exclude=toll,toll`, 'InvalidValue', /names a class twice/);
    await refusal(t, `${path}?exclude=motorways`, 'InvalidValue', /'motorways' is not a class/);
  }
  await refusal(
    t,
    `/api/v1/osrm/route/v1/walking/${coords([CASINO, FONTVIEILLE])}?exclude=motorway`,
    'InvalidValue',
    /'motorway' is not a class walking may exclude \(ferry\)/,
  );
  await refusal(t, `/api/v1/osrm/nearest/v1/driving/${CASINO[0]},${CASINO[1]}?exclude=motorway`, 'InvalidOptions', /'exclude'/);
  const directions = `/api/v1/directions?origin=${latLng(CASINO)}&destination=${latLng(FONTVIEILLE)}`;
  for (const [query, message] of [
    ['avoid=bridges', /invalid parameter 'avoid': 'bridges' is not one of motorways, tolls, ferries/],
    ['avoid=tolls&mode=cycling', /cycling cannot avoid tolls; it may avoid ferries/],
  ] as const) {
    const answer = await get(`${directions}&${query}`);
    t.is(answer.status, 400, answer.text);
    t.is(errorBodyFault(answer), null);
    t.regex(answer.body?.message ?? '', message);
  }
  const matrix = await get(`/api/v1/matrix?sources=${latLng(CASINO)}&destinations=${latLng(FONTVIEILLE)}&avoid=motorway`);
  t.is(matrix.status, 400, matrix.text);
  t.regex(matrix.text, /'avoid': 'motorway' is not one of motorways, tolls, ferries/);
});
