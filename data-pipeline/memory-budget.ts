/**
 * The memory an import may use: `--memory` or `WAYMARK_IMPORT_MEMORY` (`2G`, `1536M`, `800MB`,
 * bytes), by default a quarter of the machine's memory within 1–2 GiB. Each step sizes its buffers
 * and its parallel work from it, so that the import's peak (its threads and osmium processes
 * together) stays within it whatever the input's size.
 */
import { totalmem } from 'node:os';
import { formatBytes } from '../core/format-bytes.js';

const GiB = 1024 ** 3;
const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: GiB, t: 1024 ** 4 };
/** Below this an import of even a small extract cannot run. */
export const MIN_IMPORT_MEMORY = 512 * 1024 ** 2;

/** Bytes from `2G`, `1.5g`, `1536M`, `800MB`, `2GiB` or a plain number of bytes; null when it is none of these. */
export function parseMemorySize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(text);
  if (!m) return null;
  return Math.round(Number(m[1]) * UNITS[m[2]!.toLowerCase()]!);
}

export function defaultImportMemory(): number {
  return Math.min(2 * GiB, Math.max(GiB, Math.floor(totalmem() / 4)));
}

/** An import's memory and where it was set. */
export interface MemoryBudget {
  bytes: number;
  source: '--memory' | 'WAYMARK_IMPORT_MEMORY' | 'default';
}

/**
 * The budget from `flag` (the value of `--memory`), else the environment, else the default. Throws a
 * message naming where a value that is no amount of memory, or less than `MIN_IMPORT_MEMORY`, came from.
 */
export function importMemory(flag?: string): MemoryBudget {
  const env = process.env.WAYMARK_IMPORT_MEMORY;
  const [text, source] = flag !== undefined ? [flag, '--memory' as const] : env ? [env, 'WAYMARK_IMPORT_MEMORY' as const] : [undefined, 'default' as const];
  if (text === undefined) return { bytes: defaultImportMemory(), source };
  const bytes = parseMemorySize(text);
  if (bytes === null) throw new Error(`${source}: "${text}" is no amount of memory; write e.g. 2G, 1536M or 800MB`);
  if (bytes < MIN_IMPORT_MEMORY) throw new Error(`${source}: ${text} is too little; an import needs at least ${formatBytes(MIN_IMPORT_MEMORY)}`);
  return { bytes, source };
}
