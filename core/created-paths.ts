/**
 * What an import (or a command that creates the database) has added to the data folder, so that a
 * failed one can take it away again and leave the folder as it found it: the files it saved there, and the folders it made. Folders go
 * only when empty, since a server or another command may have put something in them meanwhile.
 */
import { mkdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';

export class CreatedPaths {
  private readonly folders: string[] = [];
  private readonly files: string[] = [];

  /** Makes the folder `dir` and any missing parent; returns `dir`. */
  folder(dir: string): string {
    const first = mkdirSync(dir, { recursive: true });
    if (first !== undefined) {
      for (let made = dir; ; made = dirname(made)) {
        this.folders.push(made);
        if (made === first) break;
      }
    }
    return dir;
  }

  /** Remembers a file saved by the import; returns it. */
  file(path: string): string {
    this.files.push(path);
    return path;
  }

  /** Deletes the files, then every folder made that is empty, innermost first. */
  remove(): void {
    for (const file of this.files) rmSync(file, { force: true });
    for (const dir of [...this.folders].sort((a, b) => b.length - a.length)) {
      try {
        rmdirSync(dir);
      } catch {
        // Not empty (someone else's now) or already gone: left as it is.
      }
    }
  }
}
