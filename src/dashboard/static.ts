/** Serves the dashboard's web app (`src/dashboard/web/`), read into memory at start. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { empty, type Reply } from '../http/reply.js';
import type { Router } from '../http/router.js';
import { PACKAGE_ROOT } from '../package-root.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
};

export const DASHBOARD_WEB_DIR = join(PACKAGE_ROOT, 'src', 'dashboard', 'web');
/** MapLibre GL JS for the map playground, served from its npm package (ES modules: main, shared chunk, worker). */
const MAPLIBRE_DIR = join(PACKAGE_ROOT, 'node_modules', 'maplibre-gl', 'dist');
const MAPLIBRE_FILES = ['maplibre-gl.mjs', 'maplibre-gl-shared.mjs', 'maplibre-gl-worker.mjs', 'maplibre-gl.css'];

/** Registers GET `path` answering the file's bytes, with an ETag and 304s. */
function serveFile(router: Router, path: string, file: string): void {
  const body = readFileSync(file);
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  const reply: Reply = {
    status: 200,
    headers: { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache', ETag: etag, ...SECURITY_HEADERS },
    body,
  };
  router.add('GET', path, (req) => (req.header('if-none-match') === etag ? empty(304, { ETag: etag }) : reply), { public: false });
}

export function registerDashboardStatic(router: Router): void {
  for (const name of readdirSync(DASHBOARD_WEB_DIR)) {
    serveFile(router, `/dashboard/${name}`, join(DASHBOARD_WEB_DIR, name));
    if (name === 'index.html') serveFile(router, '/dashboard/', join(DASHBOARD_WEB_DIR, name));
  }
  for (const name of MAPLIBRE_FILES) serveFile(router, `/dashboard/vendor/maplibre-gl/${name}`, join(MAPLIBRE_DIR, name));
  const toDashboard = () => empty(302, { Location: '/dashboard/' });
  router.add('GET', '/', toDashboard, { public: false });
  router.add('GET', '/dashboard', toDashboard, { public: false });
}
