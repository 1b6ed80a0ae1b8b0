/** `waymark import`: builds a new dataset from OSM extracts, the world layer, geocoding sources and/or elevation, and switches the data folder (and a server running on it) to it. */
import { constants } from 'node:os';
import { CliError, UsageError, type CommandRun } from './command.js';
import { importThroughQueue } from './import-queue.js';
import { progressDisplay } from './progress.js';
import type { MemoryBudget } from '../../data-pipeline/index.js';

export const run: CommandRun = async (input) => {
  const inputs = {
    osm: input.all('osm'),
    world: input.isSet('world'),
    wof: input.all('wof'),
    oa: input.all('oa'),
    geonames: input.isSet('geonames'),
    dem: input.all('dem'),
  };
  if (inputs.osm.length + inputs.wof.length + inputs.oa.length + inputs.dem.length === 0 && !inputs.world && !inputs.geonames) {
    throw new UsageError(
      'name at least one input: --osm FILE_OR_URL, --wof DIR, --oa FILE_OR_URL, --dem FILE_OR_DIR, --geonames or --world; see "waymark import --help"',
    );
  }
  if (input.isSet('queue')) {
    if (input.flag('memory') !== undefined || input.isSet('resume')) {
      throw new UsageError(
        '--memory and --resume are for an import run here; a queue worker takes WAYMARK_IMPORT_MEMORY and resumes by itself',
      );
    }
    return importThroughQueue({ dataDir: input.dataDir, ...inputs });
  }
  // Loaded here so that the other commands do not load the pipeline, which adds to their start-up.
  const { formatBytes, importMemory, importThreads, runImport } = await import('../../data-pipeline/index.js');
  let memory: MemoryBudget;
  try {
    memory = importMemory(input.flag('memory'));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const from =
    memory.source === 'default'
      ? "default: a quarter of this machine's memory, 1–2 GiB; set --memory or WAYMARK_IMPORT_MEMORY"
      : memory.source;
  const onStart = () => process.stderr.write(`memory: ${formatBytes(memory.bytes)} (${from}); threads: ${importThreads()}\n`);
  const progress = progressDisplay();
  // The first Ctrl-C (or SIGTERM) cancels: the import deletes its half-built dataset and releases
  // the lock, then the command exits with 128 + the signal's number, as shells report a process
  // the signal ended. A second one ends the process at once.
  const abort = new AbortController();
  const cancel = (signal: NodeJS.Signals) =>
    abort.abort(new CliError(`the import was cancelled (${signal})`, 128 + constants.signals[signal]));
  process.once('SIGINT', cancel);
  process.once('SIGTERM', cancel);
  try {
    const result = await runImport(
      { dataDir: input.dataDir, ...inputs, memoryBytes: memory.bytes, resume: input.isSet('resume'), onStart },
      progress.report,
      abort.signal,
    );
    return {
      text: `Imported dataset ${result.datasetId} (${result.tiles.toLocaleString('en-US')} tiles, ${result.places.toLocaleString('en-US')} places) in ${result.seconds} s; it is now served from ${input.dataDir}.`,
      json: result,
    };
  } catch (error) {
    // Once cancelled, the cancellation is the reason, whatever the import stopped with (an osmium
    // process that the terminal's Ctrl-C reached as well).
    throw abort.signal.aborted ? abort.signal.reason : error;
  } finally {
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
    progress.finish();
  }
};
