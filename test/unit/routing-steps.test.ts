/**
 * workers/routing/response/steps.ts on hand-made legs (no graph): the maneuver of a known turn (its
 * type, modifier, place and bearings, the road it is named after, its instruction), a new name
 * where only two roads meet, nothing where the road keeps its name, `end of road` at a T, a short run joining the step
 * before it, a notification where a ferry or pushing starts (and the step's mode), and the arrival.
 */
import test from 'ava';
import type { PathSegment, RouteLeg } from '../../workers/routing/path.js';
import type { OsrmStep } from '../../workers/routing/response/osrm.js';
import { legSteps, SHORT_RUN_METRES, type StepOptions } from '../../workers/routing/response/steps.js';

type LonLat = [number, number];

const OPTIONS: StepOptions = { mode: 'driving', geometries: 'geojson', lang: 'en' };
const ONLY_LEG = { legIndex: 0, legCount: 1 };

/** A run of a leg: `first` to `last` of its polyline on road `name`. */
function run(name: string, first: number, last: number, distance: number, duration: number, more: Partial<PathSegment> = {}): PathSegment {
  return {
    name,
    ref: '',
    pronunciation: '',
    roundabout: false,
    travel: 'default',
    guidance: 0,
    distance,
    duration,
    first,
    last,
    junctionRoads: undefined,
    junctionExits: undefined,
    junctionsPassed: undefined,
    ...more,
  };
}

function leg(coordinates: LonLat[], segments: PathSegment[]): RouteLeg {
  const distance = segments.reduce((sum, s) => sum + s.distance, 0);
  const duration = segments.reduce((sum, s) => sum + s.duration, 0);
  return { distance, duration, coordinates, nodes: coordinates.map(() => 0), segments, spans: [] };
}

const maneuvers = (steps: OsrmStep[]) =>
  steps.map(({ name, distance, duration, maneuver: { type, modifier, location, bearing_before, bearing_after } }) => ({
    type,
    modifier,
    name,
    location,
    bearing_before,
    bearing_after,
    distance,
    duration,
  }));

// East along Main Street to a junction at (0.002, 45) where Main Street goes on east and North Road leaves north.
const JUNCTION: LonLat = [0.002, 45];
const EAST_OF_JUNCTION: LonLat = [0.004, 45];
const NORTH_OF_JUNCTION: LonLat = [0.002, 45.002];

test('a left turn at a junction of three roads: a `turn` step onto the road taken, then the arrival', (t) => {
  const steps = legSteps(
    leg(
      [[0.0005, 45], [0.001, 45], JUNCTION, [0.002, 45.001]],
      [
        run('Main Street', 0, 2, 118, 15),
        run('North Road', 2, 3, 111.2, 7.5, { junctionRoads: 3, junctionExits: [EAST_OF_JUNCTION, NORTH_OF_JUNCTION] }),
      ],
    ),
    OPTIONS,
    ONLY_LEG,
  );
  t.deepEqual(maneuvers(steps), [
    {
      type: 'depart',
      modifier: undefined,
      name: 'Main Street',
      location: [0.0005, 45],
      bearing_before: 0,
      bearing_after: 90,
      distance: 118,
      duration: 15,
    },
    {
      type: 'turn',
      modifier: 'left',
      name: 'North Road',
      location: JUNCTION,
      bearing_before: 90,
      bearing_after: 0,
      distance: 111.2,
      duration: 7.5,
    },
    {
      type: 'arrive',
      modifier: undefined,
      name: 'North Road',
      location: [0.002, 45.001],
      bearing_before: 0,
      bearing_after: 0,
      distance: 0,
      duration: 0,
    },
  ]);
  t.is(steps[1]!.maneuver.instruction, 'Turn left onto North Road');
  // Each step's line runs from its maneuver to the next one.
  t.deepEqual(steps[0]!.geometry, { type: 'LineString', coordinates: [[0.0005, 45], [0.001, 45], JUNCTION] });
  t.deepEqual(steps[1]!.geometry, { type: 'LineString', coordinates: [JUNCTION, [0.002, 45.001]] });
  t.deepEqual(steps[1]!.intersections, [{ location: JUNCTION, bearings: [0, 270], entry: [true, true], in: 1, out: 0 }]);
});

test('where only two roads meet, a change of name straight on is a `new name`; the same name is no step', (t) => {
  const coordinates: LonLat[] = [[0, 45], JUNCTION, [0.004, 45]];
  const renamed = legSteps(
    leg(coordinates, [
      run('Main Street', 0, 1, 157, 20),
      run('Harbour Road', 1, 2, 157, 20, { junctionRoads: 2, junctionExits: [EAST_OF_JUNCTION] }),
    ]),
    OPTIONS,
    ONLY_LEG,
  );
  t.deepEqual(
    renamed.map((step) => [step.maneuver.type, step.maneuver.modifier, step.name]),
    [
      ['depart', undefined, 'Main Street'],
      ['new name', 'straight', 'Harbour Road'],
      ['arrive', undefined, 'Harbour Road'],
    ],
  );
  const same = legSteps(
    leg(coordinates, [
      run('Main Street', 0, 1, 157, 20),
      run('Main Street', 1, 2, 157, 20, { junctionRoads: 2, junctionExits: [EAST_OF_JUNCTION] }),
    ]),
    OPTIONS,
    ONLY_LEG,
  );
  t.deepEqual(
    maneuvers(same).map(({ type, distance, duration }) => ({ type, distance, duration })),
    [
      { type: 'depart', distance: 314, duration: 40 },
      { type: 'arrive', distance: 0, duration: 0 },
    ],
  );
});

test('a run shorter than SHORT_RUN_METRES between two roads joins the step before it, the turn told once after it', (t) => {
  const short = SHORT_RUN_METRES - 2;
  const steps = legSteps(
    leg(
      [[0, 45], JUNCTION, [0.002, 45.00009], [0.002, 45.001]],
      [
        run('Main Street', 0, 1, 157, 20),
        run('Link', 1, 2, short, 1, { junctionRoads: 3, junctionExits: [EAST_OF_JUNCTION, NORTH_OF_JUNCTION] }),
        run('North Road', 2, 3, 101, 7, { junctionRoads: 3, junctionExits: [[0.003, 45.00009], NORTH_OF_JUNCTION] }),
      ],
    ),
    OPTIONS,
    ONLY_LEG,
  );
  t.deepEqual(
    maneuvers(steps).map(({ type, modifier, name, distance, duration }) => ({ type, modifier, name, distance, duration })),
    [
      { type: 'depart', modifier: undefined, name: 'Main Street', distance: 157 + short, duration: 21 },
      { type: 'turn', modifier: 'left', name: 'North Road', distance: 101, duration: 7 },
      { type: 'arrive', modifier: undefined, name: 'North Road', distance: 0, duration: 0 },
    ],
  );
});

test('boarding a ferry is a `notification`, the ferry step in mode `ferry`', (t) => {
  const steps = legSteps(
    leg(
      [[0, 45], JUNCTION, [0.004, 45]],
      [run('Quay', 0, 1, 157, 20), run('Ferry', 1, 2, 157, 300, { travel: 'ferry', junctionRoads: 2, junctionExits: [EAST_OF_JUNCTION] })],
    ),
    OPTIONS,
    ONLY_LEG,
  );
  t.deepEqual(
    steps.map((step) => [step.maneuver.type, step.mode]),
    [
      ['depart', 'driving'],
      ['notification', 'ferry'],
      ['arrive', 'ferry'],
    ],
  );
});

test('pushing a bike is a step in mode `pushing bike`, told where the pushing starts', (t) => {
  const steps = legSteps(
    leg(
      [[0, 45], JUNCTION, [0.004, 45]],
      [
        run('Main Street', 0, 1, 157, 20),
        run('Main Street', 1, 2, 157, 60, { travel: 'pushing', junctionRoads: 2, junctionExits: [EAST_OF_JUNCTION] }),
      ],
    ),
    { ...OPTIONS, mode: 'cycling' },
    ONLY_LEG,
  );
  t.deepEqual(
    steps.map((step) => [step.maneuver.type, step.mode]),
    [
      ['depart', 'cycling'],
      ['notification', 'pushing bike'],
      ['arrive', 'pushing bike'],
    ],
  );
});

test('where the road arrived on ends at a T: `end of road` after passing a junction since the last maneuver, else `turn`', (t) => {
  // North along South Road to the junction, then left (west) onto Main Street.
  const coordinates: LonLat[] = [[0.002, 44.998], [0.002, 44.999], JUNCTION, [0.001, 45]];
  const turnOf = (junctionsPassed: number | undefined) =>
    legSteps(
      leg(coordinates, [
        run('South Road', 0, 2, 222, 20, { junctionsPassed }),
        run('Main Street', 2, 3, 79, 10, { junctionRoads: 3, junctionExits: [[0.001, 45], EAST_OF_JUNCTION] }),
      ]),
      OPTIONS,
      ONLY_LEG,
    )[1]!;
  const atEnd = turnOf(1);
  t.deepEqual([atEnd.maneuver.type, atEnd.maneuver.modifier, atEnd.name], ['end of road', 'left', 'Main Street']);
  t.deepEqual(atEnd.intersections, [{ location: JUNCTION, bearings: [180, 270], entry: [true, true], in: 0, out: 1 }]);
  const first = turnOf(undefined);
  t.deepEqual([first.maneuver.type, first.maneuver.modifier], ['turn', 'left']);
});
