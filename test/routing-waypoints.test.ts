/**
 * Where a route may start or end. As OSRM's profiles set `is_startpoint` (WayHandlers.startpoint):
 * never on a ferry, for every mode, unless any segment is allowed (`snapping=any`); a point beside a
 * ferry snaps onto the road leading to it, and a route between two roads still crosses the ferry.
 * A bearing filter (`bearings`) takes only roads heading its way, and only that direction. At a via
 * point a car keeps going (OSRM's continue_straight, the car profile's default), walkers may turn.
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TravelMode } from '../core/routing/network.js';
import { readRoadNetworks } from '../data-pipeline/routing/osm-network.js';
import type { RoutingGraph } from '../core/routing/graph-file.js';
import { route } from '../workers/routing/graph/route.js';
import { snap } from '../workers/routing/graph/snap.js';
import { directionsOn, graphOf } from './helpers/routing.js';

/** West Road (8.000–8.010) to the pier, the ferry across (8.010–8.020), East Road beyond (to 8.030), along 48° N. */
const OSM = `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6" generator="waymark test">
  <node id="1" lat="48" lon="8.000"/><node id="2" lat="48" lon="8.010"/>
  <node id="3" lat="48" lon="8.020"/><node id="4" lat="48" lon="8.030"/>
  <way id="10"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/><tag k="name" v="West Road"/></way>
  <way id="11"><nd ref="2"/><nd ref="3"/><tag k="route" v="ferry"/><tag k="name" v="Ferry"/><tag k="foot" v="yes"/><tag k="bicycle" v="yes"/><tag k="motor_vehicle" v="yes"/></way>
  <way id="12"><nd ref="3"/><nd ref="4"/><tag k="highway" v="residential"/><tag k="name" v="East Road"/></way>
</osm>`;

let dir = '';
const graphs = new Map<TravelMode, RoutingGraph>();
test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-startpoints-'));
  const osm = join(dir, 'ferry.osm');
  writeFileSync(osm, OSM);
  const networks = await readRoadNetworks([osm], () => {});
  for (const mode of ['driving', 'cycling', 'walking'] as const) graphs.set(mode, graphOf(networks[mode], join(dir, `${mode}.graph`)));
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

for (const mode of ['driving', 'cycling', 'walking'] as const) {
  test(`${mode}: a point on the ferry snaps onto the nearest road, and routes still cross the ferry`, (t) => {
    const graph = graphs.get(mode)!;
    const nearWest = snap(graph, 8.013, 48.0001, 2000)!;
    t.is(nearWest.name, 'West Road');
    t.deepEqual(
      nearWest.location.map((d) => Math.round(d * 1e4) / 1e4),
      [8.01, 48],
    );
    t.is(snap(graph, 8.018, 48.0001, 2000)!.name, 'East Road');
    // Nothing but the ferry within the radius: no start point.
    t.is(snap(graph, 8.015, 48, 300), null);
    const leg = route(graph, snap(graph, 8.005, 48, 100)!, snap(graph, 8.025, 48, 100)!)!;
    t.deepEqual(
      leg.segments.map((segment) => segment.name),
      ['West Road', 'Ferry', 'East Road'],
    );
  });
}

test('snapping=any takes the ferry itself', (t) => {
  const graph = graphs.get('driving')!;
  t.is(snap(graph, 8.015, 48, 300, { anySegment: true })!.name, 'Ferry');
});

test('a bearing keeps only the direction heading its way; none within it is no snap', (t) => {
  const graph = graphs.get('driving')!;
  t.is(snap(graph, 8.005, 48.0001, 100, { bearing: { value: 90, range: 10 } })!.only, 'forward');
  t.is(snap(graph, 8.005, 48.0001, 100, { bearing: { value: 265, range: 10 } })!.only, 'backward');
  t.is(snap(graph, 8.005, 48.0001, 100, { bearing: { value: 0, range: 90 } })!.only, undefined, 'both directions within 0 ± 90');
  t.is(snap(graph, 8.005, 48.0001, 100, { bearing: { value: 0, range: 10 } }), null, 'no road heads north');
  t.is(snap(graph, 8.005, 48.001, 100), null, '111 m from the road');
});

test('directions with bearings and radiuses: heading west first means turning round at the end of West Road', (t) => {
  const graph = graphs.get('driving')!;
  const ask = (extra: string) => {
    const answer = directionsOn(graph, `origin=48,8.005&destination=48,8.025${extra}`);
    return answer.ok ? (answer.body.routes[0].distance as number) : answer.code;
  };
  const straight = ask('');
  t.true(Math.abs((straight as number) - 1490) < 5, `${straight} m`);
  const turning = ask('&bearings=270,10|');
  t.true(Math.abs((turning as number) - (straight as number) - 2 * 372) < 5, `${turning} m`);
  t.is(ask('&bearings=|0,10'), 'NoSegment');
  t.is(ask('&radiuses=|unlimited'), straight);
  t.is(ask('&radiuses=0.5|'), straight, 'the origin lies on West Road');
  t.is(ask('&radiuses=|0'), straight);
});

test('continue_straight: a car leaves a via point the way it came, a walker may turn round there', (t) => {
  // From 8.008 on West Road by the via point 8.005 to 8.009: turning round at the via point is
  // 223 + 298 m; going on west to the dead end 8.000 and back is 223 + 372 + 670 m.
  const distance = (mode: TravelMode, extra = '') => {
    const answer = directionsOn(graphs.get(mode)!, `origin=48,8.008&waypoints=48,8.005&destination=48,8.009&mode=${mode}${extra}`);
    return answer.ok ? (answer.body.routes[0].distance as number) : NaN;
  };
  const turning = 223 + 298;
  const straight = 223 + 372 + 670;
  for (const [mode, extra, expected] of [
    ['driving', '', straight],
    ['driving', '&continue_straight=false', turning],
    ['walking', '', turning],
    ['cycling', '', turning],
    ['walking', '&continue_straight=true', straight],
  ] as const) {
    const metres = distance(mode, extra);
    t.true(Math.abs(metres - expected) < 5, `${mode}${extra}: ${metres} m`);
  }
});

test('a destination just ahead on the start segment, reached only heading back, turns round at the dead end beyond it', (t) => {
  // East Road ends at 8.030: from 8.025 on to the dead end (372 m) and back to 8.028 (149 m). The
  // start's label on the way back hid that path, and the route crossed the ferry to turn round at
  // the far end of West Road instead (4.2 km).
  const answer = directionsOn(graphs.get('driving')!, 'origin=48,8.025&destination=48,8.028&bearings=|270,10&mode=driving');
  const metres = answer.ok ? (answer.body.routes[0].distance as number) : NaN;
  t.true(Math.abs(metres - 521) < 5, `${metres} m`);
});

test('continue_straight: of two equally fast ways through a via point, the detour to turn round is in the leg that arrives, as in OSRM', (t) => {
  // From a point by a via point nearer the road's dead end and back: on to the dead end and back
  // either before the via point or after it. OSRM's search seeds both directions of the via point,
  // and a seed beats a path through it (car/restrictions.feature:119). West Road's dead end is at
  // its first node, East Road's at its last.
  const legMetres = (query: string) => {
    const answer = directionsOn(graphs.get('driving')!, `${query}&mode=driving`);
    const legs = (answer.ok ? answer.body.routes[0].legs : []) as { distance: number }[];
    return legs.map((leg) => Math.round(leg.distance / 10) * 10);
  };
  // 8.008 -> 8.005: 595 m to 8.000 and 372 m back, then 223 m.
  t.deepEqual(legMetres('origin=48,8.008&waypoints=48,8.005&destination=48,8.008'), [970, 220]);
  // 8.025 -> 8.028: 372 m to 8.030 and 149 m back, then 223 m.
  t.deepEqual(legMetres('origin=48,8.025&waypoints=48,8.028&destination=48,8.025'), [520, 220]);
});
