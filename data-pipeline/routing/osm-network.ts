/**
 * Builds the road network of every travel mode from OSM files (.osm.pbf or .osm) in one read of
 * each file: osmium streams the objects the profiles of `profiles/` read (see
 * osm-network/osmium-opl.ts), the profiles judge their tags, and each mode's ways are cut into
 * segments at its junctions. Nodes shared by several files (overlapping or adjacent extracts) join
 * their ways.
 */
import type { ProgressReporter } from '../progress.js';
import { TRAVEL_MODES, type RoadNetwork, type TravelMode } from '../../core/routing/network.js';
import { RoutingObjects } from './osm-network/objects.js';
import { readRoutingOpl } from './osm-network/osmium-opl.js';
import { buildNetwork } from './osm-network/segments.js';
import { OSM_FILTER, PROFILES } from './profiles/index.js';

/** An abort of `signal` stops the read (osmium) and throws its reason. */
export async function readRoadNetworks(
  osmFiles: string[],
  onProgress: ProgressReporter,
  signal?: AbortSignal,
): Promise<Record<TravelMode, RoadNetwork>> {
  const objects = new RoutingObjects(TRAVEL_MODES.map((mode) => PROFILES[mode]));
  for (const [index, file] of osmFiles.entries()) {
    const phase = osmFiles.length === 1 ? 'read OSM roads' : `read OSM roads (file ${index + 1} of ${osmFiles.length})`;
    if (index > 0) objects.nextFile();
    await readRoutingOpl(
      file,
      OSM_FILTER,
      (line) => objects.add(line),
      (done, total) => onProgress({ phase, done, total, unit: 'bytes' }),
      signal,
    );
  }
  const { read, incomplete } = objects.restrictionCounts;
  onProgress({
    phase: 'turn restrictions usable (incomplete ones skipped)',
    done: read - incomplete,
    total: read,
    unit: 'relations',
  });
  const ways = objects.finish();
  const networks = {} as Record<TravelMode, RoadNetwork>;
  for (const [index, mode] of TRAVEL_MODES.entries()) {
    onProgress({ phase: 'build road networks', done: index, total: TRAVEL_MODES.length, unit: 'modes' });
    networks[mode] = buildNetwork(ways, index);
  }
  onProgress({ phase: 'build road networks', done: TRAVEL_MODES.length, total: TRAVEL_MODES.length, unit: 'modes' });
  return networks;
}
