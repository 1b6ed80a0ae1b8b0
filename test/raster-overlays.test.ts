/** Static map overlays (workers/render/draw/overlays.ts): pins, paths and the attribution drawn on a canvas. */
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import test from 'ava';
import type { StaticMapJob } from '../workers/render/task.js';
import { drawAttribution, drawOverlays } from '../workers/render/draw/overlays.js';

const WIDTH = 200;
const HEIGHT = 100;

function job(overrides: Partial<StaticMapJob>): StaticMapJob {
  return {
    kind: 'static',
    datasetDir: '',
    style: { version: 8, sources: {}, layers: [] },
    format: 'png',
    pixelRatio: 1,
    center: [0, 0],
    zoom: 0,
    width: WIDTH,
    height: HEIGHT,
    markers: [],
    paths: [],
    attribution: '',
    ...overrides,
  };
}

/** Device pixels = lon, lat as given: the tests place points directly. */
const identity = (lon: number, lat: number): [number, number] => [lon, lat];

function pixel(canvas: Canvas, x: number, y: number): [number, number, number, number] {
  const data = canvas.getContext('2d').getImageData(x, y, 1, 1).data;
  return [data[0]!, data[1]!, data[2]!, data[3]!];
}

test('a marker is a pin of its colour whose tip is on the point, with its label in white', (t) => {
  for (const pixelRatio of [1, 2] as const) {
    const canvas = createCanvas(WIDTH * pixelRatio, HEIGHT * pixelRatio);
    drawOverlays(canvas.getContext('2d'), identity, job({ pixelRatio, markers: [{ lon: 100, lat: 80, color: '#ff0000', label: 'A' }] }));
    // Just above the tip, and on the head's side (the label is in the head's middle).
    t.deepEqual(pixel(canvas, 100, 80 - 3 * pixelRatio), [255, 0, 0, 255], `tip at ratio ${pixelRatio}`);
    t.deepEqual(pixel(canvas, 100 - 6 * pixelRatio, 80 - 13 * pixelRatio), [255, 0, 0, 255], `head at ratio ${pixelRatio}`);
    // Somewhere in the label's glyph, white pixels; far from the pin, nothing.
    const head = canvas.getContext('2d').getImageData(100 - 4 * pixelRatio, 80 - 17 * pixelRatio, 8 * pixelRatio, 8 * pixelRatio).data;
    let white = 0;
    for (let i = 0; i < head.length; i += 4) if (head[i]! > 240 && head[i + 1]! > 240 && head[i + 2]! > 240) white++;
    t.true(white > 0, `label at ratio ${pixelRatio}`);
    t.is(pixel(canvas, 10, 10)[3], 0);
  }
});

test('a path is a line of its colour and width times the pixel ratio along its points', (t) => {
  const canvas = createCanvas(WIDTH * 2, HEIGHT * 2);
  drawOverlays(
    canvas.getContext('2d'),
    identity,
    job({
      pixelRatio: 2,
      paths: [
        {
          points: [
            [20, 20],
            [180, 20],
            [180, 180],
          ],
          color: '#0000ff',
          width: 3,
        },
      ],
    }),
  );
  for (const x of [30, 100, 170]) t.deepEqual(pixel(canvas, x, 20), [0, 0, 255, 255], `(${x}, 20)`);
  for (const y of [40, 120]) t.deepEqual(pixel(canvas, 180, y), [0, 0, 255, 255], `(180, ${y})`);
  // 3 CSS px × 2 = 6 device px wide: 2 px off the line is on it, 5 px off is not.
  t.deepEqual(pixel(canvas, 100, 22), [0, 0, 255, 255]);
  t.is(pixel(canvas, 100, 25)[3], 0);
  // An open path is not filled even with a fill.
  t.is(pixel(canvas, 150, 60)[3], 0);
});

test('a closed path with a fill is filled; without a fill it is only outlined', (t) => {
  const square: [number, number][] = [
    [20, 20],
    [80, 20],
    [80, 80],
    [20, 80],
    [20, 20],
  ];
  const filled = createCanvas(WIDTH, HEIGHT);
  drawOverlays(filled.getContext('2d'), identity, job({ paths: [{ points: square, color: '#000000', width: 2, fill: '#00ff00' }] }));
  t.deepEqual(pixel(filled, 50, 50), [0, 255, 0, 255]);
  t.deepEqual(pixel(filled, 50, 20), [0, 0, 0, 255]);
  const outlined = createCanvas(WIDTH, HEIGHT);
  drawOverlays(outlined.getContext('2d'), identity, job({ paths: [{ points: square, color: '#000000', width: 2 }] }));
  t.is(pixel(outlined, 50, 50)[3], 0);
});

test('the attribution is dark text on a translucent white box in the bottom-right corner', (t) => {
  const canvas = createCanvas(WIDTH * 2, HEIGHT * 2);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#000000';
  ctx.fillRect(0, 0, WIDTH * 2, HEIGHT * 2);
  drawAttribution(ctx, '© OpenStreetMap contributors', WIDTH, HEIGHT, 2);
  const [r, g, b] = pixel(canvas, WIDTH * 2 - 1, HEIGHT * 2 - 1);
  t.true(r > 150 && r < 255 && r === g && g === b, `corner is translucent white over black: ${r}`);
  t.deepEqual(pixel(canvas, 2, 2), [0, 0, 0, 255]);
  t.deepEqual(pixel(canvas, WIDTH * 2 - 1, 2), [0, 0, 0, 255]);
});
