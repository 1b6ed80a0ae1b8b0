/** `focus.point.lat` / `focus.point.lon`: optional proximity bias; a lone half is refused. */
import { optionalLatLon, type LatLon } from './coordinates.js';
import type { Sanitizer } from '../../http/params/sanitized.js';

export const sanitizeFocusPoint: Sanitizer<LatLon | undefined> = (query) => optionalLatLon(query, 'focus.point');
