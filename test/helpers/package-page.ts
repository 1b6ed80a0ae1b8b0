/**
 * A test page for a browser library (Leaflet and a plugin) served by the browser itself on the API
 * server's origin, under a path the server does not have: Chromium's local-network checks refuse
 * a page of another origin fetching from a loopback server. The page's scripts, styles and images
 * come from the packages' folders in node_modules (no CDN).
 */
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import type { Page } from 'playwright-core';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
};

/** The `dist` folder of an installed package, for `packages` below. */
export const packageDist = (name: string) => join(process.cwd(), 'node_modules', name, 'dist');

/**
 * Makes `page` answer `<origin><path>/` with `html`, and `<origin><path>/<alias>/<file>` with that
 * file of `packages[alias]`; returns the page's URL.
 */
export async function routePackagePage(
  page: Page,
  origin: string,
  path: string,
  html: string,
  packages: Record<string, string>,
): Promise<string> {
  await page.route(`${origin}${path}/**`, (route) => {
    const pathname = new URL(route.request().url()).pathname.slice(path.length);
    if (pathname === '/') return route.fulfill({ status: 200, contentType: 'text/html', body: html });
    const [, alias, ...rest] = pathname.split('/');
    const root = packages[alias ?? ''];
    const file = root === undefined ? undefined : normalize(join(root, ...rest));
    if (file === undefined || !file.startsWith(root!) || !existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
    return route.fulfill({ status: 200, contentType: TYPES[extname(file)] ?? 'application/octet-stream', body: readFileSync(file) });
  });
  return `${origin}${path}/`;
}

/** A full-window Leaflet map page loading Leaflet and a plugin (paths under the page), then running `script`. */
export function leafletPage(title: string, plugin: { css: string; js: string }, script: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${title}</title>
<link rel="stylesheet" href="leaflet/leaflet.css"><link rel="stylesheet" href="${plugin.css}">
<style>html, body, #map { height: 100%; margin: 0 }</style></head>
<body><div id="map"></div>
<script src="leaflet/leaflet.js"></script><script src="${plugin.js}"></script>
<script>${script}</script></body></html>`;
}
