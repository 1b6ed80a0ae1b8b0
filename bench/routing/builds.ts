/**
 * Part 1 of the routing benchmark: each mode's graph built alone in a child process
 * (build-graph.ts), and the whole `waymark import --osm` into a fresh data folder, each measured
 * with its process tree's wall time, CPU time and peak memory.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RoutingGraphStats } from '../../data-pipeline/routing/graph/write.js';
import type { TravelMode } from '../../core/routing/network.js';
import { waitForQuiet } from '../lib/cpu.js';
import { measureCommand, type CommandMeasurement } from '../lib/measure-command.js';
import { importArgs } from '../maps/waymark.js';

const BUILD_GRAPH = fileURLToPath(new URL('./build-graph.js', import.meta.url));

export interface GraphBuild {
  mode: TravelMode;
  command: CommandMeasurement;
  /** Seconds reading the OSM file into the road networks of all modes. */
  readSeconds: number;
  stats: RoutingGraphStats;
}

/** Runs a measured command (Node by default) after waiting for a quiet machine; throws with the end of its stderr when it fails. */
export async function measuredOk(
  args: string[],
  logPrefix: string,
  quietWaitMs: number,
  program = process.execPath,
): Promise<CommandMeasurement> {
  if (quietWaitMs > 0 && !(await waitForQuiet(0.15, quietWaitMs))) console.error('  (the machine is still busy; measuring anyway)');
  const command = await measureCommand(program, args, { logPrefix });
  if (command.exitCode === 0) return command;
  const stderr = readFileSync(command.stderrFile, 'utf8').replace(/\r/g, '\n').trim().split('\n').slice(-5).join('\n');
  throw new Error(`${args.slice(0, 3).join(' ')} failed (${command.signal ?? `exit code ${command.exitCode}`}): ${stderr}`);
}

export async function buildGraph(osm: string, mode: TravelMode, workDir: string, quietWaitMs: number): Promise<GraphBuild> {
  const command = await measuredOk([BUILD_GRAPH, osm, mode, join(workDir, `${mode}.graph`)], join(workDir, `build-${mode}`), quietWaitMs);
  const printed = JSON.parse(readFileSync(command.stdoutFile, 'utf8')) as RoutingGraphStats & { readSeconds: number };
  const { readSeconds, ...stats } = printed;
  return { mode, command, readSeconds, stats };
}

/** `waymark import --osm OSM --data DATA_DIR` (DATA_DIR fresh), measured. */
export function importDataset(osm: string, dataDir: string, workDir: string, quietWaitMs: number): Promise<CommandMeasurement> {
  return measuredOk(importArgs(osm, dataDir), join(workDir, 'waymark-import'), quietWaitMs);
}
