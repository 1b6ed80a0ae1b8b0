/**
 * workers/routing/graph/pieces.ts on a hand-built network: the segment of each point of the
 * polylines, which segments are no place to start (a ferry, a way flagged no start), the bits of
 * each piece (none, NO_START, EXCLUDED in a view whose road is impassable), which side of a piece a
 * point lies on, and the directions of travel along a piece within a bearing filter (a oneway's one).
 */
import test from 'ava';
import { GUIDANCE_NO_START } from '../../core/routing/network.js';
import { IMPASSABLE } from '../../core/routing/graph-format.js';
import type { RoutingGraph } from '../../core/routing/graph-file.js';
import {
  BACKWARD,
  BOTH,
  EXCLUDED,
  FORWARD,
  headingsOf,
  isRightOf,
  NO_START,
  pieceBitsOf,
  segmentOfPoint,
  startsNowhere,
} from '../../workers/routing/graph/pieces.js';
import { fixtureGraph } from './road-fixture.js';

// Points of the polylines, segment by segment: 0–2 Main Street east (with a point between), 3–4 a
// oneway north, 5–6 a ferry east, 7–8 a private road south (no start).
const { graph } = fixtureGraph(
  [
    [0, 45],
    [0.002, 45],
    [0.002, 45.002],
    [0.004, 45],
    [0, 44.998],
  ],
  [
    { from: 0, to: 1, forward: 20, backward: 20, wayId: 1, name: 'Main Street', via: [[0.001, 45]] },
    { from: 1, to: 2, forward: 15, backward: null, wayId: 2, name: 'North Road' },
    { from: 1, to: 3, forward: 300, backward: 300, wayId: 3, travel: 'ferry' },
    { from: 0, to: 4, forward: 20, backward: 20, wayId: 4, guidance: GUIDANCE_NO_START },
  ],
);

test('the segment of each point of the polylines', (t) => {
  t.deepEqual(
    Array.from({ length: 9 }, (_, point) => segmentOfPoint(graph, point)),
    [0, 0, 0, 1, 1, 2, 2, 3, 3],
  );
});

test('a ferry and a way flagged GUIDANCE_NO_START are no place to start or end; roads, oneways included, are', (t) => {
  t.deepEqual(
    [0, 1, 2, 3].map((segment) => startsNowhere(graph, segment)),
    [false, false, true, true],
  );
});

/** Each piece's first point and its bits, in piece order. */
const bitsByPoint = (view: RoutingGraph) => Array.from(pieceBitsOf(view), (bits, piece) => [view.piecePoint[piece]!, bits]);

test("each piece's bits: NO_START on the ferry's and the private road's, EXCLUDED (and NO_START) where a view makes a road impassable", (t) => {
  t.deepEqual(bitsByPoint(graph), [
    [0, 0],
    [1, 0],
    [3, 0],
    [5, NO_START],
    [7, NO_START],
  ]);
  // Main Street impassable both ways, as exclude.ts's views make an excluded road: no direction
  // left to start in either.
  const nodeWeight = graph.nodeWeight.slice();
  nodeWeight[0] = IMPASSABLE;
  nodeWeight[1] = IMPASSABLE;
  t.deepEqual(bitsByPoint({ ...graph, nodeWeight }), [
    [0, EXCLUDED | NO_START],
    [1, EXCLUDED | NO_START],
    [3, 0],
    [5, NO_START],
    [7, NO_START],
  ]);
});

test('a point is right of a piece on its right-hand side and on its line, not on its left', (t) => {
  // The piece from point 0 (0, 45) east to point 1 (0.001, 45).
  t.true(isRightOf(graph.coordinates, 0, [0.0005, 44.9999]));
  t.true(isRightOf(graph.coordinates, 0, [0.0005, 45]));
  t.false(isRightOf(graph.coordinates, 0, [0.0005, 45.0001]));
  // Travelled the other way (the piece of the oneway north, from point 3): east is right.
  t.true(isRightOf(graph.coordinates, 3, [0.0021, 45.001]));
  t.false(isRightOf(graph.coordinates, 3, [0.0019, 45.001]));
});

test('the directions along a piece within a bearing filter: east forwards, west backwards, a oneway only its way', (t) => {
  // Main Street's first piece heads east (90°) forwards, west (270°) backwards.
  t.is(headingsOf(graph, 0, { value: 90, range: 10 }), FORWARD);
  t.is(headingsOf(graph, 0, { value: 270, range: 10 }), BACKWARD);
  t.is(headingsOf(graph, 0, { value: 0, range: 10 }), 0);
  // North with 90° either side reaches both, each exactly 90° off; 89° neither.
  t.is(headingsOf(graph, 0, { value: 0, range: 90 }), BOTH);
  t.is(headingsOf(graph, 0, { value: 0, range: 89 }), 0);
  t.is(headingsOf(graph, 0, { value: 180, range: 180 }), BOTH);
  // Within a range of 10° either side, 80° and 100° included, 79° not.
  t.is(headingsOf(graph, 0, { value: 80, range: 10 }), FORWARD);
  t.is(headingsOf(graph, 0, { value: 79, range: 10 }), 0);
  // North Road is a oneway north: heading south along it is no direction of travel.
  t.is(headingsOf(graph, 3, { value: 0, range: 10 }), FORWARD);
  t.is(headingsOf(graph, 3, { value: 180, range: 10 }), 0);
  // Across 0°: 355° ± 10 takes north.
  t.is(headingsOf(graph, 3, { value: 355, range: 10 }), FORWARD);
});
