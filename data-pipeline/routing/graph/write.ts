/**
 * Building the routing graph file of one travel mode: edge-based graph, contraction hierarchy,
 * segment data and snapping index, laid out as core/routing/graph-format.ts says and written at once.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  FLAG_ROUNDABOUT, FLAG_SMALL_COMPONENT, IMPASSABLE, NO_MIDDLE, TRAVEL_KINDS, TRAVEL_SHIFT,
  routingGraphBytes, sectionViews, writeHeader, type RoutingGraphCounts,
} from '../../../core/routing/graph-format.js';
import type { ProgressReporter } from '../../features.js';
import type { RoadNetwork } from '../../../core/routing/network.js';
import { SMALL_COMPONENT_SIZE, componentSizes } from './components.js';
import { contractHierarchy } from './contract.js';
import { buildEdgeBasedGraph } from './edge-based.js';
import { buildSpatialIndex } from './spatial.js';

export interface RoutingGraphStats {
  /** Edge-based nodes the mode may travel (directions of segments). */
  nodes: number;
  /** Turns between them. */
  edges: number;
  /** Shortcut edges the contraction added. */
  shortcuts: number;
  /** Nodes left uncontracted (the dense core searched by plain Dijkstra). */
  core: number;
  /** Passable segments flagged as lying in a small strongly connected component. */
  smallSegments: number;
  seconds: number;
  bytes: number;
}

/** Names and refs, each distinct string once; index 0 is ''. */
class StringTable {
  private readonly index = new Map<string, number>([['', 0]]);
  readonly encoded: Buffer[] = [Buffer.alloc(0)];

  add(text: string): number {
    let i = this.index.get(text);
    if (i === undefined) {
      i = this.encoded.length;
      this.index.set(text, i);
      this.encoded.push(Buffer.from(text, 'utf8'));
    }
    return i;
  }
}

export interface RoutingGraphOptions {
  /** Nodes with more edges than this when their turn comes stay in the uncontracted core (default MAX_CONTRACTED_DEGREE). */
  maxContractedDegree?: number;
}

export function writeRoutingGraph(network: RoadNetwork, file: string, onProgress?: ProgressReporter, options: RoutingGraphOptions = {}): RoutingGraphStats {
  const started = performance.now();
  const { segments } = network;
  onProgress?.({ phase: 'routing graph: turns', done: 0, total: null });
  const edgeBased = buildEdgeBasedGraph(network);
  const componentSize = componentSizes(edgeBased);
  // A network whose biggest component is under the threshold (a tiny extract) flags none of it.
  let largest = 0;
  for (const size of componentSize) largest = Math.max(largest, size);
  const smallBelow = Math.min(SMALL_COMPONENT_SIZE, largest);
  let smallSegments = 0;
  const hierarchy = contractHierarchy(edgeBased, onProgress, options.maxContractedDegree);

  const pointFirst = new Uint32Array(segments.length + 1);
  segments.forEach((segment, s) => (pointFirst[s + 1] = pointFirst[s]! + segment.coordinates.length / 2));
  const spatial = buildSpatialIndex(network, pointFirst);
  const strings = new StringTable();
  const nameIds = segments.map((segment) => strings.add(segment.name));
  const refIds = segments.map((segment) => strings.add(segment.ref));

  const counts: RoutingGraphCounts = {
    mode: network.mode,
    segments: segments.length,
    points: pointFirst[segments.length]!,
    upEdges: hierarchy.upTarget.length,
    downEdges: hierarchy.downSource.length,
    turnEdges: edgeBased.turnTarget.length,
    pieces: spatial.piecePoint.length,
    strings: strings.encoded.length,
    stringBytes: strings.encoded.reduce((sum, bytes) => sum + bytes.length, 0),
    spatialBytes: spatial.index?.byteLength ?? 0,
  };
  const buffer = new ArrayBuffer(routingGraphBytes(counts));
  writeHeader(buffer, counts);
  const views = sectionViews(buffer, counts);

  segments.forEach((segment, s) => {
    views.segmentFrom[s] = segment.from;
    views.segmentTo[s] = segment.to;
    views.segmentWay[s] = segment.wayId;
    views.segmentDistance[s] = segment.distance;
    views.segmentName[s] = nameIds[s]!;
    views.segmentRef[s] = refIds[s]!;
    const small = Math.max(componentSize[2 * s]!, componentSize[2 * s + 1]!) < smallBelow;
    if (small && (segment.forwardSeconds !== null || segment.backwardSeconds !== null)) smallSegments++;
    views.segmentFlags[s] = (segment.roundabout ? FLAG_ROUNDABOUT : 0) | (TRAVEL_KINDS.indexOf(segment.travel) << TRAVEL_SHIFT) | (small ? FLAG_SMALL_COMPONENT : 0);
    const at = 2 * pointFirst[s]!;
    segment.coordinates.forEach((value, i) => (views.coordinates[at + i] = Math.round(value * 1e7)));
  });
  views.segmentPointFirst.set(pointFirst);
  views.nodeWeight.set(edgeBased.nodeWeight);
  views.upFirst.set(hierarchy.upFirst);
  views.upTarget.set(hierarchy.upTarget);
  views.upWeight.set(hierarchy.upWeight);
  views.upMiddle.set(hierarchy.upMiddle);
  views.downFirst.set(hierarchy.downFirst);
  views.downSource.set(hierarchy.downSource);
  views.downWeight.set(hierarchy.downWeight);
  views.downMiddle.set(hierarchy.downMiddle);
  views.turnFirst.set(edgeBased.turnFirst);
  views.turnTarget.set(edgeBased.turnTarget);
  views.turnWeight.set(edgeBased.turnWeight);
  views.piecePoint.set(spatial.piecePoint);
  let offset = 0;
  strings.encoded.forEach((bytes, i) => {
    views.stringOffsets[i] = offset;
    views.stringBytes.set(bytes, offset);
    offset += bytes.length;
  });
  views.stringOffsets[strings.encoded.length] = offset;
  if (spatial.index) views.flatbush.set(new Uint8Array(spatial.index));

  writeFileSync(file, new Uint8Array(buffer));
  let nodes = 0;
  for (const weight of edgeBased.nodeWeight) if (weight !== IMPASSABLE) nodes++;
  const shortcuts = countShortcuts(hierarchy.upMiddle) + countShortcuts(hierarchy.downMiddle);
  return { nodes, edges: edgeBased.turnTarget.length, shortcuts, core: hierarchy.core, smallSegments, seconds: (performance.now() - started) / 1000, bytes: buffer.byteLength };
}

function countShortcuts(middles: Int32Array): number {
  let count = 0;
  for (const middle of middles) if (middle !== NO_MIDDLE) count++;
  return count;
}
