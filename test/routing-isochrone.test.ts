import test from 'ava';
import type { Feature, Geometry, MultiPolygon, Polygon, Position } from 'geojson';
import type { ReachedPiece } from '../workers/routing/path.js';
import { isochroneFeatures, type IsochroneProperties } from '../workers/routing/isochrone/isochrone-features.js';
import { localProjection } from '../workers/routing/isochrone/local-projection.js';
import { MAX_CELLS_PER_SIDE, timeGrid } from '../workers/routing/isochrone/time-grid.js';
import type { LonLat } from '../core/geo/types.js';

const CENTER: LonLat = [7.42, 43.73];
const projection = localProjection(CENTER);
const SPEED = 10; // metres per second along the synthetic roads

/** A road from metric point `from` to `to` (metres from the centre), reached at `startSeconds` at `from`. */
function road(from: LonLat, to: LonLat, startSeconds: number, pointEvery = 100): ReachedPiece {
  const length = Math.hypot(to[0] - from[0], to[1] - from[1]);
  const count = Math.max(1, Math.ceil(length / pointEvery));
  const coordinates: LonLat[] = [];
  const seconds: number[] = [];
  for (let i = 0; i <= count; i++) {
    const f = i / count;
    coordinates.push(projection.toLonLat([from[0] + (to[0] - from[0]) * f, from[1] + (to[1] - from[1]) * f]));
    seconds.push(startSeconds + (length * f) / SPEED);
  }
  return { coordinates, seconds };
}

/** Eight straight roads of `length` metres out of the centre. */
const star = (length: number) =>
  Array.from({ length: 8 }, (_, k) => road([0, 0], [length * Math.cos((k * Math.PI) / 4), length * Math.sin((k * Math.PI) / 4)], 0));

/** A street grid 4 km square, streets 1 km apart, the centre on a crossing; time is the Manhattan distance. */
function streetGrid(): ReachedPiece[] {
  const pieces: ReachedPiece[] = [];
  for (let a = -2000; a <= 2000; a += 1000) {
    for (let b = -2000; b < 2000; b += 1000) {
      // Each block side is travelled from its end nearer to the centre.
      const [near, far] = Math.abs(b) <= Math.abs(b + 1000) ? [b, b + 1000] : [b + 1000, b];
      const seconds = (Math.abs(a) + Math.abs(near)) / SPEED;
      pieces.push(road([near, a], [far, a], seconds), road([a, near], [a, far], seconds));
    }
  }
  return pieces;
}

function insideRing(point: Position, ring: Position[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]! as LonLat;
    const [xj, yj] = ring[j]! as LonLat;
    if (yi > point[1]! !== yj > point[1]! && point[0]! < ((xj - xi) * (point[1]! - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

const polygonsOf = (geometry: Geometry): Position[][][] =>
  geometry.type === 'Polygon' ? [geometry.coordinates] : (geometry as MultiPolygon).coordinates;

function inside(point: Position, geometry: Geometry): boolean {
  return polygonsOf(geometry).some(([outer, ...holes]) => insideRing(point, outer!) && !holes.some((hole) => insideRing(point, hole)));
}

const signedArea = (ring: Position[]) => ring.slice(1).reduce((sum, p, k) => sum + ring[k]![0]! * p[1]! - p[0]! * ring[k]![1]!, 0) / 2;
const area = (geometry: Geometry) =>
  polygonsOf(geometry).reduce((sum, rings) => sum + rings.reduce((s, ring) => s + signedArea(ring), 0), 0);
const vertices = (geometry: Geometry) => polygonsOf(geometry).flat(2);

/** Each feature's every vertex lies inside the next larger feature. */
function assertNested(t: any, features: Feature<Geometry, IsochroneProperties>[]) {
  for (let k = 1; k < features.length; k++) {
    const outer = features[k - 1]!.geometry;
    const strays = vertices(features[k]!.geometry).filter((vertex) => !inside(vertex, outer));
    t.is(strays.length, 0, `${features[k]!.properties.contour} min inside ${features[k - 1]!.properties.contour} min`);
  }
}

test('a star of roads: one feature per contour, largest first, nested, around the centre, growing', (t) => {
  const body = isochroneFeatures(star(3000), CENTER, [1, 4, 2], { mode: 'driving', polygons: true });
  t.is(body.type, 'FeatureCollection');
  t.deepEqual(
    body.features.map((f) => f.properties),
    [
      { contour: 4, mode: 'driving' },
      { contour: 2, mode: 'driving' },
      { contour: 1, mode: 'driving' },
    ],
  );
  for (const feature of body.features) {
    t.is(feature.type, 'Feature');
    t.true(inside(CENTER, feature.geometry), `${feature.properties.contour} min holds the centre`);
    t.true(feature.geometry.type === 'Polygon' || feature.geometry.type === 'MultiPolygon');
  }
  assertNested(t, body.features);
  const [four, two, one] = body.features.map((f) => area(f.geometry)) as [number, number, number];
  t.true(four > two && two > one && one > 0);
  // 2 min at 10 m/s is 1200 m along each road: reached at 1100 m, not at 1400 m, nor between the roads.
  const two_ = body.features[1]!.geometry;
  t.true(inside(projection.toLonLat([1100, 0]), two_));
  t.false(inside(projection.toLonLat([1400, 0]), two_));
  t.false(inside(projection.toLonLat([700, 300]), two_));
});

test('GeoJSON ring order: exteriors anticlockwise, holes clockwise, rings closed', (t) => {
  const body = isochroneFeatures(streetGrid(), CENTER, [10], { mode: 'walking', polygons: true });
  for (const rings of polygonsOf(body.features[0]!.geometry)) {
    rings.forEach((ring, index) => {
      t.deepEqual(ring[0], ring.at(-1));
      t.is(signedArea(ring) > 0, index === 0);
    });
  }
});

test('a street grid: the blocks between streets are holes, the whole grid is reached', (t) => {
  const body = isochroneFeatures(streetGrid(), CENTER, [10, 3], { mode: 'walking', polygons: true });
  const [ten, three] = body.features as [Feature<Geometry, IsochroneProperties>, Feature<Geometry, IsochroneProperties>];
  t.is(ten.geometry.type, 'Polygon');
  t.is((ten.geometry as Polygon).coordinates.length, 1 + 16, 'one exterior and one hole per block');
  t.true(inside(projection.toLonLat([1990, -2000]), ten.geometry));
  t.false(inside(projection.toLonLat([500, 500]), ten.geometry), 'the middle of a block');
  // 3 min = 1800 m of Manhattan distance: the street to (1000, 700) but not (1000, 900).
  t.true(inside(projection.toLonLat([1000, 700]), three.geometry));
  t.false(inside(projection.toLonLat([1000, 900]), three.geometry));
  assertNested(t, body.features);
});

test('polygons=false gives the outlines as lines', (t) => {
  const grid = isochroneFeatures(streetGrid(), CENTER, [10], { mode: 'cycling', polygons: false }).features[0]!;
  t.is(grid.geometry.type, 'MultiLineString');
  const areaOf = isochroneFeatures(streetGrid(), CENTER, [10], { mode: 'cycling', polygons: true }).features[0]!;
  t.deepEqual((grid.geometry as { coordinates: Position[][] }).coordinates, (areaOf.geometry as Polygon).coordinates);
  const line = isochroneFeatures(star(3000), CENTER, [1], { mode: 'cycling', polygons: false }).features[0]!;
  t.is(line.geometry.type, 'LineString');
});

test('an empty reach is a small area around the centre', (t) => {
  const body = isochroneFeatures([], CENTER, [5, 10], { mode: 'driving', polygons: true });
  t.is(body.features.length, 2);
  for (const feature of body.features) {
    t.is(feature.geometry.type, 'Polygon');
    t.true(inside(CENTER, feature.geometry));
    for (const vertex of vertices(feature.geometry)) t.true(Math.hypot(...projection.toMetres(vertex as LonLat)) < 200);
  }
});

test('generalize simplifies the rings and keeps the centre inside', (t) => {
  const exact = isochroneFeatures(star(3000), CENTER, [4], { mode: 'driving', polygons: true }).features[0]!;
  const general = isochroneFeatures(star(3000), CENTER, [4], { mode: 'driving', polygons: true, generalize: 150 }).features[0]!;
  t.true(vertices(general.geometry).length < vertices(exact.geometry).length / 2);
  t.true(inside(CENTER, general.geometry));
  const huge = isochroneFeatures(star(3000), CENTER, [4], { mode: 'driving', polygons: true, generalize: 10_000 }).features[0]!;
  t.true(inside(CENTER, huge.geometry));
});

test('the grid stays bounded however far the reach goes', (t) => {
  const far = star(120_000).map((piece) => ({
    points: piece.coordinates.map(projection.toMetres),
    seconds: piece.seconds,
  }));
  const grid = timeGrid(far);
  t.true(grid.width <= MAX_CELLS_PER_SIDE + 1 && grid.height <= MAX_CELLS_PER_SIDE + 1);
  const started = performance.now();
  const body = isochroneFeatures(star(120_000), CENTER, [60, 30, 15, 5], { mode: 'driving', polygons: true });
  t.true(performance.now() - started < 2000);
  assertNested(t, body.features);
  for (const feature of body.features) t.true(inside(CENTER, feature.geometry));
});

test('points the search reached beyond the budget do not widen the contour', (t) => {
  const short = isochroneFeatures([road([0, 0], [1000, 0], 0)], CENTER, [1], { mode: 'walking', polygons: true });
  const long = isochroneFeatures([road([0, 0], [5000, 0], 0)], CENTER, [1], { mode: 'walking', polygons: true });
  t.false(inside(projection.toLonLat([800, 0]), long.features[0]!.geometry));
  t.true(Math.abs(area(short.features[0]!.geometry) - area(long.features[0]!.geometry)) < 0.1 * area(short.features[0]!.geometry));
});
