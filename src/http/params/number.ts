/** Strict parsing of numeric parameters: plain decimal notation only (no hex, exponent, NaN, Infinity or blanks). */
import { messages } from './messages.js';
import { clean, rejected, type Sanitized } from './sanitized.js';

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A decimal number within [min, max], for coordinates. */
export function decimalInRange(name: string, raw: string, min: number, max: number): Sanitized<number> {
  if (!DECIMAL.test(raw)) return rejected(NaN, messages.notANumber(name, raw));
  const value = Number(raw);
  if (value < min || value > max) return rejected(NaN, messages.outOfRange(name, min, max));
  return clean(value);
}

/** A whole number written with digits only (an optional leading `+`). */
export function wholeNumber(name: string, raw: string): Sanitized<number> {
  if (!/^\+?\d+$/.test(raw)) return rejected(NaN, messages.notAnInteger(name, raw));
  return clean(Number(raw));
}
