/**
 * HTTP caching shared by the maps routes: Cache-Control that lets shared caches store an answer
 * only when the key is in the URL (else a proxy could hand a header-authenticated answer to anyone),
 * and If-None-Match against an ETag.
 */
import type { Request } from '../http/request.js';

/** One day: tiles, glyphs and sprites only change when a new dataset is imported. */
export const ASSET_MAX_AGE = 86_400;
const PUBLIC_ASSET = `public, max-age=${ASSET_MAX_AGE}`;
const PRIVATE_ASSET = `private, max-age=${ASSET_MAX_AGE}`;
/** Styles and TileJSON embed the caller's key: never in a shared cache, and short-lived. */
export const KEYED_DOCUMENT_CACHE = 'private, max-age=300';

export function assetCacheControl(req: Request): string {
  return req.queryAll('key').length > 0 ? PUBLIC_ASSET : PRIVATE_ASSET;
}

/** Whether If-None-Match names `etag` (a quoted ETag), or is `*`. */
export function notModified(req: Request, etag: string): boolean {
  const header = req.header('if-none-match');
  if (header === undefined) return false;
  if (header === etag || header === '*') return true;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === etag || tag === `W/${etag}`) return true;
  }
  return false;
}
