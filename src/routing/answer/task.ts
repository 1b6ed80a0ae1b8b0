/** What the front end asks of a routing worker (directions, isochrone, matrix, nearest, trip), and what it answers: a JSON body, or a 4xx with an OSRM-style code. */
import type { DirectionsParams, IsochroneParams } from '../sanitize/endpoints.js';
import type { MatrixParams } from '../sanitize/matrix.js';
import type { OptimizeParams } from '../sanitize/optimize.js';
import type { TravelMode } from '../../../core/routing/network.js';
import type { LonLat } from '../../http/params/position.js';

/** The road nearest a point, for OSRM's `nearest` service. */
export interface NearestParams {
  mode: TravelMode;
  point: LonLat;
}

export type RoutingTask =
  | { kind: 'directions'; params: DirectionsParams }
  | { kind: 'isochrone'; params: IsochroneParams }
  | { kind: 'matrix'; params: MatrixParams }
  | { kind: 'nearest'; params: NearestParams }
  | { kind: 'trip'; params: OptimizeParams; body: TripBodyKind };

/** A trip is answered with OSRM's trip body (`osrm`) or `/optimize`'s. */
export type TripBodyKind = 'osrm' | 'optimize';

/**
 * `NoSegment`: no road of the mode near a point; `NoRoute`: the network does not connect the points;
 * `NoTrips`: the points of a trip are not all reachable from one another.
 */
export type RoutingFailureCode = 'NoSegment' | 'NoRoute' | 'NoTrips';

export type RoutingAnswer = { ok: true; body: string } | { ok: false; code: RoutingFailureCode; message: string };

/** How far from a point its road may be, in metres; farther is `NoSegment`. */
export const SNAP_RADIUS_METRES = 2000;
