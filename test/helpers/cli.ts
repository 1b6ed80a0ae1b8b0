/** Runs the built `waymark` command as a subprocess, with no WAYMARK_* setting but those given. */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../core/package-root.js';

export const BIN = join(PACKAGE_ROOT, 'bin', 'waymark.js');

/** The environment without any WAYMARK_* setting, so that only what a test passes applies. */
export const BASE_ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('WAYMARK_')));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The working folder of the commands: an empty folder of its own, so `./data` is never the repo's. */
export const WORK_DIR = mkdtempSync(join(tmpdir(), 'waymark-cwd-'));
process.on('exit', () => rmSync(WORK_DIR, { recursive: true, force: true }));

/** Runs `waymark ARGS` to its end (in the empty working folder). */
export function waymark(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...BASE_ENV, ...env }, cwd: WORK_DIR }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

/** Starts a long-running `waymark ARGS` (serve, worker). */
export function spawnWaymark(args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [BIN, ...args], { env: { ...BASE_ENV, ...env }, cwd: WORK_DIR });
}
