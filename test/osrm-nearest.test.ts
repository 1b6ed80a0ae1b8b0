// OSRM's nearest service as OSRM v6's NearestPhantomNodes answers it: the `number` nearest pieces of
// road (the 2-point pieces of the polylines, OSRM's R-tree entries, both directions of travel in
// one), nearest first, several of one road allowed, whatever their component. OSRM v6.0.0's own
// nearest features (features/nearest/, read from ../shared/reference at run time) on their node
// maps, and on real Monaco and Heidelberg driving graphs the distances against a brute force over
// every piece.
import test from 'ava';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FEATURES_DIR, readFeature } from '../bench/osrm-features/harness.js';
import { hashes, World } from '../bench/osrm-features/scenario.js';
import { IMPASSABLE, TRAVEL_KINDS, travelOfNode } from '../core/routing/graph-format.js';
import { GUIDANCE_NO_START } from '../core/routing/network.js';
import { readRoadNetworks } from '../data-pipeline/routing/osm-network.js';
import { answerNearest } from '../workers/routing/answer/nearest.js';
import type { RoutingGraph } from '../core/routing/graph-file.js';
import { nearestPieces } from '../workers/routing/graph/snap.js';
import { seededRandom } from './helpers/http.js';
import { graphOf, metresToSegment } from './helpers/routing.js';
import { dataTest, requiringTest, sharedFile } from './helpers/shared-data.js';
import type { LonLat } from '../core/geo/types.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const HEIDELBERG = sharedFile('osm', 'heidelberg.osm.pbf');
const FEATURES = ['nearest/pick.feature', 'nearest/projection.feature'];

let dir = '';
test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-osrm-nearest-'));
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

interface Waypoint {
  location: LonLat;
  distance: number;
}

function nearest(graph: RoutingGraph, point: LonLat, number: number): Waypoint[] {
  const answer = answerNearest(graph, { mode: graph.mode, point, number, generateHints: false });
  if (!answer.ok) throw new Error(`${point}: ${answer.code} ${answer.message}`);
  return JSON.parse(answer.body).waypoints;
}

/** OSRM's harness: a location matches a node when each coordinate is within 0.0025 % of the node's (support/data_classes.js). */
const matchLocation = (got: LonLat, want: LonLat) => got.every((value, i) => Math.abs(value - want[i]!) <= Math.abs(want[i]!) * 0.000025);

/** A nearest scenario's map as a driving graph (its ways are primary roads, which testbot and car both drive) and its world. */
async function scenarioGraph(steps: { text: string; table?: string[][]; docString?: string }[], name: string) {
  const world = new World();
  for (const step of steps) {
    if (step.text === 'the node map') world.nodeMap(step.docString ?? '');
    if (step.text === 'the ways') world.waysTable(hashes(step.table ?? [[]]));
    if (step.text === 'the node locations') {
      for (const [k, row] of hashes(step.table ?? [[]]).entries()) {
        const node = { id: 1000 + k, lon: Number(row.lon), lat: Number(row.lat), tags: { name: row.node! } };
        world.nodes.set(row.node!, node);
        world.nodeList.push(node);
      }
    }
  }
  const file = join(dir, `${name}.osm`);
  writeFileSync(file, world.toXml());
  const networks = await readRoadNetworks([file], () => {});
  return { world, graph: graphOf(networks.driving, join(dir, `${name}.graph`)) };
}

requiringTest(
  "OSRM's nearest features: each point's nearest waypoint is the node the feature expects, and more pieces follow it nearest first",
  existsSync(FEATURES_DIR) ? null : `OSRM's features are not at ${FEATURES_DIR}`,
  async (t) => {
    let rows = 0;
    for (const file of FEATURES) {
      const feature = readFeature(file);
      for (const scenario of feature.scenarios) {
        const steps = [...feature.background, ...scenario.steps];
        const { world, graph } = await scenarioGraph(steps, `${file.replace(/\W/g, '-')}-${scenario.line}`);
        for (const step of steps.filter((s) => /^I request nearest( with flatbuffers)? I should get$/.test(s.text))) {
          for (const row of hashes(step.table ?? [[]])) {
            const context = `${file}:${scenario.line} ${scenario.name}, in ${row.in}`;
            const point = world.position(row.in!);
            const [first] = nearest(graph, point, 1);
            t.true(matchLocation(first!.location, world.position(row.out!)), `${context}: ${first!.location}, not ${row.out}`);
            const more = nearest(graph, point, 3);
            t.deepEqual(more[0], first, context);
            const distances = more.map((w) => w.distance);
            t.deepEqual(
              distances,
              [...distances].sort((a, b) => a - b),
              context,
            );
            rows++;
          }
        }
      }
    }
    t.true(rows >= 40, `${rows} rows`);
  },
);

requiringTest(
  'several pieces of one road: a point beside the node between two pieces gets both, at the same place and distance',
  existsSync(FEATURES_DIR) ? null : `OSRM's features are not at ${FEATURES_DIR}`,
  async (t) => {
    // pick.feature's "High lat/lon": one way a–b–c, so one road (no junction at b) of two pieces; y lies north of b.
    const feature = readFeature('nearest/pick.feature');
    const scenario = feature.scenarios.find((s) => s.name === 'Nearest - High lat/lon')!;
    const { world, graph } = await scenarioGraph(scenario.steps, 'high-lat-lon');
    const waypoints = nearest(graph, world.position('y'), 3);
    // As OSRM's R-tree holds them: piece a–b and piece b–c, both nearest at b; there is no third piece.
    t.is(waypoints.length, 2);
    for (const waypoint of waypoints) t.true(matchLocation(waypoint.location, world.position('b')), `${waypoint.location}`);
    t.is(waypoints[0]!.distance, waypoints[1]!.distance);
  },
);

/** Travel kinds a nearest answer may start on (not on board a ferry or a train, OSRM's is_startpoint; nor a way that is no start point, GUIDANCE_NO_START). */
const START_KINDS = new Set([TRAVEL_KINDS.indexOf('default'), TRAVEL_KINDS.indexOf('pushing')]);

/** Metres from `point` to every piece of every segment a route may start on, nearest first: a brute force over the whole graph. */
function pieceDistances(graph: RoutingGraph, point: LonLat): number[] {
  const { coordinates, segmentPointFirst, nodeWeight, segmentFlags } = graph;
  const at = (p: number): LonLat => [coordinates[2 * p]! * 1e-7, coordinates[2 * p + 1]! * 1e-7];
  const distances: number[] = [];
  for (let s = 0; s < graph.segmentCount; s++) {
    const startable = [2 * s, 2 * s + 1].some(
      (node) => nodeWeight[node] !== IMPASSABLE && START_KINDS.has(travelOfNode(segmentFlags, node)),
    );
    if (!startable || (graph.segmentGuidance[s]! & GUIDANCE_NO_START) !== 0) continue;
    for (let p = segmentPointFirst[s]!; p + 1 < segmentPointFirst[s + 1]!; p++) distances.push(metresToSegment(point, at(p), at(p + 1)));
  }
  return distances.sort((a, b) => a - b);
}

dataTest(
  'Monaco and Heidelberg driving: number=5 lists the 5 nearest pieces, several of one road allowed, as a brute force over every piece finds them',
  [MONACO, HEIDELBERG],
  async (t) => {
    const regions: [string, string, [number, number, number, number]][] = [
      ['monaco', MONACO, [7.41, 43.725, 7.44, 43.75]],
      ['heidelberg', HEIDELBERG, [8.64, 49.38, 8.72, 49.42]],
    ];
    let sharingRoad = 0;
    for (const [name, osm, [west, south, east, north]] of regions) {
      const graph = graphOf((await readRoadNetworks([osm], () => {})).driving, join(dir, `${name}-driving.graph`));
      const random = seededRandom(34);
      for (let i = 0; i < 30; i++) {
        const point: LonLat = [west + random() * (east - west), south + random() * (north - south)];
        const pieces = nearestPieces(graph, point[0], point[1], 2000, {}, 5);
        const expected = pieceDistances(graph, point).slice(0, 5);
        t.is(pieces.length, 5);
        pieces.forEach((piece, k) => {
          t.true(
            Math.abs(piece.distance - expected[k]!) < 0.01,
            `${name} ${point} #${k}: ${piece.distance} m, the brute force ${expected[k]} m`,
          );
        });
        const answered = nearest(graph, point, 5).map((w) => w.distance);
        t.deepEqual(
          answered,
          [...answered].sort((a, b) => a - b),
          `${name} ${point}`,
        );
        t.deepEqual(
          answered,
          pieces.map((piece) => Math.round(piece.distance * 10) / 10),
        );
        if (new Set(pieces.map((piece) => piece.segment)).size < pieces.length) sharingRoad++;
      }
    }
    // The finding's case: most points have several of their 5 nearest pieces on one road.
    t.true(sharingRoad > 30, `${sharingRoad} of 60 points list a road twice`);
  },
);
