/** Every 400 message and warning of the geocoding parameters: the shared ones (src/http/params/messages.ts), and their own; each names its parameter. */
import { list, messages as shared, quoted } from '../../http/params/messages.js';

export const messages = {
  ...shared,
  noWords: (name: string) => `invalid parameter '${name}': it must not be empty once punctuation and symbols are left out`,
  badCountry: (name: string, raw: string) =>
    `invalid parameter '${name}': ${quoted(raw)} is not an ISO 3166-1 alpha-2 or alpha-3 country code`,
  badLang: (name: string, raw: string) =>
    `invalid parameter '${name}': ${quoted(raw)} is not a BCP 47 language tag of a known language (e.g. en, de-CH)`,
  badGid: (name: string, raw: string, sources: readonly string[], layers: readonly string[]) =>
    `invalid parameter '${name}': ${quoted(raw)} is not a GID <source>:<layer>:<id> with source one of ${list(sources)} and layer one of ${list(layers)}`,
  noneOf: (names: readonly string[]) => `missing parameter: at least one of the following fields is required: ${list(names)}`,
  alone: (name: string) => `invalid parameter '${name}': ${name}-only inputs are not supported; add another field`,
  incomplete: (missing: string, group: readonly string[]) =>
    `missing parameter '${missing}': parameters ${group.slice(0, -1).join(', ')} and ${group.at(-1)} must all be specified`,
  notLess: (min: string, minValue: number, max: string, maxValue: number) =>
    `invalid parameter '${min}': ${min} (${minValue}) must be less than ${max} (${maxValue})`,
  notPositive: (name: string) => `invalid parameter '${name}': it must be greater than 0`,
  clampedUp: (name: string, min: number) => `invalid parameter '${name}': minimum value is ${min}, used ${min}`,
  centreOfReverse: () =>
    "invalid parameters 'boundary.circle.lat' and 'boundary.circle.lon': reverse searches around point.lat/point.lon, boundary.circle.lat/boundary.circle.lon are currently unsupported",
  badCategory: (raw: string, examples: readonly string[]) =>
    `invalid parameter 'categories': ${quoted(raw)} is not a category of Pelias' taxonomy (e.g. ${list(examples)}; docs/GEOCODING.md lists them all)`,
  /** Pelias' own warnings of `categories`. */
  noCategories: () => 'Categories parameter left blank, showing results from all categories.',
  categoriesIgnored: () => 'Categories filtering not supported on this endpoint, showing results from all categories.',
} as const;
