/**
 * Scale benchmark (issue 10): how `waymark import` grows with its input. Inputs are N copies of a
 * dense extract laid side by side (grid-extract.ts; Monaco by default), ×1, ×4, ×16 by default
 * (`--sizes 1,4,16,64,256`). Each size is imported once by `waymark import --osm` (tiles, geocoder,
 * three routing graphs) and by tilemaker (tiles only, its OpenMapTiles example config, as in
 * bench:maps), each on a quiet machine, with wall time, CPU time and the process tree's peak memory;
 * Waymark's phases are timed from its progress lines. OSRM cannot be installed here (no Debian
 * package, and its npm package downloads binaries), so OSRM's car, bicycle and foot profiles are
 * estimated from their measured multiples of tilemaker's time (issue 10: 1.72×, 5.17×, 5.25×).
 *
 *   npm run bench:scale [-- --sizes 1,4,16 --base ../shared/data/osm/monaco.osm.pbf]
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
import { gridExtract } from './grid-extract.js';

/** OSRM 6.0's time per profile (extract + contract) as a multiple of tilemaker's, measured on the ×64 file (issue 10). */
const OSRM_MULTIPLES = { car: 1.72, bicycle: 5.17, foot: 5.25 };
/** OSRM's largest peak (its extract) as a multiple of tilemaker's peak, on the same file. */
const OSRM_PEAK_MULTIPLE = 1.75;

interface Options {
  sizes: number[];
  base: string;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { sizes: [1, 4, 16], base: resolve(PACKAGE_ROOT, '..', 'shared', 'data', 'osm', 'monaco.osm.pbf') };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--sizes' && value && /^\d+(,\d+)*$/.test(value)) options.sizes = value.split(',').map(Number);
    else if (flag === '--base' && value) options.base = resolve(value);
    else throw new Error(`unknown or incomplete option ${flag}; use --sizes 1,4,16 and --base FILE.osm.pbf`);
  }
  return options;
}

/** A phase of the import and when its last progress line came (seconds since the start). */
type PhaseEnds = Map<string, number>;

/** `tiles z7: 16,384/16,384 tiles (100%)` → `tiles`; other phases by their name before the colon. */
function phaseOf(line: string): string | null {
  const m = /^([^:]+): .*\(\d+%\)$/.exec(line.trim());
  if (!m) return null;
  return m[1]!.replace(/^tiles z\d+$/, 'tiles').replace(/^(sorting|scanning) .*/, '$1');
}

/**
 * Each phase's share of the wall time, phases in the order they ended: from the end of the phase
 * before to its own last line. Phases that overlap (the OSM read streams into the features) are
 * counted in the one that ends last.
 */
function phaseDurations(ends: PhaseEnds): [string, number][] {
  let previous = 0;
  return [...ends]
    .sort((a, b) => a[1] - b[1])
    .map(([phase, end]) => {
      const duration = end - previous;
      previous = end;
      return [phase, duration];
    });
}

function nodeCount(file: string): number {
  const info = spawnSync('osmium', ['fileinfo', '-e', '-g', 'data.count.nodes', file], { encoding: 'utf8' });
  return Number(info.stdout.trim());
}

interface SizeResult {
  copies: number;
  inputBytes: number;
  nodes: number;
  waymark: CommandMeasurement;
  phases: [string, number][];
  tilemaker: CommandMeasurement;
}

async function measure(label: string, command: string, args: string[], logPrefix: string, onLine?: (line: string, s: number) => void) {
  await waitForQuiet(0.15, 60_000);
  console.error(`  ${label}…`);
  const m = await measureCommand(command, args, { logPrefix, onStderrLine: onLine });
  if (m.exitCode !== 0) throw new Error(`${label} failed (${m.signal ?? m.exitCode}); see ${m.stderrFile}`);
  return m;
}

async function runSize(copies: number, options: Options, dir: string): Promise<SizeResult> {
  const input = join(RESULTS_DIR, 'scale', 'inputs', `${basename(options.base, '.osm.pbf')}-x${copies}.osm.pbf`);
  mkdirSync(join(RESULTS_DIR, 'scale', 'inputs'), { recursive: true });
  console.error(`×${copies}: making the input…`);
  await gridExtract(options.base, copies, input);
  const work = join(dir, `x${copies}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });

  const ends: PhaseEnds = new Map();
  const waymark = await measure(`×${copies}: waymark import`, process.execPath, importArgs(input, join(work, 'data')), join(work, 'waymark'), (line, s) => {
    const phase = phaseOf(line);
    if (phase) ends.set(phase, s);
  });
  const tilemaker = await measure(`×${copies}: tilemaker`, 'tilemaker', tilemakerArgs(prepareTilemaker(work), input, join(work, 'tilemaker.mbtiles')), join(work, 'tilemaker'));
  // The data folders are large at big sizes and only the measurements are kept.
  rmSync(join(work, 'data'), { recursive: true, force: true });
  rmSync(join(work, 'tilemaker.mbtiles'), { force: true });
  return { copies, inputBytes: statSync(input).size, nodes: nodeCount(input), waymark, phases: phaseDurations(ends), tilemaker };
}

const peak = (m: CommandMeasurement) => m.peakTreeRssBytes;
const cpu = (m: CommandMeasurement) => (m.cpuS === null ? '–' : fmtSeconds(m.cpuS));
const osrmSeconds = (tilemakerS: number) => Object.values(OSRM_MULTIPLES).reduce((sum, multiple) => sum + multiple * tilemakerS, 0);

function sizesTable(results: SizeResult[]): string[] {
  const rows = results.map((r) => {
    const stackS = r.tilemaker.wallS + osrmSeconds(r.tilemaker.wallS);
    return [
      `×${r.copies}`,
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
      ['input', 'file', 'nodes', 'waymark wall', 'waymark CPU', 'waymark peak', 'tilemaker wall', 'tilemaker CPU', 'tilemaker peak', 'waymark / tilemaker time', 'waymark / (tilemaker + OSRM×3, est.) time', 'waymark / tilemaker peak'],
      rows,
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
    'Peaks are the largest sum of the resident sets of the process tree (osmium included). The stack of tilemaker plus OSRM car, ' +
      `bicycle and foot is estimated as tilemaker's time × (1 + ${Object.values(OSRM_MULTIPLES).join(' + ')}); the aim is at most 1/3 of it ` +
      `(≈ ${((1 + Object.values(OSRM_MULTIPLES).reduce((a, b) => a + b, 0)) / 3).toFixed(2)}× tilemaker) and a peak at most ${OSRM_PEAK_MULTIPLE}× tilemaker's.`,
  ];
}

function growthTable(results: SizeResult[]): string[] {
  const rows = results.slice(1).map((r, i) => {
    const before = results[i]!;
    const size = r.nodes / before.nodes;
    return [
      `×${before.copies} → ×${r.copies}`,
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
    markdownTable(['step', 'nodes', 'waymark time', 'waymark peak', 'tilemaker time', 'tilemaker peak'], rows, ['l', 'r', 'r', 'r', 'r', 'r']),
  ];
}

function phasesTable(results: SizeResult[]): string[] {
  const phases = [...new Set(results.flatMap((r) => r.phases.map(([phase]) => phase)))];
  const rows = phases.map((phase) => [phase, ...results.map((r) => fmtSeconds(r.phases.find(([p]) => p === phase)?.[1] ?? 0))]);
  return [
    "## Waymark's phases (wall time, from its progress lines)",
    '',
    markdownTable(['phase', ...results.map((r) => `×${r.copies}`)], rows, ['l', ...results.map(() => 'r' as const)]),
  ];
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const source = describeSource();
  const dir = join(RESULTS_DIR, 'scale', 'runs');
  const results: SizeResult[] = [];
  for (const copies of options.sizes) results.push(await runSize(copies, options, dir));
  publishReport('scale', 'Scale benchmark: waymark import against tilemaker (and OSRM, estimated)', source, [
    sizesTable(results),
    growthTable(results),
    phasesTable(results),
  ], [`Inputs: ${basename(options.base)} laid side by side N times, ids renumbered dense (bench/scale/grid-extract.ts); one run per size and tool.`]);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
