/**
 * The first half of tiling: features, as they are read, are stored on disk by the tile that will
 * cut them, so that reading needs memory for a buffer only, whatever the input's size.
 *
 * The pyramid is split into zoom bands. A feature goes into every band its zooms reach, once per
 * tile of the band's first zoom that it touches (cut to that tile and a margin, when it touches
 * several). A `SpillRun` buffers records by (band, tile) and writes them out as a run: one file,
 * its records grouped by tile, each tile's byte range returned. The `SpillIndex` collects the
 * ranges of every run; a tile's job is then the list of its ranges — read back with no merge or sort.
 */
import { closeSync, openSync } from 'node:fs';
import type { TileFeature } from '../features.js';
import { geometryBox } from './clip.js';
import type { CutJob } from './cut-thread.js';
import { ByteArena, writeParts, type Segment } from './spill-files.js';
import { encodeRecord, piecesInTiles, recordAttributes, recordBytes } from './spill-record.js';

export interface ZoomBand {
  /** First zoom: the band's features are stored by their tiles of this zoom. */
  first: number;
  last: number;
}

/**
 * Low zooms show few features over large areas, high ones many over small areas: a band's tiles at
 * its first zoom then hold comparable amounts, and a feature shown at every zoom is stored four times.
 */
export const ZOOM_BANDS: readonly ZoomBand[] = [
  { first: 0, last: 4 },
  { first: 5, last: 8 },
  { first: 9, last: 11 },
  { first: 12, last: 14 },
];

/** `band/x/y`: the tile of a band's first zoom that records are grouped by. */
type BandTile = string;

/** The byte ranges of one run, by band tile. */
export type RunSegments = [BandTile, Segment][];

/** Records buffered by band tile, written to `file` when asked. */
export class SpillRun {
  private readonly buckets = new Map<BandTile, Uint8Array[]>();
  private arena = new ByteArena();
  /** Bytes buffered. */
  bytes = 0;

  constructor(
    private readonly file: string,
    private readonly maxzoom: number,
  ) {}

  add(feature: TileFeature): void {
    const box = geometryBox(feature.geometry);
    let attributes: Uint8Array | undefined;
    for (const [band, { first, last }] of ZOOM_BANDS.entries()) {
      const minzoom = Math.max(feature.minzoom, first);
      const maxzoom = Math.min(feature.maxzoom, last, this.maxzoom);
      if (minzoom > maxzoom) continue;
      for (const piece of piecesInTiles(() => feature.geometry, box, first)) {
        attributes ??= recordAttributes(feature.layer, feature.properties);
        const geometry = piece.geometry ?? feature.geometry;
        const record = this.arena.take(recordBytes(attributes, geometry));
        encodeRecord(record, { minzoom, maxzoom, box: piece.box }, attributes, geometry);
        this.buffer(`${band}/${piece.x}/${piece.y}`, record);
      }
    }
  }

  /** Writes the buffered records to the run's file (none when nothing is buffered); their ranges. */
  write(): RunSegments {
    if (this.buckets.size === 0) return [];
    const segments: RunSegments = [];
    const fd = openSync(this.file, 'w');
    try {
      let offset = 0;
      for (const [key, records] of this.buckets) {
        const length = writeParts(fd, records);
        segments.push([key, { file: this.file, offset, length }]);
        offset += length;
      }
    } finally {
      closeSync(fd);
    }
    this.buckets.clear();
    this.arena = new ByteArena();
    this.bytes = 0;
    return segments;
  }

  private buffer(key: BandTile, record: Uint8Array): void {
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = []));
    bucket.push(record);
    this.bytes += record.length;
  }
}

/** Where every band tile's records are, over all runs. */
export class SpillIndex {
  private readonly segments = new Map<BandTile, Segment[]>();
  /** Run files named so far. */
  runs = 0;
  /** Bytes of records in all runs. */
  bytes = 0;

  constructor(
    private readonly dir: string,
    private readonly maxzoom: number,
  ) {}

  /** A new run, its file in the spill folder. */
  newRun(): SpillRun {
    return new SpillRun(this.runFile(), this.maxzoom);
  }

  /** The file for the next run. */
  runFile(): string {
    return `${this.dir}/run-${this.runs++}`;
  }

  add(run: RunSegments): void {
    for (const [key, segment] of run) {
      let segments = this.segments.get(key);
      if (!segments) this.segments.set(key, (segments = []));
      segments.push(segment);
      this.bytes += segment.length;
    }
  }

  /** One job per band tile that holds records. */
  jobs(maxJobBytes: number): CutJob[] {
    return [...this.segments].map(([key, segments]) => {
      const [band, x, y] = key.split('/').map(Number) as [number, number, number];
      const { first, last } = ZOOM_BANDS[band]!;
      const bytes = segments.reduce((sum, segment) => sum + segment.length, 0);
      return { z: first, x, y, lastZoom: Math.min(last, this.maxzoom), segments, bytes, maxBytes: maxJobBytes, spillDir: this.dir };
    });
  }
}
