/**
 * The world backdrop at every zoom. The import writes the world layer (Natural Earth sea and
 * borders, country names, GeoNames places) only up to its deepest zoom, 7; the extracts' own
 * tiles carry land and sea beyond it inside their boxes. A tile deeper than 7 that is not wholly
 * inside an extract's box is answered here: the world layers of its zoom-7 ancestor, cut to the
 * tile and scaled (overzoomed, as MapLibre would do on the client), with everything inside the
 * extracts' boxes cut away, and the stored tile's own features drawn over them. So the extract's
 * detailed coastline and borders never meet a second, coarse copy, and vector tiles, raster tiles
 * and static maps (which all read tiles through here) show the same backdrop. Tiles inside a box
 * are the stored ones, unchanged.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { VectorTile, type VectorTileLayer } from '@mapbox/vector-tile';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { clipPolygon, clipPolyline } from 'lineclip';
import { PbfReader } from 'pbf';
import { WORLD_METADATA_KEY, type WorldBackdrop } from '../dataset-layout.js';
import { ringContains, signedRingArea } from '../geo/rings.js';
import { oceanPolygons } from '../geo/sea-polygons.js';
import type { MbtilesReader, StoredTile } from './mbtiles.js';

/** The Shortbread layers the world layer writes; the ancestor's other layers are the extracts' own. */
const WORLD_LAYERS = ['ocean', 'boundaries', 'boundary_labels', 'place_labels'] as const;
const EXTENT = 4096;
/** Tile units kept beyond the tile's edge (geojson-vt's default buffer), so shapes join across tiles. */
const BUFFER = 64;
/**
 * How far the world's sea reaches into an extract's box, in tile units: where it meets the
 * extract's own sea at the box's edge the two fills overlap instead of abutting, which would leave
 * an anti-aliased hairline. Overlapping fills need the same winding (inTileWinding).
 */
const FILL_OVERLAP = 8;
/** Decoded zoom-7 ancestors kept per archive (a view asks for the same few over and over). */
const ANCESTORS_KEPT = 64;

type Point = [number, number];
type Box = [minX: number, minY: number, maxX: number, maxY: number];
interface Feature {
  type: 1 | 2 | 3;
  geometry: Point[] | Point[][];
  tags: Record<string, unknown>;
}
type Layers = Map<string, Feature[]>;

/** Tile units of a longitude / latitude within tile x / y of zoom z (Web Mercator). */
const unitX = (lon: number, z: number, x: number) => (((lon + 180) / 360) * 2 ** z - x) * EXTENT;
function unitY(lat: number, z: number, y: number): number {
  const sin = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
  return ((0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * 2 ** z - y) * EXTENT;
}

/** The parts of `box` outside `hole`, as boxes. `overlap` makes them overlap each other (for fills, so no seam shows). */
function boxesAround(box: Box, hole: Box, overlap: boolean): Box[] {
  const [x0, y0, x1, y1] = box;
  const [hx0, hy0, hx1, hy1] = hole;
  const boxes: Box[] = [];
  if (hy0 > y0) boxes.push([x0, y0, x1, hy0]);
  if (hy1 < y1) boxes.push([x0, hy1, x1, y1]);
  const sideY0 = overlap ? y0 : Math.max(y0, hy0);
  const sideY1 = overlap ? y1 : Math.min(y1, hy1);
  if (hx0 > x0) boxes.push([x0, sideY0, hx0, sideY1]);
  if (hx1 < x1) boxes.push([hx1, sideY0, x1, sideY1]);
  return boxes;
}

const overlaps = (a: Box, b: Box) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

/** The feature cut to `box`, or null when nothing of it is there. */
function clipFeature(feature: Feature, box: Box): Feature | null {
  if (feature.type === 1) {
    const points = (feature.geometry as Point[]).filter(([x, y]) => x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3]);
    return points.length > 0 ? { ...feature, geometry: points } : null;
  }
  const parts: Point[][] = [];
  for (const line of feature.geometry as Point[][]) {
    if (feature.type === 2) parts.push(...(clipPolyline(line, box) as Point[][]));
    else {
      const ring = clipPolygon(line, box) as Point[];
      if (ring.length >= 3) parts.push(ring);
    }
  }
  if (parts.length === 0) return null;
  // A polygon cut to nothing but its holes, or to a hole as large as its exterior (inland, the sea is
  // the world's rectangle with the land cut out: both cover the box) has no area and is left out.
  if (feature.type === 3 && parts.reduce((sum, ring) => sum + ringArea(ring), 0) < 1) return null;
  return { ...feature, geometry: parts };
}

/** Twice a ring's area, positive for an exterior ring of a vector tile (clockwise on screen). */
function ringArea(ring: readonly Point[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[j]![0] - ring[i]![0]) * (ring[i]![1] + ring[j]![1]);
  return sum;
}

/**
 * Boxes that together cover `box` minus every hole. For fills they overlap each other and reach
 * FILL_OVERLAP into the holes (so no anti-aliased hairline shows where pieces meet); for lines and
 * points they only touch. A fill's cut lies on whole tile units: a piece's edge across another's
 * sea then stays straight when the tile's coordinates are rounded (off by one unit between its two
 * ends, the renderer drew it as a 1-px line of land colour across the sea).
 */
function boxesOutside(box: Box, holes: readonly Box[], fill: boolean): Box[] {
  let boxes = [box];
  for (const hole of holes) {
    const cut: Box = fill
      ? [
          Math.round(hole[0] + FILL_OVERLAP),
          Math.round(hole[1] + FILL_OVERLAP),
          Math.round(hole[2] - FILL_OVERLAP),
          Math.round(hole[3] - FILL_OVERLAP),
        ]
      : hole;
    if (cut[0] >= cut[2] || cut[1] >= cut[3]) continue;
    boxes = boxes.flatMap((part) => (overlaps(cut, part) ? boxesAround(part, cut, fill) : [part]));
  }
  return boxes;
}

/** Whether a fill feature (even-odd over its rings) covers the point. */
const covers = (feature: Feature, [x, y]: Point) =>
  (feature.geometry as Point[][]).reduce((inside, ring) => (ringContains(ring, x, y) ? !inside : inside), false);

/**
 * The sea of the fill features inside `box`, as polygons whose every edge is a coast or the box's
 * edge. Clipping a polygon's rings one by one would leave its exterior's and its holes' edges
 * lying on each other along the box's edge, and MapLibre's anti-aliased outline draws such an
 * edge as a sea-coloured line across the land. So the rings are read as coastlines and closed
 * along the box's edge, as an extract's own sea is built: with y flipped to grow northwards, a
 * vector tile's rings have the sea on their right, as an OSM coastline has.
 */
function seaIn(fills: readonly Feature[], box: Box): Feature[] {
  const flip = (ring: readonly Point[]): Point[] => ring.map(([x, y]): Point => [x, -y]);
  const coastlines: Point[][] = [];
  for (const fill of fills) {
    for (const ring of fill.geometry as Point[][]) {
      const closed = ring[0]![0] === ring[ring.length - 1]![0] && ring[0]![1] === ring[ring.length - 1]![1] ? ring : [...ring, ring[0]!];
      coastlines.push(flip(closed));
    }
  }
  const [x0, y0, x1, y1] = box;
  let polygons = oceanPolygons(coastlines, [x0, -y1, x1, -y0]).map((rings) => rings.map((ring) => flip(ring as Point[])));
  if (polygons.length === 0 && fills.some((fill) => covers(fill, [(x0 + x1) / 2, (y0 + y1) / 2]))) {
    polygons = [
      [
        [
          [x0, y0],
          [x1, y0],
          [x1, y1],
          [x0, y1],
          [x0, y0],
        ],
      ],
    ];
  }
  return polygons.map((rings) => ({ type: 3, geometry: rings.map(inTileWinding), tags: fills[0]!.tags }));
}

/**
 * A polygon's ring in the winding of the vector tile spec (exterior clockwise on the screen, holes
 * anticlockwise), as the import's own polygons are: the raster renderer fills a layer's polygons as
 * one path by the nonzero rule, where two overlapping pieces of opposite winding cancel out.
 */
function inTileWinding(ring: Point[], index: number): Point[] {
  const clockwise = signedRingArea(ring) > 0;
  return clockwise === (index === 0) ? ring : [...ring].reverse();
}

/** Features of a decoded layer, geometry in that tile's units. */
function featuresOf(layer: VectorTileLayer): Feature[] {
  const features: Feature[] = [];
  for (let i = 0; i < layer.length; i++) {
    const feature = layer.feature(i);
    const rings = feature.loadGeometry().map((ring) => ring.map((p): Point => [p.x, p.y]));
    features.push({
      type: feature.type as 1 | 2 | 3,
      geometry: feature.type === 1 ? rings.flat() : rings,
      tags: feature.properties,
    });
  }
  return features;
}

function decode(tile: StoredTile): VectorTile {
  return new VectorTile(new PbfReader(gunzipSync(tile.data)));
}

/** A feature of the ancestor moved into the child tile's units: shifted by (dx, dy), scaled by `scale`, rounded. */
function scaled(feature: Feature, dx: number, dy: number, scale: number): Feature {
  const move = ([x, y]: Point): Point => [Math.round((x - dx) * scale), Math.round((y - dy) * scale)];
  const geometry =
    feature.type === 1 ? (feature.geometry as Point[]).map(move) : (feature.geometry as Point[][]).map((line) => line.map(move));
  return { ...feature, geometry };
}

/** Reads an archive's tiles with the world backdrop filled in beyond the world layer's zooms. */
export class BackdropTiles {
  private readonly world: WorldBackdrop | null;
  private readonly ancestors = new Map<string, Layers | null>();

  constructor(private readonly archive: MbtilesReader) {
    const text = archive.metadata()[WORLD_METADATA_KEY];
    this.world = text === undefined ? null : (JSON.parse(text) as WorldBackdrop);
  }

  /** The tile at z/x/y as served: the stored one, or with the world backdrop under it; null when there is nothing. */
  tile(z: number, x: number, y: number): StoredTile | null {
    const stored = this.archive.tile(z, x, y);
    const world = this.world;
    if (world === null || z <= world.maxzoom) return stored;
    const tileBox: Box = [-BUFFER, -BUFFER, EXTENT + BUFFER, EXTENT + BUFFER];
    const holes = world.coverage.map(([w, s, e, n]): Box => [unitX(w, z, x), unitY(n, z, y), unitX(e, z, x), unitY(s, z, y)]);
    if (holes.some(([x0, y0, x1, y1]) => x0 <= 0 && y0 <= 0 && x1 >= EXTENT && y1 >= EXTENT)) return stored;
    const depth = z - world.maxzoom;
    const ancestor = this.ancestor(world.maxzoom, x >> depth, y >> depth);
    if (ancestor === null) return stored;
    const scale = 2 ** depth;
    const dx = ((x % scale) * EXTENT) / scale;
    const dy = ((y % scale) * EXTENT) / scale;
    // The tile's buffered square in the ancestor's units, to cut there before scaling.
    const inAncestor: Box = [dx - BUFFER / scale, dy - BUFFER / scale, dx + (EXTENT + BUFFER) / scale, dy + (EXTENT + BUFFER) / scale];
    const layers: Layers = new Map();
    // Fills are cut a buffer wider first, so the edges that cut leaves lie beyond every box below.
    const fillsAt: Box = [
      inAncestor[0] - BUFFER / scale,
      inAncestor[1] - BUFFER / scale,
      inAncestor[2] + BUFFER / scale,
      inAncestor[3] + BUFFER / scale,
    ];
    for (const [name, features] of ancestor) {
      const near = (feature: Feature, box: Box) => {
        const cut = clipFeature(feature, box);
        return cut === null ? [] : [scaled(cut, dx, dy, scale)];
      };
      const fills = features.filter((feature) => feature.type === 3).flatMap((feature) => near(feature, fillsAt));
      const others = features.filter((feature) => feature.type !== 3).flatMap((feature) => near(feature, inAncestor));
      const kept = [
        ...(fills.length > 0 ? boxesOutside(tileBox, holes, true).flatMap((box) => seaIn(fills, box)) : []),
        ...boxesOutside(tileBox, holes, false).flatMap((box) =>
          others.map((feature) => clipFeature(feature, box)).filter((f) => f !== null),
        ),
      ];
      if (kept.length > 0) layers.set(name, kept);
    }
    if (stored !== null) {
      const own = decode(stored);
      for (const [name, layer] of Object.entries(own.layers)) layers.set(name, [...(layers.get(name) ?? []), ...featuresOf(layer)]);
    }
    if (layers.size === 0) return null;
    const tile = Object.fromEntries([...layers].map(([name, features]) => [name, { features }]));
    const data = gzipSync(fromGeojsonVt(tile, { version: 2, extent: EXTENT }));
    return { data, id: createHash('md5').update(data).digest('hex') };
  }

  /** The world layers of the ancestor tile, decoded once and kept (the last few). */
  private ancestor(z: number, x: number, y: number): Layers | null {
    const key = `${x}/${y}`;
    let layers = this.ancestors.get(key);
    if (layers === undefined) {
      const stored = this.archive.tile(z, x, y);
      layers = null;
      if (stored !== null) {
        const tile = decode(stored);
        layers = new Map();
        for (const name of WORLD_LAYERS) if (tile.layers[name]) layers.set(name, featuresOf(tile.layers[name]));
      }
      if (this.ancestors.size >= ANCESTORS_KEPT) this.ancestors.delete(this.ancestors.keys().next().value!);
    } else this.ancestors.delete(key); // re-inserted below as the most recent
    this.ancestors.set(key, layers);
    return layers;
  }
}

const backdrops = new WeakMap<MbtilesReader, BackdropTiles>();

/** The backdrop reader of an archive, made once per archive. */
export function backdropTiles(archive: MbtilesReader): BackdropTiles {
  let backdrop = backdrops.get(archive);
  if (backdrop === undefined) backdrops.set(archive, (backdrop = new BackdropTiles(archive)));
  return backdrop;
}
