/**
 * Cuts the ways one mode uses into segments at its junctions: nodes where a way ends, nodes two
 * or more of the mode's ways share, nodes that stop or restrict the mode, and the middle point of a
 * stretch that would end where it starts (a closed way with one entrance). A node that stops it
 * (a barrier) gives every segment touching it a junction of its own, so nothing passes there; the
 * segments touching a node that restricts it (a private gate) are restricted, so that passing it
 * costs what entering a restricted way does.
 */
import { metresBetween } from '../../../core/geo/distance.js';
import { GUIDANCE_NO_START, type RoadNetwork } from '../../../core/routing/network.js';
import type { DirectionTravel } from '../profiles/profile.js';
import { RoadNetworkBuilder } from '../road-network-builder.js';
import { IdIndex } from './id-index.js';
import { keepOneOfParallelSegments } from './parallel-segments.js';
import { NODE_BLOCKED, NODE_RESTRICTED, RESTRICTION_NO, nodePassageOf, restrictionKindOf, type RoutingWays } from './objects.js';

/** Metres along the polyline of points start..end (inclusive) of `coordinates` (lon, lat × 10⁷), haversine. */
function polylineLength(coordinates: Int32Array, start: number, end: number): number {
  let metres = 0;
  for (let i = start + 1; i <= end; i++) {
    metres += metresBetween(
      coordinates[i * 2 - 2]! / 1e7,
      coordinates[i * 2 - 1]! / 1e7,
      coordinates[i * 2]! / 1e7,
      coordinates[i * 2 + 1]! / 1e7,
    );
  }
  return metres;
}

/** The network of the mode at `modeIndex` of the ways' profiles. */
export function buildNetwork(ways: RoutingWays, modeIndex: number): RoadNetwork {
  const { pointFirst, pointNode, coordinates, travels } = ways;
  const modes = ways.profiles.length;
  const travelOf = (way: number) => travels[ways.travel[way * modes + modeIndex]!];
  const isBarrier = (node: number) => nodePassageOf(ways, node, modeIndex) === NODE_BLOCKED;
  const restricts = (node: number) => nodePassageOf(ways, node, modeIndex) === NODE_RESTRICTED;

  // How often each node is used, up to 2; a way's two ends count twice so that they are always junctions.
  const uses = new Uint8Array(ways.nodeCount);
  for (let way = 0; way < ways.count; way++) {
    if (travelOf(way) === undefined) continue;
    const first = pointFirst[way]!;
    const last = pointFirst[way + 1]! - 1;
    for (let p = first; p <= last; p++) {
      const node = pointNode[p]!;
      uses[node] = Math.min(2, uses[node]! + (p === first || p === last ? 2 : 1));
    }
  }

  const network = new RoadNetworkBuilder(ways.profiles[modeIndex]!.mode, ways.strings);
  const nodeIdOf = (point: number) => ways.nodeId[pointNode[point]!]!;
  const junctionOfNode = new Int32Array(ways.nodeCount).fill(-1);
  const junctionAt = (point: number): number => {
    const node = pointNode[point]!;
    if (isBarrier(node)) return network.addJunction();
    if (junctionOfNode[node] === -1) junctionOfNode[node] = network.addJunction(ways.turningPlace[node] === 1);
    return junctionOfNode[node]!;
  };

  // The segments of way w are wayFirstSegment[w] ≤ s < wayFirstSegment[w + 1], in the way's order (none when the mode does not use it).
  const wayFirstSegment = new Uint32Array(ways.count + 1);
  for (let way = 0; way < ways.count; way++) {
    wayFirstSegment[way] = network.segmentCount;
    const travel = travelOf(way);
    if (travel === undefined) continue;
    const first = pointFirst[way]!;
    const last = pointFirst[way + 1]! - 1;
    const duration = travel.durationSeconds;
    const wayLength = duration === undefined ? 0 : polylineLength(coordinates, first, last);
    const seconds = (along: DirectionTravel | null, distance: number) =>
      along === null ? null : duration !== undefined && wayLength > 0 ? duration * (distance / wayLength) : distance / (along.kmh / 3.6);
    const wayId = ways.wayId[way]!;
    const name = ways.name[way]!;
    const ref = ways.ref[way]!;
    const pronunciation = ways.pronunciation[way]!;
    const roundabout = ways.roundabout[way] === 1;
    const offGround = ways.offGround[way] === 1;
    const guidance = ways.guidance[way]! | (travel.noStart === true ? GUIDANCE_NO_START : 0);
    const forwardTravel = (travel.forward ?? travel.backward)!.travel;
    const backwardTravel = (travel.backward ?? travel.forward)!.travel;
    let start = first;
    let from = junctionAt(first);
    const addPiece = (p: number, to: number) => {
      const node = pointNode[p]!;
      const distance = polylineLength(coordinates, start, p);
      const forwardSeconds = seconds(travel.forward, distance);
      const backwardSeconds = seconds(travel.backward, distance);
      const atRestrictingNode = restricts(pointNode[start]!) || restricts(node);
      const forwardRestricted = atRestrictingNode || travel.forward?.restricted === true;
      const backwardRestricted = atRestrictingNode || travel.backward?.restricted === true;
      network.addSegment(
        {
          from,
          to,
          distance,
          forwardSeconds,
          backwardSeconds,
          wayId,
          name,
          ref,
          pronunciation,
          roundabout,
          offGround,
          guidance,
          travel: forwardTravel,
          backwardTravel,
          forwardRestricted,
          backwardRestricted,
          forwardClasses: travel.forward?.classes,
          backwardClasses: travel.backward?.classes,
        },
        coordinates,
        start,
        p,
        nodeIdOf,
      );
      // Past a barrier the next segment starts at a junction of its own.
      from = isBarrier(node) ? junctionAt(p) : to;
      start = p;
    };
    for (let p = first + 1; p <= last; p++) {
      const node = pointNode[p]!;
      // A turning place inside a way is a junction too: one may turn round there.
      if (p < last && uses[node]! < 2 && nodePassageOf(ways, node, modeIndex) === 0 && ways.turningPlace[node] === 0) continue;
      const to = junctionAt(p);
      // A segment back to the junction it leaves (a closed way, a square's outline with one entrance)
      // could be entered only from its ends: its middle point becomes a junction, so a route can go
      // round the loop either way and on from one side of it to the other. Not in a roundabout,
      // where each junction counts as an exit.
      if (to === from && p - start >= 2 && !roundabout) {
        const middle = (start + p) >> 1;
        addPiece(middle, junctionAt(middle));
      }
      addPiece(p, to);
    }
  }

  wayFirstSegment[ways.count] = network.segmentCount;

  addTurnRestrictions(network, ways, modeIndex, junctionOfNode, wayFirstSegment);
  const built = network.finish();
  keepOneOfParallelSegments(built.segments, built.junctionCount, ways.strings);
  return built;
}

/**
 * The restrictions the mode obeys whose ways it uses: via-node ones whose via node is one of its
 * junctions (not a barrier) and an end of both ways; via-way ones whose ways join end to end.
 */
function addTurnRestrictions(
  network: RoadNetworkBuilder,
  ways: RoutingWays,
  modeIndex: number,
  junctionOfNode: Int32Array,
  wayFirstSegment: Uint32Array,
): void {
  const { restrictions } = ways;
  if (restrictions.count === 0) return;
  const modes = ways.profiles.length;
  const usedWays = new IdIndex(ways.wayId.filter((_, way) => ways.travel[way * modes + modeIndex] !== 0));
  const wayIndex = new IdIndex(ways.wayId);
  const wayOfIndex = new Int32Array(wayIndex.size);
  for (let way = 0; way < ways.count; way++) wayOfIndex[wayIndex.indexOf(ways.wayId[way]!)] = way;
  const wayOf = (wayId: number): number => (usedWays.indexOf(wayId) < 0 ? -1 : wayOfIndex[wayIndex.indexOf(wayId)]!);
  const firstNode = (way: number) => ways.pointNode[ways.pointFirst[way]!]!;
  const lastNode = (way: number) => ways.pointNode[ways.pointFirst[way + 1]! - 1]!;
  // OSRM v6 (ExtractionContainers, find_turn_nodes) keeps a via-node restriction only when the via
  // node is the first or last node of both its from and its to way; any other is discarded.
  const endsAt = (way: number, node: number): boolean => firstNode(way) === node || lastNode(way) === node;
  for (let r = 0; r < restrictions.count; r++) {
    const kind = restrictionKindOf(restrictions, r, modeIndex);
    if (kind === 0) continue;
    const fromWay = wayOf(restrictions.fromWay[r]!);
    const toWay = wayOf(restrictions.toWay[r]!);
    if (fromWay < 0 || toWay < 0) continue;
    const viaWays = Array.from(restrictions.viaWays.subarray(restrictions.viaWayFirst[r]!, restrictions.viaWayFirst[r + 1]!), wayOf);
    if (viaWays.length > 0) {
      if (viaWays.includes(-1)) continue;
      const path = viaWayPath(fromWay, viaWays, toWay, firstNode, lastNode, wayFirstSegment);
      if (path) network.addRestrictionPath(kind === RESTRICTION_NO ? 'no' : 'only', path);
      continue;
    }
    const node = restrictions.viaNode[r]!;
    const via = node === -1 ? -1 : junctionOfNode[node]!;
    if (via === -1 || !endsAt(fromWay, node) || !endsAt(toWay, node)) continue;
    network.addRestriction(kind === RESTRICTION_NO ? 'no' : 'only', restrictions.fromWay[r]!, via, restrictions.toWay[r]!);
  }
}

/**
 * The edge-based nodes of a via-way restriction (way indices), as OSRM v6's find_via_way_path
 * orients it: the from way's end segment into the first via way (tried at the from way's first node,
 * then at its last), each via way's segments from the end where the previous way joins it to the
 * other end, the to way's end segment out of the last via way; null when two of them do not join end
 * to end (OSRM discards the restriction).
 */
function viaWayPath(
  fromWay: number,
  viaWays: readonly number[],
  toWay: number,
  firstNode: (way: number) => number,
  lastNode: (way: number) => number,
  wayFirstSegment: Uint32Array,
): number[] | null {
  const firstSegment = (way: number) => wayFirstSegment[way]!;
  const lastSegment = (way: number) => wayFirstSegment[way + 1]! - 1;
  const via = viaWays[0]!;
  const path: number[] = [];
  let connection: number;
  if (firstNode(fromWay) === firstNode(via) || firstNode(fromWay) === lastNode(via)) {
    connection = firstNode(fromWay);
    path.push(2 * firstSegment(fromWay) + 1);
  } else if (lastNode(fromWay) === firstNode(via) || lastNode(fromWay) === lastNode(via)) {
    connection = lastNode(fromWay);
    path.push(2 * lastSegment(fromWay));
  } else return null;
  for (const way of viaWays) {
    if (connection === firstNode(way)) {
      for (let s = firstSegment(way); s <= lastSegment(way); s++) path.push(2 * s);
      connection = lastNode(way);
    } else if (connection === lastNode(way)) {
      for (let s = lastSegment(way); s >= firstSegment(way); s--) path.push(2 * s + 1);
      connection = firstNode(way);
    } else return null;
  }
  if (connection === firstNode(toWay)) path.push(2 * firstSegment(toWay));
  else if (connection === lastNode(toWay)) path.push(2 * lastSegment(toWay) + 1);
  else return null;
  return path;
}
