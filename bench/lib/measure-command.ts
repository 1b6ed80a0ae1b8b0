/**
 * Runs a batch command (an import, a tile build) to its end and measures it: wall time, the CPU
 * time of its whole process tree, and its peak memory. Commands often run helpers as subprocesses
 * (Waymark reads OSM through osmium), so memory is taken over the process tree: /proc is sampled
 * for the command and all its descendants, and the largest sum of their resident sets is the
 * tree's peak. When GNU time is installed it also wraps the command and gives the exact CPU times
 * and the kernel's high-water mark of the largest single process. `onSample` sees every sample of
 * the tree (its memory and the CPU time it has used so far), e.g. to split the figures by the
 * command's phases. Linux only for the memory figures.
 */
import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync, readdirSync, readFileSync, writeSync } from 'node:fs';

const GNU_TIME = '/usr/bin/time';

export interface CommandOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** stdout and stderr are written to `<logPrefix>.out` and `<logPrefix>.err`. */
  logPrefix: string;
  /** How often the process tree's memory is sampled (default 100 ms). */
  sampleMs?: number;
  /** Called with each line the command writes to stderr (also `\r`-ended ones) and the seconds since it started. */
  onStderrLine?: (line: string, elapsedS: number) => void;
  /** Called with every sample of the process tree (memory and, only when this is given, CPU time). */
  onSample?: (sample: TreeSample) => void;
}

/** One sample of the command's process tree. */
export interface TreeSample {
  /** Seconds since the command started. */
  elapsedS: number;
  /** Sum of the resident sets of the tree (bytes), as for `peakTreeRssBytes`. */
  rssBytes: number;
  /**
   * User + system CPU seconds the tree has used so far: every live process's own time plus that of
   * its children that ended and were waited for (cutime, cstime), so helpers that came and went
   * between two samples are counted once they are reaped.
   */
  cpuS: number;
}

export interface CommandMeasurement {
  /** Null when the command ended on a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  wallS: number;
  /** User + system CPU seconds of the command and all its descendants; null without GNU time. */
  cpuS: number | null;
  /** Largest sum of the resident sets of the command's process tree over the samples (bytes). */
  peakTreeRssBytes: number;
  /** Kernel high-water mark of the largest single process in the tree (bytes); null without GNU time. */
  maxProcessRssBytes: number | null;
  stdoutFile: string;
  stderrFile: string;
}

/** True when GNU time (`/usr/bin/time -f`) is there to wrap commands. */
export function gnuTimeAvailable(): boolean {
  return existsSync(GNU_TIME);
}

/** Parent pid of every process, from /proc/<pid>/stat. */
function parents(): Map<number, number> {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the parenthesized command name: state, ppid, …
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  return parentOf;
}

/** The descendants of `root` (not `root` itself). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const found: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length) {
    const pid = queue.shift()!;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** A process's resident set in bytes (VmRSS), or 0 when it is gone or has no memory (a zombie). */
function residentBytes(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** utime + stime + cutime + cstime of a process in seconds (USER_HZ is 100 on Linux), or 0 when it is gone. */
function cpuWithWaitedChildren(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesized command name start at field 3; utime…cstime are fields 14–17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

/** `%e %U %S %M` as GNU time writes it: wall s, user s, system s, max RSS KiB. */
function readGnuTime(file: string): { cpuS: number; maxRssBytes: number } | null {
  const last = readFileSync(file, 'utf8').trim().split('\n').pop() ?? '';
  const m = /^([\d.]+) ([\d.]+) ([\d.]+) (\d+)$/.exec(last);
  return m ? { cpuS: Number(m[2]) + Number(m[3]), maxRssBytes: Number(m[4]) * 1024 } : null;
}

/** Writes a stream to a file descriptor (then closes it), calling `onLine` for every line ended by `\n` or `\r`. */
async function copyLines(stream: NodeJS.ReadableStream, fd: number, onLine: (line: string) => void): Promise<void> {
  let rest = '';
  try {
    for await (const chunk of stream) {
      writeSync(fd, chunk as Buffer);
      const lines = (rest + (chunk as Buffer).toString('utf8')).split(/\r|\n/);
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) onLine(line);
    }
    if (rest.trim()) onLine(rest);
  } finally {
    closeSync(fd);
  }
}

export async function measureCommand(command: string, args: string[], options: CommandOptions): Promise<CommandMeasurement> {
  const stdoutFile = `${options.logPrefix}.out`;
  const stderrFile = `${options.logPrefix}.err`;
  const timeFile = `${options.logPrefix}.time`;
  const wrapped = gnuTimeAvailable();
  const [file, argv] = wrapped ? [GNU_TIME, ['-f', '%e %U %S %M', '-o', timeFile, command, ...args]] : [command, args];
  const out = openSync(stdoutFile, 'w');
  const err = openSync(stderrFile, 'w');
  const started = process.hrtime.bigint();
  const elapsedS = () => Number(process.hrtime.bigint() - started) / 1e9;
  const onLine = options.onStderrLine;
  const child = spawn(file, argv, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', out, onLine ? 'pipe' : err],
  });
  closeSync(out);
  // With onLine, stderr lines are read as they come, for their times, and copied to the file.
  let stderrDone = Promise.resolve();
  if (onLine) stderrDone = copyLines(child.stderr!, err, (line) => onLine(line, elapsedS()));
  else closeSync(err);

  // With GNU time as the root, the tree measured is its descendants: the command and its helpers.
  const root = child.pid!;
  let peakTreeRssBytes = 0;
  const sample = () => {
    const below = descendants(root);
    const tree = wrapped ? below : [root, ...below];
    const rssBytes = tree.reduce((sum, pid) => sum + residentBytes(pid), 0);
    peakTreeRssBytes = Math.max(peakTreeRssBytes, rssBytes);
    // The root is counted for CPU even under GNU time: the command's time moves to its cutime once it is reaped.
    if (options.onSample)
      options.onSample({
        elapsedS: elapsedS(),
        rssBytes,
        cpuS: [root, ...below].reduce((sum, pid) => sum + cpuWithWaitedChildren(pid), 0),
      });
  };
  const sampler = setInterval(sample, options.sampleMs ?? 100);
  const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, sig) => resolve([code, sig]));
  }).finally(() => clearInterval(sampler));
  const wallS = elapsedS();
  await stderrDone;

  const timed = wrapped && existsSync(timeFile) ? readGnuTime(timeFile) : null;
  return {
    exitCode,
    signal,
    wallS,
    cpuS: timed?.cpuS ?? null,
    peakTreeRssBytes,
    maxProcessRssBytes: timed?.maxRssBytes ?? null,
    stdoutFile,
    stderrFile,
  };
}
