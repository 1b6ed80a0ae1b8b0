// Shortbread land use, land cover and buildings from OSM areas: layers land, sites, buildings.
import { areaGeometry, type AreaElement } from '../osm/element.js';
import { nameProperties, type Emit } from './rule-helpers.js';
import type { Tags } from '../osm/tags.js';

interface KindRule {
  kind: string;
  minzoom: number;
}

/** Builds a `key=value` → rule table from rows of [key, value, kind, minzoom]. */
function tagTable(rows: [string, string, string, number][]): Map<string, KindRule> {
  return new Map(rows.map(([key, value, kind, minzoom]) => [`${key}=${value}`, { kind, minzoom }]));
}

/** First rule matching one of `keys` (in that order of precedence). */
function match(table: Map<string, KindRule>, keys: readonly string[], tags: Tags): KindRule | undefined {
  for (const key of keys) {
    const value = tags[key];
    if (value === undefined) continue;
    const rule = table.get(`${key}=${value}`);
    if (rule !== undefined) return rule;
  }
  return undefined;
}

const LAND_KEYS = ['landuse', 'natural', 'wetland', 'amenity', 'leisure'] as const;
const LAND = tagTable([
  ['landuse', 'forest', 'forest', 7],
  ['natural', 'wood', 'forest', 7],
  ['landuse', 'grass', 'grass', 11],
  ['landuse', 'meadow', 'meadow', 11],
  ['landuse', 'orchard', 'orchard', 11],
  ['landuse', 'vineyard', 'vineyard', 11],
  ['landuse', 'allotments', 'allotments', 11],
  ['landuse', 'cemetery', 'cemetery', 13],
  ['amenity', 'grave_yard', 'grave_yard', 13],
  ['landuse', 'village_green', 'village_green', 11],
  ['landuse', 'recreation_ground', 'recreation_ground', 11],
  ['landuse', 'greenhouse_horticulture', 'greenhouse_horticulture', 11],
  ['landuse', 'plant_nursery', 'plant_nursery', 11],
  ['natural', 'sand', 'sand', 10],
  ['natural', 'beach', 'beach', 10],
  ['natural', 'heath', 'heath', 11],
  ['natural', 'scrub', 'scrub', 11],
  ['natural', 'grassland', 'grassland', 11],
  ['natural', 'bare_rock', 'bare_rock', 11],
  ['natural', 'scree', 'scree', 11],
  ['natural', 'shingle', 'shingle', 11],
  ['wetland', 'swamp', 'swamp', 11],
  ['wetland', 'bog', 'bog', 11],
  ['wetland', 'string_bog', 'string_bog', 11],
  ['wetland', 'wet_meadow', 'wet_meadow', 11],
  ['wetland', 'marsh', 'marsh', 11],
  ['leisure', 'golf_course', 'golf_course', 11],
  ['leisure', 'park', 'park', 11],
  ['leisure', 'garden', 'garden', 11],
  ['leisure', 'playground', 'playground', 11],
  ['leisure', 'miniature_golf', 'miniature_golf', 11],
  ['landuse', 'residential', 'residential', 10],
  ['landuse', 'industrial', 'industrial', 10],
  ['landuse', 'commercial', 'commercial', 10],
  ['landuse', 'garages', 'garages', 10],
  ['landuse', 'retail', 'retail', 10],
  ['landuse', 'railway', 'railway', 10],
  ['landuse', 'landfill', 'landfill', 10],
  ['landuse', 'quarry', 'quarry', 11],
  ['landuse', 'brownfield', 'brownfield', 10],
  ['landuse', 'greenfield', 'greenfield', 10],
  ['landuse', 'farmyard', 'farmyard', 10],
  ['landuse', 'farmland', 'farmland', 10],
]);

const SITE_KEYS = ['amenity', 'leisure', 'landuse', 'military'] as const;
const SITES = tagTable([
  ['military', 'danger_area', 'danger_area', 14],
  ['leisure', 'sports_centre', 'sports_centre', 14],
  ['amenity', 'university', 'university', 14],
  ['amenity', 'college', 'college', 14],
  ['amenity', 'school', 'school', 14],
  ['amenity', 'hospital', 'hospital', 14],
  ['amenity', 'prison', 'prison', 14],
  ['amenity', 'parking', 'parking', 14],
  ['amenity', 'bicycle_parking', 'bicycle_parking', 14],
  ['landuse', 'construction', 'construction', 14],
]);

const BUILDINGS_MINZOOM = 14;

export function landAreas(el: AreaElement, emit: Emit): void {
  const t = el.tags;
  const land = match(LAND, LAND_KEYS, t);
  if (land !== undefined) emit('land', land.minzoom, areaGeometry(el.polygons), { kind: land.kind });
  const site = match(SITES, SITE_KEYS, t);
  if (site !== undefined) emit('sites', site.minzoom, areaGeometry(el.polygons), nameProperties(t, { kind: site.kind }));
  if (t.building !== undefined && t.building !== 'no') emit('buildings', BUILDINGS_MINZOOM, areaGeometry(el.polygons), {});
}
