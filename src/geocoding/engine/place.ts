/** Place look-up: the full record of each GID asked for, in the order asked; unknown GIDs are left out. */
import { toFeature, type GeocodeFeature } from '../response/feature.js';
import { gid } from '../../../core/geocoding/indexed-record.js';
import type { PlaceParams } from '../sanitize/endpoints.js';
import type { GeocoderIndex } from './index-file.js';
import { accuracyOf, recordOf } from './places.js';

export function place(index: GeocoderIndex, params: PlaceParams): GeocodeFeature[] {
  const features: GeocodeFeature[] = [];
  for (const id of params.ids) {
    const row = index.place(gid(id.source, id.layer, id.sourceId));
    if (row !== undefined)
      features.push(
        toFeature(recordOf(row), { accuracy: accuracyOf(row.layer), lang: params.lang, withCategories: params.categories !== undefined }),
      );
  }
  return features;
}
