/**
 * Isolines of a grid of values by marching squares: for each level (every multiple of a step), the lines where the surface
 * (linear along each cell edge) crosses it, joined across cells into polylines — closed where a
 * line comes back to its start, open where it reaches the grid's border or a cell with a NaN
 * corner (the data's edge). Points are in grid units: sample (c, r) is the point (c, r).
 *
 * A corner counts as above a level when its value is ≥ the level, so a line never passes through a
 * sample and two lines of one level never share a point. Saddle cells (opposite corners above) are
 * resolved by the cell's mean: above, the two above corners are joined through the cell.
 */

export type Point = [number, number];

/** A crossing's identity: the cell edge it lies on (each interior edge is shared by two cells). */
const edgeId = (c: number, r: number, vertical: boolean, columns: number) => 2 * (r * columns + c) + (vertical ? 1 : 0);

/** The crossings and segments of one level, as the cells are marched. */
class LevelLines {
  readonly points = new Map<number, Point>();
  readonly ends = new Map<number, number[]>();
  readonly segments: [number, number][] = [];

  constructor(readonly level: number) {}

  link(a: number, b: number): void {
    const index = this.segments.push([a, b]) - 1;
    for (const id of [a, b]) {
      const list = this.ends.get(id);
      if (list) list.push(index);
      else this.ends.set(id, [index]);
    }
  }
}

/**
 * The isolines of every multiple of `step` over `values` (`columns` × `rows`, row after row), by
 * level. Each line is a list of points; a closed one ends at its first point. One pass over the
 * cells, each visited for the levels between its lowest and highest corner only.
 */
export function isolines(values: ArrayLike<number>, columns: number, rows: number, step: number): Map<number, Point[][]> {
  const at = (c: number, r: number) => values[r * columns + c]!;
  const byLevel = new Map<number, LevelLines>();
  for (let r = 0; r + 1 < rows; r++) {
    for (let c = 0; c + 1 < columns; c++) {
      const tl = at(c, r);
      const tr = at(c + 1, r);
      const br = at(c + 1, r + 1);
      const bl = at(c, r + 1);
      if (Number.isNaN(tl + tr + br + bl)) continue;
      // The levels with a corner below and one at or above: low < level ≤ high.
      const last = Math.floor(Math.max(tl, tr, br, bl) / step);
      for (let k = Math.floor(Math.min(tl, tr, br, bl) / step) + 1; k <= last; k++) {
        const level = k * step;
        let lines = byLevel.get(level);
        if (lines === undefined) byLevel.set(level, (lines = new LevelLines(level)));
        marchCell(lines, c, r, columns, tl, tr, br, bl);
      }
    }
  }
  const result = new Map<number, Point[][]>();
  for (const level of [...byLevel.keys()].sort((a, b) => a - b)) result.set(level, joinSegments(byLevel.get(level)!));
  return result;
}

/** The segment(s) of one level in the cell whose top-left sample is (c, r). */
function marchCell(lines: LevelLines, c: number, r: number, columns: number, tl: number, tr: number, br: number, bl: number): void {
  const { level } = lines;
  const corners = (tl >= level ? 8 : 0) | (tr >= level ? 4 : 0) | (br >= level ? 2 : 0) | (bl >= level ? 1 : 0);
  const crossing = (ec: number, er: number, vertical: boolean, a: number, b: number): number => {
    const id = edgeId(ec, er, vertical, columns);
    if (!lines.points.has(id)) {
      const t = (level - a) / (b - a);
      lines.points.set(id, vertical ? [ec, er + t] : [ec + t, er]);
    }
    return id;
  };
  const top = () => crossing(c, r, false, tl, tr);
  const bottom = () => crossing(c, r + 1, false, bl, br);
  const left = () => crossing(c, r, true, tl, bl);
  const right = () => crossing(c + 1, r, true, tr, br);
  switch (corners) {
    case 1:
    case 14:
      lines.link(left(), bottom());
      break;
    case 2:
    case 13:
      lines.link(bottom(), right());
      break;
    case 3:
    case 12:
      lines.link(left(), right());
      break;
    case 4:
    case 11:
      lines.link(top(), right());
      break;
    case 6:
    case 9:
      lines.link(top(), bottom());
      break;
    case 7:
    case 8:
      lines.link(left(), top());
      break;
    case 5: // top-right and bottom-left above
    case 10: {
      // top-left and bottom-right above
      const centreAbove = (tl + tr + br + bl) / 4 >= level;
      // Joined through the centre: the above corners are one region; else they are cut off apart.
      if ((corners === 10) !== centreAbove) {
        lines.link(left(), top());
        lines.link(bottom(), right());
      } else {
        lines.link(top(), right());
        lines.link(left(), bottom());
      }
      break;
    }
  }
}

/** Walks the segments into polylines: from each crossing with one segment (an open line's end), then the loops left. */
function joinSegments({ segments, ends, points }: LevelLines): Point[][] {
  const used = new Uint8Array(segments.length);
  const lines: Point[][] = [];
  const walk = (start: number, first: number) => {
    const line: Point[] = [points.get(start)!];
    let at = start;
    let segment: number | undefined = first;
    while (segment !== undefined) {
      used[segment] = 1;
      const [a, b] = segments[segment]!;
      at = a === at ? b : a;
      line.push(points.get(at)!);
      segment = ends.get(at)!.find((next) => used[next] === 0);
    }
    lines.push(line);
  };
  for (const [id, list] of ends) if (list.length === 1 && used[list[0]!] === 0) walk(id, list[0]!);
  for (let segment = 0; segment < segments.length; segment++) if (used[segment] === 0) walk(segments[segment]![0], segment);
  return lines;
}
