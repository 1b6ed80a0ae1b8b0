/**
 * Shows the progress of long work on stderr: on a terminal, one bar per phase redrawn in place;
 * otherwise (a log, a pipe) plain lines: one when a phase finishes, and at most one every few
 * seconds while it runs. A phase that has done nothing yet leaves no line behind, so work that
 * fails at once (a bad input) shows only its error.
 */
import type { ProgressReporter } from '../../data-pipeline/progress.js';

const REDRAW_EVERY_MS = 100;
const LINE_EVERY_MS = 5000;
const BAR_WIDTH = 30;
/** A phase's time left is shown once it has run this long and done this share. */
const ETA_MIN_SECONDS = 5;
const ETA_MIN_SHARE = 0.02;

export interface ProgressDisplay {
  report: ProgressReporter;
  /** Ends the last bar's line. */
  finish(): void;
}

type Progress = Parameters<ProgressReporter>[0];

/** `1,234/5,678 tiles`, `12.5/80.0 MB`, `1,234 features` */
function amounts({ done, total, unit }: Progress): string {
  const bytes = unit === 'bytes';
  const show = (value: number) => (bytes ? (value / 1e6).toFixed(1) : value.toLocaleString('en-US'));
  const suffix = bytes ? ' MB' : unit ? ` ${unit}` : '';
  return `${show(done)}${total === null ? '' : `/${show(total)}`}${suffix}`;
}

const share = ({ done, total }: Progress) => (total === null ? null : total > 0 ? Math.min(1, done / total) : 1);
const isFinished = ({ done, total }: Progress) => total !== null && done >= total;
const hasStarted = (progress: Progress) => progress.done > 0 || isFinished(progress);

/** `1h02m`, `3m05s`, `40s` */
function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

/**
 * `, about 3m05s left`: the time still to go at the pace so far, once the phase has run long
 * enough for the pace to mean something; '' before that, when done or without a total.
 */
function timeLeft(progress: Progress, elapsedS: number): string {
  const part = share(progress);
  if (part === null || part >= 1 || part < ETA_MIN_SHARE || elapsedS < ETA_MIN_SECONDS) return '';
  return `, about ${duration((elapsedS * (1 - part)) / part)} left`;
}

function describe(progress: Progress, elapsedS: number): string {
  const part = share(progress);
  return `${progress.phase}: ${amounts(progress)}${part === null ? '' : ` (${Math.floor(part * 100)}%${timeLeft(progress, elapsedS)})`}`;
}

function bar(progress: Progress, elapsedS: number): string {
  const part = share(progress);
  if (part === null) return `${progress.phase} ${amounts(progress)}`;
  const filled = Math.round(part * BAR_WIDTH);
  const left = timeLeft(progress, elapsedS);
  return `${progress.phase} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${Math.floor(part * 100)}% ${amounts(progress)}${left ? ` (${left.slice(2)})` : ''}`;
}

export function progressDisplay(stream: NodeJS.WriteStream = process.stderr): ProgressDisplay {
  const terminal = stream.isTTY === true;
  let phase = '';
  let shownAt = Date.now();
  let latest: Progress | null = null;
  let finishShown = false;
  /** When each phase was first reported (phases of concurrent work take turns). */
  const startedAt = new Map<string, number>();
  const elapsedS = (progress: Progress) => (Date.now() - (startedAt.get(progress.phase) ?? Date.now())) / 1000;
  const draw = (progress: Progress) => stream.write(`\r\x1b[K${bar(progress, elapsedS(progress))}`);
  /** Ends the bar of the latest phase: kept on its line when the phase did something, else erased. */
  const endBar = () => {
    if (!latest) return;
    if (hasStarted(latest)) {
      draw(latest);
      stream.write('\n');
    } else {
      stream.write('\r\x1b[K');
    }
  };
  return {
    report(progress) {
      const now = Date.now();
      if (!startedAt.has(progress.phase)) startedAt.set(progress.phase, now);
      const newPhase = progress.phase !== phase;
      const finished = isFinished(progress);
      if (terminal) {
        if (newPhase) endBar();
        if (newPhase || finished || now - shownAt >= REDRAW_EVERY_MS) {
          draw(progress);
          shownAt = now;
        }
      } else {
        if (newPhase) finishShown = false;
        if ((finished && !finishShown) || (!finished && progress.done > 0 && now - shownAt >= LINE_EVERY_MS)) {
          stream.write(`${describe(progress, elapsedS(progress))}\n`);
          shownAt = now;
          finishShown = finished;
        }
      }
      phase = progress.phase;
      latest = progress;
    },
    finish() {
      if (terminal) endBar();
    },
  };
}
