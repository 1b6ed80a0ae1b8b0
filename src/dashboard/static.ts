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

export function registerDashboardStatic(router: Router): void {
  for (const name of readdirSync(DASHBOARD_WEB_DIR)) {
    const body = readFileSync(join(DASHBOARD_WEB_DIR, name));
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    const reply: Reply = {
      status: 200,
      headers: { 'Content-Type': TYPES[extname(name)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache', ETag: etag, ...SECURITY_HEADERS },
      body,
    };
    const handler = (req: { header(name: string): string | undefined }) =>
      req.header('if-none-match') === etag ? empty(304, { ETag: etag }) : reply;
    router.add('GET', `/dashboard/${name}`, handler, { public: false });
    if (name === 'index.html') router.add('GET', '/dashboard/', handler, { public: false });
  }
  const toDashboard = () => empty(302, { Location: '/dashboard/' });
  router.add('GET', '/', toDashboard, { public: false });
  router.add('GET', '/dashboard', toDashboard, { public: false });
}
