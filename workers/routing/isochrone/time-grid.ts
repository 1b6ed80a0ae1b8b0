/**
 * The travel-time field of an isochrone: a metric grid around the centre whose cells hold the least
 * time at which the reached network passes within REACH_BUFFER of them (Infinity where it does not).
 * Contours of this one field at increasing times nest by construction.
 */

type Metres = readonly [number, number];

/** How far beside a reached road (or the centre) the area counts as reached: a short walk off the road. */
export const MIN_BUFFER_METRES = 100;
export const MIN_CELL_METRES = 50;
/** Bounds the work and the memory of one request: at most MAX_CELLS_PER_SIDE² cells. */
export const MAX_CELLS_PER_SIDE = 400;

export interface TimeGrid {
  /** Metres of one square cell's side. */
  cell: number;
  width: number;
  height: number;
  /** Metres east and north of the centre of the grid's south-west corner; row 0 is the southern one. */
  west: number;
  south: number;
  /** Seconds per cell, row by row from the south. */
  seconds: Float64Array;
}

/** A reached polyline in metres, with the travel time at each point. */
export interface MetricPiece {
  points: Metres[];
  seconds: number[];
}

const bufferFor = (cell: number) => Math.max(MIN_BUFFER_METRES, cell);

/**
 * An empty grid covering every point plus the buffer and one empty cell on each side (so that every
 * contour closes inside it), with cells as small as MAX_CELLS_PER_SIDE allows but not finer than
 * `generalize`, which would only add detail to throw away.
 */
function emptyGrid(pieces: readonly MetricPiece[], generalize: number): TimeGrid {
  let west = 0,
    south = 0,
    east = 0,
    north = 0; // the centre is (0, 0)
  for (const { points } of pieces) {
    for (const [x, y] of points) {
      west = Math.min(west, x);
      east = Math.max(east, x);
      south = Math.min(south, y);
      north = Math.max(north, y);
    }
  }
  const longerSide = Math.max(east - west, north - south);
  const cell = Math.max(MIN_CELL_METRES, generalize, (longerSide + 2 * MIN_BUFFER_METRES) / (MAX_CELLS_PER_SIDE - 4));
  const margin = bufferFor(cell) + cell;
  const width = Math.ceil((east - west + 2 * margin) / cell);
  const height = Math.ceil((north - south + 2 * margin) / cell);
  return { cell, width, height, west: west - margin, south: south - margin, seconds: new Float64Array(width * height).fill(Infinity) };
}

/** Lowers every cell whose centre lies within the buffer of (x, y) to `seconds`. */
function stamp(grid: TimeGrid, x: number, y: number, seconds: number): void {
  const { cell, width, height, west, south } = grid;
  const buffer = bufferFor(cell);
  const column = (x - west) / cell - 0.5;
  const row = (y - south) / cell - 0.5;
  const reach = buffer / cell;
  for (let j = Math.max(0, Math.ceil(row - reach)); j <= Math.min(height - 1, Math.floor(row + reach)); j++) {
    for (let i = Math.max(0, Math.ceil(column - reach)); i <= Math.min(width - 1, Math.floor(column + reach)); i++) {
      if ((i - column) ** 2 + (j - row) ** 2 > reach * reach) continue;
      const index = j * width + i;
      if (seconds < grid.seconds[index]!) grid.seconds[index] = seconds;
    }
  }
}

/** Stamps points along a piece at most half a cell apart, with times interpolated between its points. */
function stampPiece(grid: TimeGrid, piece: MetricPiece): void {
  const { points, seconds } = piece;
  if (points.length === 1) stamp(grid, points[0]![0], points[0]![1], seconds[0]!);
  for (let k = 1; k < points.length; k++) {
    const [x0, y0] = points[k - 1]!;
    const [x1, y1] = points[k]!;
    const t0 = seconds[k - 1]!;
    const t1 = seconds[k]!;
    const steps = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0) / (grid.cell / 2)));
    for (let s = k === 1 ? 0 : 1; s <= steps; s++) {
      const f = s / steps;
      stamp(grid, x0 + (x1 - x0) * f, y0 + (y1 - y0) * f, t0 + (t1 - t0) * f);
    }
  }
}

/** The grid of least times; the centre is always reached at 0 s, so even an empty reach has an area. */
export function timeGrid(pieces: readonly MetricPiece[], generalize = 0): TimeGrid {
  const grid = emptyGrid(pieces, generalize);
  stamp(grid, 0, 0, 0);
  for (const piece of pieces) stampPiece(grid, piece);
  return grid;
}
