/** Colours of markers and paths: `#rrggbb`, `0xrrggbb` (the form that needs no URL escaping), with an alpha byte where allowed, or a name. */

/** The names Google's static maps accept, as `#rrggbb`. */
const NAMED: Readonly<Record<string, string>> = {
  black: '#000000',
  brown: '#8b4513',
  green: '#2e9e44',
  purple: '#7b3fbf',
  yellow: '#f2c200',
  blue: '#2a6fdb',
  gray: '#808080',
  orange: '#f28c28',
  red: '#e03c31',
  white: '#ffffff',
};

/** `#rrggbb` (or `#rrggbbaa` when `alpha`), lower case; null when `raw` is no colour. */
export function parseColor(raw: string, alpha: boolean): string | null {
  const named = NAMED[raw.toLowerCase()];
  if (named) return named;
  const hex = /^(?:#|0x)([0-9a-f]{6}([0-9a-f]{2})?)$/i.exec(raw);
  if (!hex || (hex[2] !== undefined && !alpha)) return null;
  return `#${hex[1]!.toLowerCase()}`;
}
