/**
 * Via-way and multi-via turn restrictions (OSM `type=restriction` relations whose `via` members are
 * ways), through the real pipeline (OSM XML → road network → edge-based graph with duplicated nodes
 * → contraction → graph file) and the query side: a `no_*` one forbids its turn only to who came
 * along the whole via path from the from way, an `only_*` one (and an overlapping second one, a
 * transfer) allows nothing else there, a via-node restriction on the via path still holds on the
 * duplicates, and routes the restrictions do not cover (another start, a start or an end on the via
 * way) are unaffected. The layouts are those of OSRM v6's acceptance scenarios of the same names.
 */
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readHeader, sectionLayout } from '../core/routing/graph-format.js';
import { readRoadNetworks } from '../data-pipeline/routing/osm-network.js';
import { endpointOfSnap, targetOfSnap } from '../workers/routing/graph/endpoint.js';
import { openRoutingGraph, type RoutingGraph } from '../core/routing/graph-file.js';
import { manyToMany } from '../workers/routing/graph/many-to-many.js';
import { route } from '../workers/routing/graph/route.js';
import { snap } from '../workers/routing/graph/snap.js';
import type { RouteLeg } from '../workers/routing/path.js';
import { graphOf, referenceDeciseconds } from './helpers/routing.js';

/** A grid cell, in degrees (about 110 m). */
const CELL = 0.001;
const ORIGIN = { lon: 8, lat: 48 };

interface Layout {
  /** Node name → [column, row] on the grid (row up). */
  nodes: Record<string, [number, number]>;
  /** Ways: the node names in order, and tags. */
  ways: { nodes: string; tags: Record<string, string> }[];
  /** Restriction relations: from way, via ways (indices into `ways`, 1-based as way ids) or a via node name, to way. */
  relations: { from: number; via: number[] | string; to: number; restriction: string }[];
}

function osmXml({ nodes, ways, relations }: Layout): string {
  const names = Object.keys(nodes);
  const nodeId = (name: string) => names.indexOf(name) + 1;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="waymark test">'];
  for (const name of names) {
    const [x, y] = nodes[name]!;
    lines.push(`  <node id="${nodeId(name)}" lat="${ORIGIN.lat + y * CELL}" lon="${ORIGIN.lon + x * CELL}" version="1"/>`);
  }
  ways.forEach((way, i) => {
    lines.push(`  <way id="${i + 1}" version="1">`);
    for (const name of way.nodes) lines.push(`    <nd ref="${nodeId(name)}"/>`);
    for (const [k, v] of Object.entries(way.tags)) lines.push(`    <tag k="${k}" v="${v}"/>`);
    lines.push('  </way>');
  });
  relations.forEach((relation, i) => {
    lines.push(`  <relation id="${i + 1}" version="1">`);
    lines.push(`    <member type="way" ref="${relation.from}" role="from"/>`);
    if (typeof relation.via === 'string') lines.push(`    <member type="node" ref="${nodeId(relation.via)}" role="via"/>`);
    else for (const way of relation.via) lines.push(`    <member type="way" ref="${way}" role="via"/>`);
    lines.push(`    <member type="way" ref="${relation.to}" role="to"/>`);
    lines.push('    <tag k="type" v="restriction"/>');
    lines.push(`    <tag k="restriction" v="${relation.restriction}"/>`);
    lines.push('  </relation>');
  });
  lines.push('</osm>');
  return lines.join('\n');
}

let dir = '';
test.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'waymark-via-way-'));
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

interface Built {
  graph: RoutingGraph;
  file: string;
  layout: Layout;
  pathCount: number;
}

async function build(name: string, layout: Layout): Promise<Built> {
  const osm = join(dir, `${name}.osm`);
  writeFileSync(osm, osmXml(layout));
  const { driving } = await readRoadNetworks([osm], () => {});
  const file = join(dir, `${name}.graph`);
  return { graph: graphOf(driving, file), file, layout, pathCount: driving.restrictions.pathCount };
}

/** The position of a node of the layout, or `share` of the way from node `a` to node `b`. */
function position(layout: Layout, a: string, b?: string, share = 0.5): [number, number] {
  const [ax, ay] = layout.nodes[a]!;
  const [bx, by] = b === undefined ? [ax, ay] : layout.nodes[b]!;
  return [ORIGIN.lon + (ax + share * (bx - ax)) * CELL, ORIGIN.lat + (ay + share * (by - ay)) * CELL];
}

function leg({ graph, layout }: Built, from: [string, string?], to: [string, string?]): RouteLeg | null {
  const [fromLon, fromLat] = position(layout, ...from);
  const [toLon, toLat] = position(layout, ...to);
  return route(graph, snap(graph, fromLon, fromLat, 50)!, snap(graph, toLon, toLat, 50)!);
}

/** The names of a route's runs (consecutive segments of one name make one run), or null without a route. */
function names(built: Built, from: [string, string?], to: [string, string?]): string[] | null {
  const found = leg(built, from, to);
  return found === null ? null : found.segments.map((segment) => segment.name);
}

const street = (name: string, oneway = false) => ({ highway: 'residential', name, ...(oneway ? { oneway: 'yes' } : {}) });

/**
 *     c
 *     |
 *     |   f
 *     |   |
 *     b---e
 *     |   |
 *     a   d
 * no_right_turn from ab via be to ed: who comes from a must turn round at f's dead end to reach d.
 */
const PROHIBIT: Layout = {
  nodes: { a: [0, 0], b: [0, 1], c: [0, 3], d: [1, 0], e: [1, 1], f: [1, 2] },
  ways: [
    { nodes: 'ab', tags: street('ab') },
    { nodes: 'bc', tags: street('bc') },
    { nodes: 'be', tags: street('be') },
    { nodes: 'de', tags: street('de') },
    { nodes: 'ef', tags: street('ef') },
  ],
  relations: [{ from: 1, via: [3], to: 4, restriction: 'no_right_turn' }],
};

test('no_* via a way: coming from the from way, the turn at the end of the via way is forbidden', async (t) => {
  const built = await build('prohibit', PROHIBIT);
  t.is(built.pathCount, 1);
  t.is(built.graph.duplicateOf.length, 1, 'one duplicate: be travelled from b after ab');
  t.deepEqual(names(built, ['a'], ['d']), ['ab', 'be', 'ef', 'ef', 'de'], 'round by the dead end of ef (the way back is a run of its own)');
  const detour = leg(built, ['a'], ['d'])!;
  // ab 111 m, be 74 m, ef and back 222 m, ed 111 m; the forbidden turn would save 222 m.
  t.true(detour.distance > 500, `${detour.distance} m: up to f and back`);
  // Routes the restriction does not cover.
  t.deepEqual(names(built, ['a'], ['f']), ['ab', 'be', 'ef']);
  t.deepEqual(names(built, ['c'], ['d']), ['bc', 'be', 'de'], 'from bc the turn is allowed');
  t.deepEqual(names(built, ['b', 'e'], ['d']), ['be', 'de'], 'a start on the via way did not come from ab');
  t.deepEqual(names(built, ['a'], ['b', 'e']), ['ab', 'be'], 'an end on the via way is reached from the from way');
  t.deepEqual(names(built, ['d'], ['a']), ['de', 'be', 'ab'], 'the other direction is not restricted');
});

test('no_* via a way: the matrix, the reference Dijkstra and the route agree on the detour', async (t) => {
  const built = await build('prohibit-matrix', PROHIBIT);
  const { graph, layout } = built;
  const at = (name: string) => snap(graph, ...position(layout, name), 50)!;
  const detour = leg(built, ['a'], ['d'])!;
  const reference = referenceDeciseconds(graph, at('a'), at('d'));
  t.true(Math.abs(detour.duration * 10 - reference) < 1, `${detour.duration} s, reference ${reference / 10} s`);
  const matrix = manyToMany(graph, [endpointOfSnap(graph, at('a'))], [targetOfSnap(graph, at('d')), targetOfSnap(graph, at('f'))]);
  t.true(Math.abs(matrix.time[0]! - detour.duration * 10) < 1, `matrix ${matrix.time[0]! / 10} s, route ${detour.duration} s`);
  t.true(Math.abs(matrix.metres[0]! - detour.distance) < 1, `matrix ${matrix.metres[0]} m, route ${detour.distance} m`);
  t.true(matrix.metres[0]! > 500, `matrix ${matrix.metres[0]} m: the detour, not the forbidden turn`);
  const toMiddle = manyToMany(
    graph,
    [endpointOfSnap(graph, at('a'))],
    [targetOfSnap(graph, snap(graph, ...position(layout, 'b', 'e'), 50)!)],
  );
  t.true(Number.isFinite(toMiddle.time[0]!), 'the middle of the via way is reached in the matrix too');
});

/**
 *     a       f       j
 *     |       |       |
 *     b---d---e---i---k---m
 *     |       |       |
 *     c       g       l
 * All oneway as drawn (ab down, cb up, the row rightwards, ef/kj up, eg/kl down). only_straight_on
 * from ab via bd, de to ei, and from de via ei, ik to km: who comes from a must go on to m (the first
 * restriction hands over to the second where their via paths overlap); who comes from c only from e on.
 */
const ONLY: Layout = {
  nodes: {
    a: [0, 1],
    b: [0, 0],
    c: [0, -1],
    d: [1, 0],
    e: [2, 0],
    f: [2, 1],
    g: [2, -1],
    i: [3, 0],
    k: [4, 0],
    j: [4, 1],
    l: [4, -1],
    m: [5, 0],
  },
  ways: [
    { nodes: 'ab', tags: street('down', true) },
    { nodes: 'cb', tags: street('up', true) },
    { nodes: 'bd', tags: street('right', true) },
    { nodes: 'de', tags: street('right', true) },
    { nodes: 'ef', tags: street('up', true) },
    { nodes: 'eg', tags: street('down', true) },
    { nodes: 'ei', tags: street('right', true) },
    { nodes: 'ik', tags: street('right', true) },
    { nodes: 'kj', tags: street('up', true) },
    { nodes: 'kl', tags: street('down', true) },
    { nodes: 'km', tags: street('right', true) },
  ],
  relations: [
    { from: 1, via: [3, 4], to: 7, restriction: 'only_straight_on' },
    { from: 4, via: [7, 8], to: 11, restriction: 'only_straight_on' },
  ],
};

test('only_* via several ways, and a second one overlapping it: nothing but the allowed turns', async (t) => {
  const built = await build('only', ONLY);
  t.is(built.pathCount, 2);
  t.true(built.graph.duplicateOf.length >= 4, `${built.graph.duplicateOf.length} duplicates`);
  for (const to of ['f', 'g', 'j', 'l']) t.is(names(built, ['a'], [to]), null, `a → ${to}: only straight on, twice`);
  t.deepEqual(names(built, ['a'], ['m']), ['down', 'right']);
  // From c the first restriction does not apply; the second one does from e on.
  t.deepEqual(names(built, ['c'], ['f']), ['up', 'right', 'up']);
  t.deepEqual(names(built, ['c'], ['g']), ['up', 'right', 'down']);
  t.is(names(built, ['c'], ['j']), null);
  t.is(names(built, ['c'], ['l']), null);
  t.deepEqual(names(built, ['c'], ['m']), ['up', 'right']);
  // From i neither applies.
  t.deepEqual(names(built, ['i'], ['j']), ['right', 'up']);
  t.deepEqual(names(built, ['i'], ['l']), ['right', 'down']);
});

/**
 *       1   2   3          4         5
 *     a---b---c---d---e---------f---------g
 *                     |         |         |
 *                     |         |         |
 *                 x---h---------i---------j
 * Oneway as drawn (the top row rightwards, down the columns, the bottom row leftwards).
 * no_right_turn from ab via bc, cd, de, ef to fi, and no_right_turn from de via node e to eh: from
 * ab neither turn is allowed, so the route goes on to g; from bc on, only the via-node one applies.
 */
const MULTI: Layout = {
  nodes: {
    a: [0, 0],
    b: [1, 0],
    c: [2, 0],
    d: [3, 0],
    e: [4, 0],
    f: [6.5, 0],
    g: [9, 0],
    h: [4, -1.5],
    i: [6.5, -1.5],
    j: [9, -1.5],
    x: [3, -1.5],
  },
  ways: [
    { nodes: 'ab', tags: street('forward', true) },
    { nodes: 'bc', tags: street('forward', true) },
    { nodes: 'cd', tags: street('forward', true) },
    { nodes: 'de', tags: street('forward', true) },
    { nodes: 'ef', tags: street('forward', true) },
    { nodes: 'fg', tags: street('forward', true) },
    { nodes: 'eh', tags: street('first', true) },
    { nodes: 'fi', tags: street('second', true) },
    { nodes: 'gj', tags: street('third', true) },
    { nodes: 'ih', tags: street('back', true) },
    { nodes: 'ji', tags: street('back', true) },
    { nodes: 'hx', tags: street('back', true) },
  ],
  relations: [
    { from: 1, via: [2, 3, 4, 5], to: 8, restriction: 'no_right_turn' },
    { from: 4, via: 'e', to: 7, restriction: 'no_right_turn' },
  ],
};

test('multi-via no_*: only who came from the from way is kept off the to way; a via-node restriction on the via path holds', async (t) => {
  const built = await build('multi', MULTI);
  t.is(built.pathCount, 1);
  t.is(built.graph.duplicateOf.length, 4, 'bc, cd, de and ef after ab');
  t.deepEqual(names(built, ['a', 'b'], ['x']), ['forward', 'third', 'back']);
  t.deepEqual(names(built, ['b', 'c'], ['x']), ['forward', 'second', 'back']);
  t.deepEqual(names(built, ['c', 'd'], ['x']), ['forward', 'second', 'back']);
  t.deepEqual(names(built, ['e', 'f'], ['x']), ['forward', 'second', 'back']);
  t.deepEqual(names(built, ['f', 'g'], ['x']), ['forward', 'third', 'back']);
  t.deepEqual(names(built, ['e', 'h'], ['x']), ['first', 'back']);
  t.deepEqual(names(built, ['a', 'b'], ['e', 'f']), ['forward'], 'the end on the via path is reached');
});

test('a via-way restriction whose ways do not join end to end is dropped, as OSRM drops it', async (t) => {
  const built = await build('unjoined', {
    ...PROHIBIT,
    // bc (from b up to c) does not reach de: the via way's far end is c.
    relations: [{ from: 1, via: [2], to: 4, restriction: 'no_right_turn' }],
  });
  t.is(built.pathCount, 0);
  t.is(built.graph.duplicateOf.length, 0);
  t.deepEqual(names(built, ['a'], ['d']), ['ab', 'be', 'de']);
});

test('the graph file keeps the duplicates; a duplicate of a node past the segments is refused', async (t) => {
  const { file, graph } = await build('file', PROHIBIT);
  t.is(graph.nodeCount, 2 * graph.segmentCount + 1);
  t.true(graph.duplicateOf[0]! < 2 * graph.segmentCount);
  const bytes = readFileSync(file);
  const layout = sectionLayout(readHeader(new Uint8Array(bytes).buffer));
  const corrupt = Buffer.from(bytes);
  corrupt.writeUInt32LE(2 * graph.segmentCount, layout.sections.duplicateOf.offset);
  const shared = new SharedArrayBuffer(corrupt.length);
  new Uint8Array(shared).set(corrupt);
  t.throws(() => openRoutingGraph(shared), { message: /corrupt/ });
});
