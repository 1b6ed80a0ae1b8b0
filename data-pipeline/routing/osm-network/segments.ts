/**
 * Cuts the ways one mode uses into segments at its junctions: nodes where a way ends, nodes two
 * or more of the mode's ways share, and barriers that stop the mode. A barrier gives every
 * segment touching it a junction of its own, so nothing passes there.
 */
import { metresBetween } from '../../../core/geo/distance.js';
import type { RoadNetwork, RoadSegment, TurnRestriction } from '../../../core/routing/network.js';
import type { DirectionTravel } from '../profiles/profile.js';
import type { RoutingObjects, StoredWay } from './objects.js';

/** Metres along the polyline coordinates[start..end] (point indices, inclusive), haversine. */
function polylineLength(coordinates: Float64Array, start: number, end: number): number {
  let metres = 0;
  for (let i = start + 1; i <= end; i++) {
    metres += metresBetween(coordinates[i * 2 - 2]!, coordinates[i * 2 - 1]!, coordinates[i * 2]!, coordinates[i * 2 + 1]!);
  }
  return metres;
}

/** coordinates[start..end] (point indices, inclusive) as a plain array. */
function polyline(coordinates: Float64Array, start: number, end: number): number[] {
  const points = new Array<number>((end - start + 1) * 2);
  for (let k = 0, i = start * 2; i < end * 2 + 2; k++, i++) points[k] = coordinates[i]!;
  return points;
}

/** The network of the mode at `modeIndex` of the objects' profiles. */
export function buildNetwork(objects: RoutingObjects, modeIndex: number): RoadNetwork {
  const profile = objects.profiles[modeIndex]!;
  const ways = objects.ways.filter((way) => way.travel[modeIndex] !== undefined);
  const nodeCount = objects.nodeIndex.size;
  const isBarrier = new Uint8Array(nodeCount);
  for (const id of objects.barriers[modeIndex]!) {
    const node = objects.nodeIndex.get(id);
    if (node !== undefined) isBarrier[node] = 1;
  }

  // How often each node is used, up to 2; a way's two ends count twice so that they are always junctions.
  const uses = new Uint8Array(nodeCount);
  for (const way of ways) {
    const last = way.nodes.length - 1;
    for (let i = 0; i <= last; i++) {
      const node = way.nodes[i]!;
      uses[node] = Math.min(2, uses[node]! + (i === 0 || i === last ? 2 : 1));
    }
  }

  const lon: number[] = [];
  const lat: number[] = [];
  const junctionOfNode = new Int32Array(nodeCount).fill(-1);
  const newJunction = (x: number, y: number): number => {
    lon.push(x);
    lat.push(y);
    return lon.length - 1;
  };
  const junctionAt = (way: StoredWay, i: number): number => {
    const node = way.nodes[i]!;
    const x = way.coordinates[i * 2]!;
    const y = way.coordinates[i * 2 + 1]!;
    if (isBarrier[node] === 1) return newJunction(x, y);
    if (junctionOfNode[node] === -1) junctionOfNode[node] = newJunction(x, y);
    return junctionOfNode[node]!;
  };

  const segments: RoadSegment[] = [];
  for (const way of ways) {
    const travel = way.travel[modeIndex]!;
    const duration = travel.durationSeconds;
    const wayLength = duration === undefined ? 0 : polylineLength(way.coordinates, 0, way.nodes.length - 1);
    const seconds = (along: DirectionTravel | null, distance: number) =>
      along === null ? null : duration !== undefined && wayLength > 0 ? duration * (distance / wayLength) : distance / (along.kmh / 3.6);
    const last = way.nodes.length - 1;
    let start = 0;
    let from = junctionAt(way, 0);
    for (let i = 1; i <= last; i++) {
      const node = way.nodes[i]!;
      if (i < last && uses[node]! < 2 && isBarrier[node] === 0) continue;
      const to = junctionAt(way, i);
      const distance = polylineLength(way.coordinates, start, i);
      const segment: RoadSegment = {
        from,
        to,
        coordinates: polyline(way.coordinates, start, i),
        distance,
        forwardSeconds: seconds(travel.forward, distance),
        backwardSeconds: seconds(travel.backward, distance),
        name: way.name,
        ref: way.ref,
        roundabout: way.roundabout,
        travel: (travel.forward ?? travel.backward)!.travel,
        wayId: way.id,
      };
      if (travel.forward !== null && travel.backward !== null && travel.backward.travel !== travel.forward.travel) segment.backwardTravel = travel.backward.travel;
      segments.push(segment);
      // Past a barrier the next segment starts at a junction of its own.
      from = isBarrier[node] === 1 ? junctionAt(way, i) : to;
      start = i;
    }
  }

  return {
    mode: profile.mode,
    junctionLon: Float64Array.from(lon),
    junctionLat: Float64Array.from(lat),
    segments,
    restrictions: turnRestrictions(objects, modeIndex, ways, junctionOfNode),
  };
}

/** The via-node restrictions the mode obeys whose ways it uses and whose via node is one of its junctions (not a barrier). */
function turnRestrictions(objects: RoutingObjects, modeIndex: number, ways: StoredWay[], junctionOfNode: Int32Array): TurnRestriction[] {
  const wayIds = new Set(ways.map((way) => way.id));
  const restrictions: TurnRestriction[] = [];
  for (const relation of objects.restrictions) {
    const kind = relation.kinds[modeIndex];
    const node = objects.nodeIndex.get(relation.viaNode);
    const via = node === undefined ? -1 : junctionOfNode[node]!;
    if (kind === undefined || via === -1 || !wayIds.has(relation.fromWay) || !wayIds.has(relation.toWay)) continue;
    restrictions.push({ kind, fromWay: relation.fromWay, via, toWay: relation.toWay });
  }
  return restrictions;
}
