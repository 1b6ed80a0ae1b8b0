/**
 * `waymark import --queue`: enqueues the import as a BullMQ job (WAYMARK_REDIS_URL) for the workers
 * of the data folder and follows it: progress on stderr, then the outcome; a failed job is a
 * one-line error (exit 1). Interrupting the command stops following; the job goes on.
 */
import { resolve } from 'node:path';
import { isUrl } from '../../data-pipeline/download.js';
import { enqueueAndFollow } from '../../data-pipeline/queue/client.js';
import type { ImportOptions } from '../../data-pipeline/queue/job.js';
import { CliError } from './command.js';
import { waymarkCommand } from './invocation.js';
import type { Outcome } from './output.js';
import { progressDisplay } from './progress.js';
import { requireRedis } from './queue-redis.js';

export async function importThroughQueue(options: ImportOptions): Promise<Outcome> {
  const settings = requireRedis('waymark import --queue');
  // A worker runs elsewhere (another folder, another machine): local paths must be absolute.
  const absolute = (inputs: string[] = []) => inputs.map((input) => (isUrl(input) ? input : resolve(input)));
  const osm = absolute(options.osm);
  const oa = absolute(options.oa);
  const wof = absolute(options.wof);
  const dem = absolute(options.dem);
  const progress = progressDisplay();
  let outcome: Awaited<ReturnType<typeof enqueueAndFollow>>;
  try {
    outcome = await enqueueAndFollow(
      settings,
      { ...options, osm, oa, wof, dem },
      {
        onEnqueued: (id) => process.stderr.write(`Queued import job ${id}; waiting for a worker (${waymarkCommand()} worker) to run it.\n`),
        onProgress: progress.report,
      },
    );
  } finally {
    progress.finish();
  }
  if (outcome.status === 'failed') throw new CliError(`import job ${outcome.id} failed: ${outcome.failedReason ?? 'no reason given'}`);
  const result = outcome.result!;
  return {
    text: `Import job ${outcome.id} built dataset ${result.datasetId} (${result.tiles.toLocaleString('en-US')} tiles) in ${result.seconds} s; it is now served from ${options.dataDir}.`,
    json: outcome,
  };
}
