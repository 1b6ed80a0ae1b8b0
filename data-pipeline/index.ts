/** The data pipeline's entry: run an import, and tell its failures apart. */
export { runImport, type ImportOptions, type ImportResult } from './import.js';
export type { ImportInputs } from './input-checks.js';
export { ImportInputError, ImportLockedError, isBadInput, isLockTaken } from './import-errors.js';
export { formatBytes } from '../core/format-bytes.js';
export { importMemory, type MemoryBudget } from './memory-budget.js';
export { importThreads } from './threads.js';
