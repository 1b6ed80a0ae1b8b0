/**
 * The measuring loop shared by the HTTP benchmarks: rounds of wrk runs over several targets
 * (interleaved, so that a slow spell of a shared machine hits all of them), each with a discarded
 * warm-up, with the server's CPU time sampled around every measured run.
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type { ServerChild } from './child.js';
import { measureCpu, waitForQuiet } from './cpu.js';
import { fmtInt, fmtMs, fmtPct, fmtUs, median } from './report.js';
import { runWrk, type WrkResult } from './wrk.js';

export interface Target {
  name: string;
  /** The server process, for CPU accounting. */
  pid: number;
  url: string;
  headers?: Record<string, string>;
  /** wrk Lua script choosing the requests (the url then gives the host and the default path). */
  script?: string;
}

export interface LoadOptions<T extends Target = Target> {
  rounds: number;
  warmupS: number;
  durationS: number;
  connections: number;
  /** CPUs the servers and wrk are pinned to (undefined: not pinned). */
  serverCpu?: number;
  wrkCpu?: number;
  /** Before each scenario's warm-up, wait up to this long for other processes to go quiet (0: don't). */
  quietWaitMs?: number;
  /** Called after each measured run; throwing stops the benchmark. */
  onRun?: (target: T, run: Run, round: number) => void;
}

export interface Run {
  wrk: WrkResult;
  /** Server CPU seconds during the run; null without /proc. */
  serverCpu: number | null;
  /** CPU seconds other processes took on the server's CPU during the run. */
  othersCpu: number | null;
}

export interface Measured<T extends Target> {
  target: T;
  runs: Run[];
  /** Requests wrk completed, warm-ups included. */
  sent: number;
  /** wrk runs made, warm-ups included (each may leave one request per connection unseen). */
  wrkRuns: number;
}

/** Servers on the last CPU and wrk on the one before, when there are two and taskset exists. */
export function pinning(enabled: boolean): { serverCpu?: number; wrkCpu?: number } {
  const cpus = availableParallelism();
  if (!enabled || cpus < 2 || spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status !== 0) return {};
  return { serverCpu: cpus - 1, wrkCpu: cpus - 2 };
}

export async function measureRounds<T extends Target>(targets: T[], options: LoadOptions<T>): Promise<Measured<T>[]> {
  const measured = targets.map((target) => ({ target, runs: [] as Run[], sent: 0, wrkRuns: 0 }));
  for (let round = 1; round <= options.rounds; round++) {
    for (const m of measured) {
      const wrk = (durationS: number) => {
        m.wrkRuns++;
        const { url, headers, script } = m.target;
        return runWrk({ url, headers, script, connections: options.connections, threads: 1, durationS, cpu: options.wrkCpu });
      };
      if (options.quietWaitMs && !(await waitForQuiet(0.15, options.quietWaitMs))) {
        console.error(`  (the machine did not go quiet within ${options.quietWaitMs / 1000} s; measuring anyway)`);
      }
      if (options.warmupS > 0) m.sent += (await wrk(options.warmupS)).requests;
      const { value, processSeconds, othersSeconds } = await measureCpu(m.target.pid, options.serverCpu, () => wrk(options.durationS));
      m.sent += value.requests;
      const run = { wrk: value, serverCpu: processSeconds, othersCpu: othersSeconds };
      m.runs.push(run);
      options.onRun?.(m.target, run, round);
    }
  }
  return measured;
}

/** One line per run, for progress output. */
export function describeRun(name: string, run: Run, round: number): string {
  const { wrk } = run;
  const errors = Object.values(wrk.socketErrors).reduce((a, b) => a + b, 0);
  return (
    `  round ${round}  ${name.padEnd(56)} ${fmtInt(wrk.requestsPerSec).padStart(7)} req/s  ` +
    `p50 ${fmtMs(wrk.latency.p50)}  p99 ${fmtMs(wrk.latency.p99)}` +
    (run.serverCpu === null ? '' : `  server CPU ${fmtPct(run.serverCpu / wrk.durationS)}, ${fmtUs(run.serverCpu / wrk.requests)}/req`) +
    (run.othersCpu === null ? '' : `  others on its CPU ${fmtPct(run.othersCpu / wrk.durationS)}`) +
    (wrk.non2xx ? `  NON-2xx ${wrk.non2xx}` : '') +
    (errors ? `  socket errors ${errors}` : '')
  );
}

export interface Summary {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  /** Fraction of one CPU the server used; null without /proc. */
  cpuUse: number | null;
  /** Server CPU seconds per request. */
  cpuPerReq: number | null;
  /** Requests per second of each round. */
  perRound: string;
}

/** Medians over the rounds, each metric on its own. */
export function summarize(runs: Run[]): Summary {
  const known = (values: (number | null)[]) => (values.every((v) => v !== null) ? median(values as number[]) : null);
  return {
    rps: median(runs.map((r) => r.wrk.requestsPerSec)),
    p50: median(runs.map((r) => r.wrk.latency.p50)),
    p90: median(runs.map((r) => r.wrk.latency.p90)),
    p99: median(runs.map((r) => r.wrk.latency.p99)),
    cpuUse: known(runs.map((r) => (r.serverCpu === null ? null : r.serverCpu / r.wrk.durationS))),
    cpuPerReq: known(runs.map((r) => (r.serverCpu === null ? null : r.serverCpu / r.wrk.requests))),
    perRound: runs.map((r) => fmtInt(r.wrk.requestsPerSec)).join(' / '),
  };
}

/** A sentence on how much other processes disturbed the servers' CPU, or '' without /proc. */
export function interference(runs: Run[]): string {
  const shares = runs.map((r) => (r.othersCpu === null ? null : r.othersCpu / r.wrk.durationS));
  if (shares.some((s) => s === null) || shares.length === 0) return '';
  const values = shares as number[];
  const mid = median(values);
  const max = Math.max(...values);
  const note =
    mid > 0.05
      ? ': the machine was not quiet, so throughput figures are disturbed; CPU per request is the steadier figure.'
      : max > 0.05
        ? ': some runs were disturbed (see req/s per round); the medians are robust to that.'
        : '.';
  return `Other processes took ${fmtPct(mid)} (median; at most ${fmtPct(max)}) of the servers' CPU during the measured runs${note}`;
}

/** The command-line options of every wrk-driven benchmark (spread into `parseArgs` options). */
export const LOAD_ARGS = {
  duration: { type: 'string', default: '10' },
  warmup: { type: 'string', default: '2' },
  connections: { type: 'string', default: '64' },
  rounds: { type: 'string', default: '3' },
  'no-pin': { type: 'boolean', default: false },
  /** Seconds to wait, before each scenario, for other processes on a shared machine to go quiet. */
  'quiet-wait': { type: 'string', default: '60' },
} as const;

/** The load settings from parsed LOAD_ARGS. */
export function loadSettings(args: {
  duration: string;
  warmup: string;
  connections: string;
  rounds: string;
  'no-pin': boolean;
  'quiet-wait': string;
}) {
  return {
    durationS: Number(args.duration),
    warmupS: Number(args.warmup),
    connections: Number(args.connections),
    rounds: Number(args.rounds),
    quietWaitMs: Number(args['quiet-wait']) * 1000,
    ...pinning(!args['no-pin']),
  };
}

/**
 * How the load runs were made, as a report sentence: "Median of 3 interleaved round(s); per round
 * and <each>: 2 s warm-up (discarded), then 10 s of `wrk -t1 -c64 --latency` on loopback; …".
 */
export function describeMeasurement(load: ReturnType<typeof loadSettings>, each: string, connections = load.connections): string {
  return (
    `Median of ${load.rounds} interleaved round(s); per round and ${each}: ${load.warmupS} s warm-up (discarded), then ${load.durationS} s of ` +
    `\`wrk -t1 -c${connections} --latency\` on loopback` +
    (load.serverCpu === undefined ? '.' : `; servers pinned to CPU ${load.serverCpu}, wrk to CPU ${load.wrkCpu}.`)
  );
}

/**
 * Measures targets served by child processes: announces the plan on stderr, logs every run, and
 * stops at once when a server has died or answered anything but 2xx/3xx.
 */
export function measureServers<T extends Target & { child: ServerChild }>(
  what: string,
  targets: T[],
  load: ReturnType<typeof loadSettings>,
  detail = '',
): Promise<Measured<T>[]> {
  console.error(
    `${what}: ${load.rounds} round(s) × ${targets.length} servers, ${load.warmupS} s warm-up + ${load.durationS} s each, ` +
      `${load.connections} connections, 1 wrk thread${detail}` +
      (load.serverCpu === undefined ? '' : `, servers on CPU ${load.serverCpu}, wrk on CPU ${load.wrkCpu}`),
  );
  return measureRounds(targets, {
    ...load,
    onRun(target, run, round) {
      console.error(describeRun(target.name, run, round));
      const ended = target.child.ended();
      if (ended) throw new Error(`${target.name}: the server process ended during the run (${ended})`);
      if (run.wrk.non2xx) throw new Error(`${target.name}: ${run.wrk.non2xx} responses were not 2xx/3xx`);
    },
  });
}
