/**
 * Child process of the routing benchmark: builds one travel mode's graph file from an OSM extract,
 * as an import does (all modes' road networks read in one pass, then this mode contracted and
 * written), so that its wall time and peak memory can be measured alone. Prints one JSON line:
 * the seconds spent reading the networks and the graph's RoutingGraphStats.
 *
 *   node dist/bench/routing/build-graph.js OSM_FILE MODE OUT_FILE
 */
import { performance } from 'node:perf_hooks';
import { writeRoutingGraph } from '../../data-pipeline/routing/graph/write.js';
import { TRAVEL_MODES, type TravelMode } from '../../core/routing/network.js';
import { readRoadNetworks } from '../../data-pipeline/routing/osm-network.js';

const [osm, mode, out] = process.argv.slice(2);
if (!osm || !out || !TRAVEL_MODES.includes(mode as TravelMode)) {
  console.error(`usage: build-graph.js OSM_FILE ${TRAVEL_MODES.join('|')} OUT_FILE`);
  process.exit(2);
}
const started = performance.now();
const networks = await readRoadNetworks([osm], () => undefined);
const readSeconds = (performance.now() - started) / 1000;
const stats = writeRoutingGraph(networks[mode as TravelMode], out);
console.log(JSON.stringify({ readSeconds, ...stats }));
