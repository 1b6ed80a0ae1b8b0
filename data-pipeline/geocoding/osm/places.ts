/**
 * The non-admin records of an OSM file, streamed: venues, addresses, place nodes (localities and
 * neighbourhoods), and streets, merged from their ways and given after the last object (the one
 * part held in memory, bounded by the number of named streets). Hierarchy not filled: the caller
 * runs `AdminLookup.withHierarchy`.
 */
import type { ProgressReporter } from '../../features.js';
import { readOsmElements } from '../../osm/osmium.js';
import { lineIsArea, type OsmElement } from '../../shortbread/element.js';
import { isValidPosition, placeGid, type PlaceLayer, type PlaceRecord } from '../../../core/geocoding/place-record.js';
import { bboxOf, labelPoint, outerRingPositions } from './geometry.js';
import { StreetMerger, type MergedStreet } from './streets.js';
import { addressOf, isStreet, isVenue, namesByLanguage, PLACE_KEYS, placeNodeLayer, populationOf } from './tags.js';

export interface OsmPlaceCounts {
  /** Objects osmium exported (any of the keys read), closed ways once as a line and once as an area. */
  objects: number;
  venues: number;
  addresses: number;
  places: number;
  streetWays: number;
  /** Street records, after merging `streetWays`. */
  streets: number;
  /** `addr:housenumber` with neither `addr:street` nor `addr:place`. */
  skippedAddressWithoutStreet: number;
  skippedInvalidPosition: number;
}

export function emptyOsmPlaceCounts(): OsmPlaceCounts {
  return { objects: 0, venues: 0, addresses: 0, places: 0, streetWays: 0, streets: 0, skippedAddressWithoutStreet: 0, skippedInvalidPosition: 0 };
}

/** Venues, addresses, place nodes and merged streets of an OSM file; `counts` is updated as objects are read. */
export async function* readOsmPlaces(file: string, onProgress: ProgressReporter, counts: OsmPlaceCounts = emptyOsmPlaceCounts()): AsyncGenerator<PlaceRecord> {
  const streets = new StreetMerger();
  for await (const el of readOsmElements(file, PLACE_KEYS, onProgress)) {
    counts.objects++;
    if (el.shape === 'line' && isStreet(el.tags)) {
      streets.add(el.id, el.tags, el.line);
      counts.streetWays++;
      continue;
    }
    // A closed way arrives as a line and as an area: venues and addresses take the area.
    if (el.shape === 'line' && lineIsArea(el)) continue;
    const layer = recordLayer(el, counts);
    if (!layer) continue;
    const record = elementRecord(el, layer);
    if (!isValidPosition(record.lon, record.lat)) {
      counts.skippedInvalidPosition++;
      continue;
    }
    counts[layer === 'venue' ? 'venues' : layer === 'address' ? 'addresses' : 'places']++;
    yield record;
  }
  for (const street of streets.streets()) {
    counts.streets++;
    yield streetRecord(street);
  }
}

/**
 * A place node, else a venue, else an address. A venue with an address is one venue record
 * carrying the address, not also an address record (Pelias gives both: two results for one door).
 */
function recordLayer(el: OsmElement, counts: OsmPlaceCounts): PlaceLayer | undefined {
  const placeLayer = el.shape === 'point' ? placeNodeLayer(el.tags) : undefined;
  if (placeLayer) return placeLayer;
  if (isVenue(el.tags)) return 'venue';
  const { housenumber, street } = addressOf(el.tags);
  if (!housenumber) return undefined;
  if (street) return 'address';
  counts.skippedAddressWithoutStreet++;
  return undefined;
}

function elementRecord(el: OsmElement, layer: PlaceLayer): PlaceRecord {
  const sourceId = `${el.type}/${el.id}`;
  const [lon, lat] = labelPoint(el) as [number, number];
  const address = addressOf(el.tags);
  const common = { source: 'openstreetmap' as const, layer, source_id: sourceId, gid: placeGid('openstreetmap', layer, sourceId), lon, lat };
  if (layer === 'address') return { ...common, name: `${address.housenumber} ${address.street}`, names: {}, ...address };
  const population = layer === 'venue' ? undefined : populationOf(el.tags);
  return {
    ...common,
    name: el.tags.name!,
    names: namesByLanguage(el.tags),
    ...(layer === 'venue' ? address : {}),
    ...(el.shape === 'area' ? { bbox: bboxOf(outerRingPositions(el.polygons)) } : {}),
    ...(population ? { population } : {}),
  };
}

function streetRecord(street: MergedStreet): PlaceRecord {
  const sourceId = `way/${street.wayId}`;
  return {
    source: 'openstreetmap', layer: 'street', source_id: sourceId, gid: placeGid('openstreetmap', 'street', sourceId),
    name: street.name, names: street.names, lon: street.point[0]!, lat: street.point[1]!, bbox: street.bbox,
  };
}
