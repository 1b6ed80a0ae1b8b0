/**
 * The OSM tags the geocoding importer reads, and what they make: a venue, an address, a place
 * node, a street segment. Rules only, no geometry: checkable against the OSM wiki and Pelias'
 * openstreetmap importer (`config/features.js`).
 */
import type { ExportSelection } from '../../osm/osmium.js';
import type { PlaceLayer } from '../../../core/geocoding/place-record.js';
import { countryByCode } from '../../../core/geocoding/countries.js';
import type { Tags } from '../../osm/tags.js';

/**
 * Keys whose any value makes a named object a venue, a point of interest (Pelias' `<key>+name`
 * list; `cuisine` is left out: it repeats `amenity`).
 */
const VENUE_KEYS = ['amenity', 'shop', 'tourism', 'leisure', 'office', 'craft', 'historic', 'healthcare', 'sport'] as const;

/** Keys where only some values make a venue: stations and airports, not tracks, stops or runways. */
const VENUE_VALUES: Readonly<Record<string, ReadonlySet<string>>> = {
  railway: new Set(['station', 'halt']),
  public_transport: new Set(['station']),
  aeroway: new Set(['aerodrome']),
};

/**
 * The rest of Pelias' `<key>+name` list: keys that name a building, a piece of land, a natural or
 * man-made feature rather than a point of interest. A named object with one of them and no key
 * above is a minor venue, ranked below points of interest of its name.
 */
const MINOR_VENUE_KEYS = ['building', 'landuse', 'natural', 'man_made', 'military', 'waterway', 'aerialway'] as const;

/** Pelias' `place~square+name` and `highway~pedestrian+area~yes+name`: squares are minor venues too. */
function isSquare(tags: Tags): boolean {
  return tags.place === 'square' || (tags.highway === 'pedestrian' && tags.area === 'yes');
}

/** `place` values of nodes and the layer each becomes. */
const LAYER_OF_PLACE_NODE: Readonly<Record<string, PlaceLayer>> = {
  city: 'locality',
  town: 'locality',
  village: 'locality',
  hamlet: 'locality',
  locality: 'locality',
  isolated_dwelling: 'locality',
  suburb: 'neighbourhood',
  quarter: 'neighbourhood',
  neighbourhood: 'neighbourhood',
};

/**
 * `place` values of areas that are admin areas (a `place=locality` or `isolated_dwelling` area is
 * a named spot, too small to enclose anything).
 */
export const ADMIN_LAYER_OF_PLACE_AREA: Readonly<Record<string, 'locality' | 'neighbourhood'>> = {
  city: 'locality',
  town: 'locality',
  village: 'locality',
  hamlet: 'locality',
  suburb: 'neighbourhood',
  quarter: 'neighbourhood',
  neighbourhood: 'neighbourhood',
};

/**
 * `highway` values of streets: every road and named path people give as a street; not ramps
 * (`*_link`, named after the road they join), nor platforms, proposed or unbuilt roads.
 */
const STREET_HIGHWAYS = new Set([
  'motorway',
  'trunk',
  'primary',
  'secondary',
  'tertiary',
  'unclassified',
  'residential',
  'living_street',
  'pedestrian',
  'road',
  'service',
  'track',
  'busway',
  'footway',
  'path',
  'cycleway',
  'bridleway',
  'steps',
]);

const NAME_KEYS = ['name', 'name:*'];
const ADDRESS_KEYS = ['addr:housenumber', 'addr:street', 'addr:place', 'addr:postcode', 'addr:city', 'addr:country', 'addr:interpolation'];

/** The keys the places (venues, addresses, place nodes, streets) are read from; `cuisine` for the categories of eateries. */
const PLACE_KEYS = [
  ...NAME_KEYS,
  ...ADDRESS_KEYS,
  ...VENUE_KEYS,
  ...Object.keys(VENUE_VALUES),
  ...MINOR_VENUE_KEYS,
  'highway',
  'place',
  'population',
  'area',
  'cuisine',
];

/** The keys the admin areas are read from. */
const ADMIN_KEYS = [...NAME_KEYS, 'boundary', 'admin_level', 'place', 'population', 'ISO3166-1', 'ISO3166-1:alpha2', 'ISO3166-2'];

/**
 * The keys `osmium export` keeps for the geocoder's one pass over a file: both sets. Each side's
 * rules read only their own keys, so an object exported for the other side is skipped as before.
 */
const GEOCODING_KEYS: readonly string[] = [...new Set([...PLACE_KEYS, ...ADMIN_KEYS])];

/**
 * What the geocoder reads from `osmium export`. A closed way is used as a line only when it is a
 * street, an address interpolation or marked `area=no` (else its area is used), so only those
 * come as lines as well.
 */
export const GEOCODING_EXPORT: ExportSelection = { keys: GEOCODING_KEYS, linearTags: ['highway', 'addr:interpolation', 'area=no'] };

/**
 * What a line of the export must hold to be parsed: every rule reads a named object, an address
 * or an admin area (counted when unnamed). The export has every building, land use… for the
 * named few; the unnamed ones are skipped before JSON parsing (in Monaco 23,000 buildings, 133 named).
 */
export const GEOCODING_LINE_MARKERS: readonly Buffer[] = ['"name', '"addr:', '"boundary"', '"place"'].map((marker) => Buffer.from(marker));

/** `name:xx` with an ISO 639-1 code only: not `name:be-tarask`, `name:zh_pinyin`, `name:bat-smg`. */
const LANGUAGE_NAME = /^name:([a-z]{2})$/;

/** What a named object is as a venue: a point of interest, a minor venue (a named building, land use, natural feature, square), or none. */
export type VenueKind = 'poi' | 'minor';

export function venueKind(tags: Tags): VenueKind | undefined {
  if (!tags.name) return undefined;
  for (const key of VENUE_KEYS) if (tags[key] !== undefined && tags[key] !== 'no') return 'poi';
  for (const key in VENUE_VALUES) if (VENUE_VALUES[key]!.has(tags[key] ?? '')) return 'poi';
  for (const key of MINOR_VENUE_KEYS) if (tags[key] !== undefined && tags[key] !== 'no') return 'minor';
  return isSquare(tags) ? 'minor' : undefined;
}

export function placeNodeLayer(tags: Tags): PlaceLayer | undefined {
  return tags.name ? LAYER_OF_PLACE_NODE[tags.place ?? ''] : undefined;
}

export function isStreet(tags: Tags): boolean {
  return Boolean(tags.name) && STREET_HIGHWAYS.has(tags.highway ?? '') && tags.area !== 'yes';
}

export interface OsmAddress {
  housenumber?: string;
  street?: string;
  postalcode?: string;
  /**
   * The names the element gives the places around it: `addr:city`, and `addr:place` beside an
   * `addr:street` (a hamlet or quarter). They often differ from what the admin polygons say.
   */
  admin_names?: string[];
  /** `addr:country` as ISO alpha-3: polygons of another country do not place the element (hierarchy.ts). */
  country_a?: string;
}

/** Housenumber, street (`addr:street`, else `addr:place`, as Pelias does), postcode and the element's own admin names, when present. */
export function addressOf(tags: Tags): OsmAddress {
  const value = (key: string) => tags[key]?.trim() || undefined;
  const housenumber = value('addr:housenumber');
  const street = value('addr:street') ?? value('addr:place');
  const postalcode = value('addr:postcode');
  const country = countryByCode(value('addr:country'));
  const adminNames = [value('addr:city'), value('addr:street') === undefined ? undefined : value('addr:place')].filter(
    (name) => name !== undefined,
  );
  return {
    ...(housenumber ? { housenumber } : {}),
    ...(street ? { street } : {}),
    ...(postalcode ? { postalcode } : {}),
    ...(adminNames.length > 0 ? { admin_names: adminNames } : {}),
    ...(country ? { country_a: country.alpha3 } : {}),
  };
}

/**
 * The step between the house numbers along an `addr:interpolation` way: `odd` and `even` 2, `all`
 * 1, a number itself; undefined for `alphabetic` (12a, 12b…) and anything else.
 */
export function interpolationStep(tags: Tags): number | undefined {
  const value = tags['addr:interpolation'];
  if (value === 'odd' || value === 'even') return 2;
  if (value === 'all') return 1;
  return value !== undefined && /^[1-9]\d{0,2}$/.test(value) ? Number(value) : undefined;
}

export function namesByLanguage(tags: Tags): Record<string, string> {
  const names: Record<string, string> = {};
  for (const key in tags) {
    const language = LANGUAGE_NAME.exec(key)?.[1];
    if (language && tags[key]) names[language] = tags[key]!;
  }
  return names;
}

/** `population` as a whole number; thousands separators allowed ("12 000", "1,234"), else undefined. */
export function populationOf(tags: Tags): number | undefined {
  const digits = tags.population?.replace(/[\s,.'\u202f]/g, '');
  if (!digits || !/^\d+$/.test(digits)) return undefined;
  const population = Number(digits);
  return population > 0 ? population : undefined;
}
