/**
 * A lock file holding the pid of its owner: taken with an exclusive create; a file whose process is
 * gone (a crash, a kill) is stale and taken over. Used for one server and one import per data folder.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of the live process holding the lock `file`, or null when none does (no file, a stale one). */
export function lockHolder(file: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(file, 'utf8').trim());
  } catch {
    return null;
  }
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
}

/**
 * Takes the lock `file`; returns the function that releases it. When a live process holds it,
 * throws what `heldBy(pid)` returns.
 */
export function takePidLock(file: string, heldBy: (pid: number) => Error): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = lockHolder(file);
      if (pid !== null) throw heldBy(pid);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`cannot take the lock ${file}`);
}
