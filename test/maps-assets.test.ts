/**
 * Maps (issue 3): glyphs and sprites as built by buildStyleAssets and served — SDF glyph ranges
 * for every font the styles use (Latin, Greek, Cyrillic), sprite sheets holding every icon every
 * style references, at 1× and 2×, and a TileJSON listing every tile layer they draw. "The styles"
 * are every style in every label language as served (the server finds what they use from one
 * language per style).
 */
import type { StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PbfReader } from 'pbf';
import { writeTestDataset } from './helpers/dataset.js';
import { customer } from './helpers/fixtures.js';
import { assertError, call } from './helpers/http.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let dataDir: string;
let key: string;
let styles: StyleSpecification[];

test.before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'waymark-maps-assets-'));
  await writeTestDataset(dataDir);
  server = await startTestServer({ dataDir });
  key = (await customer(server)).key.value;
  const slugs = (await call(`${server.url}/api/v1/styles?key=${key}`)).body.styles.map((s: { slug: string }) => s.slug) as string[];
  styles = [];
  for (const slug of slugs) {
    for (const lang of ['local', 'en', 'de'])
      styles.push((await call(`${server.url}/api/v1/styles/${slug}/style.json?key=${key}&lang=${lang}`)).body);
  }
});

test.after.always(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** String literals anywhere in a style value or expression. */
function collect(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) collect(item, into);
}

function referenced(property: 'text-font' | 'images'): Set<string> {
  const found = new Set<string>();
  for (const style of styles) {
    for (const layer of style.layers) {
      const layout = ('layout' in layer ? layer.layout : undefined) as Record<string, unknown> | undefined;
      const paint = ('paint' in layer ? layer.paint : undefined) as Record<string, unknown> | undefined;
      if (property === 'text-font') collect(layout?.['text-font'], found);
      else for (const value of [layout?.['icon-image'], paint?.['fill-pattern'], paint?.['line-pattern']]) collect(value, found);
    }
  }
  found.delete('literal');
  return found;
}

interface Glyph {
  id: number;
  bitmap?: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

/** Decodes a glyph PBF as MapLibre's parse_glyph_pbf.ts does. */
function decodeGlyphs(data: Uint8Array): { name: string; range: string; glyphs: Glyph[] }[] {
  const stacks: { name: string; range: string; glyphs: Glyph[] }[] = [];
  new PbfReader(data).readFields((tag, _, pbf) => {
    if (tag !== 1) return;
    stacks.push(
      pbf.readMessage(
        (t, stack, p) => {
          if (t === 1) stack.name = p.readString();
          else if (t === 2) stack.range = p.readString();
          else if (t === 3) {
            stack.glyphs.push(
              p.readMessage(
                (g, glyph, q) => {
                  if (g === 1) glyph.id = q.readVarint();
                  else if (g === 2) glyph.bitmap = q.readBytes();
                  else if (g === 3) glyph.width = q.readVarint();
                  else if (g === 4) glyph.height = q.readVarint();
                  else if (g === 5) glyph.left = q.readSVarint();
                  else if (g === 6) glyph.top = q.readSVarint();
                  else if (g === 7) glyph.advance = q.readVarint();
                },
                { id: 0, width: 0, height: 0, left: 0, top: 0, advance: 0 } as Glyph,
              ),
            );
          }
        },
        { name: '', range: '', glyphs: [] as Glyph[] },
      ),
    );
  }, null);
  return stacks;
}

test('the TileJSON lists every tile layer every style draws, in every label language', async (t) => {
  const drawn = new Set<string>();
  for (const style of styles)
    for (const layer of style.layers) if ('source-layer' in layer && layer['source-layer']) drawn.add(layer['source-layer']);
  const tilejson = (await call(`${server.url}/api/v1/tiles/shortbread.json?key=${key}`)).body;
  const listed = new Set((tilejson.vector_layers as { id: string }[]).map((layer) => layer.id));
  t.true(drawn.size > 20);
  t.deepEqual(
    [...drawn].filter((layer) => !listed.has(layer)),
    [],
  );
});

const fetchBytes = async (path: string, init?: RequestInit) => {
  const res = await fetch(`${server.url}/api/v1${path}${path.includes('?') ? '&' : '?'}key=${key}`, init);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
};

test('every font stack the styles use has SDF glyphs for A, Ω and Ж', async (t) => {
  const fonts = referenced('text-font');
  t.true(fonts.size >= 1);
  for (const font of fonts) {
    for (const char of ['A', 'Ω', 'Ж']) {
      const code = char.codePointAt(0)!;
      const start = Math.floor(code / 256) * 256;
      const { res, bytes } = await fetchBytes(`/fonts/${encodeURIComponent(font)}/${start}-${start + 255}.pbf`);
      t.is(res.status, 200, `${font} ${char}`);
      t.is(res.headers.get('content-type'), 'application/x-protobuf');
      t.regex(res.headers.get('cache-control') ?? '', /max-age=\d+/);
      const [stack] = decodeGlyphs(bytes);
      t.is(stack!.name, font);
      t.is(stack!.range, `${start}-${start + 255}`);
      const glyph = stack!.glyphs.find((g) => g.id === code);
      t.truthy(glyph, `${font} has ${char}`);
      t.true(glyph!.width > 5 && glyph!.height > 5 && glyph!.advance > 5, `${font} ${char}`);
      t.is(glyph!.bitmap!.length, (glyph!.width + 6) * (glyph!.height + 6), `${font} ${char} bitmap`);
      t.true(
        glyph!.bitmap!.some((v) => v > 191),
        `${font} ${char} has ink`,
      );
    }
  }
});

test('a range beyond the built ones is a valid PBF without glyphs; a stack is served by its first known font', async (t) => {
  const { res, bytes } = await fetchBytes('/fonts/noto_sans_regular/19968-20223.pbf');
  t.is(res.status, 200);
  t.deepEqual(decodeGlyphs(bytes), [{ name: 'noto_sans_regular', range: '19968-20223', glyphs: [] }]);
  const stack = await fetchBytes(`/fonts/${encodeURIComponent('Open Sans Bold,noto_sans_bold,noto_sans_regular')}/0-255.pbf`);
  t.is(stack.res.status, 200);
  t.is(decodeGlyphs(stack.bytes)[0]!.name, 'noto_sans_bold');
});

test('glyph ranges are validated (400) and unknown fonts are 404 naming the served ones; ETag gives 304', async (t) => {
  for (const range of ['0-256', '1-256', 'abc', '65536-65791', '256-255', '-0-255']) {
    t.regex(assertError(t, await call(`${server.url}/api/v1/fonts/noto_sans_regular/${range}.pbf?key=${key}`), 400), /range/, range);
  }
  const message = assertError(t, await call(`${server.url}/api/v1/fonts/Comic%20Sans/0-255.pbf?key=${key}`), 404);
  t.regex(message, /noto_sans_regular/);
  const { res } = await fetchBytes('/fonts/noto_sans_regular/0-255.pbf');
  const again = await fetchBytes('/fonts/noto_sans_regular/0-255.pbf', { headers: { 'if-none-match': res.headers.get('etag')! } });
  t.is(again.res.status, 304);
});

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  if (Buffer.from(png.subarray(1, 4)).toString() !== 'PNG') throw new Error('not a PNG');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

test('the sprite sheets hold every icon every style references, inside PNGs of the matching size', async (t) => {
  const images = referenced('images');
  const icons = [...images].filter((name) => name.startsWith('base:')).map((name) => name.slice('base:'.length));
  t.true(icons.length > 50);
  const sizes: { width: number; height: number }[] = [];
  for (const [suffix, ratio] of [
    ['', 1],
    ['@2x', 2],
  ] as const) {
    const index = (await call(`${server.url}/api/v1/sprites/base${suffix}.json?key=${key}`)).body as Record<
      string,
      { x: number; y: number; width: number; height: number; pixelRatio: number }
    >;
    const { res, bytes } = await fetchBytes(`/sprites/base${suffix}.png`);
    t.is(res.status, 200);
    t.is(res.headers.get('content-type'), 'image/png');
    const size = pngSize(bytes);
    sizes.push(size);
    for (const icon of icons) {
      const entry = index[icon];
      t.truthy(entry, `base${suffix} has ${icon}`);
      if (!entry) continue;
      t.is(entry.pixelRatio, ratio);
      t.true(entry.width > 0 && entry.height > 0);
      t.true(entry.x + entry.width <= size.width && entry.y + entry.height <= size.height, `${icon} inside the PNG`);
    }
    const right = Math.max(...Object.values(index).map((e) => e.x + e.width));
    const bottom = Math.max(...Object.values(index).map((e) => e.y + e.height));
    t.true(size.width - right <= 2 * ratio && size.height - bottom <= 2 * ratio, 'the PNG is no larger than its icons need');
  }
  t.deepEqual(sizes[1], { width: sizes[0]!.width * 2, height: sizes[0]!.height * 2 });
});

test('an unknown sprite is a 404 naming the served ones', async (t) => {
  t.regex(assertError(t, await call(`${server.url}/api/v1/sprites/maki.json?key=${key}`), 404), /base/);
  t.regex(assertError(t, await call(`${server.url}/api/v1/sprites/base@3x.png?key=${key}`), 404), /base/);
});
