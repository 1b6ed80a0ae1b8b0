/**
 * CPU accounting from /proc (Linux; the functions return null elsewhere). Sampled around a load run
 * they tell whether a server was saturated, what it spent per request, and how much other
 * processes ran on its CPU meanwhile (a shared machine makes throughput figures unreliable).
 */
import { readFileSync } from 'node:fs';

/** USER_HZ: 100 on every Linux architecture Node supports. */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system, all threads, seconds) a process has used so far. */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesized command name start at field 3; utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Seconds one CPU has spent busy (not idle or waiting for I/O), and stolen by the hypervisor. */
export function cpuBusySeconds(cpu: number): { busy: number; steal: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`cpu${cpu} `));
    if (!line) return null;
    // user nice system idle iowait irq softirq steal ...
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return { busy: (user! + nice! + system! + irq! + softirq!) / TICKS_PER_SECOND, steal: steal! / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/** Measures a process and its CPU around `run`: its CPU seconds, and others' busy time on that CPU. */
export async function measureCpu<T>(
  pid: number,
  cpu: number | undefined,
  run: () => Promise<T>,
): Promise<{ value: T; processSeconds: number | null; othersSeconds: number | null; stealSeconds: number | null }> {
  const p0 = processCpuSeconds(pid);
  const c0 = cpu === undefined ? null : cpuBusySeconds(cpu);
  const value = await run();
  const p1 = processCpuSeconds(pid);
  const c1 = cpu === undefined ? null : cpuBusySeconds(cpu);
  const processSeconds = p0 === null || p1 === null ? null : p1 - p0;
  const othersSeconds = c0 && c1 && processSeconds !== null ? Math.max(0, c1.busy - c0.busy - processSeconds) : null;
  return { value, processSeconds, othersSeconds, stealSeconds: c0 && c1 ? c1.steal - c0.steal : null };
}

/** Busy seconds of all CPUs together, or null without /proc. */
function totalBusySeconds(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [user, nice, system, , , irq, softirq] = line.trim().split(/\s+/).slice(1).map(Number);
    return (user! + nice! + system! + irq! + softirq!) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * Waits until the machine is quiet (under `maxBusy` CPUs busy over a one-second sample) or
 * `timeoutMs` has passed; resolves to true when it was quiet. On a shared machine this keeps
 * other jobs' bursts out of the measured runs.
 */
export async function waitForQuiet(maxBusy = 0.15, timeoutMs = 60_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const before = totalBusySeconds();
    if (before === null) return true;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const busy = totalBusySeconds()! - before;
    if (busy <= maxBusy) return true;
    if (Date.now() >= deadline) return false;
  }
}
