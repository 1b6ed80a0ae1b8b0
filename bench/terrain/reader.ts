/**
 * bench:terrain's reader, in this process: `elevationAt` at random points, and the grids of
 * samples the terrain and contour tiles read, by `sampleGrid` (row-wise) beside
 * `sampleGridPointwise` (one look-up per sample: how `sampleGrid` read them before) in alternating
 * rounds; both must give the same values.
 */
import type { ElevationStore } from '../../core/terrain/elevation-store.js';
import { tileAxes, type SampleAxes } from '../../core/terrain/sample-axes.js';
import { fmtMs, markdownTable, median } from '../lib/report.js';

/** The grids: a terrain tile at the data's zoom and overzoomed, and a contour tile's (256² and a 6-sample buffer). */
const GRIDS: { name: string; axes: SampleAxes }[] = [
  { name: 'terrain tile z10 (512²)', axes: tileAxes(10, 516, 378, 512) },
  { name: 'terrain tile z12 (512²)', axes: tileAxes(12, 2065, 1512, 512) },
  { name: 'terrain tile z14 (512²)', axes: tileAxes(14, 8262, 6048, 512) },
  { name: 'contour tile z12 (268²)', axes: tileAxes(12, 2065, 1512, 256, 6) },
];

const WAYS = ['sampleGridPointwise', 'sampleGrid'] as const;

/** Milliseconds per call of `way` on `axes`, over `calls` calls. */
function timeGrid(store: ElevationStore, way: (typeof WAYS)[number], { lons, lats }: SampleAxes, calls: number): number {
  const out = new Float32Array(lons.length * lats.length);
  const started = performance.now();
  for (let i = 0; i < calls; i++) store[way](lons, lats, out);
  return (performance.now() - started) / calls;
}

/** The reader's section of the report: look-ups, then the grids before and after. */
export function measureReader(store: ElevationStore, lookups: [lat: number, lon: number][], rounds: number): string[] {
  for (const [lat, lon] of lookups.slice(0, 100_000)) store.elevationAt(lon, lat);
  const started = performance.now();
  for (const [lat, lon] of lookups) store.elevationAt(lon, lat);
  const perLookupNs = ((performance.now() - started) / lookups.length) * 1e6;

  const rows = GRIDS.map(({ name, axes }) => {
    const [pointwise, rowWise] = WAYS.map((way) => store[way](axes.lons, axes.lats));
    if (!pointwise!.every((value, i) => Object.is(value, rowWise![i])))
      throw new Error(`${name}: sampleGrid and sampleGridPointwise differ`);
    const times: Record<(typeof WAYS)[number], number[]> = { sampleGridPointwise: [], sampleGrid: [] };
    for (let round = 0; round < rounds; round++) for (const way of WAYS) times[way].push(timeGrid(store, way, axes, 10));
    const samples = axes.lons.length * axes.lats.length;
    const [before, after] = WAYS.map((way) => median(times[way]));
    return [
      name,
      fmtMs(before!),
      `${((before! / samples) * 1e6).toFixed(0)} ns`,
      fmtMs(after!),
      `${((after! / samples) * 1e6).toFixed(1)} ns`,
      `${(before! / after!).toFixed(1)}×`,
    ];
  });
  return [
    '## The reader (core/terrain/elevation-store.ts), in process',
    '',
    `\`elevationAt\` at ${lookups.length.toLocaleString('en-US')} random points of the two tiles (blocks cached): ${perLookupNs.toFixed(0)} ns a point.`,
    '',
    `Grids of samples over Andorra, ${rounds} alternating rounds of 10 calls each, medians; the two give the same values (checked): before, \`sampleGridPointwise\` (one look-up per sample, as \`sampleGrid\` read before); after, \`sampleGrid\` row-wise.`,
    '',
    markdownTable(['grid', 'before: per tile', 'per sample', 'after: per tile', 'per sample', 'speed-up'], rows, [
      'l',
      ...Array<'r'>(5).fill('r'),
    ]),
  ];
}
