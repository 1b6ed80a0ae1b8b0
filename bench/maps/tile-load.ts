/**
 * Part 2 of the maps benchmark, the request side: a fixed list of tiles that exist (z10–14 from
 * the MBTiles, shuffled with a fixed seed; bench/lib/request-list.ts writes the wrk script cycling
 * through it), and the check that a server answers every tile of the list with 200 and the
 * stored tile (compared after gunzip).
 */
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { seededRandom, shuffle } from '../lib/request-list.js';
import { tileCoords, type TileCoord } from './mbtiles.js';

export const BENCH_ZOOMS = { min: 10, max: 14 } as const;
/** Browsers and MapLibre send it; servers may then send stored gzip tiles as they are. */
export const ACCEPT_GZIP = { 'Accept-Encoding': 'gzip' };

/** Up to `limit` tiles of the benchmark zooms, Fisher–Yates shuffled with `seed`. */
export function benchmarkTiles(mbtiles: string, limit: number, seed: number): TileCoord[] {
  const tiles = tileCoords(mbtiles, BENCH_ZOOMS.min, BENCH_ZOOMS.max);
  return shuffle(tiles, seededRandom(seed)).slice(0, limit);
}

export const tileKey = (c: TileCoord) => `${c.z}/${c.x}/${c.y}`;

interface Reply {
  status: number;
  contentEncoding: string | undefined;
  body: Buffer;
}

function get(url: string, headers: Record<string, string>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, contentEncoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const isGzip = (bytes: Buffer) => bytes[0] === 0x1f && bytes[1] === 0x8b;
const plain = (bytes: Buffer) => (isGzip(bytes) ? gunzipSync(bytes) : bytes);

/**
 * Requests every tile of the list as wrk will (Accept-Encoding: gzip) and throws unless each
 * answer is 200 and, once gunzipped, the bytes the MBTiles stores for that tile.
 */
export async function checkTileAnswers(
  name: string,
  urlOf: (c: TileCoord) => string,
  tiles: TileCoord[],
  stored: Map<string, Buffer>,
): Promise<{ gzipped: number }> {
  let gzipped = 0;
  for (const c of tiles) {
    const url = urlOf(c);
    const reply = await get(url, ACCEPT_GZIP);
    if (reply.status !== 200) throw new Error(`${name}: ${url} answered ${reply.status}: ${reply.body.toString('utf8', 0, 300)}`);
    if (reply.contentEncoding === 'gzip') gzipped++;
    const body = reply.contentEncoding === 'gzip' ? gunzipSync(reply.body) : reply.body;
    if (!plain(body).equals(plain(stored.get(tileKey(c))!))) {
      throw new Error(`${name}: ${url} answered other bytes than the MBTiles stores for tile ${tileKey(c)} (after gunzip)`);
    }
  }
  return { gzipped };
}

/** Throws unless `url` (a tile without the key) is refused with 401. */
export async function checkRefusedWithoutKey(name: string, url: string): Promise<void> {
  const reply = await get(url, ACCEPT_GZIP);
  if (reply.status !== 401) throw new Error(`${name}: ${url} answered ${reply.status} without a key, expected 401`);
}
