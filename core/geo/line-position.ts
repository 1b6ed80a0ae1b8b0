/**
 * Positions along a line of longitude, latitude pairs, in a local plane (longitude scaled by the
 * cosine of the line's first latitude): where a point projects onto the line, and the point a
 * distance along it. Good for the few hundred metres of a street; distances are in degrees of
 * latitude.
 */
import type { LonLat } from './types.js';

const lonScale = (line: readonly LonLat[]) => Math.cos((line[0]![1] * Math.PI) / 180);

export interface LineProjection {
  /** Distance from the line's start to the projected point, along the line. */
  along: number;
  /** Distance from the point to the line. */
  offset: number;
}

export function projectOntoLine(line: readonly LonLat[], [lon, lat]: LonLat): LineProjection {
  const scale = lonScale(line);
  let best: LineProjection = { along: 0, offset: Infinity };
  let start = 0;
  for (let i = 1; i < line.length; i++) {
    const [ax, ay] = [line[i - 1]![0] * scale, line[i - 1]![1]];
    const [bx, by] = [line[i]![0] * scale, line[i]![1]];
    const [dx, dy] = [bx - ax, by - ay];
    const length = Math.hypot(dx, dy);
    const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((lon * scale - ax) * dx + (lat - ay) * dy) / (length * length)));
    const offset = Math.hypot(ax + t * dx - lon * scale, ay + t * dy - lat);
    if (offset < best.offset) best = { along: start + t * length, offset };
    start += length;
  }
  return best;
}

/** The point `along` from the line's start (clamped to its ends). */
export function pointAlongLine(line: readonly LonLat[], along: number): LonLat {
  const scale = lonScale(line);
  let remaining = Math.max(0, along);
  for (let i = 1; i < line.length; i++) {
    const [a, b] = [line[i - 1]!, line[i]!];
    const length = Math.hypot((b[0] - a[0]) * scale, b[1] - a[1]);
    if (remaining <= length && length > 0) {
      const f = remaining / length;
      return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
    }
    remaining -= length;
  }
  const last = line[line.length - 1]!;
  return [last[0], last[1]];
}

/** The length of the line, in the units of `along`. */
export function lineLength(line: readonly LonLat[]): number {
  const scale = lonScale(line);
  let length = 0;
  for (let i = 1; i < line.length; i++) length += Math.hypot((line[i]![0] - line[i - 1]![0]) * scale, line[i]![1] - line[i - 1]![1]);
  return length;
}
