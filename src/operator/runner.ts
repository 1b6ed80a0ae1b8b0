/** What the operator API needs from whatever runs imports: start one, look one up, list recent ones. */
import type { ImportStatus } from '../../data-pipeline/queue/job.js';
import type { ImportRequest } from './import-request.js';

export interface ImportRunner {
  /** Starts (or enqueues) an import into the server's data folder; an ApiError when it cannot. */
  start(request: ImportRequest): Promise<ImportStatus>;
  /** The import's status, or null when this server knows no such import. */
  status(id: string): Promise<ImportStatus | null>;
  /** The most recent imports, newest first. */
  recent(): Promise<ImportStatus[]>;
  close(): Promise<void>;
}

/** How many imports `GET /operator/imports` lists. */
export const RECENT_IMPORTS = 20;
