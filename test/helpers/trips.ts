/** Trip orders as the trip tests judge them: the time of an order, and the least time of every order allowed, by brute force. */
import type { TripEnds } from '../../workers/routing/task.js';

/** Seconds from point `from` to point `to`. */
export type TravelTime = (from: number, to: number) => number;

/** What a trip in `order` takes: each step of the order, and back to its start for a round trip. */
export function orderTime(time: TravelTime, order: readonly number[], roundtrip: boolean): number {
  let total = 0;
  for (let k = 0; k + 1 < order.length; k++) total += time(order[k]!, order[k + 1]!);
  return roundtrip ? total + time(order.at(-1)!, order[0]!) : total;
}

/**
 * The least time of every order of the `n` points the trip may take, by brute force over all
 * permutations. A round trip's time does not depend on where it starts, so only a round trip with
 * both ends fixed (first, …, last, back to first) constrains its order; a one-way trip starts and
 * ends where asked.
 */
export function bestOrderTime(n: number, time: TravelTime, ends: TripEnds): number {
  const startsAtFirst = ends.fixedStart && (!ends.roundtrip || ends.fixedEnd);
  const endsAtLast = ends.fixedEnd && (!ends.roundtrip || ends.fixedStart);
  let best = Infinity;
  const order: number[] = [];
  const used = new Array<boolean>(n).fill(false);
  const extend = () => {
    if (order.length === n) {
      if ((!startsAtFirst || order[0] === 0) && (!endsAtLast || order[n - 1] === n - 1))
        best = Math.min(best, orderTime(time, order, ends.roundtrip));
      return;
    }
    for (let i = 0; i < n; i++) {
      if (used[i]) continue;
      used[i] = true;
      order.push(i);
      extend();
      order.pop();
      used[i] = false;
    }
  };
  extend();
  return best;
}
