/**
 * Makes Natural Earth's TopoJSON shapes (world-atlas, drawn for spherical d3 rendering) valid flat
 * lon/lat geometry: a ring stitched across the antimeridian (Chukotka, Fiji) is cut there into one
 * piece per side, a ring around the South Pole (Antarctica) is closed along the map's bottom edge,
 * and a pole-circling hole (world-atlas' trick to make Antarctica a spherical polygon) is dropped.
 */
import type { Position } from 'geojson';

export type Ring = Position[];

/** Longitudes made continuous: each jump of more than 180° is undone by ±360°. */
function unwrap(ring: readonly Position[]): { ring: Ring; shift: number } {
  const out: Ring = [];
  let shift = 0;
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i]!;
    if (i > 0) {
      const dx = p[0]! + shift - out[i - 1]![0]!;
      if (dx > 180) shift -= 360;
      else if (dx < -180) shift += 360;
    }
    out.push([p[0]! + shift, p[1]!]);
  }
  return { ring: out, shift };
}

/** Sutherland–Hodgman clip of a closed ring to the side of x = `edge` where `inside` holds. */
function clipToHalfPlane(ring: Ring, edge: number, inside: (x: number) => boolean): Ring {
  const out: Ring = [];
  for (let i = 0; i < ring.length - 1; i++) {
    const a = ring[i]!;
    const b = ring[i + 1]!;
    const aIn = inside(a[0]!);
    const bIn = inside(b[0]!);
    if (aIn) out.push(a);
    if (aIn !== bIn) out.push([edge, a[1]! + ((edge - a[0]!) * (b[1]! - a[1]!)) / (b[0]! - a[0]!)]);
  }
  if (out.length > 0) out.push(out[0]!);
  return out.length >= 4 ? out : [];
}

const shifted = (ring: Ring, dx: number): Ring => ring.map((p) => [p[0]! + dx, p[1]!]);

/** The ring cut at ±180° into pieces that each lie within [-180, 180]. */
function splitAtAntimeridian(ring: Ring): Ring[] {
  let west = Infinity;
  let east = -Infinity;
  for (const p of ring) {
    if (p[0]! < west) west = p[0]!;
    if (p[0]! > east) east = p[0]!;
  }
  if (west >= -180 && east <= 180) return [ring];
  const edge = east > 180 ? 180 : -180;
  const onMap = clipToHalfPlane(ring, edge, (x) => (edge > 0 ? x <= edge : x >= edge));
  const beyond = clipToHalfPlane(ring, edge, (x) => (edge > 0 ? x >= edge : x <= edge));
  return [onMap, shifted(beyond, -2 * edge)].filter((piece) => piece.length > 0);
}

/**
 * One spherical polygon as flat polygons: its exterior cut or closed as needed, holes kept where
 * they are ordinary rings.
 */
export function flatPolygons(rings: readonly Ring[]): Ring[][] {
  const [exterior, ...holes] = rings;
  if (!exterior) return [];
  const { ring, shift } = unwrap(exterior);
  let pieces: Ring[];
  if (shift !== 0) {
    // It circles a pole: close it along the map's edge at that pole.
    const first = ring[0]!;
    const last = ring[ring.length - 1]!;
    const poleLat = first[1]! < 0 ? -90 : 90;
    pieces = splitAtAntimeridian([...ring, [last[0]!, poleLat], [first[0]!, poleLat], first]);
  } else {
    pieces = splitAtAntimeridian(ring);
  }
  const keptHoles = holes.filter((hole) => unwrap(hole).shift === 0);
  return pieces.map((piece, i) => (i === 0 ? [piece, ...keptHoles] : [piece]));
}

/** A line cut wherever it jumps across the antimeridian. */
export function flatLines(line: readonly Position[]): Position[][] {
  const parts: Position[][] = [[]];
  for (let i = 0; i < line.length; i++) {
    if (i > 0 && Math.abs(line[i]![0]! - line[i - 1]![0]!) > 180) parts.push([]);
    parts[parts.length - 1]!.push(line[i]!);
  }
  return parts.filter((part) => part.length >= 2);
}
