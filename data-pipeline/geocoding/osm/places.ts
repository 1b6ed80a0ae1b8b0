/**
 * The non-admin records of an OSM file: venues, addresses, place nodes (localities and
 * neighbourhoods), and streets, merged from their ways after the last object.
 */
import { lineIsArea, type OsmElement } from '../../osm/element.js';
import { isValidPosition, placeGid, type PlaceLayer, type PlaceRecord } from '../../../core/geocoding/place-record.js';
import { bboxOf, labelPoint, outerRingPositions } from './geometry.js';
import type { OsmSpill } from './spill.js';
import { mergeStreetWays, streetWay, type MergedStreet } from './streets.js';
import {
  addressOf,
  interpolationStep,
  isStreet,
  namesByLanguage,
  placeNodeLayer,
  populationOf,
  venueKind,
  type VenueKind,
} from './tags.js';
import { addressRange } from './interpolation.js';
import { categoriesOf } from '../../../core/geocoding/categories.js';
import type { AddressRange } from '../../../core/geocoding/street-lines.js';
import type { LonLat } from '../../../core/geo/types.js';

export interface OsmPlaceCounts {
  /** Objects osmium exported (any of the keys read), closed ways once as a line and once as an area. */
  objects: number;
  venues: number;
  /** Of `venues`, the minor ones: named buildings, land use, natural features, squares (no amenity, shop, tourism…). */
  minorVenues: number;
  addresses: number;
  places: number;
  streetWays: number;
  /** `addr:interpolation` ways read, and those whose end nodes gave a range of numbers. */
  interpolationWays: number;
  addressRanges: number;
  /** Street records, after merging `streetWays`. */
  streets: number;
  /** `addr:housenumber` with neither `addr:street` nor `addr:place`. */
  skippedAddressWithoutStreet: number;
  skippedInvalidPosition: number;
}

export function emptyOsmPlaceCounts(): OsmPlaceCounts {
  return {
    objects: 0,
    venues: 0,
    minorVenues: 0,
    addresses: 0,
    places: 0,
    streetWays: 0,
    interpolationWays: 0,
    addressRanges: 0,
    streets: 0,
    skippedAddressWithoutStreet: 0,
    skippedInvalidPosition: 0,
  };
}

/**
 * Collects the places of one OSM file as its objects are read: each record, and each street way,
 * goes to the spill file; `records()` gives them back once the file is read, then the merged
 * streets. `counts` is updated as objects are added and streets merged.
 */
export class OsmPlaces {
  readonly counts = emptyOsmPlaceCounts();

  constructor(private readonly spill: OsmSpill) {}

  add(el: OsmElement): void {
    const { counts } = this;
    counts.objects++;
    if (el.shape === 'line' && isStreet(el.tags)) {
      this.spill.addStreetWay(streetWay(el.id, el.tags, el.line));
      this.spill.addStreetLine(el.tags.name!, el.line);
      counts.streetWays++;
      return;
    }
    const step = el.shape === 'line' ? interpolationStep(el.tags) : undefined;
    if (el.shape === 'line' && step !== undefined) {
      const street = el.tags['addr:street']?.trim();
      this.spill.addInterpolationLine({ ...(street ? { street } : {}), step, line: el.line as LonLat[] });
      counts.interpolationWays++;
      return;
    }
    // A closed way arrives as a line and as an area: venues and addresses take the area.
    if (el.shape === 'line' && lineIsArea(el)) return;
    const kind = venueKind(el.tags);
    for (const layer of recordLayers(el, kind, counts)) {
      const record = elementRecord(el, layer, kind);
      if (!isValidPosition(record.lon, record.lat)) {
        counts.skippedInvalidPosition++;
        return;
      }
      counts[layer === 'venue' ? 'venues' : layer === 'address' ? 'addresses' : 'places']++;
      if (record.minor_venue) counts.minorVenues++;
      this.spill.addPlace(record);
      if (layer === 'address' && el.shape === 'point')
        this.spill.addAddressPoint(record.lon, record.lat, { housenumber: record.housenumber!, street: record.street! });
    }
  }

  /** The records in the order their objects came, then the streets. Hierarchy not filled: the caller runs `AdminLookup.withHierarchy`. */
  *records(): Iterable<PlaceRecord> {
    yield* this.spill.places();
    for (const street of mergeStreetWays(this.spill.streetWays())) {
      this.counts.streets++;
      yield streetRecord(street);
    }
  }

  /** The named street ways' lines (interpolation projects house numbers onto them). */
  streetLines(): Iterable<{ name: string; line: LonLat[] }> {
    return this.spill.streetLines();
  }

  /** The ranges of house numbers of the interpolation ways whose end nodes are numbered addresses of one street. */
  *addressRanges(): Iterable<AddressRange> {
    for (const line of this.spill.interpolationLines()) {
      const range = addressRange(line, (position) => this.spill.addressAt(position));
      if (range === undefined) continue;
      this.counts.addressRanges++;
      yield range;
    }
  }
}

/**
 * A place node, else a venue, and an address of any element that has one: a venue with an address
 * gives two records, the venue (carrying the address fields) and the address, as Pelias does. A
 * minor venue that is a line is none: a named river, ridge or pier comes in many ways, and each
 * piece would be a venue of its own.
 */
function recordLayers(el: OsmElement, kind: VenueKind | undefined, counts: OsmPlaceCounts): PlaceLayer[] {
  const placeLayer = el.shape === 'point' ? placeNodeLayer(el.tags) : undefined;
  if (placeLayer) return [placeLayer];
  const layers: PlaceLayer[] = kind === 'poi' || (kind === 'minor' && el.shape !== 'line') ? ['venue'] : [];
  const { housenumber, street } = addressOf(el.tags);
  if (housenumber && street) layers.push('address');
  else if (housenumber) counts.skippedAddressWithoutStreet++;
  return layers;
}

function elementRecord(el: OsmElement, layer: PlaceLayer, kind: VenueKind | undefined): PlaceRecord {
  const sourceId = `${el.type}/${el.id}`;
  const [lon, lat] = labelPoint(el) as LonLat;
  const address = addressOf(el.tags);
  const common = {
    source: 'openstreetmap' as const,
    layer,
    source_id: sourceId,
    gid: placeGid('openstreetmap', layer, sourceId),
    lon,
    lat,
  };
  if (layer === 'address') {
    const outline = el.shape === 'area' ? { outline: el.polygons.flat() } : {};
    return { ...common, name: `${address.housenumber} ${address.street}`, names: {}, ...address, ...outline };
  }
  const population = layer === 'venue' ? undefined : populationOf(el.tags);
  const category = layer === 'venue' ? categoriesOf(el.tags) : undefined;
  return {
    ...common,
    name: el.tags.name!,
    names: namesByLanguage(el.tags),
    ...(layer === 'venue' ? address : {}),
    ...(el.shape === 'area' ? { bbox: bboxOf(outerRingPositions(el.polygons)) } : {}),
    ...(population ? { population } : {}),
    ...(category ? { category } : {}),
    ...(layer === 'venue' && kind === 'minor' ? { minor_venue: true } : {}),
  };
}

function streetRecord(street: MergedStreet): PlaceRecord {
  const sourceId = `way/${street.wayId}`;
  return {
    source: 'openstreetmap',
    layer: 'street',
    source_id: sourceId,
    gid: placeGid('openstreetmap', 'street', sourceId),
    name: street.name,
    names: street.names,
    lon: street.point[0]!,
    lat: street.point[1]!,
    bbox: street.bbox,
  };
}
