/**
 * Scale benchmark (issue 10): how `waymark import` grows with its input. Inputs are N copies of a
 * dense extract laid side by side (grid-extract.ts; Monaco by default), ×1, ×4, ×16 by default
 * (`--sizes 1,4,16,64,256`), each as a connected grid (neighbouring copies joined by a road, one road
 * network as a real region is) and as separate copies (`--grids joined,separate`, both by default). Each size is imported once by `waymark import --osm` (tiles, geocoder,
 * three routing graphs) and by tilemaker (tiles only, its OpenMapTiles example config, as in
 * bench:maps), each on a quiet machine, with wall time, CPU time and the process tree's peak memory;
 * Waymark's import is split into steps from its progress lines, each with its wall time, CPU time
 * and peak memory (steps.ts). OSRM cannot be installed here (no Debian package, and its npm package
 * downloads binaries), so OSRM's car, bicycle and foot profiles are estimated from their measured
 * multiples of tilemaker's time (issue 10: 1.72×, 5.17×, 5.25×). Then the largest dataset and the
 * single copy are served and measured: start time, bare route p50, search p50 (serving.ts); the
 * data folders are deleted at the end.
 *
 *   npm run bench:scale [-- --sizes 1,4,16 --grids joined,separate --base ../shared/data/osm/monaco.osm.pbf --serve-duration 10]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { waitForQuiet } from '../lib/cpu.js';
import { measureCommand, type CommandMeasurement } from '../lib/measure-command.js';
import { describeSource, fmtMiB, fmtSeconds, markdownTable, publishReport, RESULTS_DIR } from '../lib/report.js';
import { prepareTilemaker, tilemakerArgs } from '../maps/tilemaker.js';
import { importArgs } from '../maps/waymark.js';
import { copyOffsets, gridExtract } from './grid-extract.js';
import { makeWorkload, serveDataset, servingSection, type ServedDataset, type ServingFigures } from './serving.js';
import { modesTable, StepRecorder, stepsTable, type ModeSpan, type StepFigures } from './steps.js';

/** OSRM 6.0's time per profile (extract + contract) as a multiple of tilemaker's, measured on the ×64 file (issue 10). */
const OSRM_MULTIPLES = { car: 1.72, bicycle: 5.17, foot: 5.25 };
/** OSRM's largest peak (its extract) as a multiple of tilemaker's peak, on the same file. */
const OSRM_PEAK_MULTIPLE = 1.75;

/** A grid of copies joined into one road network, or left as separate networks. */
type Grid = 'joined' | 'separate';

interface Options {
  sizes: number[];
  grids: Grid[];
  base: string;
  /** Seconds of each timed search run (wrk) and engine baseline when serving. */
  serveDuration: number;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    sizes: [1, 4, 16],
    grids: ['joined', 'separate'],
    base: resolve(PACKAGE_ROOT, '..', 'shared', 'data', 'osm', 'monaco.osm.pbf'),
    serveDuration: 10,
  };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--sizes' && value && /^\d+(,\d+)*$/.test(value)) options.sizes = value.split(',').map(Number);
    else if (flag === '--grids' && value && /^(joined|separate)(,(joined|separate))?$/.test(value))
      options.grids = value.split(',') as Grid[];
    else if (flag === '--base' && value) options.base = resolve(value);
    else if (flag === '--serve-duration' && value && Number(value) > 0) options.serveDuration = Number(value);
    else
      throw new Error(
        `unknown or incomplete option ${flag}; use --sizes 1,4,16, --grids joined,separate, --base FILE.osm.pbf and --serve-duration 10`,
      );
  }
  return options;
}

function nodeCount(file: string): number {
  const info = spawnSync('osmium', ['fileinfo', '-e', '-g', 'data.count.nodes', file], { encoding: 'utf8' });
  return Number(info.stdout.trim());
}

interface SizeResult {
  copies: number;
  grid: Grid;
  /** The input's name in the tables: ×N, and "joined" for a connected grid of more than one copy. */
  label: string;
  inputBytes: number;
  nodes: number;
  waymark: CommandMeasurement;
  steps: StepFigures[];
  modes: ModeSpan[];
  tilemaker: CommandMeasurement;
  /** The imported data folder, when kept for serving. */
  dataDir: string | null;
}

async function measure(label: string, command: string, args: string[], logPrefix: string, steps?: StepRecorder) {
  await waitForQuiet(0.15, 60_000);
  console.error(`  ${label}…`);
  const m = await measureCommand(command, args, { logPrefix, onStderrLine: steps?.onLine, onSample: steps?.onSample });
  if (m.exitCode !== 0) throw new Error(`${label} failed (${m.signal ?? m.exitCode}); see ${m.stderrFile}`);
  return m;
}

const labelOf = (copies: number, grid: Grid) => (copies > 1 && grid === 'joined' ? `×${copies} joined` : `×${copies}`);

/** The grid input of `copies` copies (made once, cached in bench/results/scale/inputs/). */
async function inputOf(copies: number, grid: Grid, options: Options): Promise<string> {
  const suffix = copies > 1 && grid === 'joined' ? '-joined' : '';
  const input = join(RESULTS_DIR, 'scale', 'inputs', `${basename(options.base, '.osm.pbf')}-x${copies}${suffix}.osm.pbf`);
  mkdirSync(join(RESULTS_DIR, 'scale', 'inputs'), { recursive: true });
  console.error(`${labelOf(copies, grid)}: making the input…`);
  await gridExtract(options.base, copies, input, grid === 'joined');
  return input;
}

/** A fresh work folder for one size. */
function workFolder(dir: string, copies: number, grid: Grid = 'separate'): string {
  const work = join(dir, `x${copies}${grid === 'joined' ? '-joined' : ''}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  return work;
}

/** Imports and measures one size; its data folder is kept when `keepData` (for serving), else deleted. */
async function runSize(copies: number, grid: Grid, options: Options, dir: string, keepData: boolean): Promise<SizeResult> {
  const input = await inputOf(copies, grid, options);
  const work = workFolder(dir, copies, grid);
  const label = labelOf(copies, grid);
  const dataDir = join(work, 'data');
  const steps = new StepRecorder();
  const waymark = await measure(`${label}: waymark import`, process.execPath, importArgs(input, dataDir), join(work, 'waymark'), steps);
  const tilemaker = await measure(
    `${label}: tilemaker`,
    'tilemaker',
    tilemakerArgs(prepareTilemaker(work), input, join(work, 'tilemaker.mbtiles')),
    join(work, 'tilemaker'),
  );
  // The data folders are large at big sizes and only the measurements are kept.
  if (!keepData) rmSync(dataDir, { recursive: true, force: true });
  rmSync(join(work, 'tilemaker.mbtiles'), { force: true });
  const stepFigures = steps.figures(waymark.wallS, waymark.cpuS);
  return {
    copies,
    grid,
    label,
    inputBytes: statSync(input).size,
    nodes: nodeCount(input),
    waymark,
    steps: stepFigures,
    modes: steps.modeSpans(),
    tilemaker,
    dataDir: keepData ? dataDir : null,
  };
}

/** The single copy's data folder for serving when ×1 was not among the sizes: imported, not measured. */
async function importSingle(options: Options, dir: string): Promise<string> {
  const input = await inputOf(1, 'separate', options);
  const dataDir = join(workFolder(dir, 1), 'data');
  console.error('×1: waymark import, for serving only…');
  const run = spawnSync(process.execPath, importArgs(input, dataDir), {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (run.status !== 0) throw new Error(`waymark import of ×1 failed (${run.signal ?? run.status}): ${run.stderr.slice(-2000)}`);
  return dataDir;
}

const peak = (m: CommandMeasurement) => m.peakTreeRssBytes;
const cpu = (m: CommandMeasurement) => (m.cpuS === null ? '–' : fmtSeconds(m.cpuS));
const osrmSeconds = (tilemakerS: number) => Object.values(OSRM_MULTIPLES).reduce((sum, multiple) => sum + multiple * tilemakerS, 0);

function sizesTable(results: SizeResult[]): string[] {
  const rows = results.map((r) => {
    const stackS = r.tilemaker.wallS + osrmSeconds(r.tilemaker.wallS);
    return [
      r.label,
      fmtMiB(r.inputBytes),
      r.nodes.toLocaleString('en-US'),
      fmtSeconds(r.waymark.wallS),
      cpu(r.waymark),
      fmtMiB(peak(r.waymark)),
      fmtSeconds(r.tilemaker.wallS),
      cpu(r.tilemaker),
      fmtMiB(peak(r.tilemaker)),
      `${(r.waymark.wallS / r.tilemaker.wallS).toFixed(2)}×`,
      `${(r.waymark.wallS / stackS).toFixed(2)}`,
      `${(peak(r.waymark) / peak(r.tilemaker)).toFixed(2)}×`,
    ];
  });
  return [
    '## Import time and memory by input size',
    '',
    markdownTable(
      [
        'input',
        'file',
        'nodes',
        'waymark wall',
        'waymark CPU',
        'waymark peak',
        'tilemaker wall',
        'tilemaker CPU',
        'tilemaker peak',
        'waymark / tilemaker time',
        'waymark / (tilemaker + OSRM×3, est.) time',
        'waymark / tilemaker peak',
      ],
      rows,
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
    'Peaks are the largest sum of the resident sets of the process tree (osmium included). The stack of tilemaker plus OSRM car, ' +
      `bicycle and foot is estimated as tilemaker's time × (1 + ${Object.values(OSRM_MULTIPLES).join(' + ')}); the aim is at most 1/3 of it ` +
      `(≈ ${((1 + Object.values(OSRM_MULTIPLES).reduce((a, b) => a + b, 0)) / 3).toFixed(2)}× tilemaker) and a peak at most ${OSRM_PEAK_MULTIPLE}× tilemaker's.`,
  ];
}

/** A connected grid against the separate copies of the same size: what one road network costs. */
function joinedTable(results: SizeResult[]): string[] {
  const rows = results.flatMap((joined) => {
    const separate = results.find((r) => r.copies === joined.copies && r.grid === 'separate');
    if (joined.grid !== 'joined' || joined.copies === 1 || !separate) return [];
    const routing = (r: SizeResult) => r.steps.find((f) => f.step === 'routing');
    const ratio = (a: number | null | undefined, b: number | null | undefined) => (a && b ? `${(a / b).toFixed(2)}×` : '–');
    return [
      [
        `×${joined.copies}`,
        ratio(joined.waymark.wallS, separate.waymark.wallS),
        ratio(peak(joined.waymark), peak(separate.waymark)),
        ratio(routing(joined)?.wallS, routing(separate)?.wallS),
        ratio(routing(joined)?.peakRssBytes, routing(separate)?.peakRssBytes),
      ],
    ];
  });
  if (rows.length === 0) return [];
  return [
    '## One road network against separate copies',
    '',
    markdownTable(['input', 'import time', 'import peak', 'routing step time', 'routing step peak'], rows, ['l', 'r', 'r', 'r', 'r']),
    '',
    'Joined divided by separate, same size, same run.',
  ];
}

function growthTable(results: SizeResult[]): string[] {
  // Consecutive sizes of the same grid (the single copy starts both).
  const pairs = results.flatMap((r) => {
    const before = results.filter((b) => b.copies < r.copies && (b.copies === 1 || b.grid === r.grid)).at(-1);
    return before ? [[before, r] as const] : [];
  });
  const rows = pairs.map(([before, r]) => {
    const size = r.nodes / before.nodes;
    return [
      `${before.label} → ${r.label}`,
      `${size.toFixed(2)}×`,
      `${(r.waymark.wallS / before.waymark.wallS).toFixed(2)}×`,
      `${(peak(r.waymark) / peak(before.waymark)).toFixed(2)}×`,
      `${(r.tilemaker.wallS / before.tilemaker.wallS).toFixed(2)}×`,
      `${(peak(r.tilemaker) / peak(before.tilemaker)).toFixed(2)}×`,
    ];
  });
  return [
    '## Growth',
    '',
    markdownTable(['step', 'nodes', 'waymark time', 'waymark peak', 'tilemaker time', 'tilemaker peak'], rows, [
      'l',
      'r',
      'r',
      'r',
      'r',
      'r',
    ]),
  ];
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const source = describeSource();
  const dir = join(RESULTS_DIR, 'scale', 'runs');
  const largest = Math.max(...options.sizes);
  const results: SizeResult[] = [];
  const kept: string[] = [];
  try {
    for (const copies of options.sizes) {
      // One copy is one network either way; the largest size is served as its first grid.
      for (const grid of copies === 1 ? options.grids.slice(0, 1) : options.grids) {
        const keep = copies === 1 || (copies === largest && grid === options.grids[0]);
        const result = await runSize(copies, grid, options, dir, keep);
        results.push(result);
        if (result.dataDir) kept.push(result.dataDir);
      }
    }
    const serving = await serveLargest(results, largest, options, dir, kept);
    publishReport(
      'scale',
      'Scale benchmark: waymark import against tilemaker (and OSRM, estimated)',
      source,
      [sizesTable(results), joinedTable(results), growthTable(results), stepsTable(results), modesTable(results), serving],
      [
        `Inputs: ${basename(options.base)} laid side by side N times, ids renumbered dense (bench/scale/grid-extract.ts); ` +
          '"joined": each pair of neighbouring copies joined by one highway=primary road, so the grid is one road network; ' +
          'one run per size, grid and tool.',
      ],
    );
  } finally {
    // The data folders are large at big sizes and only the measurements are kept.
    for (const folder of [...kept, join(dir, 'serving')]) rmSync(folder, { recursive: true, force: true });
  }
}

/** The single copy and the largest size served and measured (the single copy imported here when it was not among the sizes). */
async function serveLargest(results: SizeResult[], largest: number, options: Options, dir: string, kept: string[]): Promise<string[]> {
  let singleDir = results.find((r) => r.copies === 1)?.dataDir;
  if (!singleDir) kept.push((singleDir = await importSingle(options, dir)));
  const datasets: ServedDataset[] = [{ copies: 1, dataDir: singleDir, offsets: [[0, 0]] }];
  if (largest > 1)
    datasets.push({
      copies: largest,
      dataDir: results.find((r) => r.copies === largest)!.dataDir!,
      offsets: copyOffsets(options.base, largest),
    });
  console.error('serving the single copy and the largest dataset…');
  const work = makeWorkload(datasets[0]!);
  const figures: ServingFigures[] = [];
  for (const dataset of datasets) figures.push(await serveDataset(dataset, work, join(dir, 'serving'), options.serveDuration));
  return servingSection(figures, options.serveDuration);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
