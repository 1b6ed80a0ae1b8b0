/**
 * Waymark's import split into steps from its progress lines (stderr, `<phase>: <figures>`, e.g.
 * `cutting tiles: 746.3/746.3 MB (100%)` or `walking graph: routing graph: contraction: 9/9 nodes
 * (100%)`). Phases inside a step may overlap (the three routing graphs are built in parallel
 * threads), so a step is timed as a whole: from the end of the step before it (its last progress
 * line) to its own last progress line. The process tree's samples (memory, cumulative CPU time) are
 * attributed to the step whose interval holds them, which gives each step's peak memory and CPU time.
 */
import type { TreeSample } from '../lib/measure-command.js';
import { fmtMiB, fmtSeconds, markdownTable } from '../lib/report.js';

/** The steps, each with the phases (the text before the first colon) it groups. */
const STEPS: [string, RegExp][] = [
  ['scan', /^(checking inputs|scanning .+|sorting .+)$/],
  ['tiles', /^(reading OSM for tiles|reading features|cutting tiles|tiles z\d+)$/],
  ['style assets', /^(glyphs|sprites)$/],
  ['geocoder', /^(geonames|read OSM file|read OSM objects|geocoder .+)$/],
  ['routing', /^(read OSM roads|turn restrictions.*|build road networks|\S+ graph)$/],
];

/** The row of the time after the last progress line: writing the manifest, switching `current`, exiting. */
export const AFTER_LAST_LINE = 'after the last progress line';

/** What the phases table says each step groups. */
export const STEP_PHASES =
  'scan: checking inputs, scanning; tiles: reading OSM for tiles, reading features, cutting tiles; style assets: glyphs, sprites; ' +
  'geocoder: geonames, read OSM file/objects, geocoder places and index; routing: read OSM roads, turn restrictions, build road networks, the mode graphs';

/**
 * The step a stderr line reports progress of, or null for other lines. A phase no step knows (from
 * an older or newer import) is a step of its own when its line shows a percentage.
 */
export function stepOf(line: string): string | null {
  const m = /^([^:]+): (.*)$/.exec(line.trim());
  if (!m) return null;
  const [phase, figures] = [m[1]!.trim(), m[2]!];
  const known = STEPS.find(([, pattern]) => pattern.test(phase));
  if (known) return known[0];
  return /\(\d+%/.test(figures) ? phase : null;
}

/** One travel mode's graph build: from its first progress line to its last, in seconds since the start. */
export interface ModeSpan {
  mode: string;
  fromS: number;
  toS: number;
}

export interface StepFigures {
  step: string;
  wallS: number;
  /** Null when no sample fell in the step (shorter than the sampling period). */
  cpuS: number | null;
  peakRssBytes: number | null;
}

/** The tree's CPU seconds at `t`: those of the last sample taken by then (0 before the first). */
function cpuAt(samples: TreeSample[], t: number): number {
  let cpu = 0;
  for (const s of samples) if (s.elapsedS <= t) cpu = s.cpuS;
  return cpu;
}

function peakIn(samples: TreeSample[], from: number, to: number): number | null {
  const inside = samples.filter((s) => s.elapsedS > from && s.elapsedS <= to);
  return inside.length ? Math.max(...inside.map((s) => s.rssBytes)) : null;
}

/** Records the last progress line of each step and the tree's samples while an import runs. */
export class StepRecorder {
  private readonly ends = new Map<string, number>();
  private readonly modes = new Map<string, ModeSpan>();
  private readonly samples: TreeSample[] = [];

  readonly onLine = (line: string, elapsedS: number): void => {
    const step = stepOf(line);
    if (step) this.ends.set(step, elapsedS);
    const mode = /^(\S+) graph: /.exec(line.trim())?.[1];
    if (mode) {
      const span = this.modes.get(mode) ?? { mode, fromS: elapsedS, toS: elapsedS };
      span.toS = elapsedS;
      this.modes.set(mode, span);
    }
  };

  /** The travel modes' graph builds, in the order they started. */
  modeSpans(): ModeSpan[] {
    return [...this.modes.values()].sort((a, b) => a.fromS - b.fromS);
  }

  readonly onSample = (sample: TreeSample): void => {
    this.samples.push(sample);
  };

  /**
   * The steps in the order they ended, then the rest of the run. `totalCpuS` (GNU time's, when
   * known) gives the last row's CPU time, which the samples would miss after the last of them.
   */
  figures(wallS: number, totalCpuS: number | null): StepFigures[] {
    const bounds: [string, number][] = [...this.ends].sort((a, b) => a[1] - b[1]);
    bounds.push([AFTER_LAST_LINE, wallS]);
    let start = 0;
    return bounds.map(([step, end], i) => {
      const last = i === bounds.length - 1;
      const endCpu = last && totalCpuS !== null ? totalCpuS : cpuAt(this.samples, end);
      const peak = peakIn(this.samples, i === 0 ? -1 : start, end);
      const figures = {
        step,
        wallS: end - start,
        cpuS: peak === null && !last ? null : Math.max(0, endCpu - cpuAt(this.samples, start)),
        peakRssBytes: peak,
      };
      start = end;
      return figures;
    });
  }
}

/** One row per step (in the order they ended at the largest size), wall, CPU and peak per size. */
export function stepsTable(sizes: { label: string; steps: StepFigures[] }[]): string[] {
  const names = [...new Set([...sizes].reverse().flatMap((s) => s.steps.map((f) => f.step)))];
  names.sort((a, b) => Number(a === AFTER_LAST_LINE) - Number(b === AFTER_LAST_LINE));
  const cells = (f: StepFigures | undefined) =>
    f
      ? [fmtSeconds(f.wallS), f.cpuS === null ? '–' : fmtSeconds(f.cpuS), f.peakRssBytes === null ? '–' : fmtMiB(f.peakRssBytes)]
      : ['', '', ''];
  const rows = names.map((name) => [name, ...sizes.flatMap((s) => cells(s.steps.find((f) => f.step === name)))]);
  const header = ['step', ...sizes.flatMap(({ label }) => [`${label} wall`, `${label} CPU`, `${label} peak`])];
  return [
    "## Waymark's import steps (from its progress lines)",
    '',
    markdownTable(header, rows, ['l', ...header.slice(1).map(() => 'r' as const)]),
    '',
    `Steps group the import's phases (${STEP_PHASES}). Phases inside a step overlap, so a step's wall time runs from the last ` +
      'progress line of the step before to its own last one. Peak: the largest resident set of the process tree (osmium included) ' +
      'among the /proc samples (every 100 ms) in that interval; CPU: user + system time of the tree over it, from /proc ' +
      '(utime + stime of the live processes plus cutime + cstime, i.e. helpers that ended, of each; GNU time for the last row). ' +
      '– : no sample fell in the step.',
  ];
}

/**
 * The routing step per travel mode: when each mode's graph was done, in seconds after the first
 * progress line of any mode's graph (the import prints progress lines sparingly, so a short
 * build's first line may be its last: its end is what the lines tell reliably).
 */
export function modesTable(sizes: { label: string; modes: ModeSpan[] }[]): string[] {
  const modes = [...new Set(sizes.flatMap((s) => s.modes.map((m) => m.mode)))];
  if (modes.length === 0) return [];
  const rows = sizes.map(({ label, modes: spans }) => {
    const first = Math.min(...spans.map((m) => m.fromS));
    return [label, ...modes.map((mode) => spans.find((m) => m.mode === mode)).map((span) => (span ? fmtSeconds(span.toS - first) : '–'))];
  });
  return [
    '## Routing graphs per travel mode',
    '',
    markdownTable(['input', ...modes.map((mode) => `${mode} graph done`)], rows, ['l', ...modes.map(() => 'r' as const)]),
    '',
    "Seconds from the first progress line of any mode's graph to the last of this mode's (the modes are built side by side " +
      'in worker threads, as many at once as the threads and the memory budget allow).',
  ];
}
