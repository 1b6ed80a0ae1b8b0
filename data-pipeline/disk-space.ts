/**
 * Running out of disk halfway through a large import wastes its hours: the space an import will
 * need is estimated from its OSM input and checked against the free space before the heavy steps.
 */
import { statfsSync, statSync } from 'node:fs';
import { formatBytes } from '../core/format-bytes.js';

/**
 * Disk each step needs per byte of .osm.pbf input, at its peak, rounded up from the ×64 Monaco grid
 * (bench/scale; 83 MB): the tiles' binary spill files (352 MB, deleted after) and archive (49 MB),
 * the geocoder index (50 MB) and its scratch files, the three routing graphs (404 MB).
 */
const BYTES_PER_INPUT_BYTE: Record<string, number> = { tiles: 6, geocoder: 2, routing: 6 };
/** Room left for everything else (logs, the database, other imports' files). */
const SPARE_BYTES = 256 * 1024 ** 2;

/** Bytes the steps not yet finished will need for `osmFiles`. */
export function diskSpaceNeeded(osmFiles: readonly string[], finished: readonly string[]): number {
  const input = osmFiles.reduce((sum, file) => sum + statSync(file).size, 0);
  const perByte = Object.entries(BYTES_PER_INPUT_BYTE).reduce((sum, [step, bytes]) => (finished.includes(step) ? sum : sum + bytes), 0);
  return Math.ceil(input * perByte) + SPARE_BYTES;
}

/** Fails when the file system of `dir` has less than `needed` bytes free. */
export function checkDiskSpace(dir: string, needed: number): void {
  const { bavail, bsize } = statfsSync(dir);
  const free = bavail * bsize;
  if (free < needed) {
    throw new Error(
      `not enough free disk space for this import in ${dir}: it needs about ${formatBytes(needed)} (spill files, tiles, geocoder index, routing graphs), ${formatBytes(free)} is free`,
    );
  }
}
