/**
 * One import per data folder at a time: DATA/import.lock holds the pid of the running import. A
 * lock whose process is gone (a crash, a kill) is stale and taken over; one held by a live process,
 * this one included (two imports started in one process), refuses the new import.
 */
import { takePidLock } from '../core/pid-lock.js';
import { paths } from '../core/dataset-layout.js';
import { ImportLockedError } from './import-errors.js';

/** Takes the import lock of `dataDir`; returns the function that releases it. */
export function takeImportLock(dataDir: string): () => void {
  return takePidLock(paths.importLock(dataDir), (pid) => new ImportLockedError(pid));
}
