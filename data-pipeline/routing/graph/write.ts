/**
 * Building the routing graph file of one travel mode: edge-based graph, contraction hierarchy,
 * segment data and snapping index, laid out as core/routing/graph-format.ts says and written
 * section by section (a buffer of the whole file would double the peak of the build).
 */
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  FLAG_ROUNDABOUT,
  FLAG_SMALL_COMPONENT,
  IMPASSABLE,
  RESTRICTED_SHIFT,
  travelFlags,
  classesOfNode,
  headerBytes,
  sectionLayout,
  type RoutingGraphCounts,
  type RoutingGraphSections,
} from '../../../core/routing/graph-format.js';
import type { ProgressReporter } from '../../progress.js';
import type { ThreadLeases } from '../../threads.js';
import type { RoadNetwork } from '../../../core/routing/network.js';
import { SMALL_COMPONENT_SIZE, componentSizes } from './components.js';
import { spatialKeys } from './cells.js';
import { CellThreads } from './cell-threads.js';
import { contractHierarchy, type ContractionOptions, type Hierarchy } from './contract.js';
import { buildEdgeBasedGraph, type EdgeBasedGraph } from './edge-based.js';
import { buildSpatialIndex, countPieces } from './spatial.js';

export interface RoutingGraphStats {
  /** Edge-based nodes the mode may travel (directions of segments). */
  nodes: number;
  /** Of those, duplicates on the via paths of via-way turn restrictions. */
  duplicates: number;
  /** Turns between them. */
  edges: number;
  /** Shortcut edges the contraction added. */
  shortcuts: number;
  /** Nodes left uncontracted (the dense core searched by plain Dijkstra). */
  core: number;
  /** Passable segments flagged as lying in a small strongly connected component. */
  smallSegments: number;
  /** Nodes of a road class a route may exclude (contracted last), and the overlay edges kept for routes that exclude some. */
  excludable: number;
  overlayEdges: number;
  seconds: number;
  bytes: number;
}

/**
 * The file's string table: the network's strings that segments use, numbered in order of first use
 * (names, then refs, then pronunciations), '' first; `fileIndex` maps a network string index to its file index.
 */
function usedStrings(network: RoadNetwork): { fileIndex: Uint32Array; encoded: Buffer[] } {
  const { name, ref, pronunciation } = network.segments;
  const fileIndex = new Uint32Array(network.strings.length);
  const encoded = [Buffer.alloc(0)];
  for (const column of [name, ref, pronunciation]) {
    for (const i of column) {
      if (i === 0 || fileIndex[i] !== 0) continue;
      fileIndex[i] = encoded.length;
      encoded.push(Buffer.from(network.strings[i]!, 'utf8'));
    }
  }
  return { fileIndex, encoded };
}

/** Nodes with more edges than this when their turn comes stay in the uncontracted core (default MAX_CONTRACTED_DEGREE); cells of this many nodes (default CELL_NODES). */
export interface RoutingGraphOptions extends Pick<ContractionOptions, 'maxContractedDegree' | 'cellNodes'> {
  /** Threads the contraction's cells may use, this one included (default 1: all in this thread); see cell-threads.ts. */
  threads?: number;
  /** The import's thread count: helper threads work only while it has threads free (default: `threads` bounds them alone). */
  leases?: ThreadLeases;
}

export function writeRoutingGraph(
  network: RoadNetwork,
  file: string,
  onProgress?: ProgressReporter,
  options: RoutingGraphOptions = {},
): RoutingGraphStats {
  const started = performance.now();
  const fd = openSync(file, 'w');
  try {
    // The snapping index comes last, once the hierarchy is written and let go: each is among the biggest parts.
    const { counts, stats } = writeHierarchyAndSegments(fd, network, onProgress, options);
    onProgress?.({ phase: 'routing graph: snapping index', done: 0, total: null });
    const spatial = buildSpatialIndex(network);
    counts.spatialBytes = spatial.index?.byteLength ?? 0;
    const bytes = writeSections(fd, counts, {
      piecePoint: spatial.piecePoint,
      flatbush: new Uint8Array(spatial.index ?? new ArrayBuffer(0)),
    });
    writeAt(fd, headerBytes(counts), 0);
    return { ...stats, seconds: (performance.now() - started) / 1000, bytes };
  } finally {
    closeSync(fd);
  }
}

/** Every section but the snapping index's; the counts it returns lack `spatialBytes` (the index's section is the last one, so no offset depends on it). */
function writeHierarchyAndSegments(
  fd: number,
  network: RoadNetwork,
  onProgress: ProgressReporter | undefined,
  options: RoutingGraphOptions,
) {
  const { segments } = network;
  onProgress?.({ phase: 'routing graph: turns', done: 0, total: null });
  const edgeBased = buildEdgeBasedGraph(network);
  const componentSize = componentSizes(edgeBased);
  // A network whose biggest component is under the threshold (a tiny extract) flags none of it: as
  // in OSRM, where every component of such a network is tiny, the nearest segment is taken.
  let largest = 0;
  for (const size of componentSize) largest = Math.max(largest, size);
  const smallBelow = largest < SMALL_COMPONENT_SIZE ? 0 : SMALL_COMPONENT_SIZE;
  const excludable = excludableNodes(network, edgeBased);
  const hierarchy = contractNetwork(network, edgeBased, excludable, onProgress, options);
  const strings = usedStrings(network);

  const counts: RoutingGraphCounts = {
    mode: network.mode,
    segments: segments.count,
    duplicates: edgeBased.duplicateOf.length,
    points: segments.coordinates.length / 2,
    upEdges: hierarchy.up.length,
    downEdges: hierarchy.down.length,
    turnEdges: edgeBased.turnTarget.length,
    overlayEdges: hierarchy.overlay.length,
    pieces: countPieces(network),
    strings: strings.encoded.length,
    stringBytes: strings.encoded.reduce((sum, bytes) => sum + bytes.length, 0),
    spatialBytes: 0,
  };
  const segmentName = new Uint32Array(segments.count);
  const segmentRef = new Uint32Array(segments.count);
  const segmentPronunciation = new Uint32Array(segments.count);
  const segmentFlags = new Uint8Array(segments.count);
  let smallSegments = 0;
  for (let s = 0; s < segments.count; s++) {
    segmentName[s] = strings.fileIndex[segments.name[s]!]!;
    segmentRef[s] = strings.fileIndex[segments.ref[s]!]!;
    segmentPronunciation[s] = strings.fileIndex[segments.pronunciation[s]!]!;
    const small = Math.max(componentSize[2 * s]!, componentSize[2 * s + 1]!) < smallBelow;
    if (small && (edgeBased.nodeWeight[2 * s] !== IMPASSABLE || edgeBased.nodeWeight[2 * s + 1] !== IMPASSABLE)) smallSegments++;
    segmentFlags[s] =
      (segments.roundabout[s] ? FLAG_ROUNDABOUT : 0) |
      travelFlags(segments.travel[s]!, segments.backwardTravel[s]!) |
      (small ? FLAG_SMALL_COMPONENT : 0) |
      (segments.restricted[s]! << RESTRICTED_SHIFT);
  }
  const stringOffsets = new Uint32Array(strings.encoded.length + 1);
  strings.encoded.forEach((bytes, i) => (stringOffsets[i + 1] = stringOffsets[i]! + bytes.length));
  writeSections(fd, counts, {
    segmentFrom: segments.from,
    segmentTo: segments.to,
    segmentWay: segments.wayId,
    segmentDistance: segments.distance,
    segmentName,
    segmentRef,
    segmentPronunciation,
    segmentFlags,
    segmentClasses: segments.classes,
    segmentGuidance: segments.guidance,
    segmentPointFirst: segments.pointFirst,
    coordinates: segments.coordinates,
    pointNodeId: segments.nodeId,
    pointRoadElevation: segments.roadElevation ?? new Float32Array(segments.coordinates.length / 2).fill(NaN),
    duplicateOf: edgeBased.duplicateOf,
    nodeWeight: edgeBased.nodeWeight,
    upFirst: hierarchy.up.first(),
    upTarget: hierarchy.up.others(),
    upWeight: hierarchy.up.weights(),
    upMiddle: hierarchy.up.middles(),
    downFirst: hierarchy.down.first(),
    downSource: hierarchy.down.others(),
    downWeight: hierarchy.down.weights(),
    downMiddle: hierarchy.down.middles(),
    turnFirst: edgeBased.turnFirst,
    turnTarget: edgeBased.turnTarget,
    turnWeight: edgeBased.turnWeight,
    overlayFirst: hierarchy.overlay.first(),
    overlayTarget: hierarchy.overlay.others(),
    overlayWeight: hierarchy.overlay.weights(),
    overlayMiddle: hierarchy.overlay.middles(),
    stringOffsets,
    stringBytes: Buffer.concat(strings.encoded),
  });

  let nodes = 0;
  for (const weight of edgeBased.nodeWeight) if (weight !== IMPASSABLE) nodes++;
  const shortcuts = hierarchy.up.shortcuts + hierarchy.down.shortcuts;
  const duplicates = edgeBased.duplicateOf.length;
  const stats = {
    nodes,
    duplicates,
    edges: edgeBased.turnTarget.length,
    shortcuts,
    core: hierarchy.core,
    smallSegments,
    excludable: excludable.reduce((sum, flag) => sum + flag, 0),
    overlayEdges: hierarchy.overlay.length,
  };
  return { counts, stats };
}

/** The hierarchy of the network's edge-based graph, its cells on `options.threads` threads (the helpers ended with it). */
function contractNetwork(
  network: RoadNetwork,
  edgeBased: EdgeBasedGraph,
  excludable: Uint8Array,
  onProgress: ProgressReporter | undefined,
  { threads = 1, leases, ...options }: RoutingGraphOptions,
): Hierarchy {
  const cellThreads = threads > 1 ? new CellThreads(threads - 1, leases) : undefined;
  try {
    const spatialKey = spatialKeys(network, edgeBased);
    return contractHierarchy(edgeBased, onProgress, { ...options, excludable, spatialKey, cells: cellThreads?.run });
  } finally {
    cellThreads?.close();
  }
}

/** 1 for each passable node (duplicates included) of a road class a query may exclude: the contraction keeps them for last. */
export function excludableNodes(network: RoadNetwork, graph: EdgeBasedGraph): Uint8Array {
  const excludable = new Uint8Array(graph.nodeCount);
  const originals = 2 * network.segments.count;
  for (let node = 0; node < graph.nodeCount; node++) {
    const original = node < originals ? node : graph.duplicateOf[node - originals]!;
    if (graph.nodeWeight[node] !== IMPASSABLE && classesOfNode(network.segments.classes, original) !== 0) excludable[node] = 1;
  }
  return excludable;
}

type SectionName = keyof RoutingGraphSections;
type ArrayView = ArrayBufferView & { length: number };
/** A section's values: in one array, or in pieces one after the other. */
type SectionValues = { [N in SectionName]?: RoutingGraphSections[N] | Iterable<RoutingGraphSections[N]> };

/** Writes the given sections at their offsets (each exactly as long as the counts say) and sizes the file by the counts; returns that size. */
function writeSections(fd: number, counts: RoutingGraphCounts, sections: SectionValues): number {
  const layout = sectionLayout(counts);
  for (const [name, values] of Object.entries(sections) as [SectionName, ArrayView | Iterable<ArrayView>][]) {
    const { offset, length } = layout.sections[name];
    let written = 0;
    let position = offset;
    for (const piece of ArrayBuffer.isView(values) ? [values] : values) {
      writeAt(fd, new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength), position);
      written += piece.length;
      position += piece.byteLength;
    }
    if (written !== length) throw new Error(`routing graph section ${name}: ${written} values where the counts say ${length}`);
  }
  // Up to there, and between sections, the file reads as zeros.
  ftruncateSync(fd, layout.bytes);
  return layout.bytes;
}

function writeAt(fd: number, bytes: Uint8Array, position: number): void {
  for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written, position + written);
}
