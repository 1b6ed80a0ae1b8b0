/**
 * The road network of one travel mode as the OSM tagging rules leave it, before any speed-up
 * technique: junctions, and the segments of road between them with what the mode may do on them.
 * `osm-network.ts` builds it from OSM; `graph/` turns it into the contracted routing graph.
 *
 * It is held in columns of typed arrays (one entry per segment, all polylines in one array), so
 * that it costs a few dozen bytes per segment and moves to a worker thread by transferring its
 * buffers instead of copying objects.
 */

export const TRAVEL_MODES = ['driving', 'walking', 'cycling'] as const;
export type TravelMode = (typeof TRAVEL_MODES)[number];

/**
 * How a stretch is travelled, the travel mode OSRM reports: normal, on a ferry, pushing a bicycle,
 * or with the bicycle on a train. At most 4 (2 bits per direction in the graph file's segment flags).
 */
export const TRAVEL_KINDS = ['default', 'ferry', 'pushing', 'train'] as const;
export type TravelKind = (typeof TRAVEL_KINDS)[number];

/**
 * The road classes a route may be asked to avoid (OSRM's `exclude`), one bit each in a direction's
 * class mask: `motorway` (highway=motorway and motorway_link), `toll` (toll=yes, toll:forward,
 * toll:backward), `ferry` (route=ferry), as OSRM v6's WayHandlers.classes sets them.
 */
export const ROAD_CLASSES = ['motorway', 'toll', 'ferry'] as const;
export type RoadClass = (typeof ROAD_CLASSES)[number];
/** Bits per direction in RoadSegments.classes: forward classes in bits 0–2, backward ones in bits 3–5. */
export const CLASS_BITS = 3;

/**
 * The classes a route of each mode may exclude: OSRM v6's car.lua has all three (one at a time;
 * Waymark takes any combination), bicycle.lua ferry (commented out by default there), foot.lua
 * none (Waymark takes ferry: the walking network has ferries too).
 */
export const EXCLUDABLE_CLASSES: Record<TravelMode, readonly RoadClass[]> = {
  driving: ROAD_CLASSES,
  cycling: ['ferry'],
  walking: ['ferry'],
};

/**
 * RoadSegments.guidance bits, what OSRM reads of a way beside how it is travelled. GUIDANCE_RAMP: a
 * motorway or trunk link (OSRM's road classification `IsRampClass`, lib/guidance.lua), `on ramp`
 * when entered from another road; GUIDANCE_MOTORWAY: a motorway or trunk (`IsMotorwayClass`),
 * from which a ramp is an `off ramp`; GUIDANCE_NO_START: no place to start or end a route beyond
 * what its travel kind says (OSRM `is_startpoint` false: a car's `highway=service` whose access
 * is private, WayHandlers.startpoint), so a point beside it snaps to the road it leaves from;
 * GUIDANCE_LOW_PRIORITY: a way that is no road class (OSRM `may_be_ignored`: a service road, a
 * path, a square's outline), never the obvious way on from a road that is one.
 */
export const GUIDANCE_RAMP = 1;
export const GUIDANCE_MOTORWAY = 2;
export const GUIDANCE_NO_START = 4;
export const GUIDANCE_LOW_PRIORITY = 8;

/** The mask of a set of road classes. */
export function classMask(classes: readonly RoadClass[]): number {
  let mask = 0;
  for (const name of classes) mask |= 1 << ROAD_CLASSES.indexOf(name);
  return mask;
}

/**
 * Segment s is a piece of one OSM way between two junctions (a node shared with another routable
 * way of the mode, a way end, or a barrier), in the way's own direction.
 */
export interface RoadSegments {
  count: number;
  /** Junction indices of the segment's first and last point. */
  from: Uint32Array;
  to: Uint32Array;
  /** Travel time in seconds from `from` to `to`; NaN when the mode may not travel that way. */
  forwardSeconds: Float64Array;
  /** Travel time in seconds from `to` to `from`; NaN when the mode may not travel that way. */
  backwardSeconds: Float64Array;
  /** Length in metres (along the polyline, haversine), as precise as the graph file keeps it. */
  distance: Float32Array;
  /** The OSM way id (turn restrictions refer to it). */
  wayId: Float64Array;
  /** `name` and `ref` of the way: indices into the network's `strings` (0 is ''). */
  name: Uint32Array;
  ref: Uint32Array;
  /** `name:pronunciation` of the way, an index into `strings` as `name` (OSRM announces a change of it). */
  pronunciation: Uint32Array;
  /** 1 for part of a roundabout (`junction=roundabout` or `circular`). */
  roundabout: Uint8Array;
  /** Index into TRAVEL_KINDS from `from` to `to`: how the segment is travelled (a ferry route, a way a cyclist must push along). */
  travel: Uint8Array;
  /** Index into TRAVEL_KINDS from `to` to `from`: differs from `travel` for a cyclist pushing against a oneway. */
  backwardTravel: Uint8Array;
  /**
   * RESTRICTED_FORWARD and RESTRICTED_BACKWARD bits: the direction is used only to reach a
   * destination on it (a private road for cars); entering it from a direction that is not
   * restricted costs a penalty in the route's weight, not in its duration.
   */
  restricted: Uint8Array;
  /** Road classes (ROAD_CLASSES bits) of the forward direction in bits 0–2, of the backward one in bits 3–5. */
  classes: Uint8Array;
  /** GUIDANCE_* bits of the segment's way. */
  guidance: Uint8Array;
  /** 1 for part of a bridge or a tunnel (`bridge=*`, `tunnel=*`): a way off the ground the DEMs describe. */
  offGround: Uint8Array;
  /** The points of segment s are pointFirst[s] ≤ p < pointFirst[s + 1], at least 2, from `from` to `to`. */
  pointFirst: Uint32Array;
  /** lon, lat × 10⁷ of every point (as OSM stores them), segment after segment. */
  coordinates: Int32Array;
  /** The OSM node id of every point (as `coordinates`); UNKNOWN_NODE_ID where the point has none (a network not read from OSM). */
  nodeId: Float64Array;
  /**
   * Per point (as `coordinates`): the elevation of the way there where it is a bridge or a tunnel
   * (the straight line of its run), NaN on the ground; absent without DEMs (all NaN in the graph).
   */
  roadElevation?: Float32Array;
}

/** The node id of a point whose OSM node is not known: OSM ids start at 1, and OSRM's nearest writes 0 where it has no node. */
export const UNKNOWN_NODE_ID = 0;

export const RESTRICTED_FORWARD = 1;
export const RESTRICTED_BACKWARD = 2;

/** Whether edge-based node `node` (2s: segment s from → to, 2s + 1: to → from) is a restricted direction. */
export function isRestrictedDirection(restricted: Uint8Array, node: number): boolean {
  return ((restricted[node >> 1]! >> (node & 1)) & 1) === 1;
}

/**
 * Turn restrictions of the driving network (`type=restriction`). Via-node ones (from way, via node,
 * to way) one per index below `count`; via-way ones (one or more via ways) as paths of edge-based
 * nodes (2s: segment s from → to, 2s + 1: to → from), one per index below `pathCount`.
 */
export interface TurnRestrictions {
  count: number;
  /** 1 for `only` (every other turn from `fromWay` is forbidden), 0 for `no` (the turn onto `toWay` is). */
  only: Uint8Array;
  fromWay: Float64Array;
  /** The junction index of the via node. */
  via: Uint32Array;
  toWay: Float64Array;
  pathCount: number;
  /** 1 for `only` (at the end of the via path every turn but onto the to node is forbidden), 0 for `no`. */
  pathOnly: Uint8Array;
  /**
   * The nodes of path p are pathNodes[pathFirst[p]] ≤ … < pathNodes[pathFirst[p + 1]]: the from
   * way's segment into the first via way, the via ways' segments in travel order, the to way's
   * segment out of the last via way.
   */
  pathFirst: Uint32Array;
  pathNodes: Uint32Array;
}

export interface RoadNetwork {
  mode: TravelMode;
  junctionCount: number;
  /** The junctions at a designated turning place (a turning circle or loop, a mini roundabout), where a U-turn is allowed. */
  turningPlaces: Uint32Array;
  segments: RoadSegments;
  /** Empty for walking and cycling. */
  restrictions: TurnRestrictions;
  /** Names and refs the segments point to; 0 is ''. */
  strings: string[];
}

/** Every buffer of the network, to be transferred (not copied) to another thread. */
export function networkBuffers(network: RoadNetwork): ArrayBuffer[] {
  const arrays = [...Object.values(network.segments), ...Object.values(network.restrictions)].filter((value) => ArrayBuffer.isView(value));
  return arrays.map((array) => array.buffer as ArrayBuffer);
}
