/** Runs engine-baseline.js (pinned like the servers) and reads its figures. */
import { spawnSync } from 'node:child_process';
import type { EngineTimes } from './engine-baseline.js';
import type { Endpoint } from './queries.js';

export type { EngineTimes };

export function runEngineBaseline(
  index: string,
  queriesFile: string,
  durationS: number,
  cpu: number | undefined,
): Record<Endpoint, EngineTimes> {
  const script = new URL('./engine-baseline.js', import.meta.url).pathname;
  const argv = [script, '--index', index, '--queries', queriesFile, '--duration', String(durationS)];
  const [file, args] = cpu === undefined ? [process.execPath, argv] : ['taskset', ['-c', String(cpu), process.execPath, ...argv]];
  const run = spawnSync(file, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`engine-baseline.js failed (${run.status ?? run.signal}): ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<Endpoint, EngineTimes>;
}
