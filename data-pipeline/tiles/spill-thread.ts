/**
 * One block of `osmium export` output spilled for the tiler, in a worker thread (the tiler's spill
 * pool runs this module's default export): its lines parsed, mapped to Shortbread features and written as one run.
 * The coastlines found are handed back: the sea is built from all of them at the end.
 */
import type { Position } from 'geojson';
import type { VectorLayerInfo } from '../../core/dataset-layout.js';
import type { TileFeature } from '../features.js';
import { parseOsmLines } from '../osm/osmium.js';
import { ElevationStore } from '../../core/terrain/elevation-store.js';
import { ShortbreadMapper } from '../shortbread/index.js';
import type { ElevationAt } from '../shortbread/peaks.js';
import { LayerCatalog } from './layer-catalog.js';
import { SpillRun, type RunSegments } from './spill.js';

export interface OsmBlockTask {
  block: Uint8Array;
  /** The run file to write. */
  runFile: string;
  /** Deepest zoom tiled. */
  maxzoom: number;
  /** The dataset's elevation store, when DEMs were imported: the height of peaks OSM gives none. */
  elevationFile?: string;
}

export interface OsmBlockResult {
  segments: RunSegments;
  layers: VectorLayerInfo[];
  coastlines: Position[][];
  /** OSM objects read and features spilled. */
  objects: number;
  features: number;
}

/** Elevation stores opened by this thread, by file (the pool ends with the spilling). */
const stores = new Map<string, ElevationStore>();

function elevationAt(file: string): ElevationAt {
  let store = stores.get(file);
  if (store === undefined) stores.set(file, (store = ElevationStore.open(file)));
  const opened = store;
  return (lon, lat) => opened.elevationAt(lon, lat);
}

export function spillOsmBlock(task: OsmBlockTask): OsmBlockResult {
  const mapper = new ShortbreadMapper(task.elevationFile === undefined ? undefined : elevationAt(task.elevationFile));
  const run = new SpillRun(task.runFile, task.maxzoom);
  const catalog = new LayerCatalog(task.maxzoom);
  const out: TileFeature[] = [];
  let features = 0;
  const objects = parseOsmLines(task.block, (element) => {
    mapper.map(element, out);
    for (const feature of out) {
      if (!catalog.add(feature)) continue;
      run.add(feature);
      features++;
    }
    out.length = 0;
  });
  return { segments: run.write(), layers: catalog.list(), coastlines: mapper.coastlines, objects, features };
}

/** The task of the tiler's spill threads (Piscina runs a module's default export). */
export default spillOsmBlock;
