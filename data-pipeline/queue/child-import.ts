/**
 * Runs one import in a child process of the server (embedded mode, no Redis), so tiling never
 * blocks the server's event loop. Started with `fork(thisFile, [JSON options])`; reports progress
 * and its outcome to the parent over IPC; SIGTERM aborts the import (which then leaves the served
 * dataset untouched), as does the parent going away.
 */
import { runImport } from '../index.js';
import type { ImportOptions, ImportProgress, ImportResult } from './job.js';
import { throttleProgress } from './throttle.js';

export type ChildMessage =
  | { type: 'progress'; progress: ImportProgress }
  | { type: 'completed'; result: ImportResult }
  | { type: 'failed'; reason: string };

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, undefined, () => resolve());
  });
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '') as ImportOptions;
  const abort = new AbortController();
  const stop = () => abort.abort(new Error('the import was interrupted (the server is stopping)'));
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  try {
    const result = await runImport(
      options,
      throttleProgress((progress) => void send({ type: 'progress', progress })),
      abort.signal,
    );
    await send({ type: 'completed', result });
  } catch (error) {
    await send({ type: 'failed', reason: error instanceof Error ? error.message : String(error) });
  }
  process.disconnect?.();
}

await main();
