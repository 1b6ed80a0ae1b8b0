/**
 * The geocoder index job of an import: every source read, each record given its admin hierarchy
 * by point-in-polygon against the WOF and OSM admin polygons (completed from the nearest GeoNames
 * place where no polygon answers), and written to `geocoder.sqlite`. Each OSM file is read in one
 * osmium pass that spills what it finds; once every admin polygon is known, the places of each
 * source stream through the hierarchy into the writer's staging table. Memory: docs/GEOCODING.md,
 * "Memory".
 */
import { throwIfAborted } from '../../abort.js';
import type { ProgressReporter } from '../../progress.js';
import { AdminLookup } from '../../../core/geocoding/admin-lookup.js';
import { readGeonames } from '../geonames.js';
import { emptyOpenAddressesCounts, readOpenAddresses } from '../openaddresses.js';
import { readOsmForGeocoding, type OsmAdminImport, type OsmRead } from '../osm.js';
import type { PlaceRecord } from '../../../core/geocoding/place-record.js';
import { readWofFolders, withWofHierarchy } from '../wof.js';
import { countryByCode } from '../../../core/geocoding/countries.js';
import { NearestLocality } from '../nearest-locality.js';
import { PlaceHierarchy } from '../hierarchy.js';
import { normalizeText } from '../../../core/geocoding/text/normalize.js';
import { osmBounds } from '../../osm/index.js';
import type { BBox } from '../../../core/geo/types.js';
import { sqliteCacheKiB } from './memory-budget.js';
import { GeocoderIndexWriter, type GeocoderIndexStats } from './writer.js';

export interface GeocoderInputs {
  osmFiles: readonly string[];
  /** Bounds of OSM files the caller has already scanned; the others take a pass of their own. */
  osmBounds?: ReadonlyMap<string, BBox>;
  wofDirs: readonly string[];
  oaFiles: readonly string[];
  geonames: boolean;
}

/** Within this distance of an extract's centre a GeoNames place tells the extract's country. */
const EXTRACT_COUNTRY_RADIUS_KM = 50;

/** Within this distance of an admin area's label point a GeoNames place of its name tells its country. */
const AREA_COUNTRY_RADIUS_KM = 15;

/** ISO alpha-2 of the country around the middle of an OSM extract, from the nearest GeoNames place. */
async function extractCountry(file: string, nearest: NearestLocality, known?: ReadonlyMap<string, BBox>): Promise<string | undefined> {
  const [west, south, east, north] = known?.get(file) ?? (await osmBounds(file));
  const place = nearest.nearest((west + east) / 2, (south + north) / 2, EXTRACT_COUNTRY_RADIUS_KM);
  return countryByCode(place?.country_a)?.alpha2;
}

export interface GeocoderBuildOptions {
  /** The memory the step may use (default: the import's, `defaultImportMemory`); docs/GEOCODING.md, "Memory". */
  memoryBytes?: number;
  /** Threads SQLite may sort with (default: every core, `importThreads`). */
  threads?: number;
}

/** Progress of the records' hierarchy is reported, and cancellation checked, every so many records. */
const STAGE_PROGRESS_EVERY = 10_000;

/** Gives each item to `use` as it passes. */
function* passing<T>(items: Iterable<T>, use: (item: T) => void): Iterable<T> {
  for (const item of items) {
    use(item);
    yield item;
  }
}

export async function buildGeocoderIndex(
  inputs: GeocoderInputs,
  file: string,
  onProgress: ProgressReporter,
  signal?: AbortSignal,
  options: GeocoderBuildOptions = {},
): Promise<GeocoderIndexStats> {
  const cacheKiB = sqliteCacheKiB(options.memoryBytes);
  const writer = new GeocoderIndexWriter(file, { cacheKiB, ...(options.threads ? { threads: options.threads } : {}) });
  const osm: { read: OsmRead; admin: OsmAdminImport }[] = [];
  try {
    // GeoNames is read in any case: it completes records that no polygon places (see nearest-locality.ts).
    const geonames = readGeonames(onProgress).records;
    const nearest = new NearestLocality(geonames.filter((record) => record.layer === 'locality'));
    const wof = await readWofFolders(inputs.wofDirs, onProgress);
    for (const [n, osmFile] of inputs.osmFiles.entries()) {
      // Bounds not given take a pass of their own (osmium fileinfo), run beside the export.
      const country = extractCountry(osmFile, nearest, inputs.osmBounds);
      country.catch(() => {});
      const read = await readOsmForGeocoding(osmFile, onProgress, {
        spillFile: `${file}.osm-${n}`,
        cacheKiB,
        ...(signal ? { signal } : {}),
      });
      const alpha2 = await country.catch((error: unknown) => {
        read.close();
        throw error;
      });
      const countryOfPlace = (lon: number, lat: number, name: string) =>
        countryByCode(nearest.named(lon, lat, normalizeText(name), AREA_COUNTRY_RADIUS_KM)?.country_a)?.alpha2;
      osm.push({ read, admin: read.adminAreas.resolve({ countryOfPlace, ...(alpha2 === undefined ? {} : { country: alpha2 }) }) });
      throwIfAborted(signal);
    }
    // Each polygon is read once (from its spill for OSM): into the lookup and into the index.
    const polygons = function* () {
      yield* wof.admins;
      for (const { admin } of osm) yield* admin.polygons();
    };
    const lookup = new AdminLookup(passing(polygons(), (area) => writer.addAdminArea(area)));
    const hierarchy = new PlaceHierarchy(lookup, nearest, inputs.geonames);
    const place = (record: PlaceRecord) => hierarchy.place(record);
    let staged = 0;
    const stage = (record: PlaceRecord) => {
      writer.add(record);
      if (++staged % STAGE_PROGRESS_EVERY !== 0) return;
      onProgress({ phase: 'geocoder places', done: staged, total: null, unit: 'places' });
      throwIfAborted(signal);
    };
    for (const record of withWofHierarchy(wof, lookup)) stage(record);
    for (const { admin } of osm) for (const record of admin.records) stage(place(record));
    for (const { read } of osm) {
      for (const record of read.places.records()) stage(place(record));
      for (const { name, line } of read.places.streetLines()) writer.addStreetLine(name, line);
      for (const range of read.places.addressRanges()) writer.addAddressRange(range);
      read.close();
    }
    for (const oaFile of inputs.oaFiles) {
      for await (const record of readOpenAddresses(oaFile, emptyOpenAddressesCounts(), onProgress)) stage(place(record));
    }
    if (inputs.geonames) for (const record of geonames) stage(lookup.withHierarchy(record));
    onProgress({ phase: 'geocoder places', done: staged, total: staged, unit: 'places' });
    throwIfAborted(signal);
    return writer.finish(onProgress);
  } catch (error) {
    writer.abort();
    throw error;
  } finally {
    for (const { read } of osm) read.close();
  }
}
