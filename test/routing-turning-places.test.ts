/**
 * Turning places: a turning circle, turning loop or mini roundabout (`highway=*` on a node) is where
 * any mode may turn round, as OSRM's isTurnAllowed allows a U-turn at its Obstacle::Type::Turning,
 * also in the middle of a way; the step says `continue uturn`.
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRoadNetworks } from '../data-pipeline/routing/osm-network.js';
import type { RoutingGraph } from '../core/routing/graph-file.js';
import { directionsOn, graphOf } from './helpers/routing.js';

/** Main Street along 48° N from 8.000 to 8.010, one way, with `highway=<place>` on its node at 8.005 (none when empty). */
const osm = (place: string) => `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6" generator="waymark test">
  <node id="1" lat="48" lon="8.000"/>
  <node id="2" lat="48" lon="8.005">${place ? `<tag k="highway" v="${place}"/>` : ''}</node>
  <node id="3" lat="48" lon="8.010"/>
  <way id="10"><nd ref="1"/><nd ref="2"/><nd ref="3"/><tag k="highway" v="residential"/><tag k="name" v="Main Street"/></way>
</osm>`;

let dir = '';
test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-turning-places-'));
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

async function drivingGraph(place: string): Promise<RoutingGraph> {
  const file = join(dir, `${place || 'none'}.osm`);
  writeFileSync(file, osm(place));
  const { driving } = await readRoadNetworks([file], () => {});
  return graphOf(driving, `${file}.graph`);
}

/** Heading east from 8.002 to 8.001: the car turns round at the first place it may. */
function turnRound(graph: RoutingGraph): { distance: number; turns: string[] } {
  const answer = directionsOn(graph, 'origin=48,8.002&destination=48,8.001&bearings=90,10|');
  if (!answer.ok) throw new Error(answer.message);
  const [route] = answer.body.routes as { distance: number; legs: { steps: { maneuver: { type: string; modifier?: string } }[] }[] }[];
  return {
    distance: route!.distance,
    turns: route!.legs[0]!.steps.map(({ maneuver }) => `${maneuver.type}${maneuver.modifier ? ` ${maneuver.modifier}` : ''}`),
  };
}

for (const place of ['turning_circle', 'turning_loop', 'mini_roundabout']) {
  test(`a car turns round at a ${place} in the middle of a way`, async (t) => {
    const { distance, turns } = turnRound(await drivingGraph(place));
    // 8.002 → 8.005 → 8.001: 0.007° of longitude at 48° N.
    t.true(Math.abs(distance - 521) < 3, `${distance} m`);
    t.deepEqual(turns.slice(1, -1), ['continue uturn']);
  });
}

test('without a turning place the car goes on to the dead end to turn round', async (t) => {
  const { distance, turns } = turnRound(await drivingGraph(''));
  t.true(Math.abs(distance - 1265) < 3, `${distance} m`);
  t.deepEqual(turns.slice(1, -1), ['continue uturn']);
});
