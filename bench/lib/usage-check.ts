/**
 * Waymark's metering seen from outside: the units a key used this month (`GET
 * /api/v1/usage/current`), and the check, after load runs, that usage counted every request wrk
 * completed (warm-ups included), plus at most one request per connection per wrk run — those
 * still in flight when wrk stopped: the server served, hence counted, them but wrk did not see them.
 */
import type { Service } from '../../src/control-plane/types.js';
import type { Measured, Target } from './load.js';
import { fmtInt } from './report.js';

export interface Metered {
  port: number;
  key: string;
  service: Service;
}

export async function usedUnits({ port, key, service }: Metered): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/usage/current?key=${key}`);
  if (res.status !== 200) throw new Error(`usage/current answered ${res.status}: ${await res.text()}`);
  const report = (await res.json()) as { services: Record<string, { used: number }> };
  return report.services[service]!.used;
}

/** The report line for `counted` units against a target's load runs; throws when usage is wrong. */
export function checkUsageCounted(counted: number, measured: Measured<Target>, connections: number): string {
  const extra = counted - measured.sent;
  const line =
    `${measured.target.name}: usage/current counted ${fmtInt(counted)} requests, wrk completed ${fmtInt(measured.sent)} (warm-ups included): ` +
    `${extra} more, within the ${connections * measured.wrkRuns} that can be in flight when wrk stops`;
  if (extra < 0 || extra > connections * measured.wrkRuns) throw new Error(`usage check failed: ${line}`);
  return line;
}
