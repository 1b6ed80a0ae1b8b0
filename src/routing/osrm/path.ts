/**
 * The path part of an OSRM request, `{profile}/{lon,lat;lon,lat…}[.json]`: the travel mode and the
 * coordinates, longitude first as OSRM writes them, turned into Waymark's `lat,lng` positions.
 */
import { TRAVEL_MODES, type TravelMode } from '../../../core/routing/network.js';
import { list, quoted } from '../../http/params/messages.js';
import { decimalInRange } from '../../http/params/number.js';
import { osrmError } from './errors.js';

export interface OsrmPath {
  mode: TravelMode;
  /** The coordinates in order, as Waymark's parameters write positions (`lat,lng`, the client's digits kept). */
  positions: string[];
}

/** One `lon,lat` of the URL, checked as Waymark checks a position; returned as Waymark writes it, `lat,lng`. */
function coordinate(raw: string, index: number): string {
  const halves = raw.split(',');
  if (halves.length !== 2) {
    throw osrmError(
      'InvalidUrl',
      `invalid coordinate ${index} ${quoted(raw)} in the URL: not longitude,latitude in decimal degrees (e.g. 7.4246,43.7384)`,
    );
  }
  const lon = decimalInRange(`coordinate ${index} longitude`, halves[0]!, -180, 180);
  const lat = decimalInRange(`coordinate ${index} latitude`, halves[1]!, -90, 90);
  const errors = [...lon.errors, ...lat.errors];
  if (errors.length > 0) throw osrmError('InvalidUrl', `${errors.join('; ')} (in the URL)`);
  return `${halves[1]},${halves[0]}`;
}

/** `:profile` and `:coords` of the matched route (`coords` as sent: percent-escapes allowed, `.json` suffix optional). */
export function parseOsrmPath(params: Readonly<Record<string, string>>): OsrmPath {
  const profile = params.profile ?? '';
  if (!(TRAVEL_MODES as readonly string[]).includes(profile)) {
    throw osrmError('InvalidUrl', `unknown profile ${quoted(profile)} in the URL; use one of ${list(TRAVEL_MODES)}`);
  }
  let text: string;
  try {
    text = decodeURIComponent(params.coords ?? '');
  } catch {
    throw osrmError('InvalidUrl', 'the coordinates in the URL hold an invalid percent-escape');
  }
  if (text.endsWith('.json')) text = text.slice(0, -'.json'.length);
  if (text.startsWith('polyline('))
    throw osrmError('InvalidOptions', 'coordinates as polyline(…) are not supported; list them as lon,lat;lon,lat');
  return { mode: profile as TravelMode, positions: text.split(';').map(coordinate) };
}
