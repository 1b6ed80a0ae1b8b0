/**
 * The geocoder index job of an import: every source read, each record given its admin hierarchy
 * by point-in-polygon against the WOF and OSM admin polygons (completed from the nearest GeoNames
 * place where no polygon answers), and written to `geocoder.sqlite`. Admin areas are read first
 * (they are few); the places of each source then stream through.
 */
import { rmSync } from 'node:fs';
import { throwIfAborted } from '../../abort.js';
import type { ProgressReporter } from '../../features.js';
import { AdminLookup, type AdminPolygon } from '../../../core/geocoding/admin-lookup.js';
import { readGeonames } from '../geonames.js';
import { emptyOpenAddressesCounts, readOpenAddresses } from '../openaddresses.js';
import { readOsmAdminAreas, readOsmPlaces } from '../osm.js';
import type { PlaceRecord } from '../../../core/geocoding/place-record.js';
import { readWofFolders, withWofHierarchy } from '../wof.js';
import { countryByCode } from '../../../core/geocoding/countries.js';
import { NearestLocality } from '../nearest-locality.js';
import { osmBounds } from '../../osm/index.js';
import { GeocoderIndexWriter, type GeocoderIndexStats } from './writer.js';

export interface GeocoderInputs {
  osmFiles: readonly string[];
  wofDirs: readonly string[];
  oaFiles: readonly string[];
  geonames: boolean;
}

/** Within this distance of an extract's centre a GeoNames place tells the extract's country. */
const EXTRACT_COUNTRY_RADIUS_KM = 50;

/** ISO alpha-2 of the country around the middle of an OSM extract, from the nearest GeoNames place. */
async function extractCountry(file: string, nearest: NearestLocality): Promise<string | undefined> {
  const [west, south, east, north] = await osmBounds(file);
  const place = nearest.nearest((west + east) / 2, (south + north) / 2, EXTRACT_COUNTRY_RADIUS_KM);
  return countryByCode(place?.country_a)?.alpha2;
}

export async function buildGeocoderIndex(
  inputs: GeocoderInputs,
  file: string,
  onProgress: ProgressReporter,
  signal?: AbortSignal,
): Promise<GeocoderIndexStats> {
  const writer = new GeocoderIndexWriter(file);
  try {
    // GeoNames is read in any case: it completes records that no polygon places (see nearest-locality.ts).
    const geonames = readGeonames(onProgress).records;
    const nearest = new NearestLocality(geonames.filter((record) => record.layer === 'locality'));
    const wof = await readWofFolders(inputs.wofDirs, onProgress);
    const polygons: AdminPolygon[] = [...wof.admins];
    const osmAdminRecords: PlaceRecord[] = [];
    for (const osmFile of inputs.osmFiles) {
      const country = await extractCountry(osmFile, nearest);
      const areas = await readOsmAdminAreas(osmFile, onProgress, country === undefined ? {} : { country });
      polygons.push(...areas.polygons);
      osmAdminRecords.push(...areas.records);
      throwIfAborted(signal);
    }
    const lookup = new AdminLookup(polygons);
    const place = (record: PlaceRecord) => nearest.complete(lookup.withHierarchy(record), inputs.geonames);
    writer.addAdminAreas(polygons);
    for (const record of withWofHierarchy(wof, lookup)) writer.add(record);
    for (const record of osmAdminRecords) writer.add(place(record));

    for (const osmFile of inputs.osmFiles) {
      for await (const record of readOsmPlaces(osmFile, onProgress)) writer.add(place(record));
      throwIfAborted(signal);
    }
    for (const oaFile of inputs.oaFiles) {
      for await (const record of readOpenAddresses(oaFile, emptyOpenAddressesCounts(), onProgress)) writer.add(place(record));
      throwIfAborted(signal);
    }
    if (inputs.geonames) for (const record of geonames) writer.add(lookup.withHierarchy(record));
    throwIfAborted(signal);
    return writer.finish(onProgress);
  } catch (error) {
    writer.abort();
    rmSync(file, { force: true });
    throw error;
  }
}
