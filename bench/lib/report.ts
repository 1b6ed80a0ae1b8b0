/** Shared pieces of benchmark reports: the machine they ran on, Markdown tables, result files. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { wrkVersion } from './wrk.js';

export const RESULTS_DIR = join(PACKAGE_ROOT, 'bench', 'results');

export function describeMachine(): string {
  const model = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const gib = (totalmem() / 2 ** 30).toFixed(0);
  return `${availableParallelism()} × ${model}, ${gib} GiB RAM, ${process.platform}/${process.arch}, Node ${process.version}`;
}

/**
 * The commit measured and the files of src/ changed since (call it when the build starts: the
 * working tree may change while a benchmark runs).
 */
export function describeSource(): string {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: PACKAGE_ROOT, encoding: 'utf8' }).stdout ?? '';
  const commit = git('rev-parse', '--short', 'HEAD').trim();
  if (!commit) return 'source: not a git checkout';
  // Porcelain lines are `XY path`.
  const changed = git('status', '--porcelain', '--', 'src')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.slice(3));
  if (changed.length === 0) return `commit ${commit}`;
  const list = changed.length <= 12 ? `: ${changed.join(', ')}` : '';
  return `commit ${commit} with ${changed.length} uncommitted change(s) in src/${list}`;
}

export function markdownTable(header: string[], rows: string[][], align: ('l' | 'r')[] = []): string {
  const rule = header.map((_, i) => (align[i] === 'r' ? '---:' : '---'));
  return [header, rule, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

export const fmtInt = (n: number): string => Math.round(n).toLocaleString('en-US');
export const fmtMs = (ms: number): string => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);
/** Seconds as microseconds, for per-request CPU time. */
export const fmtUs = (seconds: number): string => `${(seconds * 1e6).toFixed(1)} µs`;
export const fmtPct = (ratio: number): string => `${(ratio * 100).toFixed(1)} %`;
export const fmtSeconds = (seconds: number): string => `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
export const fmtMiB = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Writes `bench/results/<name>-<YYYY-MM-DD>[-n].md` (git-ignored) and returns its path. */
export function writeResult(name: string, markdown: string, date = new Date()): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const day = date.toISOString().slice(0, 10);
  let file = join(RESULTS_DIR, `${name}-${day}.md`);
  for (let n = 2; existsSync(file); n++) file = join(RESULTS_DIR, `${name}-${day}-${n}.md`);
  writeFileSync(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
  return file;
}

/**
 * Prints a benchmark's report (title, machine, command, then its sections) and writes it to
 * bench/results/<name>-<day>.md. `source` is describeSource() taken before the run started;
 * `notes` are lines about the run shown under the machine line.
 */
export function publishReport(name: string, title: string, source: string, sections: string[][], notes: string[] = []): void {
  const now = new Date();
  const args = process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : '';
  const report = [
    `# ${title}, ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `Machine: ${describeMachine()}; ${wrkVersion()}; Waymark ${source}.`,
    ...notes,
    `Command: \`npm run bench:${name}${args}\` (build, then \`node dist/bench/${name}/run.js\`).`,
    '',
    ...sections.flatMap((section) => [...section, '']),
  ].join('\n');
  console.log(report);
  console.error(`written to ${writeResult(name, report, now)}`);
}
