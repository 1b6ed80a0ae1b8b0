/**
 * Contour lines of a web-mercator tile, in tile units (4,096 a side), as outdoor maps draw them:
 * every `minor` metres, every `major` metres marked major, both by zoom (CONTOUR_INTERVALS). The
 * elevations are sampled at 256 × 256 points of the tile plus a buffer of samples beyond each
 * edge, on the same world-wide lattice for every tile of a zoom, so neighbouring tiles trace the
 * same lines through their shared strip; the lines are cut 64 units beyond the tile's edges
 * (geojson-vt's buffer), so they run on unbroken across tile edges.
 */
import { clipPolyline } from 'lineclip';
import type { ElevationStore } from './elevation-store.js';
import { isolines, type Point } from './isolines.js';
import { tileAxes } from './sample-axes.js';
import { TILE_MAX_ZOOM } from '../maps/zoom.js';

export const CONTOUR_EXTENT = 4096;
/** Tile units kept beyond each edge of the tile. */
export const CONTOUR_CLIP_BUFFER = 64;
/** Samples a side of the tile (without the buffer). */
const SAMPLES = 256;
const UNITS_PER_SAMPLE = CONTOUR_EXTENT / SAMPLES;
/** Samples beyond each edge: enough cells to cover the clip buffer (4 samples) and one more. */
const SAMPLE_BUFFER = Math.ceil(CONTOUR_CLIP_BUFFER / UNITS_PER_SAMPLE) + 2;

export interface ContourInterval {
  /** The first zoom using it. */
  fromZoom: number;
  /** Metres between lines. */
  minor: number;
  /** Metres between major lines (a multiple of minor). */
  major: number;
}

/** Intervals by zoom, as OpenTopoMap's and MapTiler's outdoor maps space them; below the first, tiles are empty. */
export const CONTOUR_INTERVALS: readonly ContourInterval[] = [
  { fromZoom: 9, minor: 200, major: 1000 },
  { fromZoom: 11, minor: 100, major: 500 },
  { fromZoom: 12, minor: 20, major: 100 },
  { fromZoom: 14, minor: 10, major: 50 },
];
export const CONTOUR_MIN_ZOOM = CONTOUR_INTERVALS[0]!.fromZoom;
/** The deepest zoom with its own tiles, the vector tiles' one: clients overzoom beyond it (its 10 m lines stay). */
export const CONTOUR_MAX_ZOOM = TILE_MAX_ZOOM;

export const contourInterval = (z: number): ContourInterval | null =>
  CONTOUR_INTERVALS.findLast((interval) => z >= interval.fromZoom) ?? null;

export interface ContourFeature {
  /** Metres. */
  ele: number;
  level: 'major' | 'minor';
  /** The lines, in whole tile units; a closed one ends at its first point. */
  lines: Point[][];
}

/** The contour lines of tile z/x/y, one feature per elevation; none below CONTOUR_MIN_ZOOM. */
export function contourTileFeatures(store: ElevationStore, z: number, x: number, y: number): ContourFeature[] {
  const interval = contourInterval(z);
  if (interval === null) return [];
  const { lons, lats } = tileAxes(z, x, y, SAMPLES, SAMPLE_BUFFER);
  const values = store.sampleGrid(lons, lats);
  const side = lons.length;
  const box: [number, number, number, number] = [
    -CONTOUR_CLIP_BUFFER,
    -CONTOUR_CLIP_BUFFER,
    CONTOUR_EXTENT + CONTOUR_CLIP_BUFFER,
    CONTOUR_EXTENT + CONTOUR_CLIP_BUFFER,
  ];
  const features: ContourFeature[] = [];
  for (const [ele, raw] of isolines(values, side, side, interval.minor)) {
    // 0 m is the coastline, which the map draws from its own data.
    if (ele === 0) continue;
    const lines = raw.flatMap((line) => clippedLine(line.map(toTileUnits), box));
    if (lines.length > 0) features.push({ ele, level: ele % interval.major === 0 ? 'major' : 'minor', lines });
  }
  return features;
}

/** Grid units to tile units (sample c lies at the centre of the tile's pixel c − SAMPLE_BUFFER). */
const toTileUnits = ([c, r]: Point): Point => [(c - SAMPLE_BUFFER + 0.5) * UNITS_PER_SAMPLE, (r - SAMPLE_BUFFER + 0.5) * UNITS_PER_SAMPLE];

/** Whole tile units, without repeated points. */
function rounded(line: Point[]): Point[] {
  const whole = line.map(([x, y]): Point => [Math.round(x), Math.round(y)]);
  return whole.filter((point, i) => i === 0 || point[0] !== whole[i - 1]![0] || point[1] !== whole[i - 1]![1]);
}

/** A line cut to the box, in whole units; a loop cut open by the box has its two ends joined back. */
function clippedLine(points: Point[], box: [number, number, number, number]): Point[][] {
  const parts = clipPolyline(points, box) as Point[][];
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const closed = first[0] === last[0] && first[1] === last[1];
  if (closed && parts.length > 1 && parts[0]![0] === first && parts[parts.length - 1]!.at(-1) === last)
    parts[0] = [...parts.pop()!, ...parts[0]!.slice(1)];
  return parts.map(rounded).filter((part) => part.length >= 2);
}
