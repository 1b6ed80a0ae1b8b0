/**
 * Tiles drawn from the elevation store in the raster pool, and kept: the memory tile cache first
 * (a hit answered synchronously), then the disk cache (`raster-cache/<key>`), then the drawing,
 * whose bytes go into both; requests for a tile being drawn wait for that drawing.
 */
import type { Dataset, DatasetHolder } from '../../dataset/index.js';
import type { RasterDiskCache } from '../raster/disk-cache.js';
import { datasetTileCache } from '../tile-cache.js';

export type DrawnTile<A> = (dataset: Dataset, key: string, draw: () => Promise<Uint8Array>) => A | Promise<A>;

/** `answerOf` makes an answer (headers encoded once) of a tile's bytes; `key` is a relative path, e.g. `terrain/12/2132/1493.png`. */
export function drawnTiles<A extends { data: Uint8Array }>(
  datasets: DatasetHolder,
  disk: RasterDiskCache,
  answerOf: (bytes: Uint8Array) => A,
): DrawnTile<A> {
  const memory = datasetTileCache<A>(datasets);
  const inFlight = new Map<string, Promise<A>>();

  const readOrDraw = async (dataset: Dataset, key: string, draw: () => Promise<Uint8Array>): Promise<A> => {
    const stored = await disk.read(dataset, key);
    if (stored !== null) return answerOf(stored);
    const bytes = await draw();
    void disk.write(dataset, key, bytes);
    return answerOf(bytes);
  };

  return (dataset, key, draw) => {
    const memoryKey = `${dataset.id}/${key}`;
    const cached = memory?.get(memoryKey);
    if (cached !== undefined) return cached;
    let flight = inFlight.get(memoryKey);
    if (flight === undefined) {
      flight = readOrDraw(dataset, key, draw)
        .then((answer) => {
          memory?.set(memoryKey, answer, answer.data.byteLength);
          return answer;
        })
        .finally(() => inFlight.delete(memoryKey));
      inFlight.set(memoryKey, flight);
    }
    return flight;
  };
}
