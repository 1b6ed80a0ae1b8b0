/**
 * Serves the dashboard's web app (`src/dashboard/web/`: the page, its ES modules under `js/`, styles),
 * read into memory at start, and the site's `/favicon.ico`, drawn from the web app's `favicon.svg`.
 * Only the files found there at start have routes, so no request path can reach outside `web/`.
 * Every file is revalidated (`no-cache` with an ETag: a 304 when unchanged): the modules import
 * each other by plain URLs, so after an upgrade a browser must never mix cached old ones with new.
 * Every file carries a Content-Security-Policy: scripts, styles, fonts and frames only from this
 * origin, no inline script or style; images also from `data:` (MapLibre's CSS icons) and `blob:`
 * (MapLibre's decoded images, the static map preview); workers also from `blob:` (MapLibre's
 * fallback); requests to this origin and to WAYMARK_PUBLIC_URL's (where style documents point).
 */
import { Resvg } from '@resvg/resvg-js';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, sep } from 'node:path';
import { empty, type Reply } from '../http/reply.js';
import type { Router } from '../http/router.js';
import { PACKAGE_ROOT } from '../../core/package-root.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** The dashboard's policy; `publicUrl`'s origin is added to what pages may fetch. */
function contentSecurityPolicy(publicUrl: string | undefined): string {
  const connect = publicUrl ? `'self' ${new URL(publicUrl).origin}` : `'self'`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    `connect-src ${connect}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const securityHeaders = (publicUrl: string | undefined) => ({
  'Content-Security-Policy': contentSecurityPolicy(publicUrl),
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
});

export const DASHBOARD_WEB_DIR = join(PACKAGE_ROOT, 'src', 'dashboard', 'web');
/** MapLibre GL JS for the map playground, served from its npm package (ES modules: main, shared chunk, worker). */
const MAPLIBRE_DIR = join(PACKAGE_ROOT, 'node_modules', 'maplibre-gl', 'dist');
const MAPLIBRE_FILES = ['maplibre-gl.mjs', 'maplibre-gl-shared.mjs', 'maplibre-gl-worker.mjs', 'maplibre-gl.css'];

const FAVICON_SIZES = [16, 32, 48];

type Security = ReturnType<typeof securityHeaders>;

/** Registers GET `path` answering `body`, with an ETag and 304s. */
function serveBytes(router: Router, path: string, contentType: string, body: Buffer, security: Security): void {
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  const reply: Reply = {
    status: 200,
    headers: { 'Content-Type': contentType, 'Cache-Control': 'no-cache', ETag: etag, ...security },
    body,
  };
  router.add('GET', path, (req) => (req.header('if-none-match') === etag ? empty(304, { ETag: etag }) : reply), { public: false });
}

function serveFile(router: Router, path: string, file: string, security: Security): void {
  serveBytes(router, path, TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file), security);
}

/** An ICO file holding the SVG drawn as PNGs at each of `sizes` (the ICO form every browser reads). */
function icoFromSvg(svg: Buffer, sizes: readonly number[]): Buffer {
  const pngs = sizes.map((size) => new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng());
  const header = Buffer.alloc(6);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(pngs.length, 4);
  let offset = header.length + 16 * pngs.length;
  const entries = pngs.map((png, i) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(sizes[i]! % 256, 0); // width and height; 0 means 256
    entry.writeUInt8(sizes[i]! % 256, 1);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...pngs]);
}

/** The favicon, drawn once per process for every server it starts. */
let favicon: Buffer | undefined;

/** The files below `dir`, as paths relative to it with `/` between folders. */
const filesBelow = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => statSync(join(dir, path)).isFile())
    .map((path) => path.split(sep).join('/'));

export function registerDashboardStatic(router: Router, publicUrl: string | undefined): void {
  const security = securityHeaders(publicUrl);
  for (const path of filesBelow(DASHBOARD_WEB_DIR)) {
    serveFile(router, `/dashboard/${path}`, join(DASHBOARD_WEB_DIR, path), security);
    if (path === 'index.html') serveFile(router, '/dashboard/', join(DASHBOARD_WEB_DIR, path), security);
  }
  favicon ??= icoFromSvg(readFileSync(join(DASHBOARD_WEB_DIR, 'favicon.svg')), FAVICON_SIZES);
  serveBytes(router, '/favicon.ico', 'image/x-icon', favicon, security);
  for (const name of MAPLIBRE_FILES) serveFile(router, `/dashboard/vendor/maplibre-gl/${name}`, join(MAPLIBRE_DIR, name), security);
  const toDashboard = () => empty(302, { Location: '/dashboard/' });
  router.add('GET', '/', toDashboard, { public: false });
  router.add('GET', '/dashboard', toDashboard, { public: false });
}
