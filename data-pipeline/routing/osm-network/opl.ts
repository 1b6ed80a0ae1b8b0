/**
 * Parsing the fields of OSM's OPL text format as osmium writes it without metadata:
 *   n<id> T<tags> x<lon> y<lat>
 *   w<id> T<tags> N<n<id>x<lon>y<lat>,...>      (locations added by add-locations-to-ways)
 *   r<id> T<tags> M<type><id>@<role>,...
 * Tags are `k=v,k=v`; space, comma, equals and percent signs inside are written `%<hex code point>%`.
 */
import type { Tags } from '../../osm/tags.js';

const ESCAPE = /%([0-9a-fA-F]+)%/g;

const unescapeOpl = (text: string) =>
  text.includes('%') ? text.replace(ESCAPE, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16))) : text;

/** The field of `line` starting with `letter` (without it); undefined when the line has none. */
export function oplField(line: string, letter: string): string | undefined {
  const start = line.indexOf(` ${letter}`);
  if (start < 0) return undefined;
  const end = line.indexOf(' ', start + 1);
  return line.slice(start + 2, end < 0 ? line.length : end);
}

/** The object id after the type letter at the start of the line. */
export function oplId(line: string): number {
  const end = line.indexOf(' ');
  return Number(line.slice(1, end < 0 ? line.length : end));
}

export function parseTags(field: string | undefined): Tags {
  // No prototype: every key, `__proto__` and `constructor` too, is only ever a tag.
  const tags: Record<string, string> = Object.create(null);
  if (!field) return tags;
  for (const pair of field.split(',')) {
    const eq = pair.indexOf('=');
    tags[unescapeOpl(pair.slice(0, eq))] = unescapeOpl(pair.slice(eq + 1));
  }
  return tags;
}

/** A way's nodes with their locations; nodes without a location (missing from the extract) are left out, and so are repeats of the previous node. */
export interface WayNodes {
  ids: Float64Array;
  /** lon, lat × 10⁷ per node: osmium writes locations from these integers, at most 7 decimals, so `value / 1e7` gives back the number the text reads as. */
  coordinates: Int32Array;
}

export function parseWayNodes(field: string): WayNodes {
  const refs = field.split(',');
  const ids = new Float64Array(refs.length);
  const coordinates = new Int32Array(refs.length * 2);
  let count = 0;
  for (const ref of refs) {
    const x = ref.indexOf('x');
    const y = ref.indexOf('y', x);
    if (x < 0 || y < 0 || y === x + 1 || y === ref.length - 1) continue;
    const id = Number(ref.slice(1, x));
    if (count > 0 && ids[count - 1] === id) continue;
    ids[count] = id;
    coordinates[count * 2] = Math.round(Number(ref.slice(x + 1, y)) * 1e7);
    coordinates[count * 2 + 1] = Math.round(Number(ref.slice(y + 1)) * 1e7);
    count++;
  }
  return { ids: ids.slice(0, count), coordinates: coordinates.slice(0, count * 2) };
}

export interface Member {
  type: 'n' | 'w' | 'r';
  id: number;
  role: string;
}

export function parseMembers(field: string | undefined): Member[] {
  if (!field) return [];
  return field.split(',').map((member) => {
    const at = member.indexOf('@');
    return { type: member[0] as Member['type'], id: Number(member.slice(1, at)), role: unescapeOpl(member.slice(at + 1)) };
  });
}
