/**
 * The area of a time grid reached within a limit, as polygons in metres: marching squares (d3-contour)
 * over the grid, rings turned the GeoJSON way (exteriors anticlockwise, holes clockwise) and optionally
 * simplified. Holes are where the network does not come near.
 */
import { contours } from 'd3-contour';
import { simplifiedIndices } from '../response/simplify.js';
import type { TimeGrid } from './time-grid.js';

type Point = [number, number];
export type Ring = Point[];
/** An exterior ring, then its holes. */
export type Polygon = Ring[];

/** Twice the signed area of a closed ring: positive when it turns anticlockwise. */
function signedArea(ring: Ring): number {
  let sum = 0;
  for (let k = 1; k < ring.length; k++) sum += ring[k - 1]![0] * ring[k]![1] - ring[k]![0] * ring[k - 1]![1];
  return sum;
}

function oriented(ring: Ring, anticlockwise: boolean): Ring {
  return signedArea(ring) > 0 === anticlockwise ? ring : [...ring].reverse();
}

/** Douglas–Peucker to `tolerance` metres; a ring that would collapse stays as it is. */
function simplifiedRing(ring: Ring, tolerance: number): Ring {
  const kept = simplifiedIndices(ring, tolerance).map((index) => ring[index]!);
  return kept.length >= 4 ? kept : ring;
}

/**
 * For each limit in `limits` (seconds, any order), the polygons of the cells reached within it; `generalize`
 * (metres) simplifies their rings and drops holes smaller than a square of that side.
 */
export function reachedPolygons(grid: TimeGrid, limits: readonly number[], generalize = 0): Polygon[][] {
  // d3-contour encloses values at or above a threshold, so the field is negated. Cells never reached get a
  // finite time beyond every limit, so that boundaries are interpolated between cells, not glued to them.
  const unreached = -2 * Math.max(...limits);
  const values = Array.from(grid.seconds, (time) => (Number.isFinite(time) ? -time : unreached));
  const bands = contours()
    .size([grid.width, grid.height])
    .thresholds(limits.map((limit) => -limit))(values);
  const toMetres = ([column, row]: number[]): Point => [grid.west + column! * grid.cell, grid.south + row! * grid.cell];
  const byThreshold = new Map(bands.map((band) => [-band.value, band.coordinates]));
  return limits.map((limit) =>
    (byThreshold.get(limit) ?? []).map((rings) =>
      rings
        .map((ring, index) => {
          const metric = oriented(ring.map(toMetres), index === 0);
          return generalize > 0 ? simplifiedRing(metric, generalize) : metric;
        })
        .filter((ring, index) => index === 0 || Math.abs(signedArea(ring)) / 2 > generalize ** 2),
    ),
  );
}
