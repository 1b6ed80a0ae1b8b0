/** Isochrones on a loaded graph: the centre snapped, the network reached within the largest contour, the contours drawn. */
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import { reach } from '../graph/reach.js';
import { snap } from '../graph/snap.js';
import { isochroneFeatures } from '../isochrone/isochrone-features.js';
import { type IsochroneParams, SNAP_RADIUS_METRES, type RoutingAnswer } from '../task.js';

export function answerIsochrone(graph: RoutingGraph, params: IsochroneParams): RoutingAnswer {
  const [lon, lat] = params.center;
  const start = snap(graph, lon, lat, SNAP_RADIUS_METRES);
  if (start === null)
    return { ok: false, code: 'NoSegment', message: `no road for ${params.mode} within ${SNAP_RADIUS_METRES} m of center (${lat},${lon})` };
  const pieces = reach(graph, start, Math.max(...params.time) * 60);
  const features = isochroneFeatures(pieces, params.center, params.time, {
    mode: params.mode,
    polygons: params.polygons,
    ...(params.generalize === undefined ? {} : { generalize: params.generalize }),
  });
  return { ok: true, body: JSON.stringify(features) };
}
