/**
 * OSM admin areas: `boundary=administrative` areas by `admin_level` (mapped per country, see
 * admin-levels.ts) and `place=city|town|village|hamlet|suburb|quarter|neighbourhood` areas, as
 * admin records and polygons for the `AdminLookup`. All candidate areas are held until the end of
 * the file: an area's country (and so the meaning of its level) is known only once the country
 * polygons have been read.
 */
import type { MultiPolygon } from 'geojson';
import type { ProgressReporter } from '../../features.js';
import { readOsmElements } from '../../osm/osmium.js';
import type { AreaElement } from '../../shortbread/element.js';
import { polygonContains } from '../../shortbread/geometry.js';
import type { AdminPolygon } from '../../../core/geocoding/admin-lookup.js';
import { countryByCode, type Country } from '../../../core/geocoding/countries.js';
import { isValidPosition, placeGid, type AdminLayer, type PlaceRecord } from '../../../core/geocoding/place-record.js';
import { adminLevelsOf, MUNICIPALITY_LEVEL } from './admin-levels.js';
import { bboxContains, bboxOf, labelPoint, outerRingPositions, type BBox } from './geometry.js';
import { ADMIN_KEYS, ADMIN_LAYER_OF_PLACE_AREA, namesByLanguage, populationOf } from './tags.js';

export interface OsmAdminImport {
  records: PlaceRecord[];
  polygons: AdminPolygon[];
  /** Candidate areas (admin boundaries and place areas) read, and the ones skipped. */
  counts: { areas: number; records: number; skippedNoName: number; skippedOtherLevel: number };
}

export interface OsmAdminOptions {
  /**
   * ISO 3166-1 alpha-2 of the areas outside every country polygon of the file: extracts often
   * cut the country's own boundary (then its level table cannot be found by position).
   */
  country?: string;
}

interface Candidate {
  area: AreaElement;
  level: number | undefined;
  point: [number, number];
  bbox: BBox;
}

/** The admin records and polygons of an OSM file; hierarchy not filled (`AdminLookup.withHierarchy`). */
export async function readOsmAdminAreas(file: string, onProgress: ProgressReporter, options: OsmAdminOptions = {}): Promise<OsmAdminImport> {
  const counts = { areas: 0, records: 0, skippedNoName: 0, skippedOtherLevel: 0 };
  const candidates: Candidate[] = [];
  for await (const el of readOsmElements(file, ADMIN_KEYS, onProgress)) {
    // A closed way also arrives as a line: its area is the one wanted.
    if (el.shape !== 'area') continue;
    const level = adminLevel(el.tags);
    if (level === undefined && !ADMIN_LAYER_OF_PLACE_AREA[el.tags.place ?? '']) continue;
    counts.areas++;
    if (!el.tags.name) {
      counts.skippedNoName++;
      continue;
    }
    const [lon, lat] = labelPoint(el) as [number, number];
    if (isValidPosition(lon, lat)) candidates.push({ area: el, level, point: [lon, lat], bbox: bboxOf(outerRingPositions(el.polygons)) });
  }

  const countries = candidates.filter((c) => c.level === 2 && countryTagged(c) !== undefined);
  const defaultCountry = countryByCode(options.country);
  const countryOf = (c: Candidate): Country | undefined =>
    countryTagged(c) ?? countryTagged(countries.find((country) => containsPoint(country, c.point))) ?? defaultCountry;
  const municipalityPoints = candidates.filter((c) => c.level === MUNICIPALITY_LEVEL).map((c) => c.point);

  const imported: OsmAdminImport = { records: [], polygons: [], counts };
  for (const candidate of candidates) {
    const country = countryOf(candidate);
    const layer = layerOf(candidate, country, municipalityPoints);
    if (!layer) {
      counts.skippedOtherLevel++;
      continue;
    }
    const { record, polygon } = adminRecord(candidate, layer, country);
    imported.records.push(record);
    imported.polygons.push(polygon);
    counts.records++;
  }
  return imported;
}

/**
 * The layer by the country's level table; a district with no municipality inside is the city it
 * is (where the table says so); else the `place` tag's layer.
 */
function layerOf(c: Candidate, country: Country | undefined, municipalityPoints: [number, number][]): AdminLayer | undefined {
  if (c.level !== undefined) {
    const levels = adminLevelsOf(country?.alpha2);
    const layer = levels.layers[c.level];
    if (layer) return layer;
    if (c.level === levels.cityDistrictLevel && !municipalityPoints.some((p) => containsPoint(c, p))) return 'locality';
  }
  return ADMIN_LAYER_OF_PLACE_AREA[c.area.tags.place ?? ''];
}

function adminRecord(c: Candidate, layer: AdminLayer, country: Country | undefined): { record: PlaceRecord; polygon: AdminPolygon } {
  const { area, point, bbox } = c;
  const sourceId = `${area.type}/${area.id}`;
  const gid = placeGid('openstreetmap', layer, sourceId);
  const name = area.tags.name!;
  const population = populationOf(area.tags);
  const countryA = country ? { country_a: country.alpha3 } : {};
  const record: PlaceRecord = {
    source: 'openstreetmap', layer, source_id: sourceId, gid, name, names: namesByLanguage(area.tags),
    lon: point[0], lat: point[1], bbox, ...(population ? { population } : {}), ...countryA,
  };
  const geometry: MultiPolygon = { type: 'MultiPolygon', coordinates: area.polygons };
  return { record, polygon: { layer, name, gid, geometry, ...countryA } };
}

function adminLevel(tags: Record<string, string>): number | undefined {
  return tags.boundary === 'administrative' && /^\d{1,2}$/.test(tags.admin_level ?? '') ? Number(tags.admin_level) : undefined;
}

/** The country a level-2 area names with its ISO 3166-1 tag. */
function countryTagged(c: Candidate | undefined): Country | undefined {
  if (c?.level !== 2) return undefined;
  return countryByCode(c.area.tags['ISO3166-1:alpha2'] ?? c.area.tags['ISO3166-1']);
}

function containsPoint(c: Candidate, [x, y]: [number, number]): boolean {
  return bboxContains(c.bbox, x, y) && c.area.polygons.some((rings) => polygonContains(rings, x, y));
}
