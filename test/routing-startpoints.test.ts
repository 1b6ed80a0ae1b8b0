/**
 * Where a route may start or end, as OSRM's profiles set `is_startpoint` (WayHandlers.startpoint):
 * never on a ferry, for every mode. A point beside a ferry snaps onto the road leading to it, and a
 * route between two roads still crosses the ferry.
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TravelMode } from '../core/routing/network.js';
import { writeRoutingGraph } from '../data-pipeline/routing/graph/write.js';
import { readRoadNetworks } from '../data-pipeline/routing/osm-network.js';
import { loadRoutingGraph, openRoutingGraph, type RoutingGraph } from '../src/routing/graph/load.js';
import { route } from '../src/routing/graph/route.js';
import { snap } from '../src/routing/graph/snap.js';

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
  for (const mode of ['driving', 'cycling', 'walking'] as const) {
    const file = join(dir, `${mode}.graph`);
    writeRoutingGraph(networks[mode], file);
    graphs.set(mode, openRoutingGraph(loadRoutingGraph(file).shared));
  }
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
