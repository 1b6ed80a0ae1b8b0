/** Fills the typed-array columns of a RoadNetwork (core/routing/network.ts) one segment at a time. */
import {
  RESTRICTED_BACKWARD,
  RESTRICTED_FORWARD,
  CLASS_BITS,
  UNKNOWN_NODE_ID,
  TRAVEL_KINDS,
  type RoadNetwork,
  type TravelKind,
  type TravelMode,
} from '../../core/routing/network.js';
import { Growable } from './growable.js';

export interface SegmentFields {
  from: number;
  to: number;
  /** Metres along the polyline. */
  distance: number;
  /** null where the mode may not travel that way. */
  forwardSeconds: number | null;
  backwardSeconds: number | null;
  wayId: number;
  /** Indices into the network's strings. */
  name: number;
  ref: number;
  /** Index into the network's strings: `name:pronunciation`; absent: none. */
  pronunciation?: number;
  roundabout: boolean;
  /** Part of a bridge or a tunnel (RoadSegments.offGround); absent: on the ground. */
  offGround?: boolean;
  travel: TravelKind;
  backwardTravel: TravelKind;
  /** Restricted directions (see RoadSegments.restricted); absent: not restricted. */
  forwardRestricted?: boolean;
  backwardRestricted?: boolean;
  /** Road classes of each direction (ROAD_CLASSES bits); absent: none. */
  forwardClasses?: number;
  backwardClasses?: number;
  /** GUIDANCE_* bits of the way; absent: none. */
  guidance?: number;
}

const float64 = (n: number) => new Float64Array(n);
const uint32 = (n: number) => new Uint32Array(n);
const uint8 = (n: number) => new Uint8Array(n);

export class RoadNetworkBuilder {
  private junctionCount = 0;
  private readonly turningPlaces = new Growable(uint32);
  private readonly from = new Growable(uint32);
  private readonly to = new Growable(uint32);
  private readonly forwardSeconds = new Growable(float64);
  private readonly backwardSeconds = new Growable(float64);
  private readonly distance = new Growable((n) => new Float32Array(n));
  private readonly wayId = new Growable(float64);
  private readonly name = new Growable(uint32);
  private readonly ref = new Growable(uint32);
  private readonly pronunciation = new Growable(uint32);
  private readonly roundabout = new Growable(uint8);
  private readonly offGround = new Growable(uint8);
  private readonly travel = new Growable(uint8);
  private readonly backwardTravel = new Growable(uint8);
  private readonly restricted = new Growable(uint8);
  private readonly classes = new Growable(uint8);
  private readonly guidance = new Growable(uint8);
  private readonly pointFirst = new Growable(uint32);
  private readonly coordinates = new Growable((n) => new Int32Array(n));
  private readonly nodeId = new Growable(float64);
  private readonly restrictionOnly = new Growable(uint8);
  private readonly restrictionFrom = new Growable(float64);
  private readonly restrictionVia = new Growable(uint32);
  private readonly restrictionTo = new Growable(float64);
  private readonly pathOnly = new Growable(uint8);
  private readonly pathFirst = new Growable(uint32);
  private readonly pathNodes = new Growable(uint32);

  /** `strings`: the names and refs segments point to, '' first. */
  constructor(
    readonly mode: TravelMode,
    private readonly strings: string[],
  ) {
    this.pointFirst.push(0);
    this.pathFirst.push(0);
  }

  /** Segments added so far. */
  get segmentCount(): number {
    return this.from.length;
  }

  /** A new junction; `turningPlace` at a turning circle, turning loop or mini roundabout. */
  addJunction(turningPlace = false): number {
    if (turningPlace) this.turningPlaces.push(this.junctionCount);
    return this.junctionCount++;
  }

  /**
   * A segment whose polyline is points first..last (inclusive) of `coordinates` (lon, lat × 10⁷
   * pairs); `nodeIdOf(p)` is the OSM node id of point p (UNKNOWN_NODE_ID for every point without it).
   */
  addSegment(
    segment: SegmentFields,
    coordinates: ArrayLike<number>,
    first: number,
    last: number,
    nodeIdOf: (point: number) => number = () => UNKNOWN_NODE_ID,
  ): void {
    this.from.push(segment.from);
    this.to.push(segment.to);
    this.forwardSeconds.push(segment.forwardSeconds ?? NaN);
    this.backwardSeconds.push(segment.backwardSeconds ?? NaN);
    this.distance.push(segment.distance);
    this.wayId.push(segment.wayId);
    this.name.push(segment.name);
    this.ref.push(segment.ref);
    this.pronunciation.push(segment.pronunciation ?? 0);
    this.roundabout.push(segment.roundabout ? 1 : 0);
    this.offGround.push(segment.offGround === true ? 1 : 0);
    this.travel.push(TRAVEL_KINDS.indexOf(segment.travel));
    this.backwardTravel.push(TRAVEL_KINDS.indexOf(segment.backwardTravel));
    this.restricted.push(
      (segment.forwardRestricted === true ? RESTRICTED_FORWARD : 0) | (segment.backwardRestricted === true ? RESTRICTED_BACKWARD : 0),
    );
    this.classes.push((segment.forwardClasses ?? 0) | ((segment.backwardClasses ?? 0) << CLASS_BITS));
    this.guidance.push(segment.guidance ?? 0);
    for (let i = 2 * first; i < 2 * last + 2; i++) this.coordinates.push(coordinates[i]!);
    for (let p = first; p <= last; p++) this.nodeId.push(nodeIdOf(p));
    this.pointFirst.push(this.coordinates.length / 2);
  }

  addRestriction(kind: 'no' | 'only', fromWay: number, via: number, toWay: number): void {
    this.restrictionOnly.push(kind === 'only' ? 1 : 0);
    this.restrictionFrom.push(fromWay);
    this.restrictionVia.push(via);
    this.restrictionTo.push(toWay);
  }

  /** A via-way restriction: `nodes` are the edge-based nodes of the from segment, the via path and the to segment. */
  addRestrictionPath(kind: 'no' | 'only', nodes: readonly number[]): void {
    this.pathOnly.push(kind === 'only' ? 1 : 0);
    for (const node of nodes) this.pathNodes.push(node);
    this.pathFirst.push(this.pathNodes.length);
  }

  finish(): RoadNetwork {
    return {
      mode: this.mode,
      junctionCount: this.junctionCount,
      turningPlaces: this.turningPlaces.take(),
      segments: {
        count: this.from.length,
        from: this.from.take(),
        to: this.to.take(),
        forwardSeconds: this.forwardSeconds.take(),
        backwardSeconds: this.backwardSeconds.take(),
        distance: this.distance.take(),
        wayId: this.wayId.take(),
        name: this.name.take(),
        ref: this.ref.take(),
        pronunciation: this.pronunciation.take(),
        roundabout: this.roundabout.take(),
        travel: this.travel.take(),
        backwardTravel: this.backwardTravel.take(),
        restricted: this.restricted.take(),
        classes: this.classes.take(),
        guidance: this.guidance.take(),
        offGround: this.offGround.take(),
        pointFirst: this.pointFirst.take(),
        coordinates: this.coordinates.take(),
        nodeId: this.nodeId.take(),
      },
      restrictions: {
        count: this.restrictionOnly.length,
        only: this.restrictionOnly.take(),
        fromWay: this.restrictionFrom.take(),
        via: this.restrictionVia.take(),
        toWay: this.restrictionTo.take(),
        pathCount: this.pathOnly.length,
        pathOnly: this.pathOnly.take(),
        pathFirst: this.pathFirst.take(),
        pathNodes: this.pathNodes.take(),
      },
      strings: this.strings,
    };
  }
}
