/** The folder holding Waymark's package.json, whether running from `src/` or compiled `dist/`. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the Waymark package root');
    dir = parent;
  }
  return dir;
}

export const PACKAGE_ROOT = findRoot();
