/** The one reading of a whole number the program takes from people (flags, environment variables). */

/** `raw` as a whole number within the bounds; throws an Error naming `what` otherwise. */
export function parseWholeNumber(raw: string, what: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new Error(`${what} must be a whole number ${range}, not ${JSON.stringify(raw)}`);
  }
  return value;
}
