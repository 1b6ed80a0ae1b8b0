/**
 * OSM admin areas: `boundary=administrative` areas by `admin_level` (mapped per country, see
 * admin-levels.ts) and `place=city|town|village|hamlet|suburb|quarter|neighbourhood` areas, as
 * admin records and polygons for the `AdminLookup`. All candidate areas are collected until the
 * end of the file: an area's country (and so the meaning of its level) is known only once the
 * country polygons have been read. A candidate is held as its tags, point and box; its polygons
 * wait in the spill file until needed.
 */
import type { MultiPolygon } from 'geojson';
import type { OsmElement } from '../../osm/element.js';
import type { PolygonRings } from '../../../core/geo/rings.js';
import { polygonContains } from '../../../core/geo/rings.js';
import type { AdminPolygon } from '../../../core/geocoding/admin-lookup.js';
import { countryByCode, type Country } from '../../../core/geocoding/countries.js';
import { isValidPosition, placeGid, type AdminLayer, type PlaceRecord } from '../../../core/geocoding/place-record.js';
import { adminLevelsOf, MUNICIPALITY_LEVEL } from './admin-levels.js';
import { bboxContains, bboxOf, labelPoint, outerRingPositions } from './geometry.js';
import type { OsmSpill } from './spill.js';
import { ADMIN_LAYER_OF_PLACE_AREA, namesByLanguage, populationOf } from './tags.js';
import type { BBox, LonLat } from '../../../core/geo/types.js';
import type { Tags } from '../../osm/tags.js';

export interface OsmAdminCounts {
  /** Candidate areas (admin boundaries and place areas) read, and the ones skipped. */
  areas: number;
  records: number;
  skippedNoName: number;
  skippedOtherLevel: number;
}

export interface OsmAdminImport {
  records: PlaceRecord[];
  /** The polygons of the records, in the same order, read back from the spill file one at a time. */
  polygons(): Iterable<AdminPolygon>;
  counts: OsmAdminCounts;
}

export interface OsmAdminOptions {
  /**
   * ISO 3166-1 alpha-2 of the areas outside every country polygon of the file whose country
   * nothing else tells: extracts often cut the country's own boundary (then its level table
   * cannot be found by position).
   */
  country?: string;
  /**
   * ISO 3166-1 alpha-2 of a place of this name near this point (GeoNames), for areas outside
   * every country polygon: an extract's edge crosses borders (Monaco's holds French communes).
   */
  countryOfPlace?: (lon: number, lat: number, name: string) => string | undefined;
}

interface Candidate {
  type: 'way' | 'relation';
  id: number;
  tags: Tags;
  level: number | undefined;
  point: LonLat;
  bbox: BBox;
  /** Where the spill file keeps its polygons. */
  polygons: number;
}

export class OsmAdminAreas {
  private readonly candidates: Candidate[] = [];
  /** Areas read so far; `resolve` adds the records and the skipped levels. */
  private readonly counts: OsmAdminCounts = { areas: 0, records: 0, skippedNoName: 0, skippedOtherLevel: 0 };

  constructor(private readonly spill: OsmSpill) {}

  /** Keeps the element if it is a candidate admin area. */
  add(el: OsmElement): void {
    // A closed way also arrives as a line: its area is the one wanted.
    if (el.shape !== 'area') return;
    const level = adminLevel(el.tags);
    if (level === undefined && !ADMIN_LAYER_OF_PLACE_AREA[el.tags.place ?? '']) return;
    this.counts.areas++;
    if (!el.tags.name) {
      this.counts.skippedNoName++;
      return;
    }
    const [lon, lat] = labelPoint(el) as LonLat;
    if (!isValidPosition(lon, lat)) return;
    const bbox = bboxOf(outerRingPositions(el.polygons));
    this.candidates.push({
      type: el.type,
      id: el.id,
      tags: el.tags,
      level,
      point: [lon, lat],
      bbox,
      polygons: this.spill.addPolygons(el.polygons),
    });
  }

  /** The admin records and polygons, once every object of the file was added; hierarchy not filled (`AdminLookup.withHierarchy`). */
  resolve(options: OsmAdminOptions = {}): OsmAdminImport {
    const { candidates, spill } = this;
    const counts = { ...this.counts };
    const countryPolygons = new Map<Candidate, PolygonRings[]>();
    for (const c of candidates) if (c.level === 2 && countryTagged(c) !== undefined) countryPolygons.set(c, spill.polygons(c.polygons));
    const defaultCountry = countryByCode(options.country);
    // Outside the country polygons: a place of the area's name nearby, else the smallest area
    // around it that such a place names (a quartier is in its commune's country), else the default.
    const countryByName = new Map<Candidate, Country | undefined>();
    for (const c of candidates) {
      const tagged = countryTagged(c);
      const inPolygon = tagged ? undefined : [...countryPolygons].find(([country, polygons]) => containsPoint(country, polygons, c.point));
      const named =
        tagged ?? (inPolygon ? countryTagged(inPolygon[0]) : countryByCode(options.countryOfPlace?.(c.point[0], c.point[1], c.tags.name!)));
      countryByName.set(c, named);
    }
    const countryOf = (c: Candidate): Country | undefined => {
      const own = countryByName.get(c);
      if (own) return own;
      const around = candidates
        .filter((other) => other !== c && countryByName.get(other) && bboxContains(other.bbox, c.point[0], c.point[1]))
        .sort((a, b) => bboxArea(a.bbox) - bboxArea(b.bbox))
        .find((other) => containsPoint(other, spill.polygons(other.polygons), c.point));
      return around ? countryByName.get(around) : defaultCountry;
    };
    const municipalityPoints = candidates.filter((c) => c.level === MUNICIPALITY_LEVEL).map((c) => c.point);

    const kept: { candidate: Candidate; layer: AdminLayer; country: Country | undefined }[] = [];
    for (const candidate of candidates) {
      const country = countryOf(candidate);
      const layer = this.layerOf(candidate, country, municipalityPoints);
      if (!layer) {
        counts.skippedOtherLevel++;
        continue;
      }
      kept.push({ candidate, layer, country });
      counts.records++;
    }
    return {
      records: kept.map(({ candidate, layer, country }) => adminRecord(candidate, layer, country)),
      polygons: function* () {
        for (const { candidate, layer, country } of kept) yield adminPolygon(candidate, layer, country, spill.polygons(candidate.polygons));
      },
      counts,
    };
  }

  /**
   * The layer by the country's level table; a district with no municipality inside is the city it
   * is (where the table says so); else the `place` tag's layer.
   */
  private layerOf(c: Candidate, country: Country | undefined, municipalityPoints: LonLat[]): AdminLayer | undefined {
    if (c.level !== undefined) {
      const levels = adminLevelsOf(country?.alpha2);
      const layer = levels.layers[c.level];
      if (layer) return layer;
      if (c.level === levels.cityDistrictLevel) {
        const inBox = municipalityPoints.filter(([x, y]) => bboxContains(c.bbox, x, y));
        const polygons = inBox.length > 0 ? this.spill.polygons(c.polygons) : [];
        if (!inBox.some((point) => containsPoint(c, polygons, point))) return 'locality';
      }
    }
    return ADMIN_LAYER_OF_PLACE_AREA[c.tags.place ?? ''];
  }
}

function adminRecord(c: Candidate, layer: AdminLayer, country: Country | undefined): PlaceRecord {
  const { tags, point, bbox } = c;
  const sourceId = `${c.type}/${c.id}`;
  const population = populationOf(tags);
  return {
    source: 'openstreetmap',
    layer,
    source_id: sourceId,
    gid: placeGid('openstreetmap', layer, sourceId),
    name: tags.name!,
    names: namesByLanguage(tags),
    lon: point[0],
    lat: point[1],
    bbox,
    ...(population ? { population } : {}),
    ...(country ? { country_a: country.alpha3 } : {}),
    ...(layer === 'region' && regionCode(tags) ? { region_a: regionCode(tags) } : {}),
  };
}

function adminPolygon(c: Candidate, layer: AdminLayer, country: Country | undefined, polygons: PolygonRings[]): AdminPolygon {
  const geometry: MultiPolygon = { type: 'MultiPolygon', coordinates: polygons };
  return {
    layer,
    name: c.tags.name!,
    gid: placeGid('openstreetmap', layer, `${c.type}/${c.id}`),
    geometry,
    ...(country ? { country_a: country.alpha3 } : {}),
    ...(layer === 'region' && regionCode(c.tags) ? { abbreviation: regionCode(c.tags) } : {}),
  };
}

/** A region's short code for labels: its ISO 3166-2 code without the country (`US-MD` → `MD`, `DE-BW` → `BW`). */
function regionCode(tags: Tags): string | undefined {
  return /^[A-Z]{2}-([A-Z0-9]{1,3})$/.exec(tags['ISO3166-2'] ?? '')?.[1];
}

function adminLevel(tags: Tags): number | undefined {
  return tags.boundary === 'administrative' && /^\d{1,2}$/.test(tags.admin_level ?? '') ? Number(tags.admin_level) : undefined;
}

/** The country a level-2 area names with its ISO 3166-1 tag. */
function countryTagged(c: Candidate): Country | undefined {
  if (c.level !== 2) return undefined;
  return countryByCode(c.tags['ISO3166-1:alpha2'] ?? c.tags['ISO3166-1']);
}

function bboxArea([west, south, east, north]: BBox): number {
  return (east - west) * (north - south);
}

function containsPoint(c: Candidate, polygons: PolygonRings[], [x, y]: LonLat): boolean {
  return bboxContains(c.bbox, x, y) && polygons.some((rings) => polygonContains(rings, x, y));
}
