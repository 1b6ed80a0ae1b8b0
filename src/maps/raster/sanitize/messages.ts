/** Every 400 message of the static map parameters: the shared ones, and their own; each names its parameter. */
import { list, messages as shared, quoted } from '../../../http/params/messages.js';

export const messages = {
  ...shared,
  unknownStyle: (name: string, raw: string, slugs: readonly string[]) =>
    `invalid parameter '${name}': ${quoted(raw)} is not a style; use one of ${list(slugs)}`,
  badSize: (name: string, raw: string, max: number) =>
    `invalid parameter '${name}': ${quoted(raw)} is not WIDTHxHEIGHT in pixels, each from 1 to ${max} (e.g. 600x400)`,
  badBbox: (name: string, raw: string) =>
    `invalid parameter '${name}': ${quoted(raw)} is not minLon,minLat,maxLon,maxLat with min below max (e.g. 7.40,43.72,7.44,43.75)`,
  badColor: (name: string, raw: string) =>
    `invalid parameter '${name}': ${quoted(raw)} is not a colour: #rrggbb, 0xrrggbb (with an optional alpha byte for paths) or a name such as red`,
  badLabel: (name: string, raw: string) => `invalid parameter '${name}': label ${quoted(raw)} must be 1 or 2 letters or digits`,
  badWidth: (name: string, raw: string, max: number) =>
    `invalid parameter '${name}': width ${quoted(raw)} must be a number from 1 to ${max}`,
  noPoints: (name: string, min: number) => `invalid parameter '${name}': it needs at least ${min} point${min > 1 ? 's' : ''} lat,lng`,
  encodedAndPoints: (name: string) => `invalid parameter '${name}': give either 'enc:' or lat,lng points, not both`,
  tooManyOf: (name: string, what: string, max: number) => `invalid parameter '${name}': at most ${max} ${what} in all`,
  needsView: () => `missing parameter 'center': give center and zoom, or bbox, or markers or a path to fit the map to`,
} as const;
