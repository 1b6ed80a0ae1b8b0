// Where a trip places its points, as OSRM v6 does (plugin_base.hpp SnapPhantomNodes): a point whose
// nearest road is an isolated piece (a small strongly connected component: a cut-off forest track,
// a driveway an access tag closes) goes onto the nearest road of the big component, unless every
// point lies on that one piece. On a made-up grid with an island road 1.5 km off it, and on 40
// random trips on the real Heidelberg extract, whose every point has a road within 2 km.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLAG_SMALL_COMPONENT } from '../core/routing/graph-format.js';
import { readRoadNetworks } from '../data-pipeline/routing/osm-network.js';
import { answerTrip } from '../workers/routing/answer/trip.js';
import type { RoutingGraph } from '../core/routing/graph-file.js';
import { snap } from '../workers/routing/graph/snap.js';
import { sanitizeOptimize } from '../src/routing/sanitize/optimize.js';
import { seededRandom } from './helpers/http.js';
import { graphOf, haversine, latLng, type Parsed } from './helpers/routing.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import type { LonLat } from '../core/geo/types.js';

const HEIDELBERG = sharedFile('osm', 'heidelberg.osm.pbf');

let dir = '';
test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-trip-snapping-'));
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

function trip(graph: RoutingGraph, points: LonLat[], query = ''): Parsed {
  const answer = answerTrip(graph, sanitizeOptimize(new URLSearchParams(`points=${points.map(latLng).join('|')}${query}`)), 'osrm');
  return answer.ok ? { ok: true, body: JSON.parse(answer.body) } : answer;
}

/**
 * A 20 × 20 grid of two-way streets 100 m apart (1,520 directions of travel: a big component),
 * south-west corner at (8, 48), and an island road of two pieces 1.5 km east of its east edge
 * (a component of two directions).
 */
const STEP_LON = 0.00134;
const STEP_LAT = 0.0009;
const EAST_EDGE = 8 + 19 * STEP_LON;
const ISLAND: LonLat[] = [
  [EAST_EDGE + 0.02, 48.005],
  [EAST_EDGE + 0.0205, 48.0052],
  [EAST_EDGE + 0.021, 48.005],
];

function gridOsm(): string {
  const id = (x: number, y: number) => 1 + y * 20 + x;
  const nodes: string[] = [];
  for (let y = 0; y < 20; y++)
    for (let x = 0; x < 20; x++) nodes.push(`<node id="${id(x, y)}" lat="${48 + y * STEP_LAT}" lon="${8 + x * STEP_LON}" version="1"/>`);
  ISLAND.forEach(([lon, lat], k) => nodes.push(`<node id="${1000 + k}" lat="${lat}" lon="${lon}" version="1"/>`));
  const way = (wayId: number, refs: number[]) =>
    `<way id="${wayId}" version="1">${refs.map((ref) => `<nd ref="${ref}"/>`).join('')}<tag k="highway" v="residential"/><tag k="name" v="Way ${wayId}"/></way>`;
  const ways: string[] = [];
  for (let k = 0; k < 20; k++) {
    ways.push(
      way(
        1 + k,
        [...Array(20).keys()].map((x) => id(x, k)),
      ),
    );
    ways.push(
      way(
        100 + k,
        [...Array(20).keys()].map((y) => id(k, y)),
      ),
    );
  }
  ways.push(way(500, [1000, 1001, 1002]));
  return `<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="waymark test">\n${[...nodes, ...ways].join('\n')}\n</osm>\n`;
}

test('a point beside an island road 1.5 km off the network joins the trip on the nearest road of the big component', async (t) => {
  const file = join(dir, 'grid.osm');
  writeFileSync(file, gridOsm());
  const graph = graphOf((await readRoadNetworks([file], () => {})).driving, join(dir, 'grid-driving.graph'));
  const beside: LonLat = [ISLAND[1]![0], ISLAND[1]![1] + 0.00005];
  // Its nearest road is the island (flagged small), 5.6 m off; the grid is 1.5 km away, beyond the detour a route accepts (1 km).
  const nearestRoad = snap(graph, beside[0], beside[1], 2000)!;
  t.not(graph.segmentFlags[nearestRoad.segment]! & FLAG_SMALL_COMPONENT, 0);
  t.true(nearestRoad.distance < 10);

  const grid: LonLat[] = [
    [8.003, 48.002],
    [8.02, 48.01],
    [8.01, 48.016],
  ];
  const joined = trip(graph, [...grid, beside]);
  t.true(joined.ok, joined.ok ? '' : `${joined.code}: ${joined.message}`);
  if (joined.ok) {
    const waypoint = joined.body.waypoints[3];
    // On the grid's east edge, level with the point.
    t.true(Math.abs(waypoint.location[0] - EAST_EDGE) < 1e-6, `${waypoint.location}`);
    t.true(Math.abs(waypoint.distance - haversine(beside, [EAST_EDGE, beside[1]])) < 2, `${waypoint.distance} m`);
    t.is(joined.body.trips[0].legs.length, 4);
  }

  // Every point on the island: the trip stays there, as OSRM's (all in one small component).
  const island = trip(graph, [
    [ISLAND[0]![0], ISLAND[0]![1] + 0.00003],
    [ISLAND[2]![0], ISLAND[2]![1] + 0.00003],
  ]);
  t.true(island.ok, island.ok ? '' : `${island.code}: ${island.message}`);
  if (island.ok) t.true(island.body.waypoints.every((w: any) => w.distance < 5));

  // A radius the request gives bounds the alternative too: within 100 m only the island, which the grid does not reach.
  const bounded = trip(graph, [...grid, beside], '&radiuses=|||100');
  t.false(bounded.ok);
  if (!bounded.ok) t.is(bounded.code, 'NoTrips');
});

dataTest('Heidelberg driving: 40 random trips whose every point has a road within 2 km all answer a trip', [HEIDELBERG], async (t) => {
  const graph = graphOf((await readRoadNetworks([HEIDELBERG], () => {})).driving, join(dir, 'heidelberg-driving.graph'));
  // The city, the A5 and A656 west of it, and the Odenwald east of it with its cut-off forest tracks.
  const [west, south, east, north] = [8.5, 49.33, 8.78, 49.5];
  const random = seededRandom(34);
  const draw = (): LonLat => {
    for (;;) {
      const point: LonLat = [west + random() * (east - west), south + random() * (north - south)];
      if (snap(graph, point[0], point[1], 2000)) return point;
    }
  };
  const refused: string[] = [];
  for (let i = 0; i < 40; i++) {
    const points = Array.from({ length: 3 + Math.floor(random() * 6) }, draw);
    const answer = trip(graph, points);
    if (!answer.ok) refused.push(`${answer.code}: ${answer.message} (${JSON.stringify(points)})`);
    else t.is(answer.body.trips[0].legs.length, points.length);
  }
  t.deepEqual(refused, []);
});
