/**
 * `npm start` as the README runs it (issue 34), through npm and the POSIX shell npm runs scripts
 * with (SHELL=/bin/sh, dash, as on CI), on an empty data folder: the first import runs in the
 * background while the server answers. While it runs, `/readyz` and the API's 503 say so; SIGTERM
 * or SIGHUP to npm's pid stops the server and the import, each logging one line naming the signal,
 * and nothing it started stays behind; an import that ends is waited for (no zombie). The machine's
 * setup (scripts/setup.sh) is skipped: the tests run on a built checkout.
 */
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PACKAGE_ROOT } from '../core/package-root.js';
import { paths } from '../core/dataset-layout.js';
import { BASE_ENV, waymark } from './helpers/cli.js';
import { freePort } from './helpers/cluster.js';
import { tempDataDir } from './helpers/fixtures.js';
import { assertError, call } from './helpers/http.js';
import { descendants, exists, type ProcessEntry } from './helpers/processes.js';
import { dataTest, sharedFile } from './helpers/shared-data.js';
import { patientTest, within } from './helpers/waits.js';

const TOWN = join(PACKAGE_ROOT, 'test', 'fixtures', 'osm', 'town.osm');
const MONACO_DEM = sharedFile('dem', 'N43E007.hgt.zip');

/** `npm start -- --port PORT` on `dataDir`, its output lines collected; killed in the teardown if still running. */
async function npmStart(t: ExecutionContext, dataDir: string, env: Record<string, string> = {}) {
  patientTest(t);
  const port = await freePort();
  // In a process group of its own, as a terminal's foreground job is (the Ctrl-C test signals the group).
  const child = spawn('npm', ['start', '--', '--port', String(port)], {
    detached: true,
    cwd: PACKAGE_ROOT,
    env: { ...BASE_ENV, SHELL: '/bin/sh', WAYMARK_SKIP_SETUP: '1', WAYMARK_DATA: dataDir, WAYMARK_LOG_FORMAT: 'json', ...env },
  });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => lines.push(line));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.teardown(() => {
    for (const p of descendants(child.pid!)) process.kill(p.pid, 'SIGKILL');
    child.kill('SIGKILL');
  });
  const base = `http://127.0.0.1:${port}`;
  await within(`npm start answering on ${base}/healthz:\n${lines.join('\n')}`, async () =>
    (await call(`${base}/healthz`).catch(() => null))?.status === 200 ? true : undefined,
  );
  return { pid: child.pid!, base, lines, exited };
}

type Started = Awaited<ReturnType<typeof npmStart>>;

/** How long a stop may take (a loaded machine); before the fix the server never stopped. */
const STOP_MS = 60_000;

/**
 * Sends `signal` to npm (or, `toGroup`, to its process group, as a terminal's Ctrl-C does) and waits
 * for npm, the port and every process npm had started to be gone; returns npm's exit status.
 */
async function stopWith(t: ExecutionContext, started: Started, signal: NodeJS.Signals, toGroup = false) {
  const below = descendants(started.pid);
  t.true(
    below.some((p) => p.command.includes('waymark.js serve')),
    below.map((p) => p.command).join('\n'),
  );
  process.kill(toGroup ? -started.pid : started.pid, signal);
  const code = await started.exited;
  await within('the port to close', async () => ((await call(`${started.base}/healthz`).catch(() => null)) ? undefined : true), STOP_MS);
  await within(
    `every process npm started to exit: ${below.map((p) => p.command).join('; ')}`,
    async () => (below.some((p) => exists(p.pid)) ? undefined : true),
    STOP_MS,
  );
  // One line: the signal reached the server once (a second one would have stopped it at once).
  const stops = started.lines.map((line) => (line.startsWith('{') ? JSON.parse(line) : null)).filter((entry) => entry?.signal);
  t.like(stops, [{ signal, msg: `${signal}: stopping (writing buffered usage; a second signal stops at once)` }], started.lines.join('\n'));
  return code;
}

dataTest(
  "npm start imports the demo with Monaco's DEM; while the first import runs /readyz and the API say so; SIGTERM to npm stops everything",
  [sharedFile('osm', 'monaco.osm.pbf'), MONACO_DEM],
  async (t) => {
    const dataDir = tempDataDir(t);
    const started = await npmStart(t, dataDir);
    const importing = started.lines.find((line) => line.startsWith('start: ') && line.includes('waymark import'));
    t.true(importing?.includes(`--dem ${MONACO_DEM}`), importing);

    // The import's phase comes from DATA/import.progress, which it rewrites every 2 s.
    const ready = await within('/readyz to name the running import and its phase', async () => {
      const answer = await call(`${started.base}/readyz`);
      return /first dataset is being imported .*; /.test(answer.body?.error ?? '') ? answer : undefined;
    });
    t.is(ready.status, 503);
    t.is(ready.body.dataset, null);
    t.regex(ready.body.error, /^the first dataset is being imported \(waymark import, pid \d+, running for \d+ s; [a-z][^;]*\): maps/);

    await waymark(['user', 'create', '--email', 'start@example.com', '--password', 'a long password', '--org', 'Start', '--data', dataDir]);
    const key = JSON.parse((await waymark(['key', 'create', '--org', 'Start', '--name', 'k', '--json', '--data', dataDir])).stdout).value;
    const answer = await call(`${started.base}/api/v1/tiles/shortbread.json?key=${key}`);
    t.regex(
      assertError(t, answer, 503),
      /^the first dataset is being imported .*: maps, geocoding, routing and elevation answer once it is done; try again in a minute$/,
    );
    t.is(answer.headers.get('retry-after'), '10');

    t.is(await stopWith(t, started, 'SIGTERM'), 0);
    t.true(started.lines.includes('import: waymark: the import was cancelled (SIGTERM)'), started.lines.join('\n'));
    t.false(existsSync(paths.current(dataDir)));
  },
);

test('npm start waits for its finished import (no zombie), is ready with the dataset, and stops on SIGHUP to npm', async (t) => {
  const dataDir = tempDataDir(t);
  const started = await npmStart(t, dataDir, { WAYMARK_OSM: TOWN });
  const ready = await within('/readyz 200', async () => {
    const answer = await call(`${started.base}/readyz`);
    return answer.status === 200 ? answer : undefined;
  });
  t.regex(ready.body.dataset, /./);
  // The import's processes (node, and sed prefixing its lines) end and are waited for: no zombie.
  const importing = (p: ProcessEntry) => p.state === 'Z' || /waymark\.js import|sed -u/.test(p.command);
  await within(
    'the import to end, leaving no zombie below npm',
    async () => (descendants(started.pid).some(importing) ? undefined : true),
    30_000,
  ).catch((error: Error) => t.fail(`${error.message}: ${JSON.stringify(descendants(started.pid))}`));
  await stopWith(t, started, 'SIGHUP');
  t.true(started.lines.includes(`start: npm (pid ${started.pid}) is gone`), started.lines.join('\n'));
});

test("Ctrl-C (SIGINT to npm's process group: npm, and the script, which npm signals again) stops the server and the import once", async (t) => {
  const started = await npmStart(t, tempDataDir(t), { WAYMARK_OSM: TOWN });
  await within('the import to run', async () =>
    /first dataset is being imported/.test((await call(`${started.base}/readyz`)).body?.error ?? '') ? true : undefined,
  );
  t.is(await stopWith(t, started, 'SIGINT', true), 0);
  t.true(started.lines.includes('import: waymark: the import was cancelled (SIGINT)'), started.lines.join('\n'));
});
