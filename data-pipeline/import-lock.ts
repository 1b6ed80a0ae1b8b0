/**
 * One import per data folder at a time: DATA/import.lock holds the pid of the running import. A
 * lock whose process is gone (a crash, a kill) is stale and taken over; one held by a live process,
 * this one included (two imports started in one process), refuses the new import.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { paths } from './dataset-layout.js';
import { ImportLockedError } from './import-errors.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the import lock of `dataDir`; returns the function that releases it. */
export function takeImportLock(dataDir: string): () => void {
  const file = paths.importLock(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) throw new ImportLockedError(pid);
      rmSync(file, { force: true }); // Stale: its import is gone.
    }
  }
  throw new Error(`cannot take the import lock ${file}`);
}
