/**
 * OSRM nearest's `nodes`: the OSM node ids of the ends of the piece a point snapped to, in the order
 * OSRM v6's nearest_api.hpp gives them. OSRM keeps a one-way road in its direction of travel (its
 * "forward geometry"), a two-way one in the way's direction. With the reverse direction open (a
 * two-way road) it answers [the piece's far end, its near end], or [far end, 0] when a bearing or
 * approach left only the reverse; with only the forward direction, [the point before the piece, the
 * piece's near end], and at the first piece [its near end, its far end] (OSRM v6.0.0 answers 0 for
 * the first there, fixed upstream in osrm-backend#7427).
 */
import { IMPASSABLE } from '../../../core/routing/graph-format.js';
import { UNKNOWN_NODE_ID } from '../../../core/routing/network.js';
import type { RoutingGraph } from '../../../core/routing/graph-file.js';
import type { Snap } from './snap.js';

export function nearestNodeIds(graph: RoutingGraph, snapped: Snap): [number, number] {
  const { segment, piece, only } = snapped;
  const forwardPassable = graph.nodeWeight[2 * segment] !== IMPASSABLE;
  const backwardPassable = graph.nodeWeight[2 * segment + 1] !== IMPASSABLE;
  const first = graph.segmentPointFirst[segment]!;
  const last = graph.segmentPointFirst[segment + 1]! - 1;
  // A road open only backwards is OSRM's one-way stored in its direction of travel: its geometry reversed.
  const reversed = !forwardPassable;
  const position = reversed ? last - first - 1 - piece : piece;
  const id = (k: number) => graph.pointNodeId[reversed ? last - k : first + k]!;
  const reverseOpen = forwardPassable && backwardPassable && only !== 'forward';
  if (reverseOpen) return [id(position + 1), only === 'backward' ? UNKNOWN_NODE_ID : id(position)];
  return position > 0 ? [id(position - 1), id(position)] : [id(0), id(1)];
}
