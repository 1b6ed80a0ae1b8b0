/**
 * In-process timing of a function called once per input (the bare-engine baselines of the HTTP
 * benchmarks): one warm-up pass (so that the JIT has compiled the code), then every call timed on
 * its own, summarized as latency percentiles and calls per second of one thread.
 */
import { performance } from 'node:perf_hooks';

export interface CallTimings {
  calls: number;
  /** Milliseconds. */
  p50: number;
  p90: number;
  p99: number;
  /** Calls per second of the measured pass, back to back on one thread. */
  perSecond: number;
}

/** The value at fraction `q` (0..1) of ascending `sorted`, nearest rank. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function summarizeTimings(milliseconds: number[]): CallTimings {
  const sorted = Float64Array.from(milliseconds).sort();
  const total = milliseconds.reduce((sum, ms) => sum + ms, 0);
  return {
    calls: sorted.length,
    p50: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    p99: quantile(sorted, 0.99),
    perSecond: total > 0 ? (1000 * sorted.length) / total : 0,
  };
}

/** Calls `call` on every input twice (warm-up, then timed) and summarizes the timed pass. */
export function timeCalls<T>(inputs: readonly T[], call: (input: T) => unknown): CallTimings {
  for (const input of inputs) call(input);
  const milliseconds = inputs.map((input) => {
    const started = performance.now();
    call(input);
    return performance.now() - started;
  });
  return summarizeTimings(milliseconds);
}
