/**
 * Tiles measured one request at a time (the latency of drawing one, or of answering it from the
 * cache): random tiles of a zoom in a box, none sharing a 2×2 metatile (the raster renderer draws
 * a metatile at once, so a sibling of a tile drawn before would not be cold), timed GETs and
 * quantiles of their latencies.
 */
import { worldPixel } from '../../core/geo/web-mercator.js';
import { fmtMs } from './report.js';
import type { BBox } from '../../core/geo/types.js';

const tileOf = (lon: number, lat: number, z: number): [number, number] => {
  const [x, y] = worldPixel(2 ** z, lon, lat);
  return [Math.floor(x), Math.floor(y)];
};

/** `count` tiles of zoom `z` inside `bounds`, each in a 2×2 metatile of its own and not in `taken`. */
export function freshTiles(bounds: BBox, z: number, count: number, random: () => number, taken: Set<string>): [number, number][] {
  const tiles: [number, number][] = [];
  for (let tries = 0; tiles.length < count && tries < count * 200; tries++) {
    const [x, y] = tileOf(bounds[0] + random() * (bounds[2] - bounds[0]), bounds[1] + random() * (bounds[3] - bounds[1]), z);
    const metatile = `${z}/${x >> 1}/${y >> 1}`;
    if (taken.has(metatile)) continue;
    taken.add(metatile);
    tiles.push([x, y]);
  }
  return tiles;
}

/** The q-quantile of sorted latencies, formatted; a dash when there are none. */
export const quantileMs = (sorted: number[], q: number) =>
  sorted.length === 0 ? '–' : fmtMs(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);

/** Milliseconds until the whole answer to a GET of `url` arrived; throws unless it is a 200 with a body (or, with `emptyOk`, an empty 200 or a 204). */
export async function timedGet(url: string, emptyOk = false): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  const body = await response.arrayBuffer();
  const ok = response.status === 200 || (emptyOk && response.status === 204);
  if (!ok || (!emptyOk && body.byteLength === 0)) throw new Error(`${url.replace(/key=[^&]+/, 'key=…')} answered ${response.status}`);
  return performance.now() - started;
}
