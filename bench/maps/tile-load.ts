/**
 * Part 2 of the maps benchmark, the request side: a fixed list of tiles that exist (z10–14 from
 * the MBTiles, shuffled with a fixed seed), a wrk Lua script that cycles through it, and the check
 * that a server answers every tile of the list with 200 and the stored tile (compared after gunzip).
 */
import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tileCoords, type TileCoord } from './mbtiles.js';

export const BENCH_ZOOMS = { min: 10, max: 14 } as const;
/** Browsers and MapLibre send it; servers may then send stored gzip tiles as they are. */
export const ACCEPT_GZIP = { 'Accept-Encoding': 'gzip' };

/** A small deterministic PRNG (mulberry32), so that every run requests the same tiles in the same order. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Up to `limit` tiles of the benchmark zooms, Fisher–Yates shuffled with `seed`. */
export function benchmarkTiles(mbtiles: string, limit: number, seed: number): TileCoord[] {
  const tiles = tileCoords(mbtiles, BENCH_ZOOMS.min, BENCH_ZOOMS.max);
  const random = mulberry32(seed);
  for (let i = tiles.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [tiles[i], tiles[j]] = [tiles[j]!, tiles[i]!];
  }
  return tiles.slice(0, limit);
}

export const tileKey = (c: TileCoord) => `${c.z}/${c.x}/${c.y}`;

/**
 * A wrk script requesting `paths` in turn. The requests are formatted once in `init` (with the
 * `-H` headers): building one per call in `request()` would make wrk, not the server, the limit.
 */
export function writeWrkScript(file: string, paths: string[]): void {
  const list = paths.map((p) => JSON.stringify(p)).join(',\n  ');
  writeFileSync(
    file,
    `local paths = {\n  ${list}\n}\nlocal requests = {}\nlocal n = 0\n\n` +
      'function init(args)\n  for i, path in ipairs(paths) do requests[i] = wrk.format("GET", path) end\nend\n\n' +
      'function request()\n  n = n % #requests + 1\n  return requests[n]\nend\n',
  );
}

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
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentEncoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
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
