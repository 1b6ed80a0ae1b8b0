/** `ids` of place lookup: a comma list of at most 40 GIDs `<source>:<layer>:<id>`; the id may hold `/` and `:`. */
import { LAYERS, SOURCES, gid, type Layer, type Source } from '../../../core/geocoding/indexed-record.js';
import { messages } from './messages.js';
import { clean, rejected, type Sanitizer } from '../../http/params/sanitized.js';
import { sourceByName } from './sources.js';

export const MAX_IDS = 40;

export interface PlaceId {
  source: Source;
  layer: Layer;
  sourceId: string;
  /** The normalized GID (long source name). */
  gid: string;
}

/** Printable, no whitespace: ids like `node/123`, `101751765`, `de/bw/statewide:4f2a`. */
const SOURCE_ID = /^[^\s\p{C},]{1,200}$/u;
const isLayer = (word: string): word is Layer => (LAYERS as readonly string[]).includes(word);

/** A GID parsed; short source names (osm, oa, gn, wof) are accepted and normalized to long names. */
export function parseGid(raw: string): PlaceId | undefined {
  const [sourceName = '', layer = '', ...idParts] = raw.split(':');
  const source = sourceByName(sourceName);
  const sourceId = idParts.join(':');
  if (source === undefined || !isLayer(layer) || !SOURCE_ID.test(sourceId)) return undefined;
  return { source, layer, sourceId, gid: gid(source, layer, sourceId) };
}

export const sanitizeIds: Sanitizer<PlaceId[]> = (query) => {
  const raw = query.get('ids');
  if (raw === null) return rejected([], messages.missing('ids'));
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.length > MAX_IDS) return rejected([], messages.tooMany('ids', MAX_IDS));
  const ids = new Map<string, PlaceId>();
  const errors: string[] = [];
  for (const entry of entries) {
    const id = parseGid(entry);
    if (id === undefined) errors.push(messages.badGid('ids', entry, SOURCES, LAYERS));
    else if (!ids.has(id.gid)) ids.set(id.gid, id);
  }
  return errors.length > 0 ? rejected([], ...errors) : clean([...ids.values()]);
};
