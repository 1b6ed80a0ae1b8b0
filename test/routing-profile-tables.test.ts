/**
 * The routing profiles (data-pipeline/routing/profiles/) pinned row by row, in the style of OSRM's
 * cucumber features (`features/car/access.feature`: "Then routability should be" and a table).
 * Each row gives a way's (or a node's) tags, one column per OSM key (an empty cell: the tag is
 * absent) or a free `tags` column of `key=value` pairs, and what the profile makes of it:
 *
 *   - ways: `forw` and `backw`, the km/h along and against the way's node order (empty: closed
 *     that way), followed by `ferry` or `pushing` for those travel kinds and `restricted` for a
 *     direction used only to reach a destination on it (private, destination…); `duration` the
 *     seconds a ferry's `duration` tag gives the whole way; `start` `no` where a route may neither
 *     start nor end on it (OSRM `is_startpoint`: a car's private service road);
 *   - nodes: per mode (`driving`, `cycling`, `walking`) `pass`, `blocked` or `restricted`
 *     (passing costs what entering a restricted road does);
 *   - turn restrictions: per mode `no`, `only` or `-` (not obeyed).
 *
 * Expected values come from the profile code and the OSRM v6 profile each one cites (car.lua,
 * bicycle.lua, foot.lua); where Waymark differs from OSRM the row's `# comment` says how
 * (docs/ROUTING.md gives the reasons). Speeds are rounded to 0.01 km/h.
 */
import test from 'ava';
import { GUIDANCE_LOW_PRIORITY, GUIDANCE_MOTORWAY, GUIDANCE_RAMP, type TravelMode } from '../core/routing/network.js';
import { PROFILES } from '../data-pipeline/routing/profiles/index.js';
import type { DirectionTravel, Profile } from '../data-pipeline/routing/profiles/profile.js';
import { wayLabels } from '../data-pipeline/routing/profiles/ways.js';
import { rowTags, table, type Row } from './helpers/tables.js';

/** OSRM's profile names for Waymark's modes. */
const PROFILE: Record<'car' | 'bicycle' | 'foot', Profile> = { car: PROFILES.driving, bicycle: PROFILES.cycling, foot: PROFILES.walking };
type ProfileName = keyof typeof PROFILE;
const MODE_OF: Record<ProfileName, TravelMode> = { car: 'driving', bicycle: 'cycling', foot: 'walking' };

const titles = new Set<string>();
function uniqueTitle(title: string): string {
  while (titles.has(title)) title += ' again';
  titles.add(title);
  return title;
}
const titleOf = (prefix: string, row: Row) => uniqueTitle(`${prefix} ${row.text}${row.comment ? ` (${row.comment})` : ''}`);

/** A direction as a cell: `25`, `4 pushing`, `5 ferry`, `25 restricted`; '' when closed. */
function cell(direction: DirectionTravel | null | undefined): string {
  if (direction === null || direction === undefined) return '';
  const words = [String(Math.round(direction.kmh * 100) / 100)];
  if (direction.travel !== 'default') words.push(direction.travel);
  if (direction.restricted === true) words.push('restricted');
  return words.join(' ');
}

const normalized = (text: string | undefined) => (text ?? '').split(/\s+/).filter(Boolean).join(' ');

/** Routability of ways: one test per row, the profile's `way()` on the row's tags. */
function ways(profile: ProfileName, name: string, rows: Row[]): void {
  for (const row of rows) {
    test(titleOf(`${profile} ${name}`, row), (t) => {
      const tags = rowTags(row, ['forw', 'backw', 'duration', 'start']);
      const travel = PROFILE[profile].way(tags);
      t.deepEqual(
        {
          forw: cell(travel?.forward),
          backw: cell(travel?.backward),
          duration: travel?.durationSeconds === undefined ? '' : String(travel.durationSeconds),
          start: travel?.noStart === true ? 'no' : '',
        },
        {
          forw: normalized(row.cells.forw),
          backw: normalized(row.cells.backw),
          duration: row.cells.duration ?? '',
          start: row.cells.start ?? '',
        },
        `${profile}: ${row.named}${row.comment ? ` (${row.comment})` : ''}`,
      );
    });
  }
}

const MODES = ['driving', 'cycling', 'walking'] as const satisfies readonly TravelMode[];

/** What nodes do to each mode: one test per row, every profile's `node()` on the row's tags. */
function nodes(name: string, rows: Row[]): void {
  for (const row of rows) {
    test(titleOf(name, row), (t) => {
      const tags = rowTags(row, MODES);
      const actual = Object.fromEntries(MODES.map((mode) => [mode, PROFILES[mode].node(tags) ?? 'pass']));
      const expected = Object.fromEntries(MODES.map((mode) => [mode, row.cells[mode]]));
      t.deepEqual(actual, expected, `${row.named}${row.comment ? ` (${row.comment})` : ''}`);
    });
  }
}

/** Which turn restriction relations each mode obeys (`-`: not obeyed). */
function restrictions(name: string, rows: Row[]): void {
  for (const row of rows) {
    test(titleOf(name, row), (t) => {
      const tags = rowTags(row, MODES);
      const actual = Object.fromEntries(MODES.map((mode) => [mode, PROFILES[mode].turnRestriction(tags) ?? '-']));
      const expected = Object.fromEntries(MODES.map((mode) => [mode, row.cells[mode]]));
      t.deepEqual(actual, expected, `${row.named}${row.comment ? ` (${row.comment})` : ''}`);
    });
  }
}

test('the tables cover the three modes', (t) => {
  t.deepEqual(Object.values(MODE_OF).sort(), Object.keys(PROFILES).sort());
  for (const [name, profile] of Object.entries(PROFILE)) t.is(profile.mode, MODE_OF[name as ProfileName]);
});

// Ramps and motorways for guidance, the same for every mode (ways.ts wayLabels, OSRM Guidance.set_classification).
test('the road classification of a way: a motorway or trunk link is a ramp, a motorway or trunk a motorway, a way of no road class low priority', (t) => {
  const BITS = { ramp: GUIDANCE_RAMP, motorway: GUIDANCE_MOTORWAY, 'low priority': GUIDANCE_LOW_PRIORITY };
  const kinds = Object.fromEntries(
    ['motorway', 'motorway_link', 'trunk', 'trunk_link', 'primary', 'living_street', 'service', 'footway', ''].map((highway) => {
      const { guidance } = wayLabels(highway === '' ? { amenity: 'parking' } : { highway });
      return [highway || '(none)', Object.entries(BITS).flatMap(([name, bit]) => ((guidance & bit) !== 0 ? [name] : []))];
    }),
  );
  t.deepEqual(kinds, {
    motorway: ['motorway'],
    motorway_link: ['ramp'],
    trunk: ['motorway'],
    trunk_link: ['ramp'],
    primary: [],
    living_street: [],
    service: ['low priority'],
    footway: ['low priority'],
    '(none)': ['low priority'],
  });
});

// ── Car (driving.ts, after car.lua) ──────────────────────────────────────────────────────────────

// ROAD_KMH: car.lua `speeds.highway`; other classes are not driven unless an access tag opens them.
ways(
  'car',
  'speed',
  table`
  | highway        | forw | backw |
  | motorway       | 90   |       | # implied oneway
  | motorway_link  | 45   | 45    | # no implied oneway on links (as OSRM)
  | trunk          | 85   | 85    |
  | trunk_link     | 40   | 40    |
  | primary        | 65   | 65    |
  | primary_link   | 30   | 30    |
  | secondary      | 55   | 55    |
  | secondary_link | 25   | 25    |
  | tertiary       | 40   | 40    |
  | tertiary_link  | 20   | 20    |
  | unclassified   | 25   | 25    |
  | residential    | 25   | 25    |
  | living_street  | 10   | 10    |
  | service        | 15   | 15    |
  | road           |      |       |
  | track          |      |       |
  | path           |      |       |
  | footway        |      |       |
  | cycleway       |      |       |
  | pedestrian     |      |       |
  | bridleway      |      |       |
  | steps          |      |       |
  | construction   |      |       |
  | proposed       |      |       |
  | platform       |      |       |
`,
);

// Access: motorcar > motor_vehicle > vehicle > access; `key:forward`/`key:backward` before `key` at each level.
ways(
  'car',
  'access',
  table`
  | highway     | access       | vehicle | motor_vehicle | motorcar | forw           | backw          |
  | residential |              |         |               |          | 25             | 25             |
  | residential | yes          |         |               |          | 25             | 25             |
  | residential | no           |         |               |          |                |                |
  | residential | permissive   |         |               |          | 25             | 25             |
  | residential | designated   |         |               |          | 25             | 25             |
  | residential | hov          |         |               |          | 25             | 25             |
  | residential | private      |         |               |          | 25 restricted  | 25 restricted  |
  | residential | destination  |         |               |          | 25 restricted  | 25 restricted  |
  | residential | delivery     |         |               |          | 25 restricted  | 25 restricted  |
  | residential | customers    |         |               |          | 25 restricted  | 25 restricted  |
  | residential | agricultural |         |               |          |                |                |
  | residential | forestry     |         |               |          |                |                |
  | residential | emergency    |         |               |          |                |                |
  | residential | psv          |         |               |          |                |                |
  | residential | unknown      |         |               |          | 25             | 25             | # neither allowed nor forbidden: the class decides
  | residential |              | no      |               |          |                |                |
  | residential | no           | yes     |               |          | 25             | 25             |
  | residential | yes          | no      |               |          |                |                |
  | residential |              |         | no            |          |                |                |
  | residential | no           |         | yes           |          | 25             | 25             |
  | residential |              | no      | yes           |          | 25             | 25             |
  | residential |              | yes     | no            |          |                |                |
  | residential |              |         |               | no       |                |                |
  | residential | no           |         |               | yes      | 25             | 25             |
  | residential |              |         | no            | yes      | 25             | 25             |
  | residential |              |         | yes           | no       |                |                |
  | residential |              |         | private       | yes      | 25             | 25             |
  | residential | private      |         | yes           |          | 25             | 25             | # the most specific key decides
  | residential |              |         | destination   |          | 25 restricted  | 25 restricted  |
  | primary     | destination  |         |               |          | 65 restricted  | 65 restricted  |
  | motorway    | no           |         |               |          |                |                |
  | track       |              |         | yes           |          | 10             | 10             | # a class outside the table opened by an allowed value: 10 km/h
  | track       |              |         | designated    |          | 10             | 10             |
  | track       | yes          |         |               |          | 10             | 10             |
  | track       | unknown      |         |               |          |                |                | # OSRM opens it (any value not blacklisted); Waymark: an unknown word is no permission
  | track       | private      |         |               |          |                |                | # restricted values close ways off the road classes
  | track       |              |         | destination   |          |                |                |
  | footway     |              |         |               | yes      | 10             | 10             |
  | steps       |              |         |               | yes      |                |                | # steps are never driven
`,
);

// Start points (car.lua `service_access_tag_blacklist`, WayHandlers.startpoint): a highway=service
// whose forwards access (the hierarchy's most specific key) is private; any other road is one.
ways(
  'car',
  'start point',
  table`
  | tags                                                      | forw          | backw         | start |
  | highway=service access=private                            | 15 restricted | 15 restricted | no    |
  | highway=service motorcar=private                          | 15 restricted | 15 restricted | no    |
  | highway=service access:forward=private                    | 15 restricted | 15            | no    |
  | highway=service access:backward=private                   | 15            | 15 restricted |       | # OSRM reads the forwards access only
  | highway=service access=private motorcar=yes               | 15            | 15            |       |
  | highway=service access=destination                        | 15 restricted | 15 restricted |       |
  | highway=service                                           | 15            | 15            |       |
  | highway=residential access=private                        | 25 restricted | 25 restricted |       | # a private street: a start point
`,
);

// Directional access, bicycle and foot tags (ignored by cars), emergency access roads, HOV.
ways(
  'car',
  'access',
  table`
  | tags                                              | forw          | backw         |
  | highway=residential access:forward=no             |               | 25            |
  | highway=residential access:backward=no            | 25            |               |
  | highway=residential access=no access:forward=yes  | 25            |               |
  | highway=residential motorcar:backward=no          | 25            |               |
  | highway=residential access=yes motor_vehicle:forward=no motorcar=yes | 25 | 25     | # motorcar, the most specific key, decides before motor_vehicle:forward
  | highway=residential vehicle:backward=private      | 25            | 25 restricted |
  | highway=residential bicycle=no foot=no            | 25            | 25            |
  | highway=residential access:conditional="no @ (Mo-Fr)" | 25        | 25            | # conditional access is not read (as OSRM)
  | highway=service service=emergency_access          |               |               |
  | highway=service service=driveway                  | 15            | 15            |
  | highway=primary hov=designated                    | 65 restricted | 65 restricted |
  | highway=primary hov:lanes=designated\|designated  | 65 restricted | 65 restricted |
  | highway=primary hov:lanes=designated\|yes         | 65            | 65            |
  | highway=primary hov:lanes:forward=designated      | 65 restricted | 65            |
`,
);

// Oneways: oneway:motorcar > oneway:motor_vehicle > oneway:vehicle > oneway; implied on motorways and roundabouts.
ways(
  'car',
  'oneway',
  table`
  | tags                                             | forw | backw |
  | highway=residential oneway=yes                   | 25   |       |
  | highway=residential oneway=1                     | 25   |       |
  | highway=residential oneway=true                  | 25   |       |
  | highway=residential oneway=-1                    |      | 25    |
  | highway=residential oneway=reverse               |      | 25    | # OSRM reads only -1
  | highway=residential oneway=no                    | 25   | 25    |
  | highway=residential oneway=0                     | 25   | 25    |
  | highway=residential oneway=false                 | 25   | 25    |
  | highway=residential oneway=reversible            |      |       | # left out, as OSRM
  | highway=residential oneway=alternating           | 25   | 25    | # OSRM: both ways at 2.5 × the weight; Waymark has no separate weight
  | highway=residential oneway=unknown               | 25   | 25    |
  | highway=residential oneway=yes oneway:motorcar=no | 25  | 25    |
  | highway=residential oneway=no oneway:motor_vehicle=yes | 25 |  |
  | highway=residential oneway=yes oneway:vehicle=-1 |      | 25    |
  | highway=residential oneway:motorcar=yes oneway:vehicle=no | 25 |  |
  | highway=residential oneway=yes oneway:bicycle=no | 25   |       | # bicycles' own oneway does not concern cars
  | highway=residential oneway=yes oneway:conditional="no @ (06:00-10:00)" | 25 | |
  | highway=motorway                                 | 90   |       |
  | highway=motorway oneway=no                       | 90   | 90    |
  | highway=motorway oneway=-1                       |      | 90    |
  | highway=motorway_link                            | 45   | 45    |
  | highway=residential junction=roundabout          | 25   |       |
  | highway=residential junction=circular            | 25   |       |
  | highway=residential junction=roundabout oneway=no | 25  | 25    |
  | highway=primary oneway=yes access:backward=yes   | 65   |       | # access does not undo a oneway
`,
);

// Speed caps: 0.8 × maxspeed (its :forward/:backward first), then surface, tracktype, smoothness.
ways(
  'car',
  'maxspeed and road condition',
  table`
  | tags                                              | forw  | backw |
  | highway=primary maxspeed=50                       | 40    | 40    |
  | highway=primary maxspeed=100                      | 65    | 65    | # OSRM: 80 (0.8 × limit even above the class); Waymark: a limit only slows a road down
  | highway=motorway maxspeed=130                     | 90    |       | # OSRM: 104
  | highway=primary maxspeed="30 mph"                 | 38.62 | 38.62 |
  | highway=primary maxspeed="10 knots"               | 14.82 | 14.82 |
  | highway=primary maxspeed=none                     | 65    | 65    |
  | highway=residential maxspeed=walk                 | 5.6   | 5.6   |
  | highway=primary maxspeed=DE:urban                 | 40    | 40    |
  | highway=primary maxspeed=FR:rural                 | 64    | 64    |
  | highway=primary maxspeed=signals                  | 65    | 65    |
  | highway=primary maxspeed=50 maxspeed:forward=30   | 24    | 40    |
  | highway=primary maxspeed:backward=30              | 65    | 24    |
  | highway=primary surface=asphalt                   | 65    | 65    |
  | highway=primary surface=compacted                 | 65    | 65    |
  | highway=primary surface=paving_stones             | 60    | 60    |
  | highway=primary surface=gravel                    | 40    | 40    |
  | highway=primary surface=cobblestone               | 30    | 30    |
  | highway=primary surface=sand                      | 20    | 20    |
  | highway=primary surface=mud                       | 10    | 10    |
  | highway=primary tracktype=grade1                  | 60    | 60    |
  | highway=primary tracktype=grade2                  | 40    | 40    |
  | highway=primary tracktype=grade3                  | 30    | 30    |
  | highway=primary tracktype=grade4                  | 25    | 25    |
  | highway=primary tracktype=grade5                  | 20    | 20    |
  | highway=primary smoothness=intermediate           | 65    | 65    |
  | highway=primary smoothness=bad                    | 40    | 40    |
  | highway=primary smoothness=very_bad               | 20    | 20    |
  | highway=primary smoothness=horrible               | 10    | 10    |
  | highway=primary smoothness=very_horrible          | 5     | 5     |
  | highway=primary smoothness=impassable             |       |       |
  | highway=primary surface=gravel smoothness=very_bad maxspeed=70 | 20 | 20 | # the lowest cap wins
  | highway=track motor_vehicle=yes tracktype=grade1  | 10    | 10    |
`,
);

// Size limits against car.lua's default car (2.0 m high, 1.9 m wide, 4.8 m long, 2 t).
ways(
  'car',
  'size limits',
  table`
  | tags                                        | forw | backw |
  | highway=residential maxheight=1.8           |      |       |
  | highway=residential maxheight=2             | 25   | 25    |
  | highway=residential maxheight=2.5           | 25   | 25    |
  | highway=residential maxheight=6'6"          |      |       | # 1.98 m
  | highway=residential maxheight=default       | 25   | 25    |
  | highway=residential maxheight:physical=1.9 maxheight=3 |  |  |
  | highway=residential maxheight:forward=1.5   |      | 25    |
  | highway=residential maxwidth=1.9            |      |       | # a width equal to the car's closes too (as OSRM)
  | highway=residential maxwidth=2              | 25   | 25    |
  | highway=residential width=1.5               |      |       |
  | highway=residential est_width=1,8           |      |       |
  | highway=residential maxlength=4             |      |       |
  | highway=residential maxlength=12            | 25   | 25    |
  | highway=residential maxweight=1.5           |      |       |
  | highway=residential maxweight=3.5           | 25   | 25    |
  | highway=residential maxweight="1500 kg"     |      |       |
`,
);

// Ways cars do not use: construction, proposals, impassable, areas (car.lua `avoid.area`; walkers and cyclists go along them).
ways(
  'car',
  'unusable',
  table`
  | tags                                       | forw | backw |
  | highway=primary construction=yes           |      |       |
  | highway=primary construction=minor         | 65   | 65    |
  | highway=primary construction=widening      | 65   | 65    |
  | highway=primary construction=no            | 65   | 65    |
  | highway=primary proposed=motorway          |      |       |
  | highway=primary impassable=yes             |      |       |
  | highway=primary status=impassable          |      |       |
  | highway=service area=yes                   |      |       |
  | highway=residential area=no                | 25   | 25    |
  | railway=rail                               |      |       |
  | man_made=pier                              |      |       |
`,
);

// Ferries: 5 km/h, or the duration tag for the whole way; closed by forbidden or restricted access.
ways(
  'car',
  'ferry',
  table`
  | tags                                  | forw    | backw   | duration |
  | route=ferry                           | 5 ferry | 5 ferry |          |
  | route=ferry duration=01:30            | 5 ferry | 5 ferry | 5400     |
  | route=ferry duration=90               | 5 ferry | 5 ferry | 5400     | # a single number is minutes
  | route=ferry duration=0:45:30          | 5 ferry | 5 ferry | 2730     |
  | route=ferry duration=PT1H30M          | 5 ferry | 5 ferry | 5400     |
  | route=ferry duration=soon             | 5 ferry | 5 ferry |          |
  | route=ferry motor_vehicle=no          |         |         |          |
  | route=ferry motorcar=yes access=no    | 5 ferry | 5 ferry |          |
  | route=ferry access=private            |         |         |          | # restricted values close ways off the road classes
  | route=ferry oneway=yes                | 5 ferry | 5 ferry |          | # a ferry's oneway is not read (OSRM's ferries handler reopens both directions too)
  | route=bus                             |         |         |          |
`,
);

// Shuttle trains (car-carrying trains) and movable bridges: car.lua `route_speeds.shuttle_train` = 10
// in mode ferry with `duration` (WayHandlers.ferries), `bridge_speeds.movable` = 5 in the default
// mode with `duration` (WayHandlers.movables).
ways(
  'car',
  'shuttle train and movable bridge',
  table`
  | tags                                             | forw     | backw    | duration |
  | route=shuttle_train                              | 10 ferry | 10 ferry |          |
  | route=shuttle_train duration=00:35               | 10 ferry | 10 ferry | 2100     |
  | route=shuttle_train bicycle=yes                  | 10 ferry | 10 ferry |          |
  | route=shuttle_train motor_vehicle=no             |          |          |          |
  | route=shuttle_train railway=rail                 | 10 ferry | 10 ferry |          |
  | highway=primary bridge=movable                   | 5        | 5        |          |
  | highway=primary bridge=movable duration=00:10:00 | 5        | 5        | 600      |
  | highway=primary bridge=yes                       | 65       | 65       |          |
  | highway=primary bridge=movable capacity:car=0    | 5        | 5        |          | # car.lua compares the string with 0: never closed
  | highway=primary bridge=movable surface=mud       | 5        | 5        |          |
  | highway=primary bridge=movable motorcar=no       |          |          |          |
  | highway=primary bridge=movable oneway=yes        | 5        |          |          | # OSRM reopens the backward direction; Waymark keeps the oneway
  | highway=track bridge=movable                     |          |          |          | # no road class and no access tag: not driven
`,
);

// ── Bicycle (cycling.ts, after bicycle.lua) ──────────────────────────────────────────────────────

// RIDING_SPEEDS (bicycle.lua bicycle_speeds) and PUSHING_SPEEDS (pedestrian_speeds): ridden, pushed or not used.
ways(
  'bicycle',
  'speed',
  table`
  | highway        | forw      | backw     |
  | cycleway       | 15        | 15        |
  | primary        | 15        | 15        |
  | primary_link   | 15        | 15        |
  | secondary      | 15        | 15        |
  | secondary_link | 15        | 15        |
  | tertiary       | 15        | 15        |
  | tertiary_link  | 15        | 15        |
  | residential    | 15        | 15        |
  | unclassified   | 15        | 15        |
  | living_street  | 15        | 15        |
  | road           | 15        | 15        |
  | service        | 15        | 15        |
  | track          | 12        | 12        |
  | path           | 12        | 12        | # OSRM v6 bicycle.lua: path = 13 (docs/ROUTING.md and cycling.ts say 12 without marking it a difference)
  | footway        | 4 pushing | 4 pushing |
  | pedestrian     | 4 pushing | 4 pushing |
  | steps          | 2 pushing | 2 pushing |
  | motorway       |           |           |
  | motorway_link  |           |           |
  | trunk          |           |           |
  | trunk_link     |           |           |
  | bridleway      |           |           |
  | platform       |           |           | # bicycle.lua's platform_speeds read railway= and public_transport=, not highway=
  | pier           |           |           | # only man_made=pier is pushed
  | construction   |           |           |
`,
);

// Access: bicycle > vehicle > access, each key:forward/:backward first (OSRM's bicycle reads no directional access).
ways(
  'bicycle',
  'access',
  table`
  | highway     | access       | vehicle | bicycle      | foot       | forw      | backw     |
  | residential | no           |         |              |            |           |           |
  | residential | private      |         |              |            |           |           |
  | residential | delivery     |         |              |            |           |           |
  | residential | agricultural |         |              |            |           |           |
  | residential | forestry     |         |              |            |           |           |
  | residential | use_sidepath |         |              |            |           |           |
  | residential | destination  |         |              |            | 15        | 15        | # not a bicycle access value: the class decides
  | residential | permissive   |         |              |            | 15        | 15        |
  | residential |              | no      |              |            |           |           |
  | residential |              | no      | yes          |            | 15        | 15        |
  | residential |              | yes     | no           |            |           |           |
  | residential | no           |         | yes          |            | 15        | 15        |
  | residential | no           |         | designated   |            | 15        | 15        |
  | residential |              |         | use_sidepath |            |           |           |
  | residential |              |         | no           | yes        |           |           | # pushing never where cycling is forbidden
  | residential |              |         | dismount     |            | 4 pushing | 4 pushing |
  | primary     |              |         | dismount     |            | 4 pushing | 4 pushing |
  | pedestrian  |              |         | dismount     |            | 4 pushing | 4 pushing |
  | footway     |              |         | yes          |            | 15        | 15        |
  | footway     |              |         | designated   |            | 15        | 15        |
  | footway     |              |         | no           |            |           |           |
  | footway     |              |         |              | no         |           |           |
  | footway     | no           |         |              |            |           |           |
  | steps       |              |         | yes          |            | 15        | 15        | # an allowed value opens any kind at 15 (as OSRM)
  | bridleway   |              |         |              | yes        | 4 pushing | 4 pushing |
  | bridleway   |              |         |              | designated | 4 pushing | 4 pushing | # OSRM pushes only where foot=yes
  | bridleway   |              |         |              | permissive | 4 pushing | 4 pushing |
  | bridleway   |              |         | yes          |            | 15        | 15        |
  | motorway    |              |         | yes          |            | 15        | 4 pushing | # OSRM: no pushing against an implied oneway
  | motorway    |              |         |              | yes        | 4 pushing | 4 pushing | # OSRM pushes forward only (implied oneway)
`,
);

ways(
  'bicycle',
  'access',
  table`
  | tags                                          | forw      | backw     |
  | highway=residential bicycle:forward=no        |           | 15        | # directional access, as every mode (OSRM's bicycle reads none)
  | highway=residential vehicle:backward=no       | 15        |           |
  | highway=bridleway foot:forward=yes            | 4 pushing |           |
  | highway=bridleway foot:backward=yes           |           | 4 pushing |
  | highway=residential motor_vehicle=no          | 15        | 15        |
  | highway=residential motorcar=no foot=no       | 15        | 15        |
`,
);

// Oneways: oneway:bicycle first; else oneway or implied, cancelled by a contraflow lane; pushing back against them.
ways(
  'bicycle',
  'oneway',
  table`
  | tags                                                 | forw      | backw     |
  | highway=residential oneway=yes                       | 15        | 4 pushing |
  | highway=residential oneway=1                         | 15        | 4 pushing |
  | highway=residential oneway=-1                        | 4 pushing | 15        |
  | highway=residential oneway=no                        | 15        | 15        |
  | highway=residential oneway=reversible                | 15        | 15        | # reversible and alternating close nothing for bicycles (as OSRM)
  | highway=residential oneway=alternating               | 15        | 15        |
  | highway=residential oneway=yes oneway:bicycle=no     | 15        | 15        |
  | highway=residential oneway=yes oneway:bicycle=-1     | 4 pushing | 15        |
  | highway=residential oneway:bicycle=yes               | 15        | 4 pushing |
  | highway=residential oneway=yes cycleway=opposite     | 15        | 15        |
  | highway=residential oneway=yes cycleway=opposite_lane | 15       | 15        |
  | highway=residential oneway=yes cycleway=opposite_track | 15      | 15        |
  | highway=residential oneway=yes cycleway:left=opposite_lane | 15  | 15        |
  | highway=residential oneway=yes cycleway:right=opposite_lane | 15 | 15        |
  | highway=residential oneway=yes cycleway:both=opposite_lane | 15  | 15        | # cycleway:both is Waymark's addition
  | highway=residential oneway=-1 cycleway=opposite      | 15        | 15        |
  | highway=residential oneway=yes cycleway=lane         | 15        | 4 pushing |
  | highway=residential oneway=yes foot=no               | 15        |           |
  | highway=residential oneway=yes access=no bicycle=yes | 15        |           | # pushing needs walking allowed (foot > access)
  | highway=residential junction=roundabout              | 15        |           | # never pushed round a roundabout
  | highway=residential junction=circular                | 15        |           |
  | highway=residential junction=roundabout oneway:bicycle=no | 15   | 15        |
  | highway=residential junction=roundabout cycleway=opposite_lane | 15 | 15     |
`,
);

// Road condition: surface (bicycle.lua surface_speeds) and tracktype (Waymark's own); maxspeed is not read.
ways(
  'bicycle',
  'surface',
  table`
  | tags                                          | forw      | backw     |
  | highway=residential surface=asphalt           | 15        | 15        |
  | highway=residential surface=cobblestone:flattened | 10    | 10        |
  | highway=residential surface=paving_stones     | 10        | 10        |
  | highway=residential surface=compacted         | 10        | 10        |
  | highway=residential surface=fine_gravel       | 10        | 10        |
  | highway=residential surface=ground            | 10        | 10        |
  | highway=residential surface=sett              | 9         | 9         |
  | highway=residential surface=dirt              | 8         | 8         |
  | highway=residential surface=cobblestone       | 6         | 6         | # OSRM v6: 7 (docs/ROUTING.md calls the table the same)
  | highway=residential surface=unpaved           | 6         | 6         |
  | highway=residential surface=gravel            | 6         | 6         |
  | highway=residential surface=pebblestone       | 6         | 6         |
  | highway=residential surface=earth             | 6         | 6         |
  | highway=residential surface=grass             | 6         | 6         |
  | highway=residential surface=mud               | 3         | 3         |
  | highway=residential surface=sand              | 3         | 3         |
  | highway=residential surface=woodchips         | 3         | 3         |
  | highway=residential surface=wood              | 15        | 15        | # OSRM v6: 10 (not in Waymark's table)
  | highway=residential surface=metal             | 15        | 15        | # OSRM v6: 10 (not in Waymark's table)
  | highway=residential surface=grass_paver       | 15        | 15        | # OSRM v6: 6 (not in Waymark's table)
  | highway=track surface=sett                    | 9         | 9         |
  | highway=cycleway tracktype=grade1             | 15        | 15        |
  | highway=cycleway tracktype=grade2             | 12        | 12        |
  | highway=cycleway tracktype=grade3             | 8         | 8         |
  | highway=cycleway tracktype=grade4             | 6         | 6         |
  | highway=cycleway tracktype=grade5             | 4         | 4         |
  | highway=track tracktype=grade5 surface=mud    | 3         | 3         |
  | highway=primary maxspeed=10                   | 15        | 15        | # OSRM caps by maxspeed; Waymark does not read it
  | highway=footway surface=gravel                | 4 pushing | 4 pushing | # pushing speed is not capped
`,
);

ways(
  'bicycle',
  'ferry and other ways',
  table`
  | tags                                   | forw      | backw     | duration |
  | route=ferry                            | 5 ferry   | 5 ferry   |          |
  | route=ferry duration=30                | 5 ferry   | 5 ferry   | 1800     |
  | route=ferry bicycle=no                 |           |           |          |
  | man_made=pier                          | 4 pushing | 4 pushing |          |
  | man_made=pier bicycle=yes              | 15        | 15        |          |
  | man_made=pier foot=no                  |           |           |          |
  | highway=primary construction=yes       |           |           |          |
  | highway=construction bicycle=yes       |           |           |          |
  | highway=cycleway area=yes              | 15        | 15        |          | # ridden along the outline
  | highway=pedestrian area=yes            | 4 pushing | 4 pushing |          |
  | area=yes building=yes access=yes       |           |           |          | # no highway, railway, amenity… tag: not read
  | highway=path smoothness=impassable     |           |           |          | # OSRM passes
  | highway=path impassable=yes            |           |           |          |
  | railway=platform                       | 4         | 4         |          | # platform_speeds: ridden at walking pace
  | public_transport=platform              | 4         | 4         |          |
  | highway=footway railway=platform       | 4         | 4         |          |
  | amenity=parking                        | 10        | 10        |          |
  | amenity=parking_entrance               | 10        | 10        |          |
  | amenity=parking bicycle=no             |           |           |          |
  | bridge=movable                         | 5         | 5         |          |
  | bridge=movable duration=00:05:00       | 5         | 5         | 300      |
  | highway=primary bridge=movable         | 5         | 5         |          |
  | leisure=track                          |           |           |          | # foot.lua's leisure=track is not in bicycle.lua
  | railway=train bicycle=yes              | 10 train  | 10 train  |          |
  | railway=subway bicycle=designated      | 10 train  | 10 train  |          |
  | railway=tram bicycle=yes oneway=yes    | 10 train  |           |          |
  | railway=train                          |           |           |          |
  | railway=train bicycle=no               |           |           |          |
  | railway=train foot=yes                 | 4 pushing | 4 pushing |          | # bike_push_handler: foot=yes
  | railway=invalid_tag bicycle=yes        | 15        | 15        |          | # unknown kind, valid access: default speed
  | railway=construction bicycle=yes       |           |           |          | # avoid.construction
  | highway=residential railway=tram bicycle=yes | 15  | 15        |          | # OSRM: 10 train; Waymark rides a street mapped with its tram line as a street
`,
);

// ── Foot (walking.ts, after foot.lua) ────────────────────────────────────────────────────────────

// SPEEDS: foot.lua `speeds`, 5 km/h; steps 3.
ways(
  'foot',
  'speed',
  table`
  | highway        | forw | backw |
  | primary        | 5    | 5     |
  | primary_link   | 5    | 5     |
  | secondary      | 5    | 5     |
  | secondary_link | 5    | 5     |
  | tertiary       | 5    | 5     |
  | tertiary_link  | 5    | 5     |
  | unclassified   | 5    | 5     |
  | residential    | 5    | 5     |
  | road           | 5    | 5     |
  | living_street  | 5    | 5     |
  | service        | 5    | 5     |
  | track          | 5    | 5     |
  | path           | 5    | 5     |
  | pedestrian     | 5    | 5     |
  | footway        | 5    | 5     |
  | platform       | 5    | 5     |
  | pier           | 5    | 5     |
  | steps          | 3    | 3     | # OSRM: 5; Waymark counts the climb
  | motorway       |      |       |
  | motorway_link  |      |       |
  | trunk          |      |       |
  | trunk_link     |      |       |
  | cycleway       |      |       |
  | bridleway      |      |       |
  | construction   |      |       | # OSRM walks ways under construction
  | proposed       |      |       |
`,
);

// Access: foot > access, each key:forward/:backward first.
ways(
  'foot',
  'access',
  table`
  | highway     | access       | foot       | forw | backw |
  | residential | no           |            |      |       |
  | residential | private      |            |      |       |
  | residential | delivery     |            |      |       |
  | residential | agricultural |            |      |       |
  | residential | forestry     |            |      |       |
  | residential | use_sidepath |            |      |       | # Waymark's own: the sidewalk mapped beside the road must be used
  | residential | destination  |            | 5    | 5     | # not a foot access value: the class decides
  | residential | customers    |            | 5    | 5     |
  | residential | permissive   |            | 5    | 5     |
  | residential |              | no         |      |       |
  | residential |              | use_sidepath |    |       |
  | residential | no           | yes        | 5    | 5     |
  | residential | yes          | no         |      |       |
  | residential | private      | designated | 5    | 5     |
  | cycleway    |              | yes        | 5    | 5     |
  | cycleway    |              | designated | 5    | 5     |
  | bridleway   |              | permissive | 5    | 5     |
  | cycleway    | yes          |            | 5    | 5     |
  | cycleway    | unknown      |            |      |       | # OSRM opens it (any value not blacklisted); Waymark: an unknown word is no permission
  | motorway    |              | yes        | 5    | 5     | # walkers ignore the implied oneway
  | trunk       |              | yes        | 5    | 5     |
`,
);

ways(
  'foot',
  'access and oneway',
  table`
  | tags                                        | forw | backw |
  | highway=residential foot:backward=no        | 5    |       |
  | highway=residential access=no foot:forward=yes | 5 |       |
  | highway=residential access:forward=no       |      | 5     |
  | highway=residential bicycle=no vehicle=no motor_vehicle=no | 5 | 5 |
  | highway=residential oneway=yes              | 5    | 5     | # only oneway:foot binds walkers
  | highway=residential oneway=-1               | 5    | 5     |
  | highway=residential junction=roundabout     | 5    | 5     |
  | highway=motorway_link foot=yes oneway=yes   | 5    | 5     |
  | highway=footway oneway:foot=yes             | 5    |       |
  | highway=footway oneway:foot=-1              |      | 5     |
  | highway=footway oneway=yes oneway:foot=no   | 5    | 5     |
  | highway=steps oneway:foot=yes               | 3    |       |
`,
);

// Surface (foot.lua surface_speeds); maxspeed is not read.
ways(
  'foot',
  'surface',
  table`
  | tags                                   | forw | backw |
  | highway=path surface=asphalt           | 5    | 5     |
  | highway=path surface=fine_gravel       | 3.75 | 3.75  |
  | highway=path surface=gravel            | 3.75 | 3.75  |
  | highway=path surface=pebblestone       | 3.75 | 3.75  |
  | highway=path surface=mud               | 2.5  | 2.5   |
  | highway=path surface=sand              | 2.5  | 2.5   |
  | highway=path surface=cobblestone       | 5    | 5     |
  | highway=path tracktype=grade5          | 5    | 5     |
  | highway=steps surface=gravel           | 3    | 3     |
  | highway=residential maxspeed=3         | 5    | 5     |
`,
);

ways(
  'foot',
  'ferry and other ways',
  table`
  | tags                                   | forw    | backw   | duration |
  | route=ferry                            | 5 ferry | 5 ferry |          |
  | route=ferry duration=00:20             | 5 ferry | 5 ferry | 1200     |
  | route=ferry foot=no                    |         |         |          |
  | route=ferry access=private             |         |         |          |
  | man_made=pier                          | 5       | 5       |          |
  | man_made=pier foot=no                  |         |         |          |
  | highway=pedestrian area=yes            | 5       | 5       |          | # walked along the outline of the square
  | highway=footway area=yes foot=no       |         |         |          |
  | area=yes building=yes access=yes       |         |         |          | # no highway, railway, amenity… tag: not read
  | highway=path smoothness=impassable     |         |         |          | # OSRM passes
  | highway=footway construction=yes       |         |         |          | # OSRM: skips only proposed ways for walkers
  | highway=footway proposed=yes           |         |         |          |
  | railway=platform                       | 5       | 5       |          |
  | amenity=parking                        | 5       | 5       |          |
  | amenity=parking_entrance               | 5       | 5       |          |
  | amenity=parking foot=no                |         |         |          |
  | leisure=track                          | 5       | 5       |          |
  | railway=train                          |         |         |          |
  | railway=train bicycle=yes              |         |         |          |
  | bridge=movable                         |         |         |          | # foot.lua has no bridge_speeds
`,
);

// ── Nodes: barriers and access tags on nodes, every mode ────────────────────────────────────────

nodes(
  'barriers',
  table`
  | tags                                        | driving    | cycling | walking |
  | highway=traffic_signals                     | pass       | pass    | pass    |
  | barrier=gate                                | pass       | pass    | pass    |
  | barrier=lift_gate                           | pass       | pass    | pass    |
  | barrier=cattle_grid                         | pass       | pass    | pass    |
  | barrier=border_control                      | pass       | pass    | pass    |
  | barrier=toll_booth                          | pass       | pass    | pass    |
  | barrier=sally_port                          | pass       | pass    | pass    |
  | barrier=no                                  | pass       | pass    | pass    |
  | barrier=entrance                            | pass       | pass    | pass    |
  | barrier=arch                                | pass       | pass    | pass    |
  | barrier=height_restrictor                   | pass       | pass    | pass    |
  | barrier=height_restrictor maxheight=1.9     | blocked    | pass    | pass    |
  | barrier=height_restrictor maxheight=2.5     | pass       | pass    | pass    |
  | barrier=bollard                             | blocked    | pass    | pass    |
  | barrier=bollard bollard=rising              | pass       | pass    | pass    |
  | barrier=block                               | blocked    | pass    | pass    |
  | barrier=kerb                                | blocked    | pass    | pass    |
  | barrier=kerb kerb=lowered                   | pass       | pass    | pass    |
  | barrier=kerb kerb=flush                     | pass       | pass    | pass    |
  | barrier=kerb kerb=raised                    | blocked    | pass    | pass    |
  | barrier=kerb highway=crossing               | pass       | pass    | pass    | # a crossing's kerb mapped on the road's node
  | barrier=cycle_barrier                       | blocked    | pass    | pass    |
  | barrier=stile                               | blocked    | pass    | pass    |
  | barrier=turnstile                           | blocked    | pass    | pass    |
  | barrier=chain                               | blocked    | pass    | pass    |
  | barrier=yes                                 | blocked    | blocked | blocked |
  | barrier=wall                                | blocked    | blocked | blocked |
  | barrier=fence                               | blocked    | blocked | blocked |
`,
);

nodes(
  'node access',
  table`
  | tags                                        | driving    | cycling | walking |
  | barrier=gate access=no                      | blocked    | blocked | blocked |
  | barrier=gate access=yes                     | pass       | pass    | pass    |
  | barrier=gate access=private                 | restricted | blocked | blocked | # OSRM's car passes a private gate freely
  | barrier=gate access=destination             | restricted | pass    | pass    |
  | barrier=gate access=delivery                | restricted | blocked | blocked |
  | barrier=gate access=customers               | restricted | pass    | pass    |
  | barrier=gate vehicle=private                | restricted | blocked | pass    |
  | barrier=gate motor_vehicle=no               | blocked    | pass    | pass    |
  | barrier=gate access=no foot=yes             | blocked    | blocked | pass    |
  | barrier=bollard motorcar=yes                | pass       | pass    | pass    | # an access value decides whatever the barrier
  | barrier=bollard access=no bicycle=yes       | blocked    | pass    | blocked |
  | barrier=wall foot=yes                       | blocked    | blocked | pass    |
  | barrier=fence access=yes                    | pass       | pass    | pass    |
  | access=no                                   | blocked    | blocked | blocked | # on a plain node, as a wall
  | access=unknown barrier=bollard              | pass       | pass    | pass    | # any access value that does not forbid lets the mode pass
  | highway=crossing bicycle=no                 | pass       | pass    | pass    | # cyclists: about crossing the road, not riding along it
  | highway=crossing foot=no                    | pass       | pass    | blocked | # walkers: foot=no on a crossing blocks (as OSRM)
  | highway=crossing access=no                  | blocked    | pass    | blocked |
`,
);

// ── Turn restrictions: only cars obey them ──────────────────────────────────────────────────────

restrictions(
  'turn restrictions',
  table`
  | tags                                                                   | driving | cycling | walking |
  | type=restriction restriction=no_left_turn                              | no      | -       | -       |
  | type=restriction restriction=no_u_turn                                 | no      | -       | -       |
  | type=restriction restriction=no_entry                                  | no      | -       | -       |
  | type=restriction restriction=only_straight_on                          | only    | -       | -       |
  | type=restriction restriction=only_right_turn                           | only    | -       | -       |
  | type=restriction restriction:motorcar=no_left_turn                     | no      | -       | -       |
  | type=restriction restriction:motor_vehicle=only_right_turn restriction=no_left_turn | only | - | - | # the vehicle's own key first
  | type=restriction restriction:vehicle=no_right_turn                     | no      | -       | -       |
  | type=restriction restriction:bus=no_left_turn                          | -       | -       | -       |
  | type=restriction restriction:bicycle=no_left_turn                      | -       | -       | -       |
  | type=restriction restriction=no_left_turn except=motorcar              | -       | -       | -       |
  | type=restriction restriction=no_left_turn except="psv; motor_vehicle"  | -       | -       | -       |
  | type=restriction restriction=no_left_turn except=bicycle               | no      | -       | -       |
  | type=restriction restriction:conditional="no_left_turn @ (Mo-Fr)"      | -       | -       | -       |
  | type=restriction restriction=give_way                                  | -       | -       | -       |
  | type=multipolygon restriction=no_left_turn                             | -       | -       | -       |
  | type=restriction restriction=no_turn_on_red                            | -       | -       | -       | # OSRM's RestrictionParser::TryParse: no_*_on_red is not a prohibition, the relation is discarded
  | type=restriction restriction=no_right_turn_on_red                      | -       | -       | -       | # OSRM: discarded as no_*_on_red
  | type=restriction restriction=yield                                     | -       | -       | -       | # OSRM: neither only_* nor no_*, discarded
  | type=restriction restriction:motorcar=no_left_turn restriction=give_way | -      | -       | -       | # OSRM: one unrecognized value among the keys read discards the relation
  | type=restriction restriction:vehicle=no_turn_on_red restriction=no_left_turn | - | -       | -       | # OSRM: likewise for a no_*_on_red
  | type=restriction restriction=no_left_turn restriction:hgv=give_way     | no      | -       | -       | # OSRM: restriction:hgv is not read for cars
  | type=restriction restriction=only_right_on                             | only    | -       | -       | # OSRM: any only_* value is a mandate
  | type=restriction restriction=no_left_turn restriction:conditional="only_right_turn @ (Mo-Fr)" | no | - | - | # OSRM v6 ignores conditional restrictions unless built with --parse-conditional-restrictions
`,
);
