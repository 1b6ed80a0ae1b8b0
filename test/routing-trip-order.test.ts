// The order a trip visits its points (workers/routing/trip/visit-order.ts) on travel-time tables like
// a road network's (points in a plane, times from distances with one-way detours, so the table is
// asymmetric), for every combination of roundtrip/source/destination OSRM supports: up to 12
// points the order is the best of all permutations (found here by brute force); above, the
// heuristic is never slower than the order given, keeps the fixed ends, and where the best is known
// (9 to 12 points, the heuristic forced) it is within a few percent of it.
import test from 'ava';
import { EXACT_MAX_POINTS, visitOrder } from '../workers/routing/trip/visit-order.js';
import { seededRandom } from './helpers/http.js';
import { bestOrderTime, orderTime } from './helpers/trips.js';
import type { TripEnds } from '../workers/routing/task.js';

/** The seven supported combinations (one-way with neither end fixed is OSRM's NotImplemented). */
const ENDS: TripEnds[] = [
  { roundtrip: true, fixedStart: false, fixedEnd: false },
  { roundtrip: true, fixedStart: true, fixedEnd: false },
  { roundtrip: true, fixedStart: false, fixedEnd: true },
  { roundtrip: true, fixedStart: true, fixedEnd: true },
  { roundtrip: false, fixedStart: true, fixedEnd: false },
  { roundtrip: false, fixedStart: false, fixedEnd: true },
  { roundtrip: false, fixedStart: true, fixedEnd: true },
];
const describe = (ends: TripEnds) =>
  `roundtrip=${ends.roundtrip} source=${ends.fixedStart ? 'first' : 'any'} destination=${ends.fixedEnd ? 'last' : 'any'}`;

/** n points in a 10 km square, deciseconds at ~40 km/h with a detour of up to 40 % one way, plus a minute at each stop. */
function roadLikeTable(n: number, random: () => number): Float64Array {
  const points = Array.from({ length: n }, () => [random() * 10_000, random() * 10_000] as const);
  const times = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const metres = Math.hypot(points[i]![0] - points[j]![0], points[i]![1] - points[j]![1]);
      times[i * n + j] = Math.round(metres * 0.9 * (1 + 0.4 * random())) + 600;
    }
  return times;
}

/** What the trip takes on the flat table `times` of `n` points. */
function tripTime(times: Float64Array, n: number, order: readonly number[], roundtrip: boolean): number {
  return orderTime((from, to) => times[from * n + to]!, order, roundtrip);
}

/** Whether the order keeps the ends asked, as OSRM writes the trip (see visitOrder). */
function keepsEnds(order: readonly number[], n: number, ends: TripEnds): boolean {
  if (ends.fixedStart && order[0] !== 0) return false;
  if (ends.fixedEnd && !ends.roundtrip && order.at(-1) !== n - 1) return false;
  // A round trip with a fixed end: through every point to the last, then back to the first.
  if (ends.fixedEnd && ends.roundtrip && ends.fixedStart && order.at(-1) !== n - 1) return false;
  if (ends.fixedEnd && ends.roundtrip && !ends.fixedStart && order[0] !== n - 1) return false;
  return true;
}

/** The least time of every order the trip may take on the flat table `times` of `n` points, by brute force. */
function bestTime(times: Float64Array, n: number, ends: TripEnds): number {
  return bestOrderTime(n, (from, to) => times[from * n + to]!, ends);
}

const isPermutation = (order: readonly number[], n: number) =>
  order.length === n && [...order].sort((a, b) => a - b).every((point, i) => point === i);

test(`up to 8 points (exact up to ${EXACT_MAX_POINTS}) the order is the best of all permutations, for every supported combination`, (t) => {
  const random = seededRandom(25);
  for (let n = 2; n <= 8; n++) {
    for (let round = 0; round < 6; round++) {
      const times = roadLikeTable(n, random);
      for (const ends of ENDS) {
        const order = visitOrder(times, n, ends);
        const where = `${n} points, ${describe(ends)}: ${order}`;
        t.true(isPermutation(order, n), where);
        t.true(keepsEnds(order, n, ends), where);
        t.true(Math.abs(tripTime(times, n, order, ends.roundtrip) - bestTime(times, n, ends)) < 1e-6, where);
      }
    }
  }
});

test('the heuristic (forced on 9 to 12 points) is within a few percent of the best order', (t) => {
  const random = seededRandom(26);
  const ratios: number[] = [];
  for (let n = 9; n <= 12; n++) {
    for (let round = 0; round < 10; round++) {
      const times = roadLikeTable(n, random);
      for (const ends of ENDS) {
        const heuristic = visitOrder(times, n, ends, 0);
        const exact = visitOrder(times, n, ends);
        const where = `${n} points, ${describe(ends)}`;
        t.true(isPermutation(heuristic, n) && keepsEnds(heuristic, n, ends), where);
        const ratio = tripTime(times, n, heuristic, ends.roundtrip) / tripTime(times, n, exact, ends.roundtrip);
        t.true(ratio >= 1 - 1e-9, where);
        t.true(ratio <= 1.08, `${where}: ${ratio}`);
        ratios.push(ratio);
      }
    }
  }
  const mean = ratios.reduce((sum, r) => sum + r, 0) / ratios.length;
  t.true(mean < 1.01, `mean ratio ${mean}`);
});

test('above 12 points: never slower than the order given, the ends kept, the same order for the same table', (t) => {
  const random = seededRandom(27);
  for (const n of [13, 20, 25, 40, 100]) {
    for (const ends of ENDS) {
      const times = roadLikeTable(n, random);
      const order = visitOrder(times, n, ends);
      const given = Array.from({ length: n }, (_, i) => i);
      const where = `${n} points, ${describe(ends)}`;
      t.true(isPermutation(order, n), where);
      t.true(keepsEnds(order, n, ends), `${where}: ${order}`);
      t.true(tripTime(times, n, order, ends.roundtrip) <= tripTime(times, n, given, ends.roundtrip), where);
      t.deepEqual(visitOrder(times, n, ends), order, where);
    }
  }
  // A given order that is already the best (points along a line, in order) is kept as good.
  const n = 30;
  const line = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) line[i * n + j] = Math.abs(i - j) * 100 + (j < i ? 7 : 0);
  const order = visitOrder(line, n, { roundtrip: false, fixedStart: true, fixedEnd: true });
  t.deepEqual(
    order,
    Array.from({ length: n }, (_, i) => i),
  );
});

test('two points and repeated points', (t) => {
  const two = Float64Array.from([0, 50, 70, 0]);
  t.deepEqual(visitOrder(two, 2, ENDS[0]!), [0, 1]);
  // As OSRM: with only the end fixed, a round trip starts at the last point.
  t.deepEqual(visitOrder(two, 2, ENDS[2]!), [1, 0]);
  t.deepEqual(visitOrder(two, 2, ENDS[5]!), [0, 1]);
  // The same place three times: zero between them.
  const same = new Float64Array(9);
  for (const ends of ENDS)
    t.deepEqual(visitOrder(same, 3, ends), ends.fixedEnd && !ends.fixedStart && ends.roundtrip ? [2, 0, 1] : [0, 1, 2]);
});
