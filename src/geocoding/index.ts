/**
 * The geocoding product behind the gateway (scope `geocoding`, one unit per request): Pelias'
 * search, structured search, autocomplete, reverse and place endpoints and the `/geocode?q=` alias, answered inline
 * from the dataset's geocoder index (SQLite look-ups of a few milliseconds). See docs/GEOCODING.md.
 */
import type { ServiceRoute } from '../gateway/index.js';
import { currentDataset, openedBy, type DatasetHolder } from '../dataset/index.js';
import { ApiError } from '../http/errors.js';
import { apiBaseResolver } from '../http/public-origin.js';
import { json, type Reply } from '../http/reply.js';
import type { Request } from '../http/request.js';
import type { GeocoderIndex } from './engine/index-file.js';
import { place } from './engine/place.js';
import { reverse } from './engine/reverse.js';
import { search } from './engine/search.js';
import { structuredSearch } from './engine/structured-search.js';
import { featureCollection } from './response/collection.js';
import type { GeocodeFeature } from './response/feature.js';
import { echoPlace, echoReverse, echoSearch, echoStructured, type QueryEcho } from './response/query-echo.js';
import {
  sanitizeAutocomplete,
  sanitizeGeocodeAlias,
  sanitizePlace,
  sanitizeReverse,
  sanitizeSearch,
  sanitizeStructured,
  type SearchParams,
} from './sanitize/endpoints.js';
import { geocoderIndexSource } from './source.js';
import type { CleanRequest } from '../http/params/compose.js';

const NO_INDEX = 'the served dataset has no geocoder index: the operator must run `waymark import` again';

export function geocodingRoutes(datasets: DatasetHolder, publicUrl: string | undefined): ServiceRoute[] {
  const apiBase = apiBaseResolver(publicUrl);
  const geocoder = (): GeocoderIndex => {
    const index = openedBy(currentDataset(datasets), geocoderIndexSource);
    if (index === null) throw new ApiError(503, NO_INDEX);
    return index;
  };
  const answer = (req: Request, echo: QueryEcho, features: GeocodeFeature[], warnings: string[]): Reply =>
    json(200, featureCollection(echo, features, warnings, { baseUrl: apiBase(req).replace(/\/api\/v1$/, ''), now: Date.now() }));

  const searchHandler =
    (sanitizer: (query: URLSearchParams) => CleanRequest<SearchParams>, autocomplete: boolean) =>
    (req: Request): Reply => {
      const { params, warnings } = sanitizer(req.query);
      const found = search(geocoder(), params, autocomplete);
      return answer(req, echoSearch(params, { parser: 'pelias', parsed_text: found.parsed }), found.features, warnings);
    };

  const route = (path: string, handler: ServiceRoute['handler']): ServiceRoute => ({ path, service: 'geocoding', handler });
  return [
    route('/geocoding/search', searchHandler(sanitizeSearch, false)),
    route('/geocoding/search/structured', (req) => {
      const { params, warnings } = sanitizeStructured(req.query);
      const found = structuredSearch(geocoder(), params);
      return answer(req, echoStructured(params, found.parsed), found.features, warnings);
    }),
    route('/geocoding/autocomplete', searchHandler(sanitizeAutocomplete, true)),
    route('/geocode', searchHandler(sanitizeGeocodeAlias, false)),
    route('/geocoding/reverse', (req) => {
      const { params, warnings } = sanitizeReverse(req.query);
      return answer(req, echoReverse(params), reverse(geocoder(), params), warnings);
    }),
    route('/geocoding/place', (req) => {
      const { params, warnings } = sanitizePlace(req.query);
      return answer(req, echoPlace(params), place(geocoder(), params), warnings);
    }),
  ];
}
