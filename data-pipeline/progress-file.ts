/**
 * The running import's latest phase in DATA/import.progress (core/dataset-layout.ts), for a server
 * on the same folder that has no dataset yet: its 503s and /readyz say how far the first import
 * has got. Written while the import holds the folder's lock, at most every 2 s (a phase reports far
 * more often), and removed before it releases the lock.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { paths } from '../core/dataset-layout.js';
import type { ProgressReporter } from './progress.js';

const WRITE_EVERY_MS = 2000;

export interface ProgressFile {
  /** Reports to `report`, and writes the progress to the file when the last write is old enough. */
  report: ProgressReporter;
  remove(): void;
}

export function progressFile(dataDir: string, report: ProgressReporter): ProgressFile {
  const file = paths.importProgress(dataDir);
  let writtenAt = 0;
  return {
    report(progress) {
      report(progress);
      const now = Date.now();
      if (now - writtenAt < WRITE_EVERY_MS) return;
      writtenAt = now;
      try {
        writeFileSync(file, JSON.stringify({ phase: progress.phase, done: progress.done, total: progress.total }));
      } catch {
        // Not writable: only the server's words lose the phase.
      }
    },
    remove: () => rmSync(file, { force: true }),
  };
}
