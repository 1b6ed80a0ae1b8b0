/**
 * The road network of one travel mode as the OSM tagging rules leave it, before any speed-up
 * technique: junctions, and the segments of road between them with what the mode may do on them.
 * `osm-network.ts` builds it from OSM; `graph/` turns it into the contracted routing graph.
 */

export const TRAVEL_MODES = ['driving', 'walking', 'cycling'] as const;
export type TravelMode = (typeof TRAVEL_MODES)[number];

/**
 * A piece of one OSM way between two junctions (a node shared with another routable way of the
 * mode, a way end, or a barrier), in the way's own direction.
 */
export interface RoadSegment {
  /** Junction indices of the segment's first and last point. */
  from: number;
  to: number;
  /** The segment's polyline, from `from` to `to`: [lon, lat, lon, lat, ...], at least 2 points. */
  coordinates: number[];
  /** Length in metres (along the polyline, haversine). */
  distance: number;
  /** Travel time in seconds from `from` to `to`; null when the mode may not travel that way. */
  forwardSeconds: number | null;
  /** Travel time in seconds from `to` to `from`; null when the mode may not travel that way. */
  backwardSeconds: number | null;
  /** `name` of the way ('' when none). */
  name: string;
  /** `ref` of the way ('' when none). */
  ref: string;
  /** Part of a roundabout (`junction=roundabout` or `circular`). */
  roundabout: boolean;
  /** A ferry route (`route=ferry`), or a way a cyclist must push along: the travel mode OSRM reports. */
  travel: 'default' | 'ferry' | 'pushing';
  /** Set only when travel from `to` to `from` differs from `travel` (a cyclist pushing against a oneway). */
  backwardTravel?: 'default' | 'ferry' | 'pushing';
  /** The OSM way id (turn restrictions refer to it). */
  wayId: number;
}

/** A via-node turn restriction of the driving network (`type=restriction`, from way, via node, to way). */
export interface TurnRestriction {
  kind: 'no' | 'only';
  fromWay: number;
  /** The junction index of the via node. */
  via: number;
  toWay: number;
}

export interface RoadNetwork {
  mode: TravelMode;
  /** Junction positions, by junction index. */
  junctionLon: Float64Array;
  junctionLat: Float64Array;
  segments: RoadSegment[];
  /** Empty for walking and cycling. */
  restrictions: TurnRestriction[];
}
