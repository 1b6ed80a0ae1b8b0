/**
 * The failures of an import that callers tell apart: bad input, which running the same import
 * again cannot fix (a missing or corrupt file, a URL answering 404), and a data folder whose
 * import lock another import holds. Anything else may be worth a retry.
 */
import { basename } from 'node:path';

export class ImportInputError extends Error {}

/** An error reading an OSM file, as bad input naming the file. */
export const unreadableOsm = (file: string, error: unknown) =>
  new ImportInputError(`cannot read ${basename(file)}: ${(error as Error).message}`);

export class ImportLockedError extends Error {
  constructor(readonly pid: number) {
    super(`an import is already running (pid ${pid})`);
  }
}

export const isBadInput = (error: unknown): boolean => error instanceof ImportInputError;
export const isLockTaken = (error: unknown): boolean => error instanceof ImportLockedError;
