/** What the front end asks of a routing worker (directions, isochrone, matrix, nearest, match, trip), and what it answers: a JSON body, or a 4xx with an OSRM-style code. */
import type { DirectionsParams, IsochroneParams } from '../sanitize/endpoints.js';
import type { MatchParams } from '../sanitize/match.js';
import type { MatrixParams } from '../sanitize/matrix.js';
import type { OptimizeParams } from '../sanitize/optimize.js';
import type { TravelMode } from '../../../core/routing/network.js';
import type { PointOrder } from '../../http/params/coverage.js';
import type { LonLat } from '../../http/params/position.js';
import type { SnapRule } from '../sanitize/snapping.js';
import type { RouteAnnotation } from '../response/annotation.js';
import type { SnapFilter } from '../graph/snap.js';

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

/** How far from a point its road may be, in metres; farther is `NoSegment`. */
export const SNAP_RADIUS_METRES = 2000;
