/**
 * The server's logs (issue 26): one human-readable line per event and per request when stdout is a
 * terminal (a real pseudo-terminal, through `script`), JSON lines when it is not (a pipe, a log
 * collector); WAYMARK_LOG_FORMAT overrides either way.
 */
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { eventText, requestText } from '../src/observability/text-lines.js';
import { BASE_ENV, BIN, WORK_DIR } from './helpers/cli.js';

const quoted = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * Runs `waymark serve` with its stdout on a pseudo-terminal (`terminal`) or a pipe, asks it for
 * /healthz and resolves with the line that logged the request (a readiness signal: nothing is
 * waited for by time). Stopped with Ctrl-C through the terminal, or SIGINT. Under `script` the command
 * replaces the shell (`exec`): a shell that stayed in between would take the Ctrl-C itself and die of it
 * (status 130), whichever shell SHELL names.
 */
async function loggedRequest(t: ExecutionContext, terminal: boolean, env: Record<string, string> = {}): Promise<string> {
  const data = mkdtempSync(join(tmpdir(), 'waymark-logs-'));
  const serve = [process.execPath, BIN, 'serve', '--port', '0', '--data', data];
  const child = terminal
    ? spawn('script', ['-qfec', `exec ${serve.map(quoted).join(' ')}`, '/dev/null'], { cwd: WORK_DIR, env: { ...BASE_ENV, ...env } })
    : spawn(serve[0]!, serve.slice(1), { cwd: WORK_DIR, env: { ...BASE_ENV, ...env } });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.teardown(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(data, { recursive: true, force: true });
  });
  const output: string[] = [];
  let logged: string | undefined;
  for await (const raw of createInterface({ input: child.stdout })) {
    const line = raw.replace(/\r$/, '');
    output.push(line);
    const base = /^Waymark is listening on (http:\/\/127\.0\.0\.1:\d+) /.exec(line)?.[1];
    if (base) t.is((await fetch(`${base}/healthz`)).status, 200);
    if (line.includes('/healthz')) {
      logged = line;
      break;
    }
  }
  if (terminal) child.stdin.write('\x03');
  else child.kill('SIGINT');
  t.is(await exited, 0, output.join('\n'));
  t.truthy(logged, output.join('\n'));
  return logged!;
}

test('on a terminal, a request is one readable line: time, method, path, status, duration', async (t) => {
  t.regex(await loggedRequest(t, true), /^\d\d:\d\d:\d\d GET \/healthz 200 \d+\.\d ms$/);
});

test('through a pipe, a request is a JSON line with its reqId', async (t) => {
  const line = JSON.parse(await loggedRequest(t, false)) as Record<string, unknown>;
  t.like(line, { level: 30, service: 'waymark', method: 'GET', path: '/healthz', route: '/healthz', status: 200, msg: 'request' });
  t.regex(String(line.reqId), /\S/);
});

test('WAYMARK_LOG_FORMAT overrides the terminal: json on a terminal, text through a pipe', async (t) => {
  t.like(JSON.parse(await loggedRequest(t, true, { WAYMARK_LOG_FORMAT: 'json' })), { path: '/healthz', status: 200 });
  t.regex(await loggedRequest(t, false, { WAYMARK_LOG_FORMAT: 'text' }), /^\d\d:\d\d:\d\d GET \/healthz 200 /);
});

test('an event reads as time, level, message and its fields; an error is its message, then its stack indented', (t) => {
  const time = new Date(2026, 0, 2, 9, 5, 7).getTime();
  t.is(
    eventText(
      JSON.stringify({ level: 30, time, service: 'waymark', msg: 'worker waiting for import jobs', prefix: 'waymark', jobLockMs: 120000 }),
    ),
    '09:05:07 INFO  worker waiting for import jobs prefix=waymark jobLockMs=120000\n',
  );
  const logged = eventText(
    JSON.stringify({
      level: 50,
      time,
      msg: 'import failed',
      dataDir: '/srv/my maps',
      err: { type: 'Error', message: 'disk full', stack: 'Error: disk full\n    at write' },
    }),
  );
  t.is(logged, '09:05:07 ERROR import failed dataDir="/srv/my maps" err="disk full"\n    Error: disk full\n        at write\n');
});

test('what a client sent reaches the terminal escaped, never as control characters', (t) => {
  t.is(requestText(new Date(2026, 0, 2, 9, 5, 7).getTime(), 'GET', '/a\u001b[2Jb', 404, 2.5), '09:05:07 GET "/a\\u001b[2Jb" 404 2.5 ms\n');
  t.is(
    eventText(JSON.stringify({ level: 40, time: 0, msg: 'odd', key: 'x\u0007' }))
      .split(' ')
      .at(-1),
    'key="x\\u0007"\n',
  );
});
