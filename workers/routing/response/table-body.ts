/** The OSRM v5 table service body (also `/matrix`'s) from a cost matrix and the snapped points. */
import type { CostMatrix } from '../graph/many-to-many.js';
import type { SnappedPoint } from '../path.js';
import { osrmWaypoint } from './directions-body.js';
import type { TableBody } from './osrm.js';
import { tenths } from './rounding.js';
import type { Annotation } from '../task.js';

function rows(values: Float64Array, width: number, scale: number): (number | null)[][] {
  const table: (number | null)[][] = [];
  for (let start = 0; start < values.length; start += width) {
    table.push(Array.from(values.subarray(start, start + width), (value) => (value === Infinity ? null : tenths(value * scale))));
  }
  return table;
}

export function tableBody(
  costs: CostMatrix,
  sources: readonly SnappedPoint[],
  destinations: readonly SnappedPoint[],
  annotations: readonly Annotation[],
): TableBody {
  return {
    code: 'Ok',
    // The matrix holds deciseconds.
    ...(annotations.includes('duration') ? { durations: rows(costs.time, destinations.length, 0.1) } : {}),
    ...(annotations.includes('distance') ? { distances: rows(costs.metres, destinations.length, 1) } : {}),
    sources: sources.map(osrmWaypoint),
    destinations: destinations.map(osrmWaypoint),
  };
}
