/**
 * How many graph builds run at once: at most one per thread, and only as many as the memory
 * budget holds by an estimate of each build's peak from its network (docs/ROUTING-ENGINE.md,
 * "Importing").
 */
import type { RoadNetwork } from '../../core/routing/network.js';
import { CELL_NODES } from './graph/contract.js';

/**
 * A worker thread with its modules (10 MiB), and the garbage its GC lets pile up: V8 collects the
 * typed arrays a build drops only once 64 MiB more were allocated since its last collection.
 */
const THREAD_BYTES = 74 * 2 ** 20;
/**
 * Contraction, per segment of the network: the edge-based graph and components (~100 bytes), the
 * hierarchy's edges (12 bytes each, up to 16 per segment: turns and shortcuts) and the columns
 * written beside them.
 */
const BYTES_PER_SEGMENT = 340;
/**
 * Contraction, per segment of the biggest connected piece: the working memory of contracting one
 * component in one queue (its turns, the mutable graph at 1.5 times them, witness search and queue).
 */
const BYTES_PER_COMPONENT_SEGMENT = 480;
/**
 * The same for a component contracted cell by cell first (contract.ts): its turns (32 bytes per
 * segment), per-node flags, depths and numbering (26), and the mutable graph of the nodes the cells
 * leave (a tenth of them, with their shortcuts: about 60) and their edges collected (24); plus one
 * cell's graph at a time (CELL_BYTES). Walking in 64 joined copies of Monaco: the build's peak fell
 * from 154 to 111 MiB above the networks read.
 */
const BYTES_PER_CELLED_SEGMENT = 160;
const CELL_BYTES = CELL_NODES * BYTES_PER_COMPONENT_SEGMENT;
/**
 * A helper thread of a celled component (cell-threads.ts), at most `threads - 1` per build: the
 * thread with its modules (10 MiB), its young generation (16 MiB), one cell's working memory in
 * contraction and the cells out at it with their answers (2 × 1 MiB).
 */
const HELPER_BYTES = 26 * 2 ** 20 + CELL_BYTES + 2 * 2 ** 20;
/** The snapping index, built once the hierarchy is written, per 2-point piece of polyline: Flatbush, its sort keys, the piece's point. */
const BYTES_PER_PIECE = 56;

/** The estimated peak memory of building the network's graph in a worker thread with `threads` for its cells: the bigger of its two phases. */
export function graphBuildBytes(network: RoadNetwork, threads = 1): number {
  const { count, coordinates } = network.segments;
  const largest = largestPieceSegments(network);
  // A segment is two nodes (its directions): a piece of a cell's nodes or more is cut into cells.
  const working =
    largest >= CELL_NODES
      ? CELL_BYTES + BYTES_PER_CELLED_SEGMENT * largest + (threads - 1) * HELPER_BYTES
      : BYTES_PER_COMPONENT_SEGMENT * largest;
  const contraction = BYTES_PER_SEGMENT * count + working;
  const snapping = BYTES_PER_PIECE * (coordinates.length / 2 - count);
  return THREAD_BYTES + Math.max(contraction, snapping);
}

/**
 * The segments of the biggest connected piece of what the mode may travel (segments joined at
 * junctions): no component contract.ts works on is bigger (turns only join segments that meet).
 */
function largestPieceSegments(network: RoadNetwork): number {
  const { count, from, to, forwardSeconds, backwardSeconds } = network.segments;
  const root = new Int32Array(network.junctionCount);
  for (let j = 0; j < root.length; j++) root[j] = j;
  const find = (j: number): number => {
    while (root[j] !== j) j = root[j] = root[root[j]!]!;
    return j;
  };
  const passable = (s: number) => !Number.isNaN(forwardSeconds[s]!) || !Number.isNaN(backwardSeconds[s]!);
  for (let s = 0; s < count; s++) if (passable(s)) root[find(from[s]!)] = find(to[s]!);
  const segments = new Uint32Array(network.junctionCount);
  let largest = 0;
  for (let s = 0; s < count; s++) if (passable(s)) largest = Math.max(largest, ++segments[find(from[s]!)]!);
  return largest;
}

/**
 * Calls `run` for each job, at most `threads` at once. A job starts only while its `bytes` and
 * those of the jobs running fit `budget`, or when nothing runs (so a job too big for the budget
 * still runs, alone); the jobs that fit start in the order given. The first failure is thrown at
 * once, the jobs already running are not waited for.
 */
export async function runWithinBudget<Job extends { bytes: number }>(
  jobs: readonly Job[],
  threads: number,
  budget: number,
  run: (job: Job) => Promise<void>,
): Promise<void> {
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
