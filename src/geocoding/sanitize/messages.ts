/** Every 400 message and warning of the geocoding parameters, in one place; each names its parameter. */

export const list = (values: readonly (string | number)[]) => values.join(', ');
/** A client's value as quoted in a message, cut short so a huge value cannot bloat the error body. */
export const quoted = (raw: string) => `'${raw.length > 60 ? `${raw.slice(0, 60)}…` : raw}'`;

export const messages = {
  missing: (name: string) => `missing parameter '${name}': it is required`,
  empty: (name: string) => `invalid parameter '${name}': it must not be empty`,
  noWords: (name: string) => `invalid parameter '${name}': it must not be empty once punctuation and symbols are left out`,
  duplicate: (name: string) => `invalid parameter '${name}': it can only be given once`,
  tooLong: (name: string, max: number) => `invalid parameter '${name}': at most ${max} characters`,
  notANumber: (name: string, raw: string) => `invalid parameter '${name}': ${quoted(raw)} is not a decimal number`,
  notAnInteger: (name: string, raw: string) => `invalid parameter '${name}': ${quoted(raw)} is not a whole number`,
  outOfRange: (name: string, min: number, max: number) =>
    `invalid parameter '${name}': it must be between ${min} and ${max}`,
  tooSmall: (name: string, min: number) => `invalid parameter '${name}': it must be at least ${min}`,
  unknownValue: (name: string, value: string, valid: readonly string[]) =>
    `invalid parameter '${name}': ${quoted(value)} is not one of ${list(valid)}`,
  lone: (given: string, missing: string) => `missing parameter '${missing}': '${given}' needs '${missing}' too`,
  badCountry: (name: string, raw: string) =>
    `invalid parameter '${name}': ${quoted(raw)} is not an ISO 3166-1 alpha-2 or alpha-3 country code`,
  badLang: (name: string, raw: string) =>
    `invalid parameter '${name}': ${quoted(raw)} is not a BCP 47 language tag of a known language (e.g. en, de-CH)`,
  badGid: (name: string, raw: string, sources: readonly string[], layers: readonly string[]) =>
    `invalid parameter '${name}': ${quoted(raw)} is not a GID <source>:<layer>:<id> with source one of ${list(sources)} and layer one of ${list(layers)}`,
  tooMany: (name: string, max: number) => `invalid parameter '${name}': at most ${max} values`,
  both: (first: string, second: string) => `invalid parameters '${first}' and '${second}': give only one of them`,
  noneOf: (names: readonly string[]) => `missing parameter: at least one of the following fields is required: ${list(names)}`,
  alone: (name: string) => `invalid parameter '${name}': ${name}-only inputs are not supported; add another field`,
  clamped: (name: string, max: number) => `invalid parameter '${name}': maximum value is ${max}, used ${max}`,
} as const;
