/**
 * A big component's cells contracted on helper threads (data-pipeline/routing/graph/cell-threads.ts)
 * give the graph the cells give on one thread, byte for byte, whichever thread takes a cell and
 * whenever it finishes; its routes are those of a plain Dijkstra over the turns; and helpers take
 * cells only while the import's ThreadLeases has a thread free.
 */
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RoadNetwork } from '../core/routing/network.js';
import { CellThreads } from '../data-pipeline/routing/graph/cell-threads.js';
import { contractHierarchy, type Hierarchy } from '../data-pipeline/routing/graph/contract.js';
import { spatialKeys } from '../data-pipeline/routing/graph/cells.js';
import { buildEdgeBasedGraph } from '../data-pipeline/routing/graph/edge-based.js';
import { excludableNodes, writeRoutingGraph } from '../data-pipeline/routing/graph/write.js';
import { readRoadNetworks } from '../data-pipeline/routing/osm-network.js';
import { ThreadLeases } from '../data-pipeline/threads.js';
import { loadRoutingGraph, openRoutingGraph } from '../core/routing/graph-file.js';
import { route } from '../workers/routing/graph/route.js';
import { snap } from '../workers/routing/graph/snap.js';
import { seededRandom } from './helpers/http.js';
import { referenceDeciseconds } from './helpers/routing.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';

const HEIDELBERG = sharedFile('osm', 'heidelberg.osm.pbf');
const MONACO = sharedFile('osm', 'monaco.osm.pbf');
/** The city of Heidelberg (the extract reaches Kaiserslautern), [west, south, east, north]. */
const HEIDELBERG_CITY = [8.6, 49.36, 8.78, 49.45] as const;

let dir = '';
test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-cell-threads-'));
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

dataTest(
  'Heidelberg cycling in cells of 1,024 nodes on 2 threads: the file of 1 thread, and routes equal to Dijkstra',
  [HEIDELBERG],
  async (t) => {
    // Two builds of a network of 80 k nodes: minutes on a loaded machine, past AVA's inactivity timeout.
    t.timeout(15 * 60_000);
    const { cycling } = await readRoadNetworks([HEIDELBERG], () => {});
    const [serial, threaded] = ['serial', 'threaded'].map((name) => join(dir, `heidelberg-${name}.graph`)) as [string, string];
    writeRoutingGraph(cycling, serial, undefined, { cellNodes: 1024 });
    const stats = writeRoutingGraph(cycling, threaded, undefined, { cellNodes: 1024, threads: 2 });
    t.true(stats.nodes > 40 * 1024, `${stats.nodes} nodes: many cells`);
    t.true(readFileSync(threaded).equals(readFileSync(serial)), 'the same file byte for byte');

    const graph = openRoutingGraph(loadRoutingGraph(threaded).shared);
    const random = seededRandom(27);
    const [west, south, east, north] = HEIDELBERG_CITY;
    const point = () => [west + random() * (east - west), south + random() * (north - south)] as const;
    let routed = 0;
    for (let pair = 0; pair < 100; pair++) {
      const from = snap(graph, ...point(), 500);
      const to = snap(graph, ...point(), 500);
      if (!from || !to) continue;
      const reference = referenceDeciseconds(graph, from, to);
      const leg = route(graph, from, to);
      if (reference === Infinity) {
        t.is(leg, null, `pair ${pair}: a route where Dijkstra finds none`);
        continue;
      }
      routed++;
      const deciseconds = (leg?.duration ?? NaN) * 10;
      t.true(
        Math.abs(deciseconds - reference) <= 2 + 0.002 * reference,
        `pair ${pair}: ${deciseconds / 10} s, Dijkstra ${reference / 10} s`,
      );
    }
    t.true(routed > 80, `${routed} of 100 pairs routed`);
  },
);

/** Monaco walking's hierarchy in cells of 512 nodes, its cells run by `cells` (this thread when absent). */
function hierarchyOf(network: RoadNetwork, cells?: CellThreads): Hierarchy {
  const edgeBased = buildEdgeBasedGraph(network);
  const options = { cellNodes: 512, excludable: excludableNodes(network, edgeBased), spatialKey: spatialKeys(network, edgeBased) };
  try {
    return contractHierarchy(edgeBased, undefined, cells ? { ...options, cells: cells.run } : options);
  } finally {
    cells?.close();
  }
}

/** Both lists of the hierarchy in node order, and its core and overlay: what the file is made of. */
function listsOf(hierarchy: Hierarchy) {
  const columns = (list: Hierarchy['up']) => ({
    first: [...list.first()],
    others: [...list.others()].flatMap((piece) => [...piece]),
    weights: [...list.weights()].flatMap((piece) => [...piece]),
    middles: [...list.middles()].flatMap((piece) => [...piece]),
  });
  return { up: columns(hierarchy.up), down: columns(hierarchy.down), overlay: columns(hierarchy.overlay), core: hierarchy.core };
}

dataTest(
  'helpers take cells while a thread is free, none when the import has none, and the hierarchy stays the same',
  [MONACO],
  async (t) => {
    const { walking } = await readRoadNetworks([MONACO], () => {});
    const serial = listsOf(hierarchyOf(walking));

    const helped = new CellThreads(1);
    t.deepEqual(listsOf(hierarchyOf(walking, helped)), serial);
    t.true(helped.sent > 0, 'a helper took cells');

    // Both threads of the import held (by two builds): the cells stay on the thread contracting.
    const leases = new ThreadLeases(2);
    leases.take();
    leases.take();
    const refused = new CellThreads(1, leases);
    t.deepEqual(listsOf(hierarchyOf(walking, refused)), serial);
    t.is(refused.sent, 0);

    // One free: a helper borrows it while it has cells, and gives it back.
    leases.give();
    const lent = new CellThreads(1, leases);
    t.deepEqual(listsOf(hierarchyOf(walking, lent)), serial);
    t.true(lent.sent > 0);
    t.true(leases.tryTake(), 'the thread was given back');
  },
);
