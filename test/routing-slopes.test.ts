/**
 * Slope-aware walking and cycling times (issue 28) on Monaco's networks and its SRTM tile (bridges
 * and tunnels follow their own rule: routing-bridges-tunnels.test.ts): the speed models (Tobler's hiking function, GraphHopper's bike factors) keep the flat speed on flat
 * ground and are slower uphill than down; applied to a network, flat ground and ground without
 * elevation leave every time as it was and driving is never changed, while a segment up a slope
 * takes longer uphill than downhill on foot and by bike; the import's graphs built with the DEM
 * keep driving as it was (but for the elevations of its bridges and tunnels), route walkers up the hill slower than down, report their progress,
 * and still answer what a plain Dijkstra on the uncontracted graph finds.
 */
import test from 'ava';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../core/dataset-layout.js';
import { TRAVEL_KINDS, type RoadNetwork, type TravelMode } from '../core/routing/network.js';
import { ElevationStore } from '../core/terrain/elevation-store.js';
import { buildRoutingGraphs } from '../data-pipeline/routing/build.js';
import { readRoadNetworks } from '../data-pipeline/routing/osm-network.js';
import { cyclingSpeedOnSlope, walkingSpeedOnSlope } from '../data-pipeline/routing/profiles/slope.js';
import { applySlopeTimes } from '../data-pipeline/routing/slope-times.js';
import { buildElevationStore, planElevation } from '../data-pipeline/terrain/build.js';
import { snap } from '../workers/routing/graph/snap.js';
import { MONACO_DEM } from './helpers/dem.js';
import { seededRandom } from './helpers/http.js';
import { directionsOn, latLng, openGraph, referenceDeciseconds } from './helpers/routing.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import type { LonLat } from '../core/geo/types.js';

const MONACO = sharedFile('osm', 'monaco.osm.pbf');
const PORT: LonLat = [7.4251594, 43.7352572];
const JARDIN_EXOTIQUE: LonLat = [7.4153, 43.7315];
const scratch = mkdtempSync(join(tmpdir(), 'waymark-routing-slopes-'));
const elevationFile = join(scratch, 'elevation.dem');
const flatDir = join(scratch, 'flat');
const hillyDir = join(scratch, 'hilly');
let store: ElevationStore;
const phases: { phase: string; done: number; total: number | null }[] = [];

test.before(async () => {
  if (!existsSync(MONACO) || !existsSync(MONACO_DEM)) return;
  await buildElevationStore(await planElevation([MONACO_DEM]), elevationFile, () => {});
  store = ElevationStore.open(elevationFile);
  await buildRoutingGraphs([MONACO], flatDir, () => {}, undefined, { threads: 1 });
  await buildRoutingGraphs([MONACO], hillyDir, (progress) => phases.push(progress), undefined, { threads: 1, elevationFile });
});

test.after.always(() => {
  store?.close();
  rmSync(scratch, { recursive: true, force: true });
});

test('the speed models keep the flat speed on flat ground, and are slower up a slope than down it', (t) => {
  const close = (actual: number, expected: number) => t.true(Math.abs(actual - expected) < 0.01, `${actual} against ${expected}`);
  for (const flat of [3, 5]) t.is(walkingSpeedOnSlope(flat, 0), flat);
  for (const flat of [4, 12, 15]) t.is(cyclingSpeedOnSlope(flat, 0), flat);
  // Tobler: 6 · e^(−3.5 · |s + 0.05|) km/h, scaled by 5 / 5.04 for a 5 km/h profile.
  close(walkingSpeedOnSlope(5, 0.1), ((5 * 6) / 5.0363) * Math.exp(-3.5 * 0.15));
  close(walkingSpeedOnSlope(5, -0.05), (5 * 6) / 5.0363);
  close(walkingSpeedOnSlope(5, -0.1), 5);
  // GraphHopper's factors: (1 − 5s)² up, (1 + 2|s|)² down, s up to 20 %; 2 km/h at least, 30 km/h at most.
  close(cyclingSpeedOnSlope(15, 0.05), 15 * 0.5625);
  close(cyclingSpeedOnSlope(15, 0.1), 15 * 0.25);
  close(cyclingSpeedOnSlope(15, 0.19), 2);
  close(cyclingSpeedOnSlope(15, -0.05), 15 * 1.21);
  close(cyclingSpeedOnSlope(15, -0.2), 15 * 1.96);
  close(cyclingSpeedOnSlope(20, -0.3), 30);
  for (const slope of [0.01, 0.03, 0.08, 0.15, 0.25]) {
    t.true(walkingSpeedOnSlope(5, slope) < walkingSpeedOnSlope(5, -slope), `walking at ${slope}`);
    t.true(cyclingSpeedOnSlope(15, slope) < cyclingSpeedOnSlope(15, -slope), `cycling at ${slope}`);
  }
});

/** A network's times, to compare after a change. */
const timesOf = (network: RoadNetwork) => [
  Float64Array.from(network.segments.forwardSeconds),
  Float64Array.from(network.segments.backwardSeconds),
];

dataTest('flat ground and ground without elevation leave every time as it was; driving never changes', [MONACO, MONACO_DEM], async (t) => {
  const networks = await readRoadNetworks([MONACO], () => {});
  for (const mode of ['walking', 'cycling'] as const) {
    const before = timesOf(networks[mode]);
    applySlopeTimes(networks[mode], { elevationAt: () => 42 });
    t.deepEqual(timesOf(networks[mode]), before, `${mode}: flat`);
    applySlopeTimes(networks[mode], { elevationAt: () => null });
    t.deepEqual(timesOf(networks[mode]), before, `${mode}: no elevation`);
  }
  const driving = timesOf(networks.driving);
  applySlopeTimes(networks.driving, store);
  t.deepEqual(timesOf(networks.driving), driving);
});

dataTest('a segment up a slope takes longer uphill than downhill, on foot and by bike', [MONACO, MONACO_DEM], async (t) => {
  const networks = await readRoadNetworks([MONACO], () => {});
  for (const mode of ['walking', 'cycling'] as const) {
    const { segments } = networks[mode];
    const before = timesOf(networks[mode]);
    // Segments ridden or walked both ways (no pushing, no ferry) whose far end is at least 8 % above their start.
    const steep: { segment: number; up: 'forward' | 'backward' }[] = [];
    for (let s = 0; s < segments.count; s++) {
      if (TRAVEL_KINDS[segments.travel[s]!] !== 'default' || TRAVEL_KINDS[segments.backwardTravel[s]!] !== 'default') continue;
      if (!(segments.forwardSeconds[s]! > 0 && segments.backwardSeconds[s]! > 0) || segments.distance[s]! < 30) continue;
      // Bridges and tunnels follow their run's straight line, not the ground's slope (routing-bridges-tunnels.test.ts).
      if (segments.offGround[s] === 1) continue;
      const [first, last] = [segments.pointFirst[s]!, segments.pointFirst[s + 1]! - 1];
      const at = (p: number) => store.elevationAt(segments.coordinates[2 * p]! / 1e7, segments.coordinates[2 * p + 1]! / 1e7);
      const [start, end] = [at(first), at(last)];
      if (start === null || end === null || Math.abs(end - start) < 0.08 * segments.distance[s]!) continue;
      steep.push({ segment: s, up: end > start ? 'forward' : 'backward' });
    }
    t.true(steep.length >= 20, `${mode}: ${steep.length} steep segments`);
    applySlopeTimes(networks[mode], store);
    const [forward, backward] = timesOf(networks[mode]);
    for (const { segment, up } of steep) {
      const [upSeconds, downSeconds] =
        up === 'forward' ? [forward![segment]!, backward![segment]!] : [backward![segment]!, forward![segment]!];
      const flatSeconds = (up === 'forward' ? before[0]! : before[1]!)[segment]!;
      t.true(upSeconds > downSeconds, `${mode} segment ${segment}: ${upSeconds} s up, ${downSeconds} s down`);
      t.true(upSeconds > flatSeconds, `${mode} segment ${segment}: ${upSeconds} s up, ${flatSeconds} s on the flat`);
    }
  }
});

const routeSeconds = (dir: string, mode: TravelMode, from: LonLat, to: LonLat): number => {
  const answer = directionsOn(openGraph(dir, mode), `origin=${latLng(from)}&destination=${latLng(to)}&mode=${mode}&steps=false`);
  if (!answer.ok) throw new Error(answer.message);
  return answer.body.routes[0].duration;
};

dataTest(
  'graphs built with the DEM: driving as without but for its bridges and tunnels, walking and cycling up the hill slower than down, progress reported',
  [MONACO, MONACO_DEM],
  (t) => {
    // Driving: every section as without the DEM, but the elevations of bridges and tunnels, which only the hilly graph has.
    const [hilly, flat] = [openGraph(hillyDir, 'driving'), openGraph(flatDir, 'driving')];
    for (const [name, value] of Object.entries(flat))
      if (ArrayBuffer.isView(value) && name !== 'pointRoadElevation') t.deepEqual(hilly[name as keyof typeof hilly], value, name);
    t.true(flat.pointRoadElevation.every(Number.isNaN));
    t.true(
      hilly.pointRoadElevation.some((metres) => !Number.isNaN(metres)),
      "Monaco's tunnels have their elevations",
    );
    for (const mode of ['walking', 'cycling'] as const) {
      t.notDeepEqual(readFileSync(paths.routingGraph(hillyDir, mode)), readFileSync(paths.routingGraph(flatDir, mode)));
      const [up, down] = [routeSeconds(hillyDir, mode, PORT, JARDIN_EXOTIQUE), routeSeconds(hillyDir, mode, JARDIN_EXOTIQUE, PORT)];
      const flatUp = routeSeconds(flatDir, mode, PORT, JARDIN_EXOTIQUE);
      t.true(up > down && up > flatUp, `${mode}: ${up} s up, ${down} s down, ${flatUp} s without the DEM`);
      const reports = phases.filter((progress) => progress.phase === `${mode} slopes`);
      t.true(reports.length >= 2 && reports.at(-1)!.done === reports.at(-1)!.total, `${mode} slopes: ${JSON.stringify(reports)}`);
    }
    t.false(
      phases.some((progress) => progress.phase === 'driving slopes'),
      'no slopes for driving',
    );
  },
);

dataTest('routes on the slope-aware graphs equal a plain Dijkstra on the uncontracted graph', [MONACO, MONACO_DEM], (t) => {
  const random = seededRandom(28);
  const point = (): LonLat => [7.409 + random() * 0.03, 43.725 + random() * 0.025];
  for (const mode of ['walking', 'cycling'] as const) {
    const graph = openGraph(hillyDir, mode);
    let checked = 0;
    for (let i = 0; i < 60 && checked < 25; i++) {
      const [from, to] = [point(), point()];
      const snaps = [snap(graph, from[0], from[1], 2000), snap(graph, to[0], to[1], 2000)];
      const answer = directionsOn(graph, `origin=${latLng(from)}&destination=${latLng(to)}&mode=${mode}&steps=false&overview=false`);
      if (!answer.ok || snaps.includes(null)) continue;
      checked++;
      const reference = referenceDeciseconds(graph, snaps[0]!, snaps[1]!);
      const duration = answer.body.routes[0].duration * 10;
      t.true(
        Math.abs(duration - reference) <= 2 + 0.002 * reference,
        `${mode} ${latLng(from)} → ${latLng(to)}: ${duration / 10} s, Dijkstra ${reference / 10} s`,
      );
    }
    t.true(checked >= 20, `${mode}: ${checked} routes checked`);
  }
});
