/**
 * Shows the progress of long work on stderr: on a terminal, one bar per phase redrawn in place;
 * otherwise (a log, a pipe) plain lines: one when a phase finishes, and at most one every few
 * seconds while it runs. A phase that has done nothing yet leaves no line behind, so work that
 * fails at once (a bad input) shows only its error.
 */
import type { ProgressReporter } from '../../data-pipeline/features.js';

const REDRAW_EVERY_MS = 100;
const LINE_EVERY_MS = 5000;
const BAR_WIDTH = 30;

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

function describe(progress: Progress): string {
  const part = share(progress);
  return `${progress.phase}: ${amounts(progress)}${part === null ? '' : ` (${Math.floor(part * 100)}%)`}`;
}

function bar(progress: Progress): string {
  const part = share(progress);
  if (part === null) return `${progress.phase} ${amounts(progress)}`;
  const filled = Math.round(part * BAR_WIDTH);
  return `${progress.phase} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${Math.floor(part * 100)}% ${amounts(progress)}`;
}

export function progressDisplay(stream: NodeJS.WriteStream = process.stderr): ProgressDisplay {
  const terminal = stream.isTTY === true;
  let phase = '';
  let shownAt = Date.now();
  let latest: Progress | null = null;
  let finishShown = false;
  const draw = (progress: Progress) => stream.write(`\r\x1b[K${bar(progress)}`);
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
          stream.write(`${describe(progress)}\n`);
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
