/**
 * `boundary.gid`: results inside one admin place, the place itself included: those whose
 * hierarchy (`country_gid` … `neighbourhood_gid`) holds the GID (Pelias' `_boundary_gid`, which
 * matches the parent ids). A GID as `ids` takes it, short source names accepted.
 */
import { LAYERS, SOURCES } from '../../../core/geocoding/indexed-record.js';
import { parseGid, type PlaceId } from './ids.js';
import { messages } from './messages.js';
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';

export const sanitizeBoundaryGid: Sanitizer<PlaceId | undefined> = (query) => {
  const raw = query.get('boundary.gid');
  if (raw === null) return clean(undefined);
  const id = parseGid(raw.trim());
  return id === undefined ? rejected(undefined, messages.badGid('boundary.gid', raw, SOURCES, LAYERS)) : clean(id);
};
