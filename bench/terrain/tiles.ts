/**
 * bench:terrain's tiles: terrain tiles (PNG, WebP), contour tiles and, as the same run's
 * baselines, raster tiles of a style without terrain (512 px, drawn by the same pool) and vector
 * tiles (read from the MBTiles) of the same coordinates, through `waymark serve`. Each round draws
 * fresh tiles per zoom (none sharing a metatile with a tile of an earlier round) and, for every
 * kind in turn (the order turned each round), requests them one at a time: cold (nothing cached:
 * the first drawing, or the first read) and then again, cached (the memory tile cache's hit).
 */
import { STYLES } from '../../core/maps/style-catalog.js';
import { markdownTable } from '../lib/report.js';
import { seededRandom } from '../lib/request-list.js';
import { freshTiles, quantileMs, timedGet } from '../lib/tile-latency.js';
import type { BBox } from '../../core/geo/types.js';

/** A style without hillshade: the plain raster tile. */
const RASTER_STYLE = STYLES.find((style) => style.terrain === 'none')!.slug;

interface TileKind {
  name: string;
  path: (z: number, x: number, y: number) => string;
  /** Answers 204 where the tile is empty (vector and contour tiles). */
  emptyOk?: boolean;
}

const KINDS: TileKind[] = [
  { name: 'terrain PNG', path: (z, x, y) => `/tiles/terrain/${z}/${x}/${y}.png` },
  { name: 'terrain WebP', path: (z, x, y) => `/tiles/terrain/${z}/${x}/${y}.webp` },
  { name: 'contours', path: (z, x, y) => `/tiles/contours/${z}/${x}/${y}.pbf`, emptyOk: true },
  { name: `baseline: raster \`${RASTER_STYLE}\` 512 px`, path: (z, x, y) => `/styles/${RASTER_STYLE}/tiles/${z}/${x}/${y}@2x.png` },
  { name: 'baseline: vector tile', path: (z, x, y) => `/tiles/shortbread/${z}/${x}/${y}.pbf`, emptyOk: true },
];

export interface TileLatencyOptions {
  /** `http://host:port/api/v1`. */
  base: string;
  key: string;
  bounds: BBox;
  zooms: readonly number[];
  rounds: number;
  /** Tiles per zoom and round. */
  perRound: number;
}

/** Measures every kind at every zoom, cold and cached; the report's table (ms latencies). */
export async function measureTileLatencies(options: TileLatencyOptions): Promise<string> {
  const { base, key, bounds, zooms, rounds, perRound } = options;
  const latencies = new Map<string, { cold: number[]; cached: number[] }>();
  const of = (kind: TileKind, z: number) => {
    const id = `${kind.name} z${z}`;
    if (!latencies.has(id)) latencies.set(id, { cold: [], cached: [] });
    return latencies.get(id)!;
  };
  const random = seededRandom(2028);
  const taken = new Set<string>();
  for (let round = 0; round < rounds; round++) {
    for (const z of zooms) {
      const tiles = freshTiles(bounds, z, perRound, random, taken);
      const order = KINDS.map((_, i) => KINDS[(i + round) % KINDS.length]!);
      for (const kind of order) {
        const measured = of(kind, z);
        const url = ([x, y]: [number, number]) => `${base}${kind.path(z, x, y)}?key=${key}`;
        for (const tile of tiles) measured.cold.push(await timedGet(url(tile), kind.emptyOk));
        for (const tile of tiles) measured.cached.push(await timedGet(url(tile), kind.emptyOk));
      }
    }
    console.error(`tiles: round ${round + 1}/${rounds} done`);
  }
  const rows = zooms.flatMap((z) =>
    KINDS.map((kind) => {
      const { cold, cached } = of(kind, z);
      cold.sort((a, b) => a - b);
      cached.sort((a, b) => a - b);
      return [
        kind.name,
        `z${z}`,
        String(cold.length),
        ...[0.5, 0.95, 0.99].map((q) => quantileMs(cold, q)),
        ...[0.5, 0.95, 0.99].map((q) => quantileMs(cached, q)),
      ];
    }),
  );
  return markdownTable(['tile', 'zoom', 'tiles', 'cold p50', 'cold p95', 'cold p99', 'cached p50', 'cached p95', 'cached p99'], rows, [
    'l',
    'l',
    ...Array<'r'>(7).fill('r'),
  ]);
}
