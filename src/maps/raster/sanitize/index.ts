/** The parameter checks of `/staticmap`, applied at once: every bad parameter is named in one 400. */
import { sanitize, type CleanParams } from '../../../http/params/compose.js';
import { ApiError } from '../../../http/errors.js';
import { messages } from './messages.js';
import { sanitizeMarkers, sanitizePaths } from './overlays.js';
import { sanitizeFormat, sanitizeScale, sanitizeSize } from './picture.js';
import { sanitizeLang, sanitizeStyle } from './style.js';
import { sanitizeView } from './view.js';

/** The parameters given at most once (`markers` and `path` repeat). */
const SINGLE_PARAMETERS = ['style', 'center', 'zoom', 'bbox', 'size', 'scale', 'format', 'lang'] as const;

const staticMap = {
  style: sanitizeStyle,
  lang: sanitizeLang,
  view: sanitizeView,
  size: sanitizeSize,
  scale: sanitizeScale,
  format: sanitizeFormat,
  markers: sanitizeMarkers,
  paths: sanitizePaths,
};

export type StaticMapParams = CleanParams<typeof staticMap>;

/** Throws ApiError 400 naming each bad parameter, including a map with no view and nothing to fit to. */
export function sanitizeStaticMap(query: URLSearchParams): StaticMapParams {
  const { params } = sanitize(query, staticMap, SINGLE_PARAMETERS);
  if (params.view.kind === 'fit' && params.markers.length === 0 && params.paths.length === 0) throw new ApiError(400, messages.needsView());
  return params;
}
