/**
 * Who's On First importer: the admin records (country, region, locality, neighbourhood) of WOF
 * GeoJSON folders, with names by language, population, ISO country and polygons for the
 * `AdminLookup`; then their hierarchy, from `wof:hierarchy` where its parents were imported and
 * point-in-polygon otherwise.
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Feature, Geometry, MultiPolygon, Polygon } from 'geojson';
import type { ProgressReporter } from '../progress.js';
import type { AdminLookup, AdminPolygon } from '../../core/geocoding/admin-lookup.js';
import { countryByCode } from '../../core/geocoding/countries.js';
import { ADMIN_LAYERS, isValidPosition, placeGid, type AdminLayer, type PlaceRecord } from '../../core/geocoding/place-record.js';
import type { LonLat } from '../../core/geo/types.js';

/**
 * WOF placetypes kept, and the layer each becomes. `macrohood` (a group of neighbourhoods) is a
 * neighbourhood to us; `continent`, `empire`, `macroregion`, `macrocounty`, `county`, `localadmin`,
 * `borough`, `microhood`, `campus` and the rest have no layer of their own and are skipped.
 */
const LAYER_OF_PLACETYPE: Readonly<Record<string, AdminLayer>> = {
  country: 'country',
  region: 'region',
  locality: 'locality',
  neighbourhood: 'neighbourhood',
  macrohood: 'neighbourhood',
};

/** ISO 639-3 codes of WOF `name:xxx_x_preferred` → the ISO 639-1 codes of `lang`. */
const LANGUAGE_OF_WOF_CODE: Readonly<Record<string, string>> = {
  ara: 'ar',
  cat: 'ca',
  ces: 'cs',
  dan: 'da',
  deu: 'de',
  ell: 'el',
  eng: 'en',
  eus: 'eu',
  fin: 'fi',
  fra: 'fr',
  glg: 'gl',
  heb: 'he',
  hin: 'hi',
  hun: 'hu',
  ita: 'it',
  jpn: 'ja',
  kor: 'ko',
  nld: 'nl',
  nob: 'nb',
  nor: 'no',
  pol: 'pl',
  por: 'pt',
  ron: 'ro',
  rus: 'ru',
  spa: 'es',
  swe: 'sv',
  tur: 'tr',
  ukr: 'uk',
  zho: 'zh',
};

const PREFERRED_NAME = /^name:([a-z]{3})_x_preferred$/;

export interface WofImport {
  /** Kept records, hierarchy not filled yet (see `withWofHierarchy`). */
  records: PlaceRecord[];
  /** The polygons of the kept records, for the `AdminLookup`. */
  admins: AdminPolygon[];
  /** WOF ids of each record's parents by layer, from `wof:hierarchy` (the first one), by GID. */
  parentIds: Map<string, Partial<Record<AdminLayer, number>>>;
  skipped: { notCurrent: number; otherPlacetype: number; noPosition: number };
}

type WofProperties = Record<string, unknown>;

/** The `*.geojson` files of a folder, by name. */
async function geojsonFiles(dir: string): Promise<string[]> {
  return (await readdir(dir))
    .filter((name) => name.endsWith('.geojson'))
    .sort()
    .map((name) => join(dir, name));
}

/** One WOF record; a file that is not one fails naming the file. */
async function readWofFeature(file: string): Promise<Feature<Geometry, WofProperties>> {
  let feature: Feature<Geometry, WofProperties> | undefined;
  try {
    feature = JSON.parse(await readFile(file, 'utf8')) as Feature<Geometry, WofProperties>;
  } catch (error) {
    throw new Error(`${basename(file)} is not a Who's On First record: ${(error as Error).message}`);
  }
  if (typeof feature?.properties?.['wof:id'] !== 'number') throw new Error(`${basename(file)} is not a Who's On First record (no wof:id)`);
  return feature;
}

/** Reads the folder's first record only: why it is not a Who's On First folder, or null when it looks like one. */
export async function wofFolderProblem(dir: string): Promise<string | null> {
  const [first] = await geojsonFiles(dir);
  if (first === undefined) return "not a Who's On First folder (no .geojson files)";
  return readWofFeature(first).then(
    () => null,
    (error: Error) => `not a Who's On First folder (${error.message})`,
  );
}

/** Reads every `*.geojson` of the folders, one file at a time. */
export async function readWofFolders(dirs: readonly string[], onProgress?: ProgressReporter): Promise<WofImport> {
  const files = (await Promise.all(dirs.map(geojsonFiles))).flat();
  const imported: WofImport = {
    records: [],
    admins: [],
    parentIds: new Map(),
    skipped: { notCurrent: 0, otherPlacetype: 0, noPosition: 0 },
  };
  for (let done = 0; done < files.length; done++) {
    addWofFeature(imported, await readWofFeature(files[done]!));
    onProgress?.({ phase: 'wof', done: done + 1, total: files.length, unit: 'files' });
  }
  return imported;
}

function addWofFeature(imported: WofImport, feature: Feature<Geometry, WofProperties>): void {
  const p = feature.properties;
  const layer = LAYER_OF_PLACETYPE[String(p['wof:placetype'])];
  if (!layer) return void imported.skipped.otherPlacetype++;
  if (!isCurrent(p)) return void imported.skipped.notCurrent++;
  const [lon, lat] = labelPosition(feature);
  if (!isValidPosition(lon, lat)) return void imported.skipped.noPosition++;

  const id = String(p['wof:id']);
  const gid = placeGid('whosonfirst', layer, id);
  const country = countryByCode(stringProperty(p, 'wof:country') ?? stringProperty(p, 'iso:country'));
  const population = numberProperty(p, 'wof:population') ?? numberProperty(p, 'gn:population');
  const bbox = stringProperty(p, 'geom:bbox')?.split(',').map(Number);
  // Pelias' region_a: the region's short code (`AN` Andorra la Vella, `CA` California).
  const abbreviation = layer === 'region' ? stringProperty(p, 'wof:shortcode') : undefined;
  const record: PlaceRecord = {
    source: 'whosonfirst',
    layer,
    source_id: id,
    gid,
    name: String(p['wof:name']),
    names: namesByLanguage(p),
    lon,
    lat,
    ...(bbox?.length === 4 && bbox.every(Number.isFinite) ? { bbox: bbox as [number, number, number, number] } : {}),
    ...(population ? { population } : {}),
    ...(country ? { country_a: country.alpha3 } : {}),
    ...(abbreviation ? { region_a: abbreviation } : {}),
  };
  imported.records.push(record);
  imported.parentIds.set(gid, parentIdsOf(p));
  const geometry = feature.geometry;
  if (geometry.type === 'Polygon' || geometry.type === 'MultiPolygon') {
    imported.admins.push({
      layer,
      name: record.name,
      gid,
      geometry: geometry as Polygon | MultiPolygon,
      ...(country ? { country_a: country.alpha3 } : {}),
      ...(abbreviation ? { abbreviation } : {}),
    });
  }
}

/** Not deprecated, not superseded, and not marked as no longer current (`mz:is_current` -1 is "unknown": kept). */
function isCurrent(p: WofProperties): boolean {
  const deprecated = p['edtf:deprecated'];
  const supersededBy = p['wof:superseded_by'];
  return (
    !(typeof deprecated === 'string' && deprecated !== '' && deprecated !== 'uuuu') &&
    p['mz:is_current'] !== 0 &&
    !(Array.isArray(supersededBy) && supersededBy.length > 0)
  );
}

/** The label point (`lbl:*`), else the geometric centroid (`geom:*`), else a Point geometry. */
function labelPosition(feature: Feature<Geometry, WofProperties>): LonLat {
  const p = feature.properties;
  for (const prefix of ['lbl', 'geom']) {
    const lon = numberProperty(p, `${prefix}:longitude`);
    const lat = numberProperty(p, `${prefix}:latitude`);
    if (lon !== undefined && lat !== undefined) return [lon, lat];
  }
  return feature.geometry.type === 'Point' ? [feature.geometry.coordinates[0]!, feature.geometry.coordinates[1]!] : [NaN, NaN];
}

function namesByLanguage(p: WofProperties): Record<string, string> {
  const names: Record<string, string> = {};
  for (const key in p) {
    const language = LANGUAGE_OF_WOF_CODE[PREFERRED_NAME.exec(key)?.[1] ?? ''];
    const value = p[key];
    if (language && Array.isArray(value) && typeof value[0] === 'string') names[language] = value[0];
  }
  return names;
}

function parentIdsOf(p: WofProperties): Partial<Record<AdminLayer, number>> {
  const hierarchy = (p['wof:hierarchy'] as Record<string, number>[] | undefined)?.[0] ?? {};
  const parents: Partial<Record<AdminLayer, number>> = {};
  for (const layer of ADMIN_LAYERS) {
    const id = hierarchy[`${layer}_id`];
    if (typeof id === 'number' && id > 0) parents[layer] = id;
  }
  return parents;
}

/**
 * The records with their hierarchy: point-in-polygon first, then every parent `wof:hierarchy`
 * names that was imported replaces the polygon's answer for its layer (WOF's own hierarchy is
 * authoritative; many records here are points, or name parents of another country's files).
 */
export function withWofHierarchy(imported: WofImport, lookup: AdminLookup): PlaceRecord[] {
  const byId = new Map(imported.records.map((record) => [Number(record.source_id), record]));
  return imported.records.map((record) => {
    const filled = lookup.withHierarchy(record);
    const parents = imported.parentIds.get(record.gid) ?? {};
    for (const layer of ADMIN_LAYERS) {
      if (layer === record.layer) break;
      const parent = byId.get(parents[layer] ?? -1);
      if (parent?.layer !== layer) continue;
      filled[layer] = parent.name;
      filled[`${layer}_gid`] = parent.gid;
      if (layer === 'country' && parent.country_a) filled.country_a = parent.country_a;
      if (layer === 'region') {
        if (parent.region_a) filled.region_a = parent.region_a;
        else delete filled.region_a;
      }
    }
    return filled;
  });
}

function stringProperty(p: WofProperties, key: string): string | undefined {
  const value = p[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function numberProperty(p: WofProperties, key: string): number | undefined {
  const value = p[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
