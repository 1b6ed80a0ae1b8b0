/**
 * Routing on real data for the tests: a dataset folder with routing graphs built from OSM extracts
 * (the tiny test tiles of dataset.ts beside them), the engine called directly with the same
 * parameter checks as the server, an independent plain Dijkstra on the graph's uncontracted
 * edge-based turns to check the contraction hierarchy's answers, and small geometry helpers
 * (haversine, polyline decoding, point in polygon, ring areas).
 */
import polyline from '@mapbox/polyline';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { paths, type DatasetManifest } from '../../core/dataset-layout.js';
import { writeRoutingGraph } from '../../data-pipeline/routing/graph/write.js';
import type { RoadNetwork, TravelMode } from '../../core/routing/network.js';
import { readRoadNetworks } from '../../data-pipeline/routing/osm-network.js';
import { answerDirections } from '../../workers/routing/answer/directions.js';
import { answerIsochrone } from '../../workers/routing/answer/isochrone.js';
import type { ElevationLookup } from '../../core/terrain/line-samples.js';
import { endpointOfSnap, targetOfSnap } from '../../workers/routing/graph/endpoint.js';
import { IMPASSABLE, classesOfNode, originalNode, restrictedEntryPenalty } from '../../core/routing/graph-format.js';
import { loadRoutingGraph, openRoutingGraph, type RoutingGraph } from '../../core/routing/graph-file.js';
import type { Snap } from '../../workers/routing/graph/snap.js';
import { sanitizeDirections, sanitizeIsochrone } from '../../src/routing/sanitize/endpoints.js';
import { writeTestDataset } from './dataset.js';
import type { RoutingAnswer } from '../../workers/routing/task.js';
import type { BBox, LonLat } from '../../core/geo/types.js';

/**
 * Writes the test dataset into `dataDir` (pointed at by `current`) and adds routing graphs of
 * `modes` built from `osmFiles`, with `routingModes` and `bounds` in its manifest.
 */
export async function writeRoutingDataset(
  dataDir: string,
  osmFiles: string[],
  modes: readonly TravelMode[],
  bounds: BBox,
): Promise<string> {
  const { dir } = await writeTestDataset(dataDir, 'routing-real');
  const networks = await readRoadNetworks(osmFiles, () => {});
  for (const mode of modes) {
    mkdirSync(dirname(paths.routingGraph(dir, mode)), { recursive: true });
    writeRoutingGraph(networks[mode], paths.routingGraph(dir, mode));
  }
  const manifest = JSON.parse(readFileSync(paths.manifest(dir), 'utf8')) as DatasetManifest;
  manifest.routingModes = [...modes];
  manifest.bounds = bounds;
  manifest.inputs = osmFiles.map((file) => `osm:${file.split('/').pop()}`);
  writeFileSync(paths.manifest(dir), JSON.stringify(manifest));
  return dir;
}

/** `network`'s graph written to `file` and opened as a routing worker opens it. */
export function graphOf(network: RoadNetwork, file: string): RoutingGraph {
  writeRoutingGraph(network, file);
  return openRoutingGraph(loadRoutingGraph(file).shared);
}

/** The graph of one mode of a dataset folder, opened as a routing worker opens it. */
export function openGraph(datasetDir: string, mode: TravelMode): RoutingGraph {
  return openRoutingGraph(loadRoutingGraph(paths.routingGraph(datasetDir, mode)).shared);
}

export type Parsed = { ok: true; body: any } | { ok: false; code: string; message: string };

function parsed(answer: RoutingAnswer): Parsed {
  return answer.ok ? { ok: true, body: JSON.parse(answer.body) } : answer;
}

/** /directions on a graph without HTTP: the query string checked as the server checks it; `elevation` answers `elevation=true`. */
export function directionsOn(graph: RoutingGraph, query: string, elevation: ElevationLookup | null = null): Parsed {
  return parsed(answerDirections(graph, sanitizeDirections(new URLSearchParams(query)).params, elevation));
}

/** /isochrone on a graph without HTTP. */
export function isochroneOn(graph: RoutingGraph, query: string): Parsed {
  return parsed(answerIsochrone(graph, sanitizeIsochrone(new URLSearchParams(query)).params));
}

/** `lat,lng` as the API takes it. */
export const latLng = ([lon, lat]: LonLat): string => `${lat},${lon}`;

/** Great-circle metres (mean Earth radius), independent of the engine's own. */
export function haversine([lon1, lat1]: LonLat, [lon2, lat2]: LonLat): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** A route or step geometry as [lon, lat] points, whatever `geometries` was asked. */
export function decodeGeometry(geometry: unknown, kind: 'polyline' | 'polyline6' | 'geojson'): LonLat[] {
  if (kind === 'geojson') return (geometry as { coordinates: LonLat[] }).coordinates;
  return polyline.decode(geometry as string, kind === 'polyline6' ? 6 : 5).map(([lat, lon]): LonLat => [lon, lat]);
}

/** Metres from `p` to the segment a–b, in a flat frame around `p`. */
export function metresToSegment(p: LonLat, a: LonLat, b: LonLat): number {
  const kx = 111_195 * Math.cos((p[1] * Math.PI) / 180);
  const ky = 111_195;
  const ax = (a[0] - p[0]) * kx,
    ay = (a[1] - p[1]) * ky;
  const bx = (b[0] - p[0]) * kx,
    by = (b[1] - p[1]) * ky;
  const dx = bx - ax,
    dy = by - ay;
  const squared = dx * dx + dy * dy;
  const t = squared > 0 ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / squared)) : 0;
  return Math.hypot(ax + t * dx, ay + t * dy);
}

/** Metres from `p` to the nearest piece of a line (or ring). */
export function metresToLine(p: LonLat, line: LonLat[]): number {
  if (line.length === 1) return haversine(p, line[0]!);
  let best = Infinity;
  for (let i = 1; i < line.length; i++) best = Math.min(best, metresToSegment(p, line[i - 1]!, line[i]!));
  return best;
}

/** Even-odd test of one ring. */
export function inRing([x, y]: LonLat, ring: LonLat[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The polygons of a Polygon or MultiPolygon geometry. */
export function polygonsOf(geometry: { type: string; coordinates: unknown }): LonLat[][][] {
  if (geometry.type === 'Polygon') return [geometry.coordinates as LonLat[][]];
  if (geometry.type === 'MultiPolygon') return geometry.coordinates as LonLat[][][];
  throw new Error(`not a polygon: ${geometry.type}`);
}

/** Inside the exterior of one of the polygons and in none of its holes. */
export function inPolygons(p: LonLat, polygons: LonLat[][][]): boolean {
  return polygons.some(([outer, ...holes]) => inRing(p, outer!) && !holes.some((hole) => inRing(p, hole)));
}

/** Metres from `p` to the nearest ring edge of the polygons. */
export function metresToBoundary(p: LonLat, polygons: LonLat[][][]): number {
  let best = Infinity;
  for (const polygon of polygons) for (const ring of polygon) best = Math.min(best, metresToLine(p, ring));
  return best;
}

/** Signed area of a ring in square degrees (shoelace): positive when anticlockwise. */
export function signedArea(ring: LonLat[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[j]![0] - ring[i]![0]) * (ring[j]![1] + ring[i]![1]);
  return sum / 2;
}

/** Area of the polygons in square degrees: exteriors minus holes. */
export function polygonsArea(polygons: LonLat[][][]): number {
  let area = 0;
  for (const [outer, ...holes] of polygons) {
    area += Math.abs(signedArea(outer!));
    for (const hole of holes) area -= Math.abs(signedArea(hole));
  }
  return area;
}

/** Binary min-heap of (key, value) pairs, for the reference search. */
class Heap {
  private keys: number[] = [];
  private values: number[] = [];
  get size(): number {
    return this.keys.length;
  }
  push(key: number, value: number): void {
    const { keys, values } = this;
    let i = keys.length;
    keys.push(key), values.push(value);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      (keys[i] = keys[parent]!), (values[i] = values[parent]!);
      i = parent;
    }
    (keys[i] = key), (values[i] = value);
  }
  pop(): [number, number] {
    const { keys, values } = this;
    const top: [number, number] = [keys[0]!, values[0]!];
    const key = keys.pop()!,
      value = values.pop()!;
    const n = keys.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= n) break;
        const child = left + 1 < n && keys[left + 1]! < keys[left]! ? left + 1 : left;
        if (keys[child]! >= key) break;
        (keys[i] = keys[child]!), (values[i] = values[child]!);
        i = child;
      }
      (keys[i] = key), (values[i] = value);
    }
    return top;
  }
}

/**
 * The travel time in deciseconds of the least-weight path from one snapped position to another, by
 * a plain Dijkstra on the graph's uncontracted edge-based turns (node weights, turn weights with
 * U-turn and restricted-access penalties and turn restrictions as stored; the restricted-access
 * penalties, part of the weight only, taken off the time), with the engine's endpoint rules: a
 * search starts part-way along the start segment in each passable direction and ends part-way along
 * the end segment. Infinity when nothing connects them. Independent of the contraction hierarchy and
 * of its search. With `exclude` (ROAD_CLASSES bits, OSRM's `exclude`) it never enters a node of
 * those classes, as written in the graph's segment classes, nor starts or ends on one.
 */
export function referenceDeciseconds(graph: RoutingGraph, from: Snap, to: Snap, exclude = 0): number {
  const { turnFirst, turnTarget, turnWeight, segmentFlags, segmentClasses } = graph;
  const nodeWeight = graph.nodeWeight.map((weight, node) =>
    (classesOfNode(segmentClasses, originalNode(graph, node)) & exclude) !== 0 ? IMPASSABLE : weight,
  );
  const source = endpointOfSnap(graph, from);
  const target = targetOfSnap(graph, to);
  const skipped = (endpoint: { nodes: number[]; positions: number[] }) => {
    const kept = endpoint.nodes
      .map((node, i) => [node, endpoint.positions[i]!] as const)
      .filter(([node]) => nodeWeight[node] !== IMPASSABLE);
    return { nodes: kept.map(([node]) => node), positions: kept.map(([, position]) => position) };
  };
  Object.assign(source, skipped(source));
  Object.assign(target, skipped(target));
  const targetPosition = new Map<number, number>();
  target.nodes.forEach((node, i) => targetPosition.set(node, target.positions[i]!));
  // Weight to the end of each node, and the restricted-access penalties in it.
  const end = new Float64Array(nodeWeight.length).fill(Infinity);
  const penalties = new Float64Array(nodeWeight.length);
  const heap = new Heap();
  let best = Infinity;
  let bestPenalties = 0;
  const arrive = (weight: number, paid: number) => {
    if (weight < best) (best = weight), (bestPenalties = paid);
  };
  source.nodes.forEach((node, i) => {
    const position = source.positions[i]!;
    const cost = (1 - position) * nodeWeight[node]!;
    if (cost < end[node]!) (end[node] = cost), heap.push(cost, node);
    const there = targetPosition.get(node);
    if (there !== undefined && there >= position) arrive((there - position) * nodeWeight[node]!, 0);
  });
  while (heap.size > 0) {
    const [cost, node] = heap.pop();
    if (cost > end[node]!) continue;
    if (cost >= best) break;
    for (let e = turnFirst[node]!; e < turnFirst[node + 1]!; e++) {
      const next = turnTarget[e]!;
      if (nodeWeight[next] === IMPASSABLE) continue;
      const atEnd = cost + turnWeight[e]!;
      const paid = penalties[node]! + restrictedEntryPenalty(segmentFlags, originalNode(graph, node), originalNode(graph, next));
      const there = targetPosition.get(next);
      if (there !== undefined) arrive(atEnd - (1 - there) * nodeWeight[next]!, paid);
      if (atEnd < end[next]!) (end[next] = atEnd), (penalties[next] = paid), heap.push(atEnd, next);
    }
  }
  return best - bestPenalties;
}
