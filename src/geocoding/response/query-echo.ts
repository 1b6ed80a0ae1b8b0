/** The `geocoding.query` block of a response: the parameter values actually used, under Pelias' names. */
import type { PlaceParams, ReverseParams, SearchOptions, SearchParams, StructuredParams } from '../sanitize/endpoints.js';
import type { BoundaryRect } from '../sanitize/boundary-rect.js';
import type { Categories } from '../sanitize/categories.js';
import type { PlaceId } from '../sanitize/ids.js';
import type { Language } from '../sanitize/lang.js';

/** How many candidates the index is asked for per result wanted (room for deduplication), as Pelias. */
export const QUERY_SIZE_PADDING = 2;

export type QueryEcho = Record<string, unknown>;

/** What the text parser made of the search text (filled by the search later). */
export interface ParseEcho {
  parser: string;
  parsed_text: Record<string, string>;
}

function langEcho(lang: Language) {
  return {
    name: lang.name,
    iso6391: lang.iso6391,
    iso6393: lang.iso6393,
    via: lang.defaulted ? 'default' : 'querystring',
    defaulted: lang.defaulted,
  };
}

const rectEcho = (rect: BoundaryRect | undefined) =>
  rect && {
    'boundary.rect.min_lat': rect.south,
    'boundary.rect.max_lat': rect.north,
    'boundary.rect.min_lon': rect.west,
    'boundary.rect.max_lon': rect.east,
  };

/** As Pelias: the id part of the GID (Pelias matches it against the parent ids), and the categories asked. */
const gidAndCategoriesEcho = (gid: PlaceId | undefined, categories: Categories) => ({
  ...(gid && { 'boundary.gid': gid.sourceId }),
  ...(categories && { categories }),
});

/** The parameters search and structured search share. */
function echoSearchOptions(params: SearchOptions): QueryEcho {
  return {
    size: params.size,
    layers: params.layers,
    sources: params.sources,
    private: false,
    ...(params.focusPoint && { 'focus.point.lat': params.focusPoint.lat, 'focus.point.lon': params.focusPoint.lon }),
    ...(params.boundaryCountry && { 'boundary.country': params.boundaryCountry.alpha3 }),
    ...rectEcho(params.boundaryRect),
    ...(params.boundaryCircle && {
      'boundary.circle.lat': params.boundaryCircle.lat,
      'boundary.circle.lon': params.boundaryCircle.lon,
      'boundary.circle.radius': params.boundaryCircle.radius,
    }),
    ...gidAndCategoriesEcho(params.boundaryGid, params.categories),
    lang: langEcho(params.lang),
    querySize: params.size * QUERY_SIZE_PADDING,
  };
}

export function echoSearch(params: SearchParams, parse?: ParseEcho): QueryEcho {
  return { text: params.text, ...echoSearchOptions(params), ...parse };
}

/** The engine's labels of a structured query under the names Pelias' structured `parsed_text` uses. */
const STRUCTURED_ECHO_NAMES: Record<string, string> = { housenumber: 'number', locality: 'city', region: 'state', postcode: 'postalcode' };

/** Structured search echoes no text: `parsed_text` holds the fields, `address` split into number and street. */
export function echoStructured(params: StructuredParams, parsed: Record<string, string>): QueryEcho {
  const parsedText = Object.fromEntries(Object.entries(parsed).map(([label, value]) => [STRUCTURED_ECHO_NAMES[label] ?? label, value]));
  return { parsed_text: parsedText, ...echoSearchOptions(params) };
}

export function echoReverse(params: ReverseParams): QueryEcho {
  return {
    size: params.size,
    layers: params.layers,
    sources: params.sources,
    private: false,
    'point.lat': params.point.lat,
    'point.lon': params.point.lon,
    // Pelias' reverse searches a circle around the point.
    'boundary.circle.lat': params.point.lat,
    'boundary.circle.lon': params.point.lon,
    ...(params.radius !== undefined && { 'boundary.circle.radius': params.radius }),
    ...(params.boundaryCountry && { 'boundary.country': params.boundaryCountry.alpha3 }),
    ...gidAndCategoriesEcho(params.boundaryGid, params.categories),
    lang: langEcho(params.lang),
    querySize: params.size * QUERY_SIZE_PADDING,
  };
}

export function echoPlace(params: PlaceParams): QueryEcho {
  return {
    ids: params.ids.map(({ source, layer, sourceId }) => ({ source, layer, id: sourceId })),
    ...(params.categories && { categories: params.categories }),
    private: false,
    lang: langEcho(params.lang),
  };
}
