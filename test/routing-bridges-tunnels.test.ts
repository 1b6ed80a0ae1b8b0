/**
 * Bridges and tunnels on Andorra's networks and its SRTM tile (issue 28), in slope-aware times and
 * in routes' elevation profiles. The Dos Valires tunnel (walked, ridden and driven; the Envalira
 * road tunnel is for cars only) runs 2.8 km under a ridge with over 500 m of mountain above its
 * middle, and goes on at both ends as bridges over the valleys: over the surface a cyclist would
 * climb and drop those 500 m both ways; along the run of tunnel and bridges the way climbs in a
 * straight line between the ground at its ends, its times are those of that gradient, and a
 * route's profile through it is that line, with next to no ascent. Everywhere, a run of bridge and
 * tunnel segments climbs at one gradient, and ways on the ground are not changed.
 */
import test from 'ava';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRAVEL_KINDS, type RoadNetwork } from '../core/routing/network.js';
import { ElevationStore } from '../core/terrain/elevation-store.js';
import { readRoadNetworks } from '../data-pipeline/routing/osm-network.js';
import { cyclingSpeedOnSlope, walkingSpeedOnSlope } from '../data-pipeline/routing/profiles/slope.js';
import { buildRoutingGraphs } from '../data-pipeline/routing/build.js';
import { applySlopeTimes, offGroundLines } from '../data-pipeline/routing/slope-times.js';
import { routeElevation } from '../workers/routing/response/route-elevation.js';
import { buildElevationStore, planElevation } from '../data-pipeline/terrain/build.js';
import { ANDORRA_DEM } from './helpers/dem.js';
import { directionsOn, latLng, openGraph } from './helpers/routing.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import type { LonLat } from '../core/geo/types.js';

const ANDORRA = sharedFile('osm', 'andorra.osm.pbf');
const scratch = mkdtempSync(join(tmpdir(), 'waymark-routing-bridges-'));
const elevationFile = join(scratch, 'elevation.dem');
const graphDir = join(scratch, 'graphs');
let store: ElevationStore;
/** The Dos Valires tunnel's portals, east and west (the way runs east to west). */
const EAST_PORTAL: LonLat = [1.5544623, 42.5187794];
const WEST_PORTAL: LonLat = [1.522698, 42.5289645];

test.before(async () => {
  if (!existsSync(ANDORRA) || !existsSync(ANDORRA_DEM)) return;
  await buildElevationStore(await planElevation([ANDORRA_DEM]), elevationFile, () => {});
  store = ElevationStore.open(elevationFile);
  await buildRoutingGraphs([ANDORRA], graphDir, () => {}, undefined, { threads: 1, elevationFile });
});

test.after.always(() => {
  store?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The segments of the network's ways named `name`. */
const named = ({ segments, strings }: RoadNetwork, name: string) =>
  Array.from({ length: segments.count }, (_, s) => s).filter((s) => strings[segments.name[s]!] === name);

const pointAt = ({ segments }: RoadNetwork, point: number): [number, number] => [
  segments.coordinates[2 * point]! / 1e7,
  segments.coordinates[2 * point + 1]! / 1e7,
];

dataTest('the Dos Valires tunnel climbs the straight line of its run, not the ridge above it', [ANDORRA, ANDORRA_DEM], async (t) => {
  const networks = await readRoadNetworks([ANDORRA], () => {});
  const cycling = networks.cycling;
  const { segments } = cycling;
  const tunnel = named(cycling, 'Túnel de les dos valires');
  t.true(tunnel.length >= 1 && tunnel.every((s) => segments.offGround[s] === 1));
  // The surface above: hundreds of metres higher in the middle than at the portals.
  const [lon0, lat0] = pointAt(cycling, segments.pointFirst[tunnel[0]!]!);
  const [lon1, lat1] = pointAt(cycling, segments.pointFirst[tunnel.at(-1)! + 1]! - 1);
  const portals = (store.elevationAt(lon0, lat0)! + store.elevationAt(lon1, lat1)!) / 2;
  const middle = store.elevationAt((lon0 + lon1) / 2, (lat0 + lat1) / 2)!;
  t.true(middle - portals > 300, `the ridge above: ${middle} m, the portals ${portals} m on average`);

  const rises = offGroundLines(cycling, store).rise;
  // One gradient for the whole tunnel, gentle: the valleys at the run's two ends lie close in height.
  const gradient = rises[tunnel[0]!]! / segments.distance[tunnel[0]!]!;
  t.true(Math.abs(gradient) < 0.03, `gradient ${gradient}`);
  for (const s of tunnel) t.true(Math.abs(rises[s]! / segments.distance[s]! - gradient) < 1e-9, `segment ${s}: ${rises[s]} m`);

  const flat = [Float64Array.from(segments.forwardSeconds), Float64Array.from(segments.backwardSeconds)] as const;
  // The surface's times: the same network with the tunnel and its bridges taken as on the ground.
  const surface = (await readRoadNetworks([ANDORRA], () => {})).cycling;
  surface.segments.offGround.fill(0);
  applySlopeTimes(surface, store);
  applySlopeTimes(cycling, store);
  for (const s of tunnel) {
    // Each direction at its flat speed changed by the gradient: ridden, or (against a oneway) pushed on foot.
    const expected = (direction: 1 | -1) => {
      const travel = TRAVEL_KINDS[(direction === 1 ? segments.travel : segments.backwardTravel)[s]!];
      const speed = travel === 'pushing' ? walkingSpeedOnSlope : cyclingSpeedOnSlope;
      const flatKmh = (segments.distance[s]! / flat[direction === 1 ? 0 : 1][s]!) * 3.6;
      return (segments.distance[s]! / speed(flatKmh, direction * gradient)) * 3.6;
    };
    t.true(Math.abs(segments.forwardSeconds[s]! - expected(1)) < 1e-6, `forward ${segments.forwardSeconds[s]} s, ${expected(1)} s`);
    t.true(Math.abs(segments.backwardSeconds[s]! - expected(-1)) < 1e-6, `backward ${segments.backwardSeconds[s]} s, ${expected(-1)} s`);
    // Over the ridge it would take far longer both ways.
    t.true(
      surface.segments.forwardSeconds[s]! > 1.5 * segments.forwardSeconds[s]!,
      `${surface.segments.forwardSeconds[s]} s over the ridge`,
    );
    t.true(
      surface.segments.backwardSeconds[s]! > 1.5 * segments.backwardSeconds[s]!,
      `${surface.segments.backwardSeconds[s]} s over the ridge`,
    );
  }
});

dataTest(
  'a run of bridge and tunnel segments climbs at one gradient; ways on the ground keep their times',
  [ANDORRA, ANDORRA_DEM],
  async (t) => {
    const networks = await readRoadNetworks([ANDORRA], () => {});
    for (const mode of ['walking', 'cycling'] as const) {
      const network = networks[mode];
      const { segments } = network;
      const rises = offGroundLines(network, store).rise;
      const gradientOf = (s: number, atTo: boolean) => ((atTo ? 1 : -1) * rises[s]!) / segments.distance[s]!;
      // At each junction where exactly two segments meet, both off the ground, the run goes on at the same gradient.
      const ends = new Map<number, { segment: number; atTo: boolean }[]>();
      for (let s = 0; s < segments.count; s++) {
        for (const [junction, atTo] of [
          [segments.from[s]!, false],
          [segments.to[s]!, true],
        ] as const) {
          if (!ends.has(junction)) ends.set(junction, []);
          ends.get(junction)!.push({ segment: s, atTo });
        }
      }
      let joins = 0;
      for (const meeting of ends.values()) {
        if (meeting.length !== 2 || !meeting.every(({ segment }) => segments.offGround[segment] === 1)) continue;
        const [a, b] = meeting as [{ segment: number; atTo: boolean }, { segment: number; atTo: boolean }];
        if (a.segment === b.segment || Number.isNaN(rises[a.segment]!)) continue;
        // Arriving along a and leaving along b: a's gradient towards the junction is b's away from it.
        t.true(
          Math.abs(gradientOf(a.segment, a.atTo) + gradientOf(b.segment, b.atTo)) < 1e-9,
          `${mode}: segments ${a.segment} and ${b.segment}`,
        );
        joins++;
      }
      t.true(joins >= 2, `${mode}: ${joins} junctions inside runs`);
      for (let s = 0; s < segments.count; s++) if (segments.offGround[s] === 0) t.is(rises[s], 0);
    }
  },
);

dataTest(
  'a route through the Dos Valires tunnel: its profile follows the straight line, its ascent is not the ridge',
  [ANDORRA, ANDORRA_DEM],
  (t) => {
    const answer = directionsOn(
      openGraph(graphDir, 'cycling'),
      `origin=${latLng(EAST_PORTAL)}&destination=${latLng(WEST_PORTAL)}&mode=cycling&elevation=true&overview=full&geometries=geojson&steps=false`,
      store,
    );
    if (!answer.ok) return t.fail(answer.message);
    const route = answer.body.routes[0] as { distance: number; ascent: number; descent: number; elevation_profile: [number, number][] };
    const line = answer.body.routes[0].geometry.coordinates as LonLat[];
    t.true(route.distance > 2800 && route.distance < 3100, `${route.distance} m: through the tunnel`);
    // The profile: a straight line from portal to portal (each value to 0.1 m).
    const profile = route.elevation_profile;
    const [start, end] = [profile[0]!, profile.at(-1)!];
    for (const [metres, elevation] of profile) {
      const straight = start[1] + ((end[1] - start[1]) * (metres - start[0])) / (end[0] - start[0]);
      t.true(Math.abs(elevation - straight) <= 0.15, `${metres} m: ${elevation} m, the line ${straight} m`);
    }
    // Over the surface the same line would climb the ridge and come down again.
    const surface = routeElevation(
      line,
      line.map((_, i) => i),
      store,
    );
    t.true(surface.ascent! > 300 && surface.descent! > 300, `over the ridge: ${surface.ascent} m up, ${surface.descent} m down`);
    t.true(route.ascent < 5 && route.ascent < surface.ascent! - 300, `through the tunnel: ${route.ascent} m up, ${route.descent} m down`);
    t.true(Math.abs(route.ascent - route.descent - (end[1] - start[1])) <= 0.3);
  },
);
