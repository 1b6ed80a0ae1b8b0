/**
 * The geocoder's one pass over an OSM file: one `osmium export` of the objects carrying any key
 * the admin areas or the places need (`GEOCODING_EXPORT`), each object given to both the admin area
 * rules and the place rules. What can be finished only after the last object (resolving admin
 * levels by country, merging streets, and the places' hierarchy, which needs every admin polygon)
 * waits in the file's spill until the caller asks for it; `close` deletes the spill.
 */
import { throwIfAborted } from '../../abort.js';
import type { ProgressReporter } from '../../progress.js';
import { parseOsmLines, readOsmLineBlocks } from '../../osm/osmium.js';
import { OsmAdminAreas } from './admin-areas.js';
import { OsmPlaces } from './places.js';
import { OsmSpill } from './spill.js';
import { GEOCODING_EXPORT, GEOCODING_LINE_MARKERS } from './tags.js';

/**
 * osmium's output is parsed as it comes, a pipe's worth at a time: while a block is parsed osmium
 * can write only as much as the pipe holds (64 KiB) and then waits, so large blocks would stall it.
 */
const BLOCK_BYTES = 64 * 1024;

export interface OsmRead {
  adminAreas: OsmAdminAreas;
  places: OsmPlaces;
  close(): void;
}

export interface OsmReadOptions {
  /** The spill file of this read, and its SQLite page cache. */
  spillFile: string;
  cacheKiB: number;
  /** Checked after each block of objects: cancelling stops osmium. */
  signal?: AbortSignal;
}

export async function readOsmForGeocoding(file: string, onProgress: ProgressReporter, options: OsmReadOptions): Promise<OsmRead> {
  const spill = new OsmSpill(options.spillFile, options.cacheKiB);
  try {
    const adminAreas = new OsmAdminAreas(spill);
    const places = new OsmPlaces(spill);
    let objects = 0;
    for await (const block of readOsmLineBlocks(file, GEOCODING_EXPORT, onProgress, BLOCK_BYTES)) {
      objects += parseOsmLines(
        block,
        (el) => {
          adminAreas.add(el);
          places.add(el);
        },
        GEOCODING_LINE_MARKERS,
      );
      onProgress({ phase: 'read OSM objects', done: objects, total: null, unit: 'objects' });
      throwIfAborted(options.signal);
    }
    onProgress({ phase: 'read OSM objects', done: objects, total: objects, unit: 'objects' });
    spill.finishWriting();
    return { adminAreas, places, close: () => spill.close() };
  } catch (error) {
    spill.close();
    throw error;
  }
}
