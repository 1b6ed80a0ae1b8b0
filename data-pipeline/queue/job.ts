/**
 * What an import job carries and reports, whichever way it runs (BullMQ worker or the server's
 * child process): its data (the import options plus a request id), its progress, its result, and
 * the status the operator API and `waymark import --queue` show.
 */
import type { Job, JobState } from 'bullmq';
import type { ProgressReporter } from '../progress.js';
import type { ImportInputs, ImportOptions, ImportResult } from '../index.js';

export type { ImportOptions, ImportResult };
export type ImportProgress = Parameters<ProgressReporter>[0];

/** A job's data: the import, into an absolute data folder, and the id the caller knows it by (also the job id). */
export interface ImportJobData extends ImportOptions {
  requestId: string;
}

export type ImportJob = Job<ImportJobData, ImportResult>;

export type ImportState = 'waiting' | 'active' | 'completed' | 'failed';

/** An import's status; the inputs are what was asked for. */
export interface ImportStatus extends ImportInputs {
  id: string;
  status: ImportState;
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

/** The inputs of an import, without the rest of the job data. */
export function importInputs({ osm, world, wof, oa, geonames, dem }: ImportInputs): ImportInputs {
  return { osm, world, wof: wof ?? [], oa: oa ?? [], geonames: geonames ?? false, dem: dem ?? [] };
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
    ...importInputs(job.data),
    progress: isProgress(job.progress) ? job.progress : null,
    failedReason: status === 'failed' ? (job.failedReason ?? null) : null,
    result: status === 'completed' ? (job.returnvalue ?? null) : null,
    attempts: job.attemptsMade,
    createdAt: new Date(job.timestamp).toISOString(),
    finishedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
  };
}
