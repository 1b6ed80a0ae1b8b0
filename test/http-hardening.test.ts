/**
 * Issue 34's HTTP hardening: the dashboard's Content-Security-Policy and `Cache-Control: no-store`
 * on its API; X-Forwarded-Host and -Proto believed only from trusted proxies (absolute links, the
 * dashboard's same-origin check); and a store out of room answered 507 with the uniform body, never
 * a bare 500: a real full disk (a small tmpfs, which needs root to mount) under the SQLite file and
 * under Redis's append-only file, and a real Redis past its maxmemory.
 */
import test, { type ExecutionContext } from 'ava';
import { Redis } from 'ioredis';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CidrSet } from '../core/cidr.js';
import { freePort, track } from './helpers/cluster.js';
import { serve } from './helpers/fixtures.js';
import { assertError, call } from './helpers/http.js';
import type { Account, TestServer } from './helpers/server.js';
import { within } from './helpers/waits.js';

const LOOPBACK = CidrSet.parse(['127.0.0.1', '::1']);
const PASSWORD = 'correct horse battery';

/** A dashboard API call as the account (or signed out), with its cookie and CSRF token and any other headers. */
function dashboardCall(
  server: TestServer,
  account: Account | null,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
) {
  return call(`${server.url}/dashboard/api${path}`, {
    method,
    headers: {
      ...(account ? { cookie: account.cookie, 'x-csrf-token': account.csrfToken } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

test('dashboard pages carry a Content-Security-Policy; WAYMARK_PUBLIC_URL is among what they may fetch', async (t) => {
  const server = await serve(t);
  for (const path of [
    '/dashboard/',
    '/dashboard/index.html',
    '/dashboard/js/app.js',
    '/dashboard/vendor/maplibre-gl/maplibre-gl-worker.mjs',
  ]) {
    const answer = await call(`${server.url}${path}`);
    t.is(answer.status, 200, path);
    const policy = answer.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
    ]) {
      t.true(policy.split('; ').includes(directive), `${path}: ${directive} in ${policy}`);
    }
    t.true(policy.split('; ').includes("connect-src 'self'"), policy);
  }
  const configured = await serve(t, { publicUrl: 'https://maps.example.com/waymark/' });
  const policy = (await call(`${configured.url}/dashboard/`)).headers.get('content-security-policy') ?? '';
  t.true(policy.split('; ').includes("connect-src 'self' https://maps.example.com"), policy);
});

test('every dashboard API answer is Cache-Control: no-store (the member, the CSRF token, key values, invitation links)', async (t) => {
  const server = await serve(t);
  const email = 'no-store@example.com';
  const signUp = await dashboardCall(server, null, 'POST', '/signup', {}, { email, password: PASSWORD });
  t.is(signUp.status, 201);
  t.is(signUp.headers.get('cache-control'), 'no-store', 'sign-up');
  const signIn = await dashboardCall(server, null, 'POST', '/signin', {}, { email, password: PASSWORD });
  t.is(signIn.status, 200);
  t.is(signIn.headers.get('cache-control'), 'no-store', 'sign-in');
  const account: Account = {
    cookie: signIn.headers.get('set-cookie')!.split(';')[0]!,
    csrfToken: signIn.body.csrfToken,
    orgId: signIn.body.organization.id,
    email,
  };
  for (const path of ['/me', '/keys', '/members', '/invitations', '/usage', '/plans', '/styles']) {
    const answer = await dashboardCall(server, account, 'GET', path);
    t.is(answer.status, 200, path);
    t.is(answer.headers.get('cache-control'), 'no-store', path);
  }
  const key = await dashboardCall(server, account, 'POST', '/keys', {}, { name: 'k' });
  t.is(key.status, 201);
  t.is(key.headers.get('cache-control'), 'no-store', 'a key value');
});

test('X-Forwarded-Host and -Proto from a peer that is no trusted proxy are ignored; from a trusted proxy they are honoured', async (t) => {
  const forwarded = { 'x-forwarded-host': 'maps.example.com', 'x-forwarded-proto': 'https' };
  const untrusted = await serve(t);
  const trusted = await serve(t, { trustedProxies: LOOPBACK });
  // The invitation link is built from the host the request was sent to.
  for (const [server, origin] of [
    [untrusted, untrusted.url],
    [trusted, 'https://maps.example.com'],
  ] as const) {
    const account = await server.signUp();
    const invitation = await dashboardCall(server, account, 'POST', '/invitations', forwarded);
    t.is(invitation.status, 201, invitation.text);
    t.true(invitation.body.url.startsWith(`${origin}/dashboard/#invitation=`), invitation.body.url);
  }
  // The same-origin check of a state change compares the Origin with that host too: a forged
  // X-Forwarded-Host cannot make another site's Origin look like this one.
  const victim = await untrusted.signUp();
  const forged = await dashboardCall(
    untrusted,
    victim,
    'POST',
    '/keys',
    { origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' },
    { name: 'x' },
  );
  t.regex(assertError(t, forged, 403), /cross-origin/);
  const proxied = await trusted.signUp();
  const throughProxy = await dashboardCall(
    trusted,
    proxied,
    'POST',
    '/keys',
    { origin: 'https://maps.example.com', ...forwarded },
    { name: 'x' },
  );
  t.is(throughProxy.status, 201, throughProxy.text);
});

/** Mounts a tmpfs of `megabytes` on a new folder, unmounted and removed when the test ends. */
function smallDisk(t: ExecutionContext, megabytes: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-full-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir]);
  t.teardown(() => {
    execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Writes a file of zeros until the disk refuses (ENOSPC); returns it, for freeing the space again. */
function fillDisk(dir: string): string {
  const file = join(dir, 'ballast');
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return file;
}

/** A redis-server of the test's own (the machine's Redis on 6379 is not touched), killed when the test ends, and a client of it. */
async function privateRedis(t: ExecutionContext, args: string[] = []): Promise<{ url: string; client: Redis }> {
  const port = await freePort();
  const child = track(
    t,
    spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...args], { stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  await child.line(/Ready to accept connections/);
  const client = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  t.teardown(() => client.disconnect());
  return { url: `redis://127.0.0.1:${port}`, client };
}

/** Sign-up, sign-in and creating a key, which all write to the store: each must be a 507 naming `reason`, with Retry-After. */
async function assertNoRoom(t: ExecutionContext, server: TestServer, account: Account, reason: RegExp): Promise<void> {
  const refusals = [
    await dashboardCall(server, null, 'POST', '/signup', {}, { email: 'late@example.com', password: PASSWORD }),
    await dashboardCall(server, null, 'POST', '/signin', {}, { email: account.email, password: PASSWORD }),
    await dashboardCall(server, account, 'POST', '/keys', {}, { name: 'k' }),
  ];
  for (const answer of refusals) {
    t.regex(assertError(t, answer, 507), reason);
    t.is(answer.headers.get('retry-after'), '60');
  }
}

/** Once there is room again, sign-up and sign-in work. */
async function assertServedAgain(t: ExecutionContext, server: TestServer, account: Account): Promise<void> {
  t.is((await dashboardCall(server, null, 'POST', '/signup', {}, { email: 'late@example.com', password: PASSWORD })).status, 201);
  t.is((await dashboardCall(server, null, 'POST', '/signin', {}, { email: account.email, password: PASSWORD })).status, 200);
}

test('Redis past its maxmemory (OOM): sign-up, sign-in and creating a key answer 507 with the uniform body, and work again once it has room', async (t) => {
  const redis = await privateRedis(t);
  const server = await serve(t, { redis: { url: redis.url, prefix: 'waymark-oom' } });
  const account = await server.signUp('early@example.com');
  await redis.client.config('SET', 'maxmemory', '1');
  await assertNoRoom(t, server, account, /^the control-plane Redis is out of memory \(maxmemory\), so nothing was saved/);
  await redis.client.config('SET', 'maxmemory', '0');
  await assertServedAgain(t, server, account);
});

const asRoot = process.getuid?.() === 0 ? test : test.skip;
if (asRoot === test.skip) console.warn('skipping the full-disk tests: mounting a small tmpfs needs root');

asRoot(
  'a full disk under SQLite: sign-up, sign-in and creating a key answer 507 with the uniform body, and work again once space is freed',
  async (t) => {
    const dataDir = smallDisk(t, 16);
    const server = await serve(t, { dataDir });
    const account = await server.signUp('early@example.com');
    const ballast = fillDisk(dataDir);
    await assertNoRoom(t, server, account, /^the server's disk is full, so nothing was saved/);
    rmSync(ballast);
    await assertServedAgain(t, server, account);
  },
);

asRoot("a full disk under Redis's append-only file (MISCONF): the same 507s, and service again once space is freed", async (t) => {
  const dir = smallDisk(t, 4);
  const redis = await privateRedis(t, ['--dir', dir, '--appendonly', 'yes', '--appendfsync', 'everysec']);
  const server = await serve(t, { redis: { url: redis.url, prefix: 'waymark-misconf' } });
  const account = await server.signUp('early@example.com');
  const ballast = fillDisk(dir);
  // Redis learns of the full disk on its next write to the file; from then on it refuses writes.
  await within('Redis refuses writes with MISCONF', () =>
    redis.client.set('probe', 'x'.repeat(30_000)).then(
      () => undefined,
      (error: Error) => (/^MISCONF /.test(error.message) ? true : undefined),
    ),
  );
  await assertNoRoom(t, server, account, /^the control-plane Redis cannot write to its disk, so nothing was saved/);
  rmSync(ballast);
  await within('Redis writes again', () =>
    redis.client.set('probe', 'x').then(
      () => true,
      () => undefined,
    ),
  );
  await assertServedAgain(t, server, account);
});
