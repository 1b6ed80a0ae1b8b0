/**
 * Sorting an OSM file by type and id (nodes, then ways, then relations, each by ascending id), the
 * order every osmium reader of the pipeline needs ("Found a way after a relation" otherwise).
 * Editors and Overpass write files in other orders. `osmium sort` holds the whole file in memory,
 * and writes the format the output's name says.
 */
import { basename } from 'node:path';
import type { ProgressReporter } from '../progress.js';
import { runOsmium } from './osmium.js';

export async function sortOsmFile(input: string, output: string, onProgress: ProgressReporter, signal?: AbortSignal): Promise<void> {
  await runOsmium('sort', ['-o', output], input, { progress: { phase: `sorting ${basename(input)}`, onProgress }, signal });
}
