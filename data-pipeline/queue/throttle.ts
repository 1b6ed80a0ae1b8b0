/**
 * Thins out a stream of progress reports before they cross a process or network boundary: a
 * report passes when its phase changed, when its phase is done, or when the last one that passed
 * is older than the interval.
 */
import type { ProgressReporter } from '../progress.js';

export const PROGRESS_INTERVAL_MS = 250;

export function throttleProgress(forward: ProgressReporter, intervalMs = PROGRESS_INTERVAL_MS): ProgressReporter {
  let phase: string | undefined;
  let sentAt = 0;
  return (progress) => {
    const now = Date.now();
    const finished = progress.total !== null && progress.done >= progress.total;
    if (progress.phase === phase && !finished && now - sentAt < intervalMs) return;
    phase = progress.phase;
    sentAt = now;
    forward(progress);
  };
}
