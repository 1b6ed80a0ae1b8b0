/**
 * Request rates of bench:cluster: one `wrk -t1` per node at once, the connections split between
 * them, the rates summed and the worst node's latencies kept, and the nodes' CPU time per request
 * (from /proc: on a shared machine the steadier figure, as it leaves out what others took); runs
 * of one setup combined.
 */
import type { ServerChild } from '../lib/child.js';
import { processCpuSeconds } from '../lib/cpu.js';
import { runWrk } from '../lib/wrk.js';

export interface Rate {
  requests: number;
  seconds: number;
  requestsPerSec: number;
  /** Milliseconds, the worst node's (the worst run's, combined). */
  p50: number;
  p99: number;
  /** CPU seconds the nodes spent meanwhile (user + system, all threads); null without /proc. */
  cpuSeconds: number | null;
}

/** The nodes' CPU time per request, in seconds. */
export const cpuPerRequest = (rate: Rate): number | null => (rate.cpuSeconds === null ? null : rate.cpuSeconds / rate.requests);

function nodesCpuSeconds(nodes: ServerChild[]): number | null {
  const seconds = nodes.map((node) => processCpuSeconds(node.pid));
  return seconds.includes(null) ? null : (seconds as number[]).reduce((sum, s) => sum + s, 0);
}

/** `script`'s requests on every node of `nodes` for `durationS`; throws on any answer outside 2xx/3xx. */
export async function measureNodes(
  nodes: ServerChild[],
  script: string,
  connections: number,
  durationS: number,
  label: string,
): Promise<Rate> {
  const cpuBefore = nodesCpuSeconds(nodes);
  const results = await Promise.all(
    nodes.map((node) =>
      runWrk({
        url: `http://127.0.0.1:${node.port}/`,
        connections: Math.max(1, Math.round(connections / nodes.length)),
        durationS,
        script,
        headers: { 'Accept-Encoding': 'gzip' },
      }),
    ),
  );
  const cpuAfter = nodesCpuSeconds(nodes);
  const bad = results.reduce((sum, r) => sum + r.non2xx, 0);
  if (bad > 0) throw new Error(`${label}: ${bad} answers outside 2xx/3xx`);
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  return {
    requests,
    seconds: Math.max(...results.map((r) => r.durationS)),
    requestsPerSec: results.reduce((sum, r) => sum + r.requestsPerSec, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
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
    cpuSeconds: runs.some((r) => r.cpuSeconds === null) ? null : runs.reduce((sum, r) => sum + r.cpuSeconds!, 0),
  };
}
