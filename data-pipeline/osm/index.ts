// The OSM source of the data pipeline: checking and sorting an extract, its bounds, and its Shortbread tile features.
import type { ProgressReporter } from '../progress.js';
import type { TileFeature } from '../features.js';
import { ShortbreadMapper } from '../shortbread/index.js';
import { SHORTBREAD_LINEAR_TAGS, SHORTBREAD_OSM_KEYS } from '../shortbread/keys.js';
import type { BBox } from '../../core/geo/types.js';
import { osmFileBounds, readOsmElements, type ExportSelection } from './osmium.js';

export { checkOsmHeader, osmFileSummary, type OsmFileSummary } from './osmium.js';
export { sortOsmFile } from './sort.js';

/** What the Shortbread rules read from `osmium export`. */
export const SHORTBREAD_EXPORT: ExportSelection = { keys: SHORTBREAD_OSM_KEYS, linearTags: SHORTBREAD_LINEAR_TAGS };

/** [west, south, east, north] of an OSM file (header box, else data box). */
export function osmBounds(file: string): Promise<BBox> {
  return osmFileBounds(file);
}

/**
 * Every Shortbread feature of an OSM file (.osm.pbf or .osm), streamed. Memory held meanwhile:
 * osmium's node-location index (in the osmium process) and, here, the coordinates of the
 * coastline ways, from which the sea is built after the last object.
 */
export async function* osmFeatures(file: string, onProgress: ProgressReporter): AsyncIterable<TileFeature> {
  // Reading the data's bounding box is a second pass over the file, run beside the export.
  const bounds = osmFileBounds(file);
  bounds.catch(() => {});
  const mapper = new ShortbreadMapper();
  const out: TileFeature[] = [];
  for await (const element of readOsmElements(file, SHORTBREAD_EXPORT, onProgress)) {
    mapper.map(element, out);
    for (const feature of out) yield feature;
    out.length = 0;
  }
  onProgress({ phase: 'build sea from coastlines', done: 0, total: 1 });
  yield* mapper.ocean(await bounds);
  onProgress({ phase: 'build sea from coastlines', done: 1, total: 1 });
}
