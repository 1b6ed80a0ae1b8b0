/** The whole Pelias-compatible response body: `geocoding` block, FeatureCollection of features, overall bbox. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../../core/package-root.js';
import type { GeocodeFeature } from './feature.js';
import type { QueryEcho } from './query-echo.js';
import type { BBox } from '../../../core/geo/types.js';

/** Version of the response format, as Pelias reports it. */
export const GEOCODING_FORMAT_VERSION = '0.2';
const WAYMARK_VERSION: string = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).version;

export interface ResponseContext {
  /** Public base URL (`https://maps.example.org`), without a trailing slash; the attribution page hangs off it. */
  baseUrl: string;
  /** Milliseconds since the epoch, for `geocoding.timestamp`. */
  now: number;
}

export interface GeocodeResponse {
  geocoding: {
    version: string;
    attribution: string;
    query: QueryEcho;
    warnings?: string[];
    engine: { name: string; author: string; version: string };
    timestamp: number;
  };
  type: 'FeatureCollection';
  features: GeocodeFeature[];
  bbox?: BBox;
}

/** The smallest box holding every feature's bbox (or point when it has none); undefined when there are none. */
export function boundingBox(features: readonly GeocodeFeature[]): BBox | undefined {
  if (features.length === 0) return undefined;
  const box: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const feature of features) {
    const [lon, lat] = feature.geometry.coordinates;
    const [minLon, minLat, maxLon, maxLat] = feature.bbox ?? [lon, lat, lon, lat];
    box[0] = Math.min(box[0], minLon);
    box[1] = Math.min(box[1], minLat);
    box[2] = Math.max(box[2], maxLon);
    box[3] = Math.max(box[3], maxLat);
  }
  return box;
}

/** Success bodies carry no `errors`: a request with errors is answered 400 with the uniform error body. */
export function featureCollection(
  query: QueryEcho,
  features: GeocodeFeature[],
  warnings: readonly string[],
  context: ResponseContext,
): GeocodeResponse {
  const bbox = boundingBox(features);
  return {
    geocoding: {
      version: GEOCODING_FORMAT_VERSION,
      attribution: `${context.baseUrl}/attribution`,
      query,
      ...(warnings.length > 0 && { warnings: [...warnings] }),
      engine: { name: 'Waymark', author: 'Waymark', version: WAYMARK_VERSION },
      timestamp: context.now,
    },
    type: 'FeatureCollection',
    features,
    ...(bbox && { bbox }),
  };
}
