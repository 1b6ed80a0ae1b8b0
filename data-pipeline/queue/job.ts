/**
 * What an import job carries and reports, whichever way it runs (BullMQ worker or the server's
 * child process): its data (the import options plus a request id), its progress, its result, and
 * the status the operator API and `waymark import --queue` show.
 */
import type { Job, JobState } from 'bullmq';
import type { ProgressReporter } from '../features.js';
import type { ImportOptions, ImportResult } from '../index.js';

export type { ImportOptions, ImportResult };
export type ImportProgress = Parameters<ProgressReporter>[0];

/** A job's data: the import, into an absolute data folder, and the id the caller knows it by (also the job id). */
export interface ImportJobData extends ImportOptions {
  requestId: string;
}

export type ImportJob = Job<ImportJobData, ImportResult>;

export type ImportState = 'waiting' | 'active' | 'completed' | 'failed';

export interface ImportStatus {
  id: string;
  status: ImportState;
  /** What was asked for. */
  osm: string[];
  world: boolean;
  /** The latest progress report, null before the first. */
  progress: ImportProgress | null;
  /** Why the job failed, one line; null unless failed. */
  failedReason: string | null;
  result: ImportResult | null;
  /** Attempts that have ended so far (a failure that a retry may fix gets a second attempt). */
  attempts: number;
  createdAt: string;
  finishedAt: string | null;
}

/** BullMQ's states folded into the four an operator cares about (delayed and prioritized jobs are waiting). */
function importState(state: JobState | 'unknown'): ImportState {
  if (state === 'active' || state === 'completed' || state === 'failed') return state;
  return 'waiting';
}

export const isProgress = (value: unknown): value is ImportProgress =>
  typeof value === 'object' && value !== null && typeof (value as ImportProgress).phase === 'string';

export function statusOfJob(job: ImportJob, state: JobState | 'unknown'): ImportStatus {
  const status = importState(state);
  return {
    id: job.id!,
    status,
    osm: job.data.osm,
    world: job.data.world,
    progress: isProgress(job.progress) ? job.progress : null,
    failedReason: status === 'failed' ? (job.failedReason ?? null) : null,
    result: status === 'completed' ? (job.returnvalue ?? null) : null,
    attempts: job.attemptsMade,
    createdAt: new Date(job.timestamp).toISOString(),
    finishedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
  };
}
