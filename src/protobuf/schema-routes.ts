/**
 * `/schemas/`: the list of `.proto` files and which message each endpoint answers, and each file
 * at `/schemas/{name}.proto`. Public documentation: no key, not metered, cacheable (an ETag per
 * body, 304 on If-None-Match).
 */
import { createHash } from 'node:crypto';
import { empty, type Reply } from '../http/reply.js';
import type { Request } from '../http/request.js';
import type { Handler } from '../http/router.js';
import type { SchemaFile } from './schemas.js';

const CACHE_CONTROL = 'public, max-age=3600';

/** A handler answering `body` with its ETag, or 304 when the client holds it already. */
function cacheable(contentType: string, body: string): Handler {
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  const headers = { 'Content-Type': contentType, 'Cache-Control': CACHE_CONTROL, ETag: etag };
  return (req: Request): Reply =>
    req.header('if-none-match') === etag ? empty(304, headers) : { status: 200, headers: { ...headers }, body };
}

export function schemaRoutes(
  files: readonly SchemaFile[],
  messages: Readonly<Record<string, string>>,
): { path: string; handler: Handler }[] {
  const listing = JSON.stringify({
    schemas: files.map(({ name }) => ({ name, url: `/api/v1/schemas/${name}` })),
    messages: Object.fromEntries(Object.entries(messages).map(([path, type]) => [`/api/v1${path}`, type])),
  });
  const list = cacheable('application/json; charset=utf-8', listing);
  return [
    { path: '/schemas', handler: list },
    { path: '/schemas/', handler: list },
    // `.proto` has no registered media type; plain text, as Google's API repositories serve them.
    ...files.map(({ name, text }) => ({ path: `/schemas/${name}`, handler: cacheable('text/plain; charset=utf-8', text) })),
  ];
}
