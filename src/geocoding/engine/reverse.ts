/**
 * Reverse geocoding: the addresses whose buildings hold the point, then the places nearest it
 * (venues, addresses, streets and any other point of the layers asked for, searched in growing
 * boxes around it), nearest first, then the admin areas whose polygons enclose the point,
 * smallest first. Distances in km to each place's point.
 */
import { ADMIN_LAYERS } from '../../../core/geocoding/place-record.js';
import { toFeature, type GeocodeFeature } from '../response/feature.js';
import type { GeocodeRecord } from '../../../core/geocoding/indexed-record.js';
import type { ReverseParams } from '../sanitize/endpoints.js';
import type { Filters, GeocoderIndex, PlaceRow, PointRow } from './index-file.js';
import { QUERY_SIZE_PADDING } from '../response/query-echo.js';
import { kilometresBetween } from '../../../core/geo/distance.js';
import { ringContains } from '../../../core/geo/rings.js';
import { accuracyOf, filtersOf, passesGidAndCategories, recordOf, withoutDuplicates } from './places.js';
import { KM_PER_DEGREE } from './boundary.js';

/** Half-sides of the boxes searched, in km, until enough places are found. */
const SEARCH_RADII_KM = [0.25, 1, 5];

/** Pelias' confidence of a reverse result: by distance from the point. */
function confidenceAt(km: number): number {
  if (km < 0.001) return 1;
  if (km < 0.01) return 0.9;
  if (km < 0.1) return 0.8;
  if (km < 0.25) return 0.7;
  if (km < 1) return 0.6;
  return 0.5;
}

interface Found {
  row: PlaceRow;
  record: GeocodeRecord;
  km: number;
}

function nearest(index: GeocoderIndex, lon: number, lat: number, filters: Filters, size: number, radii: readonly number[]): Found[] {
  let near: { point: PointRow; km: number }[] = [];
  for (const radius of radii) {
    const dLat = radius / KM_PER_DEGREE;
    const dLon = dLat / Math.max(0.01, Math.cos((lat * Math.PI) / 180));
    near = index
      .within({ west: lon - dLon, east: lon + dLon, south: lat - dLat, north: lat + dLat }, filters)
      .map((point) => ({ point, km: kilometresBetween(lon, lat, point.lon, point.lat) }))
      .filter((place) => place.km <= radius);
    if (near.length >= size) break;
  }
  // Room for duplicates among the nearest; only these records are read.
  return near
    .sort((a, b) => a.km - b.km)
    .slice(0, size * QUERY_SIZE_PADDING)
    .map(({ point, km }) => {
      const row = index.placeById(point.id);
      return { row, record: recordOf(row), km };
    });
}

/**
 * The addresses whose outlines (their buildings) hold the point: a point inside a building is
 * at that building's address, even when a venue's or another door's point is nearer.
 */
function insideOutlines(index: GeocoderIndex, lon: number, lat: number, filters: Filters): Found[] {
  // Even-odd over the rings of each address: a point in a courtyard lies in two of them.
  const crossings = new Map<number, number>();
  for (const { id, ring } of index.outlineRingsAt(lon, lat, filters))
    if (ringContains(ring, lon, lat)) crossings.set(id, (crossings.get(id) ?? 0) + 1);
  return [...crossings]
    .filter(([, rings]) => rings % 2 === 1)
    .map(([id]) => {
      const row = index.placeById(id);
      return { row, record: recordOf(row), km: kilometresBetween(lon, lat, row.lon, row.lat) };
    })
    .sort((a, b) => a.km - b.km);
}

/** The imported admin places whose polygons enclose the point, smallest layer first. */
function enclosing(index: GeocoderIndex, lon: number, lat: number, params: ReverseParams, filters: Filters): Found[] {
  const areas = index.admins.enclosing(lon, lat);
  const found: Found[] = [];
  for (const layer of [...ADMIN_LAYERS].reverse()) {
    const area = areas[layer];
    if (area === undefined || !params.layers.includes(layer)) continue;
    const row = index.place(area.gid);
    if (row === undefined) continue;
    const record = recordOf(row);
    if (!params.sources.includes(record.source)) continue;
    if (params.boundaryCountry && record.country_a !== params.boundaryCountry.alpha3) continue;
    if (!passesGidAndCategories(row.gid, record, filters)) continue;
    found.push({ row, record, km: kilometresBetween(lon, lat, row.lon, row.lat) });
  }
  return found;
}

export function reverse(index: GeocoderIndex, params: ReverseParams): GeocodeFeature[] {
  const { lon, lat } = params.point;
  const filters = filtersOf(params);
  const areas = enclosing(index, lon, lat, params, filters);
  const buildings = insideOutlines(index, lon, lat, filters);
  const answered = new Set([...buildings, ...areas].map((place) => place.row.gid));
  // `boundary.circle.radius` bounds the search for points; the enclosing areas hold the point whatever it is.
  const radii = params.radius === undefined ? SEARCH_RADII_KM : [params.radius];
  const points = nearest(index, lon, lat, filters, params.size, radii).filter((place) => !answered.has(place.row.gid));
  return withoutDuplicates([...buildings, ...points, ...areas], params.size).map(({ kept: place }) =>
    toFeature(place.record, {
      confidence: confidenceAt(place.km),
      match_type: 'exact',
      accuracy: accuracyOf(place.row.layer),
      distanceKm: place.km,
      lang: params.lang,
      withCategories: params.categories !== undefined,
    }),
  );
}
