/**
 * Request rates of bench:cluster: one `wrk -t1` per node at once, the connections split between
 * them, the rates summed and the worst node's latencies kept; runs of one setup combined.
 */
import { runWrk } from '../lib/wrk.js';

export interface Rate {
  requests: number;
  seconds: number;
  requestsPerSec: number;
  /** Milliseconds, the worst node's (the worst run's, combined). */
  p50: number;
  p99: number;
}

/** `script`'s requests on every node of `ports` for `durationS`; throws on any answer outside 2xx/3xx. */
export async function measureNodes(ports: number[], script: string, connections: number, durationS: number, label: string): Promise<Rate> {
  const results = await Promise.all(
    ports.map((port) =>
      runWrk({
        url: `http://127.0.0.1:${port}/`,
        connections: Math.max(1, Math.round(connections / ports.length)),
        durationS,
        script,
        headers: { 'Accept-Encoding': 'gzip' },
      }),
    ),
  );
  const bad = results.reduce((sum, r) => sum + r.non2xx, 0);
  if (bad > 0) throw new Error(`${label}: ${bad} answers outside 2xx/3xx`);
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  return {
    requests,
    seconds: Math.max(...results.map((r) => r.durationS)),
    requestsPerSec: results.reduce((sum, r) => sum + r.requestsPerSec, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
  };
}

/** Runs of one setup as one: their requests over their time, the worst latencies. */
export function combine(runs: Rate[]): Rate {
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const seconds = runs.reduce((sum, r) => sum + r.seconds, 0);
  return {
    requests,
    seconds,
    requestsPerSec: requests / seconds,
    p50: Math.max(...runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
  };
}
