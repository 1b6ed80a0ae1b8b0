/**
 * The order in which a trip visits its points, from the travel times between them (a travelling
 * salesman problem on an asymmetric matrix), as OSRM's trip plugin frames it: every case is a
 * closed tour on a table changed so that the tour's cheapest form is the asked-for trip:
 *
 * - round trip: the tour itself;
 * - fixed first and last point (round trip or not): the way in to the first point only from the
 *   last, the way out of the last only to the first, and that step free;
 * - one-way from a fixed first point: every way back to it free (the tour's last step is dropped);
 * - one-way to a fixed last point: every way out of it free.
 *
 * Solved exactly (Held–Karp dynamic programme) up to EXACT_MAX_POINTS points; above, farthest
 * insertion (OSRM's heuristic), improved by local search — Or-opt (moving runs of 1–3 points, either
 * way round, beside their ends' nearest points) and 2-opt (reversing a run) until no move helps —
 * then by iterated local search (KICKS double-bridge kicks, each improved again, kept when shorter).
 * The points' given order, improved the same way, replaces the insertion's when cheaper, so a trip
 * is never slower than the order asked. Deterministic: the kicks draw from a fixed seed.
 */
import type { TripEnds } from '../task.js';

/** Up to this many points the order is the best one (2^11 × 11 states); above, the heuristic. */
export const EXACT_MAX_POINTS = 12;
/** Smallest gain a move must bring (deciseconds), so that rounding cannot make the search cycle. */
const GAIN = 1e-6;
/** Kicks of the iterated local search (heuristicTour). */
const KICKS = 100;
/** How many nearest points of a run's ends Or-opt tries to put it beside. */
const NEIGHBOURS = 10;

/** The table the tour is sought on: `times` (row-major n × n, all finite) changed for the trip's ends. */
function tourTable(times: ArrayLike<number>, n: number, ends: TripEnds): Float64Array {
  const table = Float64Array.from(times);
  let longest = 0;
  for (let i = 0; i < n; i++) {
    table[i * n + i] = 0;
    for (let j = 0; j < n; j++) longest = Math.max(longest, table[i * n + j]!);
  }
  // Dearer than any tour made without it: a step the tour must not take.
  const barred = n * (longest + 1) + 1;
  const [first, last] = [0, n - 1];
  if (ends.fixedStart && ends.fixedEnd) {
    for (let i = 0; i < n; i++) if (i !== first) table[i * n + first] = barred;
    for (let j = 0; j < n; j++) if (j !== last) table[last * n + j] = barred;
    table[last * n + first] = 0;
    table[first * n + last] = barred;
  } else if (!ends.roundtrip && ends.fixedStart) {
    for (let i = 0; i < n; i++) table[i * n + first] = 0;
  } else if (!ends.roundtrip && ends.fixedEnd) {
    for (let j = 0; j < n; j++) table[last * n + j] = 0;
  }
  return table;
}

function tourCost(table: Float64Array, n: number, tour: readonly number[]): number {
  let cost = 0;
  for (let k = 0; k < n; k++) cost += table[tour[k]! * n + tour[(k + 1) % n]!]!;
  return cost;
}

/** The cheapest tour, by Held–Karp over the subsets of points 1…n−1 (tour from point 0). */
function exactTour(table: Float64Array, n: number): number[] {
  const m = n - 1;
  const full = 1 << m;
  // cost[set * m + j]: cheapest path from 0 through exactly `set` (points 1 + bit), ending at 1 + j.
  const cost = new Float64Array(full * m).fill(Infinity);
  const before = new Int8Array(full * m).fill(-1);
  for (let j = 0; j < m; j++) cost[(1 << j) * m + j] = table[j + 1]!;
  for (let set = 1; set < full; set++) {
    for (let j = 0; j < m; j++) {
      const here = cost[set * m + j]!;
      if (!(set & (1 << j)) || here === Infinity) continue;
      const row = (j + 1) * n + 1;
      for (let k = 0; k < m; k++) {
        if (set & (1 << k)) continue;
        const at = (set | (1 << k)) * m + k;
        const total = here + table[row + k]!;
        if (total < cost[at]!) (cost[at] = total), (before[at] = j);
      }
    }
  }
  let best = Infinity;
  let end = 0;
  // On a tie the last point ends the tour, so that equal tours keep the order given (the same place twice).
  for (let j = 0; j < m; j++) {
    const total = cost[(full - 1) * m + j]! + table[(j + 1) * n]!;
    if (total <= best) (best = total), (end = j);
  }
  const tour: number[] = [];
  for (let set = full - 1, j = end; j >= 0; ) {
    tour.push(j + 1);
    const previous = before[set * m + j]!;
    set &= ~(1 << j);
    j = previous;
  }
  tour.push(0);
  return tour.reverse();
}

/**
 * Farthest insertion: from the two points farthest apart, repeatedly the point whose cheapest
 * insertion into the tour costs most, inserted where it costs least.
 */
function farthestInsertionTour(table: Float64Array, n: number): number[] {
  let [a, b] = [0, 1];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      if (i !== j && table[i * n + j]! + table[j * n + i]! > table[a * n + b]! + table[b * n + a]!) [a, b] = [i, j];
  const tour = [a, b];
  const inTour = new Uint8Array(n);
  inTour[a] = inTour[b] = 1;
  for (let added = 2; added < n; added++) {
    let chosen = -1;
    let chosenAt = 0;
    let chosenCost = -Infinity;
    for (let x = 0; x < n; x++) {
      if (inTour[x]) continue;
      let cheapest = Infinity;
      let at = 0;
      for (let k = 0; k < tour.length; k++) {
        const [u, v] = [tour[k]!, tour[(k + 1) % tour.length]!];
        const extra = table[u * n + x]! + table[x * n + v]! - table[u * n + v]!;
        if (extra < cheapest) (cheapest = extra), (at = k + 1);
      }
      if (cheapest > chosenCost) (chosenCost = cheapest), (chosen = x), (chosenAt = at);
    }
    tour.splice(chosenAt, 0, chosen);
    inTour[chosen] = 1;
  }
  return tour;
}

/** Each point's NEIGHBOURS nearest points (by the time there and back), row by row. */
function nearestNeighbours(table: Float64Array, n: number): Int32Array {
  const k = Math.min(NEIGHBOURS, n - 1);
  const neighbours = new Int32Array(n * k);
  const others = Array.from({ length: n }, (_, i) => i);
  for (let u = 0; u < n; u++) {
    const apart = (v: number) => (v === u ? Infinity : table[u * n + v]! + table[v * n + u]!);
    others.sort((v, w) => apart(v) - apart(w));
    neighbours.set(others.slice(0, k), u * k);
  }
  return neighbours;
}

/**
 * Or-opt from the points in `queue` (don't-look bits: a point is looked at again only when a move
 * changed the tour beside it): the run of 1–3 points starting at a queued point is moved, either way
 * round, to where it shortens the tour most next to one of its ends' nearest points. `tour` changes
 * in place; whether any run moved.
 */
function orOpt(table: Float64Array, n: number, neighbours: Int32Array, tour: number[], queue: number[]): boolean {
  const k = Math.min(NEIGHBOURS, n - 1);
  const position = new Int32Array(n);
  const place = () => tour.forEach((point, at) => (position[point] = at));
  place();
  const queued = new Uint8Array(n);
  for (const point of queue) queued[point] = 1;
  const wake = (point: number) => queued[point] || ((queued[point] = 1), queue.push(point));
  const at = (p: number) => tour[p % n]!;
  const c = (u: number, v: number) => table[u * n + v]!;
  let moved = false;
  while (queue.length > 0) {
    const start = queue.pop()!;
    queued[start] = 0;
    const i = position[start]!;
    for (let length = 1; length <= 3 && length <= n - 2; length++) {
      const [first, last, previous, next] = [start, at(i + length - 1), at(i + n - 1), at(i + length)];
      const saved = c(previous, first) + c(last, next) - c(previous, next);
      let inside = 0;
      let insideReversed = 0;
      for (let q = i; q < i + length - 1; q++) (inside += c(at(q), at(q + 1))), (insideReversed += c(at(q + 1), at(q)));
      let best = -GAIN;
      let bestAt = -1;
      let bestReversed = false;
      // The places beside each neighbour of the run's ends: after it (side 0) or before it (side 1).
      for (let m = 0; m < 2 * k; m++) {
        const neighbour = m < k ? neighbours[first * k + m]! : neighbours[last * k + m - k]!;
        for (let side = 0; side < 2; side++) {
          // Where the place is, counted from the run's start (integer arithmetic only: no negative modulo).
          let offset = position[neighbour]! - side - i;
          if (offset < 0) offset += n;
          if (offset < length || offset > n - 2) continue;
          const x = at(i + offset);
          const y = at(i + offset + 1);
          const forward = c(x, first) + c(last, y) - c(x, y) - saved;
          const reversed = c(x, last) + c(first, y) - c(x, y) + insideReversed - inside - saved;
          if (forward < best) (best = forward), (bestAt = i + offset), (bestReversed = false);
          if (reversed < best) (best = reversed), (bestAt = i + offset), (bestReversed = true);
        }
      }
      if (bestAt < 0) continue;
      const [x, y] = [at(bestAt), at(bestAt + 1)];
      const run = Array.from({ length }, (_, q) => at(i + q));
      const rest = Array.from({ length: n - length }, (_, q) => at(i + length + q));
      rest.splice(bestAt - (i + length) + 1, 0, ...(bestReversed ? run.reverse() : run));
      tour.splice(0, n, ...rest);
      place();
      for (const point of [previous, next, first, last, x, y]) wake(point);
      moved = true;
      break;
    }
  }
  return moved;
}

/**
 * One sweep of 2-opt: for each position i, the run i…j reversed where that shortens the tour most,
 * j such that the new step into the run's end comes from one of the nearest points of the point
 * before i (costs both ways, the table being asymmetric); whether any run was reversed.
 */
function twoOptSweep(table: Float64Array, n: number, neighbours: Int32Array, tour: number[]): boolean {
  const k = Math.min(NEIGHBOURS, n - 1);
  const c = (u: number, v: number) => table[u * n + v]!;
  const position = new Int32Array(n);
  // Along the tour, and against it, up to each position.
  const along = new Float64Array(n);
  const against = new Float64Array(n);
  const measure = () => {
    position[tour[0]!] = 0;
    for (let q = 1; q < n; q++) {
      position[tour[q]!] = q;
      along[q] = along[q - 1]! + c(tour[q - 1]!, tour[q]!);
      against[q] = against[q - 1]! + c(tour[q]!, tour[q - 1]!);
    }
  };
  measure();
  let moved = false;
  for (let i = 1; i < n - 1; i++) {
    const a = tour[i - 1]!;
    let best = -GAIN;
    let bestEnd = -1;
    for (let m = a * k; m < (a + 1) * k; m++) {
      const j = position[neighbours[m]!]!;
      if (j <= i) continue;
      const b = tour[(j + 1) % n]!;
      const change =
        c(a, tour[j]!) + c(tour[i]!, b) - c(a, tour[i]!) - c(tour[j]!, b) + (against[j]! - against[i]!) - (along[j]! - along[i]!);
      if (change < best) (best = change), (bestEnd = j);
    }
    if (bestEnd < 0) continue;
    const reversed = tour.slice(i, bestEnd + 1).reverse();
    tour.splice(i, reversed.length, ...reversed);
    measure();
    moved = true;
  }
  return moved;
}

/** `start` improved by Or-opt (from the points of `changed`, all when absent) and 2-opt until neither finds a shorter tour. */
function improved(table: Float64Array, n: number, neighbours: Int32Array, start: readonly number[], changed?: readonly number[]): number[] {
  const tour = [...start];
  orOpt(table, n, neighbours, tour, [...(changed ?? tour)]);
  while (twoOptSweep(table, n, neighbours, tour)) orOpt(table, n, neighbours, tour, [...tour]);
  return tour;
}

/**
 * `tour` with two runs swapped (A B C D → A C B D at three random cuts): a kick local search cannot
 * undo in one move; with the points beside the cuts, where the tour changed.
 */
function doubleBridge(tour: readonly number[], random: () => number): { tour: number[]; changed: number[] } {
  const n = tour.length;
  const p = 1 + Math.floor(random() * (n - 3));
  const q = p + 1 + Math.floor(random() * (n - 2 - p));
  const r = q + 1 + Math.floor(random() * (n - 1 - q));
  const kicked = [...tour.slice(0, p), ...tour.slice(q, r), ...tour.slice(p, q), ...tour.slice(r)];
  const changed = [p - 1, p, q - 1, q, r - 1, r % n].map((at) => tour[at]!);
  return { tour: kicked, changed };
}

/** A fixed-seed generator (Park–Miller), so that the same request always gets the same trip. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 16807) % 2147483647) / 2147483647;
}

/**
 * Farthest insertion improved by local search, then iterated local search: KICKS times the best
 * tour is kicked (double bridge) and improved again, and kept when shorter.
 */
function heuristicTour(table: Float64Array, n: number): number[] {
  const neighbours = nearestNeighbours(table, n);
  let best = improved(table, n, neighbours, farthestInsertionTour(table, n));
  // Never slower than the order asked: that order, improved, when it is the cheaper start.
  const given = Array.from({ length: n }, (_, i) => i);
  if (tourCost(table, n, given) < tourCost(table, n, best)) best = improved(table, n, neighbours, given);
  let bestCost = tourCost(table, n, best);
  const random = seeded(n);
  for (let kick = 0; kick < KICKS; kick++) {
    const kicked = doubleBridge(best, random);
    const candidate = improved(table, n, neighbours, kicked.tour, kicked.changed);
    const cost = tourCost(table, n, candidate);
    if (cost < bestCost - GAIN) (best = candidate), (bestCost = cost);
  }
  return best;
}

/** `tour` turned to start at position `start`. */
const rotated = (tour: readonly number[], start: number): number[] => [...tour.slice(start), ...tour.slice(0, start)];

/**
 * The order (point indexes, each once) in which the trip visits the n points; `times` is the
 * row-major n × n table of travel times between them, every entry finite. A round trip then goes
 * back to the first point of the order. As OSRM: a trip starts at point 0 unless only its end is
 * fixed; then a round trip starts at the last point, a one-way trip ends there. `exactUpTo` (the
 * most points solved exactly) is for tests of the heuristic.
 */
export function visitOrder(times: ArrayLike<number>, n: number, ends: TripEnds, exactUpTo = EXACT_MAX_POINTS): number[] {
  if (n < 2) return n === 1 ? [0] : [];
  const table = tourTable(times, n, ends);
  // Three points or fewer have at most two tours: the heuristic's moves need more.
  const tour = n <= Math.max(3, Math.min(exactUpTo, EXACT_MAX_POINTS)) ? exactTour(table, n) : heuristicTour(table, n);
  if (!ends.fixedEnd || ends.fixedStart) return rotated(tour, tour.indexOf(0));
  const last = tour.indexOf(n - 1);
  return rotated(tour, ends.roundtrip ? last : (last + 1) % n);
}
