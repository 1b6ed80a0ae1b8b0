// The sea inside a box from coastlines (water on their right, as OSM's `natural=coastline` ways):
// chains are joined end to start, clipped to the box and closed along the box's edge so that the
// water is inside; closed rings become islands or lakes. Planar: lon/lat for an extract's sea
// (data-pipeline/shortbread), tile units (y flipped) for the world backdrop (src/maps).
import type { Position } from 'geojson';
import { ringContains, signedRingArea, type PolygonRings, type Ring } from './rings.js';
import type { BBox } from './types.js';

const key = (p: Position) => `${p[0]},${p[1]}`;

/** Joins ways that continue each other (one's last node is the next one's first) into chains. */
function joinCoastlines(ways: Position[][]): { rings: Ring[]; open: Position[][] } {
  const byStart = new Map<string, Position[]>();
  const byEnd = new Map<string, Position[]>();
  const rings: Ring[] = [];
  for (const way of ways) {
    let chain = way;
    for (;;) {
      const next = byStart.get(key(chain[chain.length - 1]!));
      if (next === undefined) break;
      byStart.delete(key(next[0]!));
      byEnd.delete(key(next[next.length - 1]!));
      chain = chain.concat(next.slice(1));
    }
    for (;;) {
      const previous = byEnd.get(key(chain[0]!));
      if (previous === undefined) break;
      byStart.delete(key(previous[0]!));
      byEnd.delete(key(previous[previous.length - 1]!));
      chain = previous.concat(chain.slice(1));
    }
    if (key(chain[0]!) === key(chain[chain.length - 1]!)) rings.push(chain);
    else {
      byStart.set(key(chain[0]!), chain);
      byEnd.set(key(chain[chain.length - 1]!), chain);
    }
  }
  return { rings, open: [...byStart.values()] };
}

function inside(p: Position, [w, s, e, n]: BBox): boolean {
  return p[0]! >= w && p[0]! <= e && p[1]! >= s && p[1]! <= n;
}

/** Liang–Barsky: the parameter range [t0, t1] of segment a→b inside the box, or undefined. */
function clipSegment(a: Position, b: Position, [w, s, e, n]: BBox): [number, number] | undefined {
  const dx = b[0]! - a[0]!;
  const dy = b[1]! - a[1]!;
  const p = [-dx, dx, -dy, dy];
  const q = [a[0]! - w, e - a[0]!, a[1]! - s, n - a[1]!];
  let t0 = 0;
  let t1 = 1;
  for (let i = 0; i < 4; i++) {
    if (p[i] === 0) {
      if (q[i]! < 0) return undefined;
      continue;
    }
    const r = q[i]! / p[i]!;
    if (p[i]! < 0) {
      if (r > t1) return undefined;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return undefined;
      if (r < t1) t1 = r;
    }
  }
  return t0 <= t1 ? [t0, t1] : undefined;
}

/** The point of the box's edge nearest to p, placed exactly on that edge. */
function snapToEdge(p: Position, [w, s, e, n]: BBox): Position {
  const x = Math.min(e, Math.max(w, p[0]!));
  const y = Math.min(n, Math.max(s, p[1]!));
  const distances = [n - y, e - x, y - s, x - w];
  const nearest = distances.indexOf(Math.min(...distances));
  return nearest === 0 ? [x, n] : nearest === 1 ? [e, y] : nearest === 2 ? [x, s] : [w, y];
}

function along(a: Position, b: Position, t: number, box: BBox): Position {
  return snapToEdge([a[0]! + (b[0]! - a[0]!) * t, a[1]! + (b[1]! - a[1]!) * t], box);
}

/**
 * The parts of a chain inside the box, each from a point on the edge to a point on the edge. A
 * chain that ends inside the box (the extract cut it) is extended to the nearest edge.
 */
function clipChain(chain: Position[], box: BBox): Position[][] {
  const pieces: Position[][] = [];
  let piece: Position[] | undefined = inside(chain[0]!, box) ? [snapToEdge(chain[0]!, box), chain[0]!] : undefined;
  for (let i = 1; i < chain.length; i++) {
    const a = chain[i - 1]!;
    const b = chain[i]!;
    if (piece !== undefined) {
      if (inside(b, box)) piece.push(b);
      else {
        piece.push(along(a, b, clipSegment(a, b, box)![1], box));
        pieces.push(piece);
        piece = undefined;
      }
      continue;
    }
    const range = clipSegment(a, b, box);
    if (range === undefined) continue;
    if (inside(b, box)) piece = [along(a, b, range[0], box), b];
    else if (range[0] < range[1]) pieces.push([along(a, b, range[0], box), along(a, b, range[1], box)]);
  }
  if (piece !== undefined) {
    piece.push(snapToEdge(chain[chain.length - 1]!, box));
    pieces.push(piece);
  }
  return pieces;
}

/** Position along the box's edge, clockwise from the north-west corner: 0–1 north, 1–2 east, 2–3 south, 3–4 west. */
function edgePosition(p: Position, [w, s, e, n]: BBox): number {
  const x = p[0]!;
  const y = p[1]!;
  const distances = [n - y, e - x, y - s, x - w];
  const edge = distances.indexOf(Math.min(...distances));
  if (edge === 0) return (x - w) / (e - w);
  if (edge === 1) return 1 + (n - y) / (n - s);
  if (edge === 2) return 2 + (e - x) / (e - w);
  return 3 + (y - s) / (n - s);
}

function corner(index: number, [w, s, e, n]: BBox): Position {
  return [
    [w, n],
    [e, n],
    [e, s],
    [w, s],
  ][index % 4]!;
}

/**
 * Closes the clipped coastline pieces into sea rings: from where a piece leaves the box, walk the
 * edge clockwise (the water side, since water is on a coastline's right) to the next piece's start.
 */
function closeAlongEdge(pieces: Position[][], box: BBox): Ring[] {
  const entry = pieces.map((p) => edgePosition(p[0]!, box));
  const exit = pieces.map((p) => edgePosition(p[p.length - 1]!, box));
  const used = new Array<boolean>(pieces.length).fill(false);
  const rings: Ring[] = [];
  for (let start = 0; start < pieces.length; start++) {
    if (used[start]) continue;
    const ring: Ring = [];
    let current = start;
    for (;;) {
      used[current] = true;
      for (const p of pieces[current]!) ring.push(p);
      let next = -1;
      let nextDistance = Infinity;
      for (let j = 0; j < pieces.length; j++) {
        if (used[j] && j !== start) continue;
        const distance = (entry[j]! - exit[current]! + 4) % 4;
        if (distance < nextDistance) {
          nextDistance = distance;
          next = j;
        }
      }
      for (let c = Math.floor(exit[current]!) + 1; c < exit[current]! + nextDistance; c++) ring.push(corner(c, box));
      if (next === start || next < 0) break;
      current = next;
    }
    ring.push(ring[0]!);
    rings.push(ring);
  }
  return rings;
}

const reversed = (ring: Ring): Ring => ring.slice().reverse();

/** A closed ring that leaves the box, turned to start outside it so clipping sees whole pieces. */
function rotateToOutside(ring: Ring, box: BBox): Position[] {
  const i = ring.findIndex((p) => !inside(p, box));
  return ring.slice(i).concat(ring.slice(1, i + 1));
}

/**
 * Sea polygons (GeoJSON orientation: outer rings counter-clockwise, holes clockwise) inside the
 * box. Empty when there is no coastline in the box.
 */
export function oceanPolygons(coastlines: Position[][], box: BBox): PolygonRings[] {
  const { rings, open } = joinCoastlines(coastlines);
  const pieces: Position[][] = [];
  const closedInside: Ring[] = [];
  for (const chain of open) for (const piece of clipChain(chain, box)) pieces.push(piece);
  for (const ring of rings) {
    if (ring.every((p) => inside(p, box))) closedInside.push(ring);
    else for (const piece of clipChain(rotateToOutside(ring, box), box)) pieces.push(piece);
  }
  const seaOuters = closeAlongEdge(pieces, box).map(reversed);
  const inSea = (ring: Ring) => seaOuters.some((outer) => ringContains(outer, ring[0]![0]!, ring[0]![1]!));
  const islands: Ring[] = [];
  const lakes: Ring[] = [];
  for (const ring of closedInside) {
    // Land is on the left: counter-clockwise rings enclose land. A clockwise ring out at sea is an
    // island drawn the wrong way round; elsewhere it encloses water (a lake of sea water in land).
    if (signedRingArea(ring) > 0) islands.push(ring);
    else if (inSea(ring)) islands.push(reversed(ring));
    else lakes.push(reversed(ring));
  }
  for (const lake of lakes) seaOuters.push(lake);
  if (pieces.length === 0 && islands.some((island) => !inSea(island))) {
    const [w, s, e, n] = box;
    seaOuters.push([
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ]);
  }
  const polygons: PolygonRings[] = seaOuters.map((outer) => [outer]);
  const outerAreas = seaOuters.map((outer) => Math.abs(signedRingArea(outer)));
  for (const island of islands) {
    let best = -1;
    for (let i = 0; i < seaOuters.length; i++) {
      if (ringContains(seaOuters[i]!, island[0]![0]!, island[0]![1]!) && (best < 0 || outerAreas[i]! < outerAreas[best]!)) best = i;
    }
    if (best >= 0) polygons[best]!.push(reversed(island));
  }
  return polygons;
}
