/**
 * The points of a routing request set against the served dataset's coverage (its manifest's
 * `bounds`) before any work: a point farther from the coverage than its snap radius can have no
 * road, and is most often a point in the other order (`lng,lat` for `lat,lng`), or meant for
 * another dataset. It is a 400 with the code `NoSegment` whose message names the coverage in the
 * parameter's order and suggests the swapped point when that one is covered. A point nearer than
 * its radius is left to the snapping (an extract's roads may run a little past its box).
 */
import { currentDataset, type DatasetHolder } from '../dataset/index.js';
import { ApiError } from '../http/errors.js';
import { metresOutside, outsideCoverage } from '../http/params/coverage.js';
import type { PointOrder } from '../../core/geo/point-text.js';
import type { BBox, LonLat } from '../../core/geo/types.js';
import { pointName, SNAP_RADIUS_METRES, type RoutingTask, type SnapRule } from '../../workers/routing/task.js';

/** One point of a request, as its messages name it, with the radius it may snap within. */
interface NamedPoint {
  name: string;
  point: LonLat;
  radius: number;
}

const named = (name: (i: number) => string, points: readonly LonLat[], rules?: readonly SnapRule[]): NamedPoint[] =>
  points.map((point, i) => ({ name: name(i), point, radius: rules?.[i]?.radius ?? SNAP_RADIUS_METRES }));

/** The points of a task, named as its answer's messages name them. */
function taskPoints(task: RoutingTask): NamedPoint[] {
  switch (task.kind) {
    case 'directions': {
      const points = [task.params.origin, ...task.params.waypoints, task.params.destination];
      return named((i) => pointName(i, points.length), points, task.params.snapRules);
    }
    case 'isochrone':
      return named(() => 'center', [task.params.center]);
    case 'matrix':
      return [
        ...named((i) => `sources[${i}]`, task.params.sources, task.params.sourceRules),
        ...named((i) => `destinations[${i}]`, task.params.destinations, task.params.destinationRules),
      ];
    // A trace point's radius is at most 100 m: the default radius bounds it.
    case 'match':
      return named((i) => `points[${i}]`, task.params.points);
    case 'trip':
      return named((i) => `points[${i}]`, task.params.points, task.params.snapRules);
    case 'nearest':
      return named(() => 'the coordinate', [task.params.point], task.params.rule && [task.params.rule]);
  }
}

/** Throws the 400 for the first point farther than its radius (at least the default one) from `box`. */
function checkPoints(box: BBox, mode: string, points: readonly NamedPoint[], order: PointOrder): void {
  for (const { name, point, radius } of points) {
    const margin = Math.max(radius, SNAP_RADIUS_METRES);
    if (metresOutside(box, point) <= margin) continue;
    const within = Number.isFinite(radius) ? ` within ${radius} m` : '';
    throw new ApiError(400, `no road for ${mode}${within} of ${name}: ${outsideCoverage(box, point, order, margin)}`, {}, 'NoSegment');
  }
}

/**
 * The task's points against the served dataset's coverage, written in `order`: `lat,lng` for
 * Waymark's endpoints, `lon,lat` for OSRM's paths.
 */
export function checkCoverage(datasets: DatasetHolder, task: RoutingTask, order: PointOrder): void {
  checkPoints(currentDataset(datasets).manifest.bounds, task.params.mode, taskPoints(task), order);
}
