/**
 * Reading a routing graph file: `loadRoutingGraph` reads it once into a SharedArrayBuffer (the main
 * thread hands that to every Piscina worker through workerData, without copying), and
 * `openRoutingGraph` lays typed-array views and the flatbush index over it in each thread.
 */
import Flatbush from 'flatbush';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { TravelMode } from './network.js';
import { readHeader, sectionViews, spatialOffset, type RoutingGraphSections } from './graph-format.js';

export interface RoutingGraphBuffers {
  mode: TravelMode;
  shared: SharedArrayBuffer;
}

export interface RoutingGraph extends RoutingGraphSections {
  mode: TravelMode;
  segmentCount: number;
  /**
   * Two per segment (node 2s travels segment s forwards, 2s+1 backwards), then the duplicates on
   * the via paths of via-way turn restrictions: originalNode (core/routing/graph-format.ts) maps a
   * node to the segment direction it travels.
   */
  nodeCount: number;
  /** The string table (names and refs), decoded once per thread. */
  strings: string[];
  /** Spatial index over the 2-point pieces of passable segments (x = lon, y = Mercator y); null when there are none. */
  spatial: Flatbush | null;
}

/** Read a routing graph file into shared memory, checking its header. */
export function loadRoutingGraph(file: string): RoutingGraphBuffers {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const shared = new SharedArrayBuffer(size);
    const bytes = new Uint8Array(shared);
    for (let read = 0; read < size; ) {
      const n = readSync(fd, bytes, read, size - read, read);
      if (n === 0) throw new Error(`${file}: unexpected end of file`);
      read += n;
    }
    return { mode: readHeader(shared).mode, shared };
  } finally {
    closeSync(fd);
  }
}

/** Views on a loaded graph (no copy); throws a clear Error for a wrong magic or format version. */
export function openRoutingGraph(shared: SharedArrayBuffer): RoutingGraph {
  const counts = readHeader(shared);
  const sections = sectionViews(shared, counts);
  for (const original of sections.duplicateOf) {
    if (original >= 2 * counts.segments)
      throw new Error(`Routing graph is corrupt: a duplicated node copies node ${original}, past the segments.`);
  }
  const text = Buffer.from(shared, sections.stringBytes.byteOffset, sections.stringBytes.length);
  const strings: string[] = [];
  for (let i = 0; i < counts.strings; i++) {
    strings.push(text.toString('utf8', sections.stringOffsets[i], sections.stringOffsets[i + 1]));
  }
  return {
    ...sections,
    mode: counts.mode,
    segmentCount: counts.segments,
    nodeCount: 2 * counts.segments + counts.duplicates,
    strings,
    spatial: counts.pieces > 0 ? Flatbush.from(shared, spatialOffset(counts)) : null,
  };
}
