/**
 * Runs the `wrk` HTTP load generator and parses its `--latency` report: requests per second, the
 * latency percentiles wrk prints (50/75/90/99 %), totals and errors. Shared by all benchmarks.
 */
import { spawn, spawnSync } from 'node:child_process';

export interface WrkOptions {
  url: string;
  /** Open connections kept busy (each has one request in flight). */
  connections: number;
  /** wrk threads; 1 leaves the other cores to the server. */
  threads?: number;
  durationS: number;
  headers?: Record<string, string>;
  /** Pin wrk to this CPU with taskset. */
  cpu?: number;
  /** A wrk Lua script (`-s`), e.g. one that picks each request's path from a list. */
  script?: string;
}

export interface WrkResult {
  requests: number;
  durationS: number;
  requestsPerSec: number;
  /** Milliseconds. */
  latency: { p50: number; p75: number; p90: number; p99: number; max: number };
  /** Bytes received per second, headers included (wrk's Transfer/sec). */
  bytesPerSec: number;
  /** Responses with a status outside 2xx/3xx. */
  non2xx: number;
  socketErrors: { connect: number; read: number; write: number; timeout: number };
  raw: string;
}

export const INSTALL_HINT = 'wrk is not installed: run scripts/setup.sh (installs wrk)';

/** True when `wrk` can be started. */
export function wrkAvailable(): boolean {
  const probe = spawnSync('wrk', ['-v'], { stdio: 'ignore' });
  return !(probe.error && (probe.error as NodeJS.ErrnoException).code === 'ENOENT');
}

/** wrk's version line, e.g. `wrk debian/4.1.0-3+b2 [epoll]`. */
export function wrkVersion(): string {
  const out = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  return (out.stdout + out.stderr)
    .split('\n')[0]!
    .replace(/\s+Copyright.*$/, '')
    .trim();
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const UNIT_BYTES: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };

/** `1.23ms` → 1.23; `850.00us` → 0.85. */
function toMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m|h)$/.exec(text.trim());
  if (!m) throw new Error(`cannot read wrk duration ${JSON.stringify(text)}`);
  return Number(m[1]) * UNIT_MS[m[2]!]!;
}

function need(re: RegExp, text: string, what: string): RegExpExecArray {
  const m = re.exec(text);
  if (!m) throw new Error(`wrk output has no ${what}:\n${text}`);
  return m;
}

/** `1.05GB` (wrk's binary units) → bytes. */
const transferBytes = (m: RegExpExecArray) => Number(m[1]) * UNIT_BYTES[m[2]!]!;

export function parseWrk(raw: string): WrkResult {
  const pct = (p: number) => toMs(need(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm'), raw, `${p}% latency`)[1]!);
  const totals = need(/^\s+(\d+) requests in ([\d.]+)(us|ms|s|m|h),/m, raw, 'request total');
  const latencyLine = need(/^\s+Latency\s+\S+\s+\S+\s+(\S+)/m, raw, 'latency line');
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(raw);
  return {
    requests: Number(totals[1]),
    durationS: toMs(`${totals[2]}${totals[3]}`) / 1000,
    requestsPerSec: Number(need(/^Requests\/sec:\s+([\d.]+)/m, raw, 'Requests/sec')[1]),
    bytesPerSec: transferBytes(need(/^Transfer\/sec:\s+([\d.]+)(B|KB|MB|GB|TB)/m, raw, 'Transfer/sec')),
    latency: { p50: pct(50), p75: pct(75), p90: pct(90), p99: pct(99), max: toMs(latencyLine[1]!) },
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(raw)?.[1] ?? 0),
    socketErrors: {
      connect: Number(errors?.[1] ?? 0),
      read: Number(errors?.[2] ?? 0),
      write: Number(errors?.[3] ?? 0),
      timeout: Number(errors?.[4] ?? 0),
    },
    raw,
  };
}

export function runWrk(options: WrkOptions): Promise<WrkResult> {
  const args = ['-t', String(options.threads ?? 1), '-c', String(options.connections), '-d', `${options.durationS}s`, '--latency'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (options.script) args.push('-s', options.script);
  args.push(options.url);
  const [command, argv] = options.cpu === undefined ? ['wrk', args] : ['taskset', ['-c', String(options.cpu), 'wrk', ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', (error) => reject((error as NodeJS.ErrnoException).code === 'ENOENT' ? new Error(INSTALL_HINT) : error));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited with ${code}: ${err || out}`));
      try {
        resolve(parseWrk(out));
      } catch (error) {
        reject(error);
      }
    });
  });
}
