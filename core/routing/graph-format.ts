/**
 * The routing graph file layout, shared by the writer (data-pipeline/routing/graph/write.ts) and
 * the loader: a fixed header (magic, format version, counts), then typed-array sections at offsets
 * that follow from the counts alone, each 8-byte aligned, like kdbush and flatbush.
 * See docs/ROUTING-ENGINE.md for what each section holds.
 */
import { CLASS_BITS, TRAVEL_MODES, type TravelMode } from './network.js';

export { TRAVEL_KINDS } from './network.js';

/** "WMRG" read as little-endian bytes. */
export const ROUTING_GRAPH_MAGIC = 0x47524d57;
/** 7: the GUIDANCE_* bits of every segment (ramps, motorways, no start point, no road class) and its `name:pronunciation`; 6: the elevation of bridges and tunnels at every point (routes' elevation profiles); 5: the OSM node id of every point (OSRM's `annotations=nodes`); 4: road classes per segment direction and the exclusion overlay (docs/ROUTING-ENGINE.md, "Excluding road classes"). */
export const ROUTING_GRAPH_VERSION = 7;
/** Weight (deciseconds) of a direction the mode may not travel. */
export const IMPASSABLE = 0xffffffff;
/** `middle` of an edge that is an original turn, not a shortcut. */
export const NO_MIDDLE = -1;

/**
 * Segment flag bits: roundabout, then the forwards travel kind (index into TRAVEL_KINDS) in two
 * bits, then "small component", then the restricted directions, then (bits 6–7) the backwards
 * travel kind XOR the forwards one (0 when both directions travel alike, as in files written
 * before the bits were used).
 */
export const FLAG_ROUNDABOUT = 1;
export const TRAVEL_SHIFT = 1;
export const TRAVEL_MASK = 3;
export const BACKWARD_TRAVEL_SHIFT = 6;
/**
 * Every passable direction of the segment lies in a strongly connected component of the
 * edge-based graph smaller than SMALL_COMPONENT_SIZE (data-pipeline/routing/graph/components.ts):
 * snapping takes such a segment only when no other one is within the radius.
 */
export const FLAG_SMALL_COMPONENT = 8;
/**
 * Bits 4 (forwards) and 5 (backwards): the network's `restricted` bits of the segment, the
 * directions used only to reach a destination on them (a private road).
 */
export const RESTRICTED_SHIFT = 4;

/** The segment flags' bits for a segment travelled `forward` from → to and `backward` to → from (indices into TRAVEL_KINDS). */
export function travelFlags(forward: number, backward: number): number {
  return (forward << TRAVEL_SHIFT) | ((forward ^ backward) << BACKWARD_TRAVEL_SHIFT);
}

/** The travel kind (index into TRAVEL_KINDS) of node `node` (2s: segment s forwards, 2s + 1 backwards) of a graph with these segment flags. */
export function travelOfNode(segmentFlags: Uint8Array, node: number): number {
  const flags = segmentFlags[node >> 1]!;
  const forward = (flags >> TRAVEL_SHIFT) & TRAVEL_MASK;
  return node & 1 ? forward ^ ((flags >> BACKWARD_TRAVEL_SHIFT) & TRAVEL_MASK) : forward;
}

/**
 * What a turn from a direction that is not restricted into one that is adds to the turn's weight:
 * OSRM's `max_turn_weight` (32767 deciseconds, 54.6 minutes), so that a restricted road is taken
 * to reach a destination on it, or when no other way is shorter by as much. It is part of a
 * route's weight, never of its duration.
 */
export const RESTRICTED_ENTRY_DECISECONDS = 32767;

/**
 * The original node of `node`: itself below 2 × segments (2s: segment s forwards, 2s + 1
 * backwards), else the node duplicate `node - 2 × segments` copies (a state on the via path of a
 * via-way turn restriction, see data-pipeline/routing/graph/edge-based.ts): same segment, same
 * direction, same weight.
 */
export function originalNode(graph: { segmentCount: number; duplicateOf: Uint32Array }, node: number): number {
  const duplicate = node - 2 * graph.segmentCount;
  return duplicate < 0 ? node : graph.duplicateOf[duplicate]!;
}

/** Whether original node `node` (2s: segment s forwards, 2s + 1 backwards) of a graph with these segment flags is a restricted direction. */
export function isRestrictedNode(segmentFlags: Uint8Array, node: number): boolean {
  return ((segmentFlags[node >> 1]! >> (RESTRICTED_SHIFT + (node & 1))) & 1) === 1;
}

/** The restricted-access part of the weight of the turn from `from` into `to`, original nodes (0 or RESTRICTED_ENTRY_DECISECONDS). */
export function restrictedEntryPenalty(segmentFlags: Uint8Array, from: number, to: number): number {
  return !isRestrictedNode(segmentFlags, from) && isRestrictedNode(segmentFlags, to) ? RESTRICTED_ENTRY_DECISECONDS : 0;
}

/** The road classes (ROAD_CLASSES bits) of original node `node` (2s: segment s forwards, 2s + 1 backwards). */
export function classesOfNode(segmentClasses: Uint8Array, node: number): number {
  return (segmentClasses[node >> 1]! >> (node & 1 ? CLASS_BITS : 0)) & ((1 << CLASS_BITS) - 1);
}

export interface RoutingGraphCounts {
  mode: TravelMode;
  segments: number;
  /** Duplicated nodes (see originalNode), after the 2 × segments original ones. */
  duplicates: number;
  points: number;
  upEdges: number;
  downEdges: number;
  turnEdges: number;
  /** Edges of the exclusion overlay: the out-edges of the excludable nodes before the contraction reached them. */
  overlayEdges: number;
  pieces: number;
  strings: number;
  stringBytes: number;
  spatialBytes: number;
}

const COUNT_FIELDS = [
  'segments',
  'duplicates',
  'points',
  'upEdges',
  'downEdges',
  'turnEdges',
  'overlayEdges',
  'pieces',
  'strings',
  'stringBytes',
  'spatialBytes',
] as const;
/** magic, version, mode, then the counts, one uint32 each. */
const HEADER_BYTES = 8 * Math.ceil(((3 + COUNT_FIELDS.length) * 4) / 8);

type ArrayKind = 'u8' | 'i32' | 'u32' | 'f32' | 'f64';
const BYTES: Record<ArrayKind, number> = { u8: 1, i32: 4, u32: 4, f32: 4, f64: 8 };

/** Every section in file order: its element type and length. Nodes are the 2 directions of each segment, then the duplicates. */
function sectionsOf(c: RoutingGraphCounts) {
  const nodes = 2 * c.segments + c.duplicates;
  return {
    segmentFrom: ['u32', c.segments],
    segmentTo: ['u32', c.segments],
    segmentWay: ['f64', c.segments],
    segmentDistance: ['f32', c.segments],
    segmentName: ['u32', c.segments],
    segmentRef: ['u32', c.segments],
    // `name:pronunciation` (RoadSegments.pronunciation), an index into the string table.
    segmentPronunciation: ['u32', c.segments],
    segmentFlags: ['u8', c.segments],
    segmentClasses: ['u8', c.segments],
    // RoadSegments.guidance: GUIDANCE_* bits (core/routing/network.ts).
    segmentGuidance: ['u8', c.segments],
    segmentPointFirst: ['u32', c.segments + 1],
    coordinates: ['i32', 2 * c.points],
    // f64, not two u32 halves: as exact for ids below 2^53 (OSM's are near 2^34), the same 8 bytes, read in one step.
    pointNodeId: ['f64', c.points],
    // The way's elevation where it is a bridge or a tunnel, NaN on the ground (RoadSegments.roadElevation).
    pointRoadElevation: ['f32', c.points],
    duplicateOf: ['u32', c.duplicates],
    nodeWeight: ['u32', nodes],
    upFirst: ['u32', nodes + 1],
    upTarget: ['u32', c.upEdges],
    upWeight: ['u32', c.upEdges],
    upMiddle: ['i32', c.upEdges],
    downFirst: ['u32', nodes + 1],
    downSource: ['u32', c.downEdges],
    downWeight: ['u32', c.downEdges],
    downMiddle: ['i32', c.downEdges],
    turnFirst: ['u32', nodes + 1],
    turnTarget: ['u32', c.turnEdges],
    turnWeight: ['u32', c.turnEdges],
    overlayFirst: ['u32', nodes + 1],
    overlayTarget: ['u32', c.overlayEdges],
    overlayWeight: ['u32', c.overlayEdges],
    overlayMiddle: ['i32', c.overlayEdges],
    piecePoint: ['u32', c.pieces],
    stringOffsets: ['u32', c.strings + 1],
    stringBytes: ['u8', c.stringBytes],
    flatbush: ['u8', c.spatialBytes],
  } satisfies Record<string, [ArrayKind, number]>;
}

type SectionName = keyof ReturnType<typeof sectionsOf>;
type ArrayOf<K> = K extends 'u8'
  ? Uint8Array
  : K extends 'i32'
    ? Int32Array
    : K extends 'u32'
      ? Uint32Array
      : K extends 'f32'
        ? Float32Array
        : Float64Array;
export type RoutingGraphSections = { [N in SectionName]: ArrayOf<ReturnType<typeof sectionsOf>[N][0]> };

/** Where every section lies (byte offset, element count), and the total file size. */
export function sectionLayout(counts: RoutingGraphCounts): {
  sections: Record<SectionName, { offset: number; length: number }>;
  bytes: number;
} {
  const sections = {} as Record<SectionName, { offset: number; length: number }>;
  let offset = HEADER_BYTES;
  for (const [name, [kind, length]] of Object.entries(sectionsOf(counts)) as [SectionName, [ArrayKind, number]][]) {
    sections[name] = { offset, length };
    offset += 8 * Math.ceil((length * BYTES[kind]) / 8);
  }
  return { sections, bytes: offset };
}

export function routingGraphBytes(counts: RoutingGraphCounts): number {
  return sectionLayout(counts).bytes;
}

/** Typed-array views on every section of `buffer` (no copy). */
export function sectionViews(buffer: ArrayBufferLike, counts: RoutingGraphCounts): RoutingGraphSections {
  const { sections } = sectionLayout(counts);
  const views: Record<string, ArrayBufferView> = {};
  for (const [name, [kind]] of Object.entries(sectionsOf(counts)) as [SectionName, [ArrayKind, number]][]) {
    const { offset, length } = sections[name];
    views[name] =
      kind === 'u8'
        ? new Uint8Array(buffer, offset, length)
        : kind === 'i32'
          ? new Int32Array(buffer, offset, length)
          : kind === 'u32'
            ? new Uint32Array(buffer, offset, length)
            : kind === 'f32'
              ? new Float32Array(buffer, offset, length)
              : new Float64Array(buffer, offset, length);
  }
  return views as RoutingGraphSections;
}

/** Byte offset of the flatbush index inside the file (flatbush reads it in place). */
export function spatialOffset(counts: RoutingGraphCounts): number {
  return sectionLayout(counts).sections.flatbush.offset;
}

/** The header's bytes: magic, version, mode and the counts. */
export function headerBytes(counts: RoutingGraphCounts): Uint8Array {
  const header = new Uint32Array(HEADER_BYTES / 4);
  header[0] = ROUTING_GRAPH_MAGIC;
  header[1] = ROUTING_GRAPH_VERSION;
  header[2] = TRAVEL_MODES.indexOf(counts.mode);
  COUNT_FIELDS.forEach((field, i) => (header[3 + i] = counts[field]));
  return new Uint8Array(header.buffer);
}

/** The counts of a routing graph file, or a clear Error when it is not one this code can read. */
export function readHeader(buffer: ArrayBufferLike): RoutingGraphCounts {
  if (buffer.byteLength < HEADER_BYTES) throw new Error('Not a Waymark routing graph: the file is too short.');
  const header = new Uint32Array(buffer, 0, 3 + COUNT_FIELDS.length);
  if (header[0] !== ROUTING_GRAPH_MAGIC) throw new Error('Not a Waymark routing graph: wrong magic bytes.');
  if (header[1] !== ROUTING_GRAPH_VERSION) {
    throw new Error(
      `Routing graph format version ${header[1]} is not supported (this version of Waymark reads version ${ROUTING_GRAPH_VERSION}); rebuild it with waymark import.`,
    );
  }
  const mode = TRAVEL_MODES[header[2]!];
  if (mode === undefined) throw new Error(`Routing graph has an unknown travel mode (${header[2]}).`);
  const counts = { mode } as RoutingGraphCounts;
  COUNT_FIELDS.forEach((field, i) => (counts[field] = header[3 + i]!));
  const bytes = routingGraphBytes(counts);
  if (buffer.byteLength !== bytes)
    throw new Error(`Routing graph is truncated or corrupt: ${buffer.byteLength} bytes, the header says ${bytes}.`);
  return counts;
}
