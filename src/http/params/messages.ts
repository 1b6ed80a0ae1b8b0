/** The 400 messages and warnings every product's parameters share; each names its parameter. A product adds its own beside them. */

export const list = (values: readonly (string | number)[]) => values.join(', ');
/** A client's value as quoted in a message, cut short so a huge value cannot bloat the error body. */
export const quoted = (raw: string) => `'${raw.length > 60 ? `${raw.slice(0, 60)}…` : raw}'`;

export const messages = {
  missing: (name: string) => `missing parameter '${name}': it is required`,
  empty: (name: string) => `invalid parameter '${name}': it must not be empty`,
  duplicate: (name: string) => `invalid parameter '${name}': it can only be given once`,
  tooLong: (name: string, max: number) => `invalid parameter '${name}': at most ${max} characters`,
  notANumber: (name: string, raw: string) => `invalid parameter '${name}': ${quoted(raw)} is not a decimal number`,
  notAnInteger: (name: string, raw: string) => `invalid parameter '${name}': ${quoted(raw)} is not a whole number`,
  outOfRange: (name: string, min: number, max: number) => `invalid parameter '${name}': it must be between ${min} and ${max}`,
  tooSmall: (name: string, min: number) => `invalid parameter '${name}': it must be at least ${min}`,
  unknownValue: (name: string, value: string, valid: readonly string[]) =>
    `invalid parameter '${name}': ${quoted(value)} is not one of ${list(valid)}`,
  lone: (given: string, missing: string) => `missing parameter '${missing}': '${given}' needs '${missing}' too`,
  tooMany: (name: string, max: number) => `invalid parameter '${name}': at most ${max} values`,
  both: (first: string, second: string) => `invalid parameters '${first}' and '${second}': give only one of them`,
  clamped: (name: string, max: number) => `invalid parameter '${name}': maximum value is ${max}, used ${max}`,
  badPosition: (name: string, raw: string) =>
    `invalid parameter '${name}': ${quoted(raw)} is not a position lat,lng in decimal degrees (e.g. 43.7384,7.4246)`,
  badBoolean: (name: string, raw: string) => `invalid parameter '${name}': ${quoted(raw)} is not true or false`,
  badPolyline: (name: string) => `invalid parameter '${name}': the encoded polyline after 'enc:' cannot be decoded`,
} as const;
