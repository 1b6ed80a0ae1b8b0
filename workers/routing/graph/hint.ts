/**
 * OSRM's `hints`: an opaque base64url string per waypoint that places the point again without
 * searching the spatial index, when it comes back with the same input coordinate. It holds a check
 * of the graph it was made on, the input coordinate (in OSRM's 1e-6 degrees) and each segment
 * position of the snap (the snapped one and the others at the same place): segment, piece and the
 * position along the piece. As OSRM ignores a hint made on other data or for another coordinate
 * (hint.cpp SegmentHint::IsValid), a hint that does not match is ignored and the point is snapped.
 */
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { meetsFilter, narrowDirections, placeOnPiece, type Snap } from './snap.js';
import type { SnapFilter } from '../task.js';

const HINT_VERSION = 1;
/** Version, graph check, input lon and lat, placement count. */
const HEADER_BYTES = 1 + 4 + 4 + 4 + 1;
/** Segment, piece, position along the piece. */
const PLACEMENT_BYTES = 4 + 4 + 8;
/** At most this many placements are kept (more segments meeting at one place are rare). */
const MAX_PLACEMENTS = 15;

/** Per graph, an FNV-1a hash of its header counts and of samples of its points and weights. */
const checks = new WeakMap<RoutingGraph, number>();

/** Samples of each array hashed: enough to tell two datasets apart, cheap to compute once per thread. */
const SAMPLES = 4096;

function graphCheck(graph: RoutingGraph): number {
  let check = checks.get(graph);
  if (check === undefined) {
    let hash = 0x811c9dc5;
    const mix = (value: number) => {
      hash = Math.imul(hash ^ (value & 0xffff), 0x01000193);
      hash = Math.imul(hash ^ (value >>> 16), 0x01000193);
    };
    mix(graph.segmentCount);
    mix(graph.nodeCount);
    mix(graph.coordinates.length);
    mix(graph.upTarget.length);
    mix(graph.mode.length + graph.mode.charCodeAt(0));
    for (const array of [graph.coordinates, graph.nodeWeight, graph.upWeight]) {
      const step = Math.max(1, Math.floor(array.length / SAMPLES));
      for (let i = 0; i < array.length; i += step) mix(array[i]!);
    }
    check = hash >>> 0;
    checks.set(graph, check);
  }
  return check;
}

/** OSRM's fixed-point coordinate (1e-6 degrees), which a hint's input must match. */
const fixed = (degrees: number) => Math.round(degrees * 1e6);

/** The hint of a snap on `graph`. */
export function encodeHint(graph: RoutingGraph, snapped: Snap): string {
  const placements = [snapped, ...(snapped.alsoOn ?? [])].slice(0, MAX_PLACEMENTS);
  const bytes = Buffer.alloc(HEADER_BYTES + PLACEMENT_BYTES * placements.length);
  bytes.writeUInt8(HINT_VERSION, 0);
  bytes.writeUInt32LE(graphCheck(graph), 1);
  bytes.writeInt32LE(fixed(snapped.input[0]), 5);
  bytes.writeInt32LE(fixed(snapped.input[1]), 9);
  bytes.writeUInt8(placements.length, 13);
  placements.forEach((on, i) => {
    const at = HEADER_BYTES + PLACEMENT_BYTES * i;
    bytes.writeUInt32LE(on.segment, at);
    bytes.writeUInt32LE(on.piece, at + 4);
    bytes.writeDoubleLE(on.along, at + 8);
  });
  return bytes.toString('base64url');
}

/**
 * The snap a hint keeps for (lon, lat), narrowed by `filter` as snapping narrows it, or null when
 * the hint is not one of this graph's for this coordinate, or its place no longer meets the filter.
 */
export function snapOfHint(graph: RoutingGraph, hint: string, lon: number, lat: number, filter: SnapFilter): Snap | null {
  const bytes = Buffer.from(hint, 'base64url');
  if (bytes.length < HEADER_BYTES + PLACEMENT_BYTES || bytes.readUInt8(0) !== HINT_VERSION) return null;
  const count = bytes.readUInt8(13);
  if (count === 0 || bytes.length !== HEADER_BYTES + PLACEMENT_BYTES * count) return null;
  if (bytes.readUInt32LE(1) !== graphCheck(graph) || bytes.readInt32LE(5) !== fixed(lon) || bytes.readInt32LE(9) !== fixed(lat))
    return null;
  const placements: Snap[] = [];
  for (let i = 0; i < count; i++) {
    const at = HEADER_BYTES + PLACEMENT_BYTES * i;
    const placed = placeOnPiece(graph, lon, lat, bytes.readUInt32LE(at), bytes.readUInt32LE(at + 4), bytes.readDoubleLE(at + 8));
    if (placed === null) return null;
    placements.push(placed);
  }
  const [snapped] = placements as [Snap, ...Snap[]];
  if (!meetsFilter(graph, snapped, filter)) return null;
  if (placements.length > 1) snapped.alsoOn = placements.slice(1);
  narrowDirections(graph, snapped, filter);
  return snapped;
}
