/**
 * The contraction works one weakly connected component at a time: the components of the turns
 * (nodes without turns in none), a component contracted the same whatever else the network holds
 * (two copies of a network give the same hierarchy twice), and a build's memory estimate that grows
 * with the biggest connected piece, not with the number of pieces.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RoadNetwork } from '../core/routing/network.js';
import { graphBuildBytes } from '../data-pipeline/routing/build-schedule.js';
import { weakComponents } from '../data-pipeline/routing/graph/weak-components.js';
import { writeRoutingGraph } from '../data-pipeline/routing/graph/write.js';
import { RoadNetworkBuilder } from '../data-pipeline/routing/road-network-builder.js';
import { loadRoutingGraph, openRoutingGraph, type RoutingGraph } from '../core/routing/graph-file.js';
import { seededRandom } from './helpers/http.js';

let dir = '';
test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-routing-components-'));
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

/** `copies` n × n grids of random speeds and some oneways (the same in every copy), side by side and not joined. */
function grids(n: number, copies: number): RoadNetwork {
  const builder = new RoadNetworkBuilder('driving', ['']);
  for (let copy = 0; copy < copies; copy++) {
    const random = seededRandom(7);
    const first = copy * n * n;
    for (let j = 0; j < n * n; j++) builder.addJunction();
    const lonLat = (j: number) => [Math.round((copy * n + (j % n)) * 1e4), Math.round((45 + Math.floor(j / n) * 0.001) * 1e7)];
    const add = (from: number, to: number, wayId: number) => {
      const seconds = 5 + Math.floor(random() * 20);
      const kind = random();
      const fields = {
        from: first + from,
        to: first + to,
        distance: 100,
        wayId: copy * 10_000 + wayId,
        name: 0,
        ref: 0,
        roundabout: false,
        travel: 'default',
        backwardTravel: 'default',
      } as const;
      builder.addSegment(
        { ...fields, forwardSeconds: kind < 0.1 ? null : seconds, backwardSeconds: kind > 0.9 ? null : seconds },
        [...lonLat(from), ...lonLat(to)],
        0,
        1,
      );
    };
    for (let y = 0; y < n; y++) for (let x = 0; x + 1 < n; x++) add(y * n + x, y * n + x + 1, 1000 + y);
    for (let x = 0; x < n; x++) for (let y = 0; y + 1 < n; y++) add(y * n + x, (y + 1) * n + x, 2000 + x);
  }
  return builder.finish();
}

function build(network: RoadNetwork, name: string): RoutingGraph {
  const file = join(dir, `${name}.graph`);
  writeRoutingGraph(network, file);
  return openRoutingGraph(loadRoutingGraph(file).shared);
}

test("components are the turns' weakly connected sets, in order of their smallest node; nodes without turns are in none", (t) => {
  // 0 → 1 ← 2, 3 alone, 4 ⇄ 5, 7 → 6.
  const edges: [number, number][] = [
    [0, 1],
    [2, 1],
    [4, 5],
    [5, 4],
    [7, 6],
  ];
  const turnFirst = new Uint32Array(9);
  for (const [from] of edges) turnFirst[from + 1]!++;
  for (let n = 0; n < 8; n++) turnFirst[n + 1]! += turnFirst[n]!;
  const sorted = [...edges].sort((a, b) => a[0] - b[0]);
  const components = weakComponents({
    nodeCount: 8,
    turnFirst,
    turnTarget: Uint32Array.from(sorted, ([, to]) => to),
    turnWeight: new Uint32Array(edges.length),
  });
  t.is(components.count, 3);
  t.deepEqual([...components.first], [0, 3, 5, 7]);
  t.deepEqual([...components.nodes], [0, 1, 2, 4, 5, 6, 7]);
});

test('each component is contracted as if it were alone: two copies of a network give its hierarchy twice', (t) => {
  const one = build(grids(8, 1), 'one');
  const two = build(grids(8, 2), 'two');
  const nodes = one.nodeWeight.length;
  t.is(two.nodeWeight.length, 2 * nodes);
  const lists = [
    ['upFirst', 'upTarget', 'upWeight', 'upMiddle'],
    ['downFirst', 'downSource', 'downWeight', 'downMiddle'],
  ] as const;
  for (const [first, other, weight, middle] of lists) {
    const edges = one[first][nodes]!;
    t.true(edges > 0);
    const shifted = (value: number) => (value < 0 ? value : nodes + value);
    t.deepEqual([...two[first]], [...one[first], ...one[first].slice(1).map((offset) => edges + offset)]);
    t.deepEqual([...two[other]], [...one[other], ...[...one[other]].map(shifted)]);
    t.deepEqual([...two[weight]], [...one[weight], ...one[weight]]);
    t.deepEqual([...two[middle]], [...one[middle], ...[...one[middle]].map(shifted)]);
  }
});

test('the memory estimate of a build grows with the biggest connected piece, not with the pieces beside it', (t) => {
  const single = graphBuildBytes(grids(20, 1));
  const doubled = graphBuildBytes(grids(20, 2));
  const connected = graphBuildBytes(grids(28, 1)); // about as many segments as the two copies
  t.true(doubled > single);
  t.true(doubled < connected, `${doubled} bytes for two copies, ${connected} for one piece as big`);
});
