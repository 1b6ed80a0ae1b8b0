/** `layers`: a comma list of place types; `coarse` stands for all admin layers; default all layers. */
import { COARSE_LAYERS, LAYERS, type Layer } from '../../../core/geocoding/indexed-record.js';
import { clean, type Sanitizer } from '../../http/params/sanitized.js';
import { resolveValueList } from './value-list.js';

const LAYER_MEANINGS = new Map<string, readonly Layer[]>([...LAYERS.map((layer) => [layer, [layer]] as const), ['coarse', COARSE_LAYERS]]);

export const sanitizeLayers: Sanitizer<Layer[]> = (query) => {
  const raw = query.get('layers');
  return raw === null ? clean([...LAYERS]) : resolveValueList('layers', raw, LAYER_MEANINGS);
};
