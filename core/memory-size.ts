/** Amounts of memory as people write them (`--memory`, `WAYMARK_IMPORT_MEMORY`). */

const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** Bytes from `2G`, `1.5g`, `1536M`, `800MB`, `2GiB` or a plain number of bytes; null when it is none of these. */
export function parseMemorySize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(text);
  if (!m) return null;
  return Math.round(Number(m[1]) * UNITS[m[2]!.toLowerCase()]!);
}
