/**
 * Part 3 of the routing benchmark: directions (per mode) and 15-minute driving isochrones through
 * the whole gateway (key, quota, usage, access log, worker pool) of servers with 1 and with N pool
 * threads, with wrk cycling through checked request lists: once on 1 connection (the latency of
 * a request on an idle server) and once on many (throughput, and latency under saturation).
 */
import { writeWrkScript } from '../lib/request-list.js';
import type { ServerChild } from '../lib/child.js';
import { measureServers, summarize, type loadSettings, type Summary, type Target } from '../lib/load.js';

export interface RoutingTarget extends Target {
  child: ServerChild;
  /** What is requested, e.g. `directions driving`. */
  request: string;
  threads: number;
}

export interface TargetFigures {
  target: RoutingTarget;
  light: Summary;
  saturated: Summary;
}

/** A target cycling through `paths` on `child` (their wrk script written to `scriptFile`). */
export function routingTarget(child: ServerChild, threads: number, request: string, paths: string[], scriptFile: string): RoutingTarget {
  writeWrkScript(scriptFile, paths);
  const url = `http://127.0.0.1:${child.port}${paths[0]}`;
  return { name: `${request}, --threads ${threads}`, child, pid: child.pid, url, script: scriptFile, request, threads };
}

export async function measureGateway(targets: RoutingTarget[], load: ReturnType<typeof loadSettings>): Promise<TargetFigures[]> {
  const light = await measureServers('routing on an idle server', targets, { ...load, connections: 1 });
  const saturated = await measureServers('routing saturated', targets, load);
  return targets.map((target, i) => ({ target, light: summarize(light[i]!.runs), saturated: summarize(saturated[i]!.runs) }));
}
