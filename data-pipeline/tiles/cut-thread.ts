/**
 * A tile cutter's job (run in a worker thread: the cutter pool of tiler.ts runs this module's default export): the features the spill
 * stored for one tile of a zoom band, cut into that tile's subtree down to the band's last zoom.
 *
 * A job holding more than `maxBytes` of records (a dense city in one tile) is split instead: its
 * own tile is cut from the features shown at its zoom, and the rest are placed into its four
 * children's files, each a job of its own. So a job's memory is bounded whatever the data's density.
 */
import { join } from 'node:path';
import { cutPyramid, type EncodedTile } from './pyramid.js';
import { forEachRecord, RecordFile, releaseSegments, type Segment } from './spill-files.js';
import { encodeRecord, piecesInTiles, recordBytes, type SpillFeature } from './spill-record.js';
import type { TileAddress } from './tile-space.js';

export interface CutJob extends TileAddress {
  /** Last zoom of the job's band. */
  lastZoom: number;
  segments: Segment[];
  /** Sum of the segments' lengths. */
  bytes: number;
  /** Above this many bytes of records the job is split; where its children's files go. */
  maxBytes: number;
  spillDir: string;
}

export interface CutResult {
  tiles: EncodedTile[];
  /** Jobs for the children of a split job's tile. */
  children: CutJob[];
}

/** Cuts the job's own tile, and writes what lies deeper into one job per child tile. */
function splitJob(job: CutJob): CutResult {
  const here: SpillFeature[] = [];
  const children = new Map<string, RecordFile>();
  const childFile = (x: number, y: number) => {
    const key = `${x}/${y}`;
    let file = children.get(key);
    if (!file) children.set(key, (file = new RecordFile(join(job.spillDir, `split-${job.z + 1}-${x}-${y}`))));
    return file;
  };
  const inChildren = (x: number, y: number) => x >> 1 === job.x && y >> 1 === job.y;
  forEachRecord(job.segments, (record) => {
    const header = record.header();
    let feature: SpillFeature | undefined;
    const decoded = () => (feature ??= record.feature());
    if (header.minzoom <= job.z) here.push(decoded());
    if (header.maxzoom <= job.z) return;
    const minzoom = Math.max(header.minzoom, job.z + 1);
    for (const piece of piecesInTiles(() => decoded().geometry, header.box, job.z + 1)) {
      if (!inChildren(piece.x, piece.y)) continue;
      if (piece.geometry === null) {
        childFile(piece.x, piece.y).add(record.withZooms(minzoom, header.maxzoom));
        continue;
      }
      const attributes = record.attributes();
      const part = new Uint8Array(recordBytes(attributes, piece.geometry));
      encodeRecord(part, { minzoom, maxzoom: header.maxzoom, box: piece.box }, attributes, piece.geometry);
      childFile(piece.x, piece.y).add(part);
    }
  });
  const tiles = cutPyramid(here, job, job.z);
  const jobs: CutJob[] = [];
  for (const [key, file] of children) {
    file.close();
    const [x, y] = key.split('/').map(Number) as [number, number];
    const segments = [{ file: file.file, offset: 0, length: file.bytes, owned: true }];
    jobs.push({ ...job, z: job.z + 1, x, y, segments, bytes: file.bytes });
  }
  return { tiles, children: jobs };
}

export function cutJob(job: CutJob): CutResult {
  try {
    if (job.bytes > job.maxBytes && job.z < job.lastZoom) return splitJob(job);
    const features: SpillFeature[] = [];
    forEachRecord(job.segments, (record) => features.push(record.feature()));
    return { tiles: cutPyramid(features, job, job.lastZoom), children: [] };
  } finally {
    releaseSegments(job.segments);
  }
}

/** The task of the tiler's cutter threads (Piscina runs a module's default export); the main thread writes the tiles it returns. */
export default cutJob;
