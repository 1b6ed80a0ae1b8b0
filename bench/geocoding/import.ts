/**
 * Part 1 of the geocoding benchmark: `waymark import` of every source into a fresh data folder
 * (wall time, CPU, peak memory; the geocoder index's size and place counts), then the geocoder
 * index built alone by `build-index.js`, measured the same way.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { GeocoderIndexStats } from '../../data-pipeline/geocoding/index/writer.js';
import { measureCommand, type CommandMeasurement } from '../lib/measure-command.js';
import { WAYMARK_BIN } from '../maps/waymark.js';

export interface GeocodingSources {
  osm: string[];
  wof: string[];
  oa: string[];
}

export interface IndexBuild {
  command: CommandMeasurement;
  index: string;
  bytes: number;
  stats: GeocoderIndexStats;
}

/** The flags both commands take for the sources, GeoNames included. */
function sourceArgs(sources: GeocodingSources): string[] {
  return [
    ...sources.osm.flatMap((f) => ['--osm', f]),
    ...sources.wof.flatMap((d) => ['--wof', d]),
    ...sources.oa.flatMap((f) => ['--oa', f]),
    '--geonames',
  ];
}

async function measured(args: string[], logPrefix: string): Promise<CommandMeasurement> {
  const command = await measureCommand(process.execPath, args, { logPrefix });
  if (command.exitCode !== 0) {
    const stderr = readFileSync(command.stderrFile, 'utf8').replace(/\r/g, '\n').trim().split('\n').slice(-5).join('\n');
    throw new Error(`${args.slice(0, 2).join(' ')} failed (${command.signal ?? `exit code ${command.exitCode}`}): ${stderr}`);
  }
  return command;
}

/** DATA/current/geocoder.sqlite, the index an import writes. */
export const importedIndex = (dataDir: string) => join(dataDir, 'current', 'geocoder.sqlite');

function readStats(index: string): GeocoderIndexStats {
  const db = new Database(index, { readonly: true, fileMustExist: true });
  try {
    return JSON.parse((db.prepare("SELECT value FROM meta WHERE key = 'stats'").get() as { value: string }).value) as GeocoderIndexStats;
  } finally {
    db.close();
  }
}

export async function runImport(sources: GeocodingSources, dataDir: string, logDir: string): Promise<IndexBuild> {
  const command = await measured([WAYMARK_BIN, 'import', ...sourceArgs(sources), '--data', dataDir], join(logDir, 'waymark-import'));
  const index = importedIndex(dataDir);
  return { command, index, bytes: statSync(index).size, stats: readStats(index) };
}

/** The index alone; `seconds` is buildGeocoderIndex's own time (no Node start-up). */
export async function buildIndexAlone(sources: GeocodingSources, index: string, logDir: string): Promise<IndexBuild & { seconds: number }> {
  const script = new URL('./build-index.js', import.meta.url).pathname;
  const command = await measured([script, '--out', index, ...sourceArgs(sources)], join(logDir, 'build-index'));
  const { seconds, stats } = JSON.parse(readFileSync(command.stdoutFile, 'utf8')) as { seconds: number; stats: GeocoderIndexStats };
  return { command, index, bytes: statSync(index).size, stats, seconds };
}
