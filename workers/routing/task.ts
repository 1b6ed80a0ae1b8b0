/**
 * The contract of the routing pool: what the front end (src/routing/) asks a routing thread
 * (thread.ts) — directions, isochrone, matrix, nearest, match, trip, with their parameters written
 * out — and what it answers: a JSON body, or a 4xx with an OSRM-style code. The front end imports
 * this file of workers/routing/ and no other; the parameter checks (src/routing/sanitize/) produce
 * these types.
 */
import type { TravelMode } from '../../core/routing/network.js';
import type { LonLat } from '../../core/geo/types.js';
import type { PointOrder } from '../../core/geo/point-text.js';

/** The module each thread of the pool loads (Piscina runs its default export). */
export const ROUTING_THREAD_FILE = new URL('./thread.js', import.meta.url).href;

/** What every thread of the pool gets: the graphs, and the elevation store's file (null: the dataset has none). */
export interface RoutingWorkerData {
  graphs: Partial<Record<TravelMode, SharedArrayBuffer>>;
  elevationFile: string | null;
}

/** How far from a point its road may be, in metres; farther is `NoSegment`. */
export const SNAP_RADIUS_METRES = 2000;

/** A heading filter: directions of travel within `range` degrees of `value`, clockwise from north. */
export interface BearingFilter {
  value: number;
  range: number;
}

/**
 * OSRM's `approaches`: `curb` keeps, of a two-way segment, the direction that has the input point on
 * its right (right-hand traffic: a vehicle stops and starts at the kerb on the point's side);
 * `opposite` the other one (OSRM v6's geospatial_query CheckApproach).
 */
export type Approach = 'curb' | 'opposite';

/** What a request narrows snapping to, beyond the radius. */
export interface SnapFilter {
  /** Only directions of travel heading within the filter (OSRM's `bearings`). */
  bearing?: BearingFilter | null;
  /** Segments that are no start point (ferries) too (OSRM's `snapping=any`). */
  anySegment?: boolean;
  /** The side of the road to arrive at and leave from (OSRM's `approaches`); absent: either. */
  approach?: Approach | null;
}

/** Where one point may snap. */
export interface SnapRule {
  radius: number;
  bearing: BearingFilter | null;
  /** `snapping=any`: ferries too. */
  anySegment: boolean;
  /** The side of the road to stop at (OSRM's `approaches`, set by osrm/requests.ts); null: either. */
  approach: Approach | null;
  /** OSRM's hint for the point (set by osrm/requests.ts): snapped again from it when it matches. */
  hint?: string;
}

/** The snap filter of a point's rule. */
export function filterOf(rule: SnapRule): SnapFilter {
  return { bearing: rule.bearing, anySegment: rule.anySegment, approach: rule.approach };
}

/** How a message names point `index` of a route's `count`: origin, waypoints[i], destination. */
export function pointName(index: number, count: number): string {
  if (index === 0) return 'origin';
  return index === count - 1 ? 'destination' : `waypoints[${index - 1}]`;
}

export const GEOMETRIES = ['polyline', 'polyline6', 'geojson'] as const;
export type Geometries = (typeof GEOMETRIES)[number];

/** OSRM semantics: `simplified` to the zoom level the route fits, `full`, or `false` for no route geometry. */
export const OVERVIEWS = ['simplified', 'full', 'false'] as const;
export type Overview = (typeof OVERVIEWS)[number];

/** `continue_straight` as OSRM takes it: `default` leaves it to the mode (answer/directions.ts). */
export const CONTINUE_STRAIGHT = ['default', 'true', 'false'] as const;
export type ContinueStraight = (typeof CONTINUE_STRAIGHT)[number];

/** What a matrix cell holds. */
export const ANNOTATIONS = ['duration', 'distance'] as const;
export type Annotation = (typeof ANNOTATIONS)[number];

/** OSRM's route `annotations` (response/annotation.ts). */
export const ROUTE_ANNOTATIONS = ['duration', 'distance', 'speed', 'weight', 'datasources', 'nodes'] as const;
export type RouteAnnotation = (typeof ROUTE_ANNOTATIONS)[number];

/** A bit per road class a route keeps off (core/routing/network.ts; `avoid`, OSRM's `exclude`); 0: none. */
export type AvoidMask = number;

/** How a route body is shaped, on every service that answers routes. */
interface RouteShape {
  mode: TravelMode;
  steps: boolean;
  geometries: Geometries;
  overview: Overview;
  /** An instruction language of osrm-text-instructions. */
  lang: string;
  avoid: AvoidMask;
  /** Each route with its ascent, descent and elevation profile. */
  elevation: boolean;
}

/** `/directions` (and OSRM's `route`). */
export interface DirectionsParams extends RouteShape {
  origin: LonLat;
  destination: LonLat;
  waypoints: LonLat[];
  /** Alternative routes to look for, 0–3. */
  alternatives: number;
  /** One per point: origin, the waypoints, destination. */
  snapRules: SnapRule[];
  continueStraight: ContinueStraight;
}

/** `/isochrone`. */
export interface IsochroneParams {
  center: LonLat;
  /** The contours' travel times in whole minutes, ascending. */
  time: number[];
  mode: TravelMode;
  /** A tolerance in metres for simplifying the contours; undefined: none. */
  generalize: number | undefined;
  polygons: boolean;
}

/** `/matrix` (and OSRM's `table`). */
export interface MatrixParams {
  sources: LonLat[];
  destinations: LonLat[];
  mode: TravelMode;
  annotations: Annotation[];
  sourceRules: SnapRule[];
  destinationRules: SnapRule[];
  avoid: AvoidMask;
}

/** `/match` (and OSRM's `match`). */
export interface MatchParams extends RouteShape {
  points: LonLat[];
  /** Seconds since the epoch, one per point; null: none given. */
  timestamps: number[] | null;
  /** Metres of GPS accuracy per point; null entries: the default. */
  radiuses: (number | null)[];
  /** The indexes of the points that end legs; null: every matched point does. */
  waypoints: number[] | null;
  gaps: 'split' | 'ignore';
  tidy: boolean;
}

/** Which ends of a trip are fixed. */
export interface TripEnds {
  roundtrip: boolean;
  /** The trip starts at point 0. */
  fixedStart: boolean;
  /** The trip ends at point n − 1 (before going back to the start for a round trip). */
  fixedEnd: boolean;
}

/** `/optimize` (and OSRM's `trip`). */
export interface OptimizeParams extends RouteShape {
  points: LonLat[];
  ends: TripEnds;
  snapRules: SnapRule[];
}

/** What only OSRM's services ask (set by osrm/requests.ts), beside Waymark's parameters. */
export interface OsrmExtras {
  /** OSRM's `generate_hints`: each waypoint (and match tracepoint) carries its hint. */
  generateHints?: boolean;
  /** How messages write a point: `lon,lat` on OSRM's paths (as their URLs), else `lat,lng`. */
  pointOrder?: PointOrder;
}

/** OSRM's `annotations`, on the services whose bodies hold routes (route, match, trip). */
export interface AnnotationExtras {
  annotations?: readonly RouteAnnotation[];
}

/** OSRM's match options beyond `/match`'s: hints, annotations, and per coordinate its `bearings`, `approaches` and `snapping`. */
export interface MatchExtras extends OsrmExtras, AnnotationExtras {
  snapFilters?: readonly SnapFilter[];
}

/** OSRM's route options: `annotations`, and `waypoints` (the indexes of the points that end legs; the others are passed through). */
export interface RouteExtras extends OsrmExtras, AnnotationExtras {
  legEnds?: readonly number[];
}

/** The road nearest a point, for OSRM's `nearest` service. */
export interface NearestParams extends OsrmExtras {
  mode: TravelMode;
  point: LonLat;
  /** How many pieces of road, nearest first (OSRM's `number`); 1 when absent. */
  number?: number;
  /** Where the point may snap (bearing, radius, snapping, hint); the defaults when absent. */
  rule?: SnapRule;
}

export type RoutingTask =
  | { kind: 'directions'; params: DirectionsParams & RouteExtras }
  | { kind: 'isochrone'; params: IsochroneParams }
  | { kind: 'matrix'; params: MatrixParams & OsrmExtras }
  | { kind: 'nearest'; params: NearestParams }
  | { kind: 'match'; params: MatchParams & MatchExtras }
  | { kind: 'trip'; params: OptimizeParams & OsrmExtras & AnnotationExtras; body: TripBodyKind };

/** A trip is answered with OSRM's trip body (`osrm`) or `/optimize`'s. */
export type TripBodyKind = 'osrm' | 'optimize';

/**
 * `NoSegment`: no road of the mode near a point; `NoRoute`: the network does not connect the points;
 * `NoMatch`: a trace could not be matched (OSRM's match codes); `NoTrips`: the points of a trip are not
 * all reachable from one another.
 */
export type RoutingFailureCode = 'NoSegment' | 'NoRoute' | 'NoMatch' | 'NoTrips';

export type RoutingAnswer = { ok: true; body: string } | { ok: false; code: RoutingFailureCode; message: string };
