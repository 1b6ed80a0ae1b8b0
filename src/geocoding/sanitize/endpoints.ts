/** The parameter checks of each geocoding endpoint, and one function per endpoint that applies them. */
import { CIRCLE_PARAMETERS, sanitizeBoundaryCircle, sanitizeReverseRadius } from './boundary-circle.js';
import { sanitizeBoundaryCountry } from './boundary-country.js';
import { sanitizeBoundaryGid } from './boundary-gid.js';
import { RECT_PARAMETERS, sanitizeBoundaryRect } from './boundary-rect.js';
import { sanitizeCategories, sanitizePlaceCategories } from './categories.js';
import { sanitize, type CleanParams, type CleanRequest } from '../../http/params/compose.js';
import { sanitizeFocusPoint } from './focus-point.js';
import { sanitizeQ } from './geocode-alias.js';
import { sanitizeIds } from './ids.js';
import { sanitizeLang } from './lang.js';
import { sanitizeLayers } from './layers.js';
import { sanitizePoint } from './point.js';
import { sanitizeSize } from './size.js';
import { sanitizeSources } from './sources.js';
import { sanitizeStructuredAddress, STRUCTURED_FIELDS } from './structured.js';
import { sanitizeText } from './text.js';

/** The parameters of all geocoding endpoints; each may be given once. */
export const GEOCODING_PARAMETERS: readonly string[] = [
  'text',
  'q',
  'size',
  'layers',
  'sources',
  'boundary.country',
  'lang',
  'focus.point.lat',
  'focus.point.lon',
  'point.lat',
  'point.lon',
  'ids',
  ...RECT_PARAMETERS,
  ...CIRCLE_PARAMETERS,
  'boundary.gid',
  'categories',
  ...STRUCTURED_FIELDS,
];

const search = {
  text: sanitizeText,
  size: sanitizeSize,
  layers: sanitizeLayers,
  sources: sanitizeSources,
  focusPoint: sanitizeFocusPoint,
  boundaryCountry: sanitizeBoundaryCountry,
  boundaryRect: sanitizeBoundaryRect,
  boundaryCircle: sanitizeBoundaryCircle,
  boundaryGid: sanitizeBoundaryGid,
  categories: sanitizeCategories,
  lang: sanitizeLang,
};
const autocomplete = search;
const { text: _text, ...searchOptions } = search;
/** Structured search: the address fields instead of `text`, and search's other parameters. */
const structured = { address: sanitizeStructuredAddress, ...searchOptions };
const geocodeAlias = { ...search, text: sanitizeQ };
const reverse = {
  point: sanitizePoint,
  size: sanitizeSize,
  layers: sanitizeLayers,
  sources: sanitizeSources,
  boundaryCountry: sanitizeBoundaryCountry,
  radius: sanitizeReverseRadius,
  boundaryGid: sanitizeBoundaryGid,
  categories: sanitizeCategories,
  lang: sanitizeLang,
};
const place = { ids: sanitizeIds, categories: sanitizePlaceCategories, lang: sanitizeLang };

export type SearchParams = CleanParams<typeof search>;
/** What search and structured search share: everything but what is searched for. */
export type SearchOptions = CleanParams<typeof searchOptions>;
export type StructuredParams = CleanParams<typeof structured>;
export type ReverseParams = CleanParams<typeof reverse>;
export type PlaceParams = CleanParams<typeof place>;

/** `/search`; throws ApiError 400 naming each bad parameter. */
export const sanitizeSearch = (query: URLSearchParams): CleanRequest<SearchParams> => sanitize(query, search, GEOCODING_PARAMETERS);
/** `/autocomplete`: the same parameters as search. */
export const sanitizeAutocomplete = (query: URLSearchParams): CleanRequest<SearchParams> =>
  sanitize(query, autocomplete, GEOCODING_PARAMETERS);
/** `/geocode?q=`: search with the text in `q`. */
export const sanitizeGeocodeAlias = (query: URLSearchParams): CleanRequest<SearchParams> =>
  sanitize(query, geocodeAlias, GEOCODING_PARAMETERS);
/** `/search/structured`: Pelias' address fields plus search's size, layers, sources, focus, boundaries, categories and lang. */
export const sanitizeStructured = (query: URLSearchParams): CleanRequest<StructuredParams> =>
  sanitize(query, structured, GEOCODING_PARAMETERS);
export const sanitizeReverse = (query: URLSearchParams): CleanRequest<ReverseParams> => sanitize(query, reverse, GEOCODING_PARAMETERS);
export const sanitizePlace = (query: URLSearchParams): CleanRequest<PlaceParams> => sanitize(query, place, GEOCODING_PARAMETERS);
