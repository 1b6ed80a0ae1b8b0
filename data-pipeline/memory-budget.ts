/**
 * The memory an import may use: `--memory` or `WAYMARK_IMPORT_MEMORY` (`2G`, `1536M`, `800MB`,
 * bytes), by default a quarter of the machine's memory within 1–2 GiB. Each step sizes its buffers
 * and its parallel work from it, so that the import's peak (its threads and osmium processes
 * together) stays within it whatever the input's size.
 */
import { totalmem } from 'node:os';
import { setting } from '../core/config.js';
import { formatBytes } from '../core/format-bytes.js';
import { parseMemorySize } from '../core/memory-size.js';

const GiB = 1024 ** 3;
/** Below this an import of even a small extract cannot run. */
export const MIN_IMPORT_MEMORY = 512 * 1024 ** 2;

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
  const tooLittle = (source: string, amount: string) =>
    new Error(`${source}: ${amount} is too little; an import needs at least ${formatBytes(MIN_IMPORT_MEMORY)}`);
  if (flag !== undefined) {
    const bytes = parseMemorySize(flag);
    if (bytes === null) throw new Error(`--memory: "${flag}" is no amount of memory; write e.g. 2G, 1536M or 800MB`);
    if (bytes < MIN_IMPORT_MEMORY) throw tooLittle('--memory', flag);
    return { bytes, source: '--memory' };
  }
  const bytes = setting('importMemory');
  if (bytes === undefined) return { bytes: defaultImportMemory(), source: 'default' };
  if (bytes < MIN_IMPORT_MEMORY) throw tooLittle('WAYMARK_IMPORT_MEMORY', formatBytes(bytes));
  return { bytes, source: 'WAYMARK_IMPORT_MEMORY' };
}
