/**
 * Maps (issue 3): the style list and style documents — valid MapLibre styles for every slug and
 * label language, whose source, sprite and glyph URLs are absolute, carry the caller's key however
 * it was sent, honour X-Forwarded-Proto/Host or WAYMARK_PUBLIC_URL, and resolve on this server.
 */
import { validateStyleMin, type StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTestDataset } from './helpers/dataset.js';
import { customer } from './helpers/fixtures.js';
import { assertError, call } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { CidrSet } from '../core/cidr.js';

const SLUGS = ['light', 'dark', 'gray', 'natural', 'outdoors'];
const LANGUAGES = ['', 'local', 'en', 'de'];
/** The tests call from loopback as a proxy would: X-Forwarded-* is believed only from a trusted proxy. */
const trustedProxies = CidrSet.parse(['127.0.0.1', '::1']);

let server: TestServer;
let dataDir: string;

test.before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-maps-styles-'));
  await writeTestDataset(dataDir);
  server = await startTestServer({ dataDir, trustedProxies });
});

test.after.always(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every URL a style makes MapLibre load: source TileJSON or tiles, sprite sheets, glyph pattern. */
function styleUrls(style: StyleSpecification): string[] {
  const urls: string[] = [];
  for (const source of Object.values(style.sources)) {
    if ('url' in source && source.url) urls.push(source.url);
    if ('tiles' in source && source.tiles) urls.push(...source.tiles);
  }
  const sprite = style.sprite;
  if (typeof sprite === 'string') urls.push(sprite);
  else if (sprite) urls.push(...sprite.map((s) => s.url));
  if (style.glyphs) urls.push(style.glyphs);
  return urls;
}

const keyWays = (key: string): [string, string, RequestInit][] => [
  ['query', `?key=${key}&`, {}],
  ['bearer', '?', { headers: { authorization: `Bearer ${key}` } }],
  ['x-api-key', '?', { headers: { 'x-api-key': key } }],
];

test('every slug in every language is a valid MapLibre style whose URLs are absolute and carry the key, for each way of sending it', async (t) => {
  const { key } = await customer(server);
  for (const slug of SLUGS) {
    for (const lang of LANGUAGES) {
      for (const [way, query, init] of keyWays(key.value)) {
        const label = `${slug} lang=${lang} key by ${way}`;
        const answer = await call(`${server.url}/api/v1/styles/${slug}/style.json${query}lang=${lang}`, init);
        t.is(answer.status, 200, label);
        const style = answer.body as StyleSpecification;
        t.deepEqual(validateStyleMin(style), [], label);
        const urls = styleUrls(style);
        t.true(urls.length >= 3, label);
        for (const url of urls) {
          t.true(url.startsWith(`${server.url}/api/v1/`), `${label}: ${url}`);
          t.is(new URL(url.replace(/[{}]/g, '')).searchParams.get('key'), key.value, `${label}: ${url}`);
        }
      }
    }
  }
});

test('lang selects the label language; another well-formed language falls back to local names; a malformed one is a 400', async (t) => {
  const { key } = await customer(server);
  const styleText = async (lang: string) => (await call(`${server.url}/api/v1/styles/light/style.json?key=${key.value}&lang=${lang}`)).text;
  t.regex(await styleText('de'), /"name_de"/);
  t.notRegex(await styleText('de'), /"name_en"/);
  t.regex(await styleText('en-GB'), /"name_en"/);
  t.notRegex(await styleText('local'), /"name_(?:en|de)"/);
  t.is(await styleText('fr'), await styleText('local'));
  for (const bad of ['e', 'english!', '12', 'de--x', '"><script>']) {
    t.regex(
      assertError(t, await call(`${server.url}/api/v1/styles/light/style.json?key=${key.value}&lang=${encodeURIComponent(bad)}`), 400),
      /lang/,
    );
  }
});

test('the style URLs resolve on this server, with MapLibre inserting @2x.json before the key query', async (t) => {
  const { key } = await customer(server);
  const style = (await call(`${server.url}/api/v1/styles/dark/style.json?key=${key.value}`)).body as StyleSpecification;
  const source = Object.values(style.sources)[0] as { url: string };
  const tilejson = await call(source.url);
  t.is(tilejson.status, 200);
  t.is(tilejson.body.tilejson, '3.0.0');
  const sprite = (style.sprite as { id: string; url: string }[])[0]!;
  t.is(sprite.id, 'base');
  for (const suffix of ['.json', '.png', '@2x.json', '@2x.png']) {
    // MapLibre's normalizeSpriteURL (src/style/load_sprite.ts).
    const url = new URL(sprite.url);
    url.pathname += suffix;
    const res = await fetch(url);
    t.is(res.status, 200, url.toString());
    await res.arrayBuffer();
  }
  const glyphs = await fetch(style.glyphs!.replace('{fontstack}', 'noto_sans_bold').replace('{range}', '0-255'));
  t.is(glyphs.status, 200);
  await glyphs.arrayBuffer();
});

test('X-Forwarded-Proto and X-Forwarded-Host make the URLs of styles, the style list and TileJSON', async (t) => {
  const { key } = await customer(server);
  const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'maps.example.com', 'x-api-key': key.value };
  const style = (await call(`${server.url}/api/v1/styles/gray/style.json`, { headers })).body as StyleSpecification;
  for (const url of styleUrls(style)) t.true(url.startsWith('https://maps.example.com/api/v1/'), url);
  const list = (await call(`${server.url}/api/v1/styles`, { headers })).body;
  t.is(list.styles[0].url, `https://maps.example.com/api/v1/styles/light/style.json?key=${key.value}`);
  const tilejson = (await call(`${server.url}/api/v1/tiles/shortbread.json`, { headers })).body;
  t.is(tilejson.tiles[0], `https://maps.example.com/api/v1/tiles/shortbread/{z}/{x}/{y}.pbf?key=${key.value}`);
  const bad = await call(`${server.url}/api/v1/styles/gray/style.json`, { headers: { ...headers, 'x-forwarded-host': 'evil"host' } });
  assertError(t, bad, 400);
});

test('WAYMARK_PUBLIC_URL, when set, makes the URLs whatever the request headers say', async (t) => {
  const publicDir = mkdtempSync(join(tmpdir(), 'waymark-maps-public-'));
  await writeTestDataset(publicDir);
  const configured = await startTestServer({ dataDir: publicDir, publicUrl: 'https://geo.example.org/waymark/', trustedProxies });
  t.teardown(async () => {
    await configured.close();
    rmSync(publicDir, { recursive: true, force: true });
  });
  const { key } = await customer(configured);
  const answer = await call(`${configured.url}/v1/styles/light/style.json?key=${key.value}`, {
    headers: { 'x-forwarded-host': 'other.example.com' },
  });
  t.is(answer.status, 200);
  for (const url of styleUrls(answer.body)) t.true(url.startsWith('https://geo.example.org/waymark/api/v1/'), url);
});

test("every style opens on the dataset's own data: a 1024×768 view at its center and zoom lies inside the dataset's bounds", async (t) => {
  const { key } = await customer(server);
  // The hand-written dataset's bounds (helpers/dataset.ts).
  const [west, south, east, north] = [7.4, 43.72, 7.44, 43.76];
  const mercatorY = (lat: number) => {
    const sin = Math.sin((lat * Math.PI) / 180);
    return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
  };
  for (const slug of SLUGS) {
    const style = (await call(`${server.url}/api/v1/styles/${slug}/style.json?key=${key.value}`)).body;
    const [lon, lat] = style.center as [number, number];
    // Half the view in world fractions (MapLibre's 512-px world at zoom 0).
    const halfWidth = 1024 / 2 / (512 * 2 ** style.zoom);
    const halfHeight = 768 / 2 / (512 * 2 ** style.zoom);
    const x = (lon + 180) / 360;
    const y = mercatorY(lat);
    const inside = (a: number, b: number) => a <= b + 1e-9;
    t.true(inside((west + 180) / 360, x - halfWidth) && inside(x + halfWidth, (east + 180) / 360), `${slug}: ${lon} at zoom ${style.zoom}`);
    t.true(inside(mercatorY(north), y - halfHeight) && inside(y + halfHeight, mercatorY(south)), `${slug}: ${lat} at zoom ${style.zoom}`);
    // And no closer than needed: at a tenth of a zoom level out, the view reaches past one side.
    t.true(
      1024 / (512 * 2 ** (style.zoom - 0.1)) > (east - west) / 360 ||
        768 / (512 * 2 ** (style.zoom - 0.1)) > mercatorY(south) - mercatorY(north),
    );
  }
});

test('GET /styles lists the slugs with names and style URLs', async (t) => {
  const { key } = await customer(server);
  const answer = await call(`${server.url}/api/v1/styles?key=${key.value}`);
  t.is(answer.status, 200);
  t.deepEqual(
    answer.body.styles.map((s: { slug: string }) => s.slug),
    SLUGS,
  );
  for (const style of answer.body.styles) {
    t.is(typeof style.name, 'string');
    t.is(style.url, `${server.url}/api/v1/styles/${style.slug}/style.json?key=${key.value}`);
  }
  t.deepEqual(answer.body.languages, ['local', 'en', 'de']);
});

test('an unknown slug is a 404 naming the valid ones', async (t) => {
  const { key } = await customer(server);
  const message = assertError(t, await call(`${server.url}/api/v1/styles/satellite/style.json?key=${key.value}`), 404);
  for (const slug of SLUGS) t.true(message.includes(slug), message);
});

test('styles, TileJSON, fonts and sprites need the maps scope but cost nothing', async (t) => {
  const paths = [
    '/styles',
    '/styles/light/style.json',
    '/tiles/shortbread.json',
    '/fonts/noto_sans_regular/0-255.pbf',
    '/sprites/base.json',
    '/sprites/base@2x.png',
  ];
  const geocodingOnly = await customer(server, ['geocoding']);
  for (const path of paths) {
    t.regex(assertError(t, await call(`${server.url}/api/v1${path}?key=${geocodingOnly.key.value}`), 403), /"maps" scope/, path);
  }
  const { account, key } = await customer(server, ['maps']);
  for (const path of paths) {
    const res = await fetch(`${server.url}/api/v1${path}?key=${key.value}`);
    t.is(res.status, 200, path);
    t.is(res.headers.get('x-ratelimit-limit'), null, path);
    await res.arrayBuffer();
  }
  const usage = await call(`${server.url}/api/v1/usage/current`, { headers: { cookie: account.cookie } });
  t.is(usage.body.services.maps.used, 0);
});
