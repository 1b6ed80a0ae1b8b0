/**
 * How many graph builds run at once: at most one per thread, and only as many as the memory
 * budget holds by an estimate of each build's peak from its network's size.
 */
import type { RoadNetwork } from '../../core/routing/network.js';

/** A worker thread with its modules (11 MiB), and what its GC leaves lying about on a small network. */
const THREAD_BYTES = 24 * 2 ** 20;
/** Above that, per segment of the network: measured 0.5–1.0 KiB (less for driving and for bigger networks). */
const BYTES_PER_SEGMENT = 1024;

/** The estimated peak memory of building the network's graph in a worker thread (docs/ROUTING-ENGINE.md, "Importing"). */
export function graphBuildBytes(network: RoadNetwork): number {
  return THREAD_BYTES + BYTES_PER_SEGMENT * network.segments.count;
}

/**
 * Calls `run` for each job, at most `threads` at once. A job starts only while its `bytes` and
 * those of the jobs running fit `budget`, or when nothing runs (so a job too big for the budget
 * still runs, alone); the jobs that fit start in the order given. The first failure is thrown at
 * once, the jobs already running are not waited for.
 */
export async function runWithinBudget<Job extends { bytes: number }>(jobs: readonly Job[], threads: number, budget: number, run: (job: Job) => Promise<void>): Promise<void> {
  const waiting = [...jobs];
  const running = new Map<Job, Promise<Job>>();
  let runningBytes = 0;
  while (waiting.length > 0 || running.size > 0) {
    for (let i = 0; i < waiting.length && running.size < threads; ) {
      const job = waiting[i]!;
      if (running.size > 0 && runningBytes + job.bytes > budget) {
        i++;
        continue;
      }
      waiting.splice(i, 1);
      runningBytes += job.bytes;
      const finished = run(job).then(() => job);
      // Failures are seen through Promise.race below; one arriving after the first must not go unhandled.
      finished.catch(() => {});
      running.set(job, finished);
    }
    const done = await Promise.race(running.values());
    running.delete(done);
    runningBytes -= done.bytes;
  }
}
