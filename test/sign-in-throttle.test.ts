/**
 * Issue 21, findings 1 and 2: a sign-in throttle that holds against parallel bursts, counts per
 * account and (loosely) per client address through trusted proxies only, and lives in the store
 * (shared by nodes, kept across restarts). Each case runs on SQLite and on Redis: first against
 * the store's limiter, then against real servers over HTTP.
 */
import test, { type ExecutionContext } from 'ava';
import crypto, { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RedisSettings } from '../core/redis-settings.js';
import { ManualClock } from '../src/clock.js';
import { checkCredentials } from '../src/control-plane/accounts.js';
import { hashPassword } from '../src/control-plane/passwords.js';
import { RedisStore } from '../src/control-plane/redis/index.js';
import { SIGN_IN_LIMITS, type SignInAttempt } from '../src/control-plane/sign-ins.js';
import { SqliteStore } from '../src/control-plane/sqlite/index.js';
import type { ControlStore } from '../src/control-plane/store.js';
import { CidrSet } from '../core/cidr.js';
import { silentLogging } from '../src/observability/logger.js';
import { startWaymark, type Waymark } from '../src/serve.js';
import { deleteKeys, REDIS_URL, TEST_PREFIX_ROOT } from './helpers/queue.js';

const NOW = Date.parse('2026-11-15T12:00:00Z');
const PASSWORD = 'correct horse battery';
const MINUTE = 60_000;
const ADDRESS = '198.51.100.7';

type Kind = 'sqlite' | 'redis';

/** Where a test's control plane lives: a data folder of its own, and on Redis a key prefix of its own; both removed at the end. */
interface Place {
  kind: Kind;
  dataDir: string;
  redis: RedisSettings | null;
}

let places = 0;

function place(t: ExecutionContext, kind: Kind): Place {
  const dataDir = mkdtempSync(join(tmpdir(), 'waymark-sign-in-'));
  const redis =
    kind === 'redis' ? { url: REDIS_URL, prefix: `${TEST_PREFIX_ROOT}-sign-in-${++places}-${randomBytes(3).toString('hex')}` } : null;
  // Registered first, so it runs after the stores and servers are closed (teardowns run last-in, first-out).
  t.teardown(async () => {
    if (redis) await deleteKeys(`${redis.prefix}:*`);
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { kind, dataDir, redis };
}

/** A store over the place's data, as another process or node would open it; closed at the end unless closed before. */
async function openStore(t: ExecutionContext, where: Place): Promise<ControlStore> {
  const store = where.redis
    ? await RedisStore.open(where.redis, { now: () => NOW, directory: false })
    : new SqliteStore(join(where.dataDir, 'waymark.db'), { now: () => NOW });
  const closeOnce = store.close.bind(store);
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= closeOnce());
  t.teardown(close);
  return Object.assign(store, { close });
}

interface Node extends Waymark {
  clock: ManualClock;
  signIn(email: string, password: string, headers?: Record<string, string>): Promise<Response>;
}

/** A server over the place's data (on Redis, any number of them), closed at the end. */
async function startNode(t: ExecutionContext, where: Place, trustedProxies: string[] = []): Promise<Node> {
  const clock = new ManualClock(NOW);
  const waymark = await startWaymark({
    dataDir: where.dataDir,
    port: 0,
    clock,
    logging: silentLogging(),
    redis: where.redis,
    operator: { token: undefined, redis: null },
    trustedProxies: CidrSet.parse(trustedProxies),
  });
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= waymark.close());
  t.teardown(close);
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${waymark.url}/dashboard/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  return {
    ...waymark,
    close,
    clock,
    signIn: (email, password, headers) => post('/signin', { email, password }, headers),
  };
}

let emails = 0;
const newEmail = () => `user${process.pid}-${++emails}@example.com`;

async function signUp(node: Node): Promise<string> {
  const email = newEmail();
  const res = await fetch(`${node.url}/dashboard/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  return email;
}

function statusCounts(responses: Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

const allowed = (attempt: SignInAttempt) => attempt.allowed;
const retryAfter = (attempt: SignInAttempt) => (attempt.allowed ? 0 : attempt.retryAfterSeconds);

for (const kind of ['sqlite', 'redis'] as const) {
  test(`${kind}: a burst of 200 parallel attempts through two stores is allowed exactly 5`, async (t) => {
    const where = place(t, kind);
    const stores = [await openStore(t, where), await openStore(t, where)];
    const attempts = await Promise.all(
      Array.from({ length: 200 }, (_, i) => stores[i % 2]!.signIns.begin('victim@example.com', ADDRESS, NOW)),
    );
    t.is(attempts.filter(allowed).length, SIGN_IN_LIMITS.accountFailures);
    t.true(attempts.filter((a) => !a.allowed).every((a) => retryAfter(a) === 60));
  });

  test(`${kind}: the lock starts at a minute after 5 failures and doubles with each further failure up to 15 minutes; refused attempts do not extend it`, async (t) => {
    const store = await openStore(t, place(t, kind));
    const account = 'victim@example.com';
    let now = NOW;
    for (let i = 0; i < 5; i++) t.true(allowed(await store.signIns.begin(account, ADDRESS, now)));
    for (const lockSeconds of [60, 120, 240, 480, 900, 900]) {
      t.is(retryAfter(await store.signIns.begin(account, ADDRESS, now)), lockSeconds);
      // Refused attempts while locked are neither counted nor extend the lock.
      for (let i = 0; i < 3; i++) await store.signIns.begin(account, ADDRESS, now + 1000);
      t.is(retryAfter(await store.signIns.begin(account, ADDRESS, now + lockSeconds * 1000 - 1)), 1);
      now += lockSeconds * 1000;
      t.true(allowed(await store.signIns.begin(account, ADDRESS, now)), `after the ${lockSeconds} s lock`);
    }
  });

  test(`${kind}: an account's failures are forgotten 24 hours after the last one, and cleared by a success`, async (t) => {
    const store = await openStore(t, place(t, kind));
    const handful = SIGN_IN_LIMITS.accountFailures;
    const fail = async (account: string, times: number, now: number) => {
      for (let i = 0; i < times; i++) t.true(allowed(await store.signIns.begin(account, ADDRESS, now)));
    };
    await fail('a@example.com', handful - 1, NOW);
    await fail('a@example.com', handful - 1, NOW + 24 * 60 * MINUTE);
    t.true(allowed(await store.signIns.begin('a@example.com', ADDRESS, NOW + 24 * 60 * MINUTE)));
    t.false(allowed(await store.signIns.begin('a@example.com', ADDRESS, NOW + 24 * 60 * MINUTE)));

    await fail('b@example.com', handful - 1, NOW);
    t.true(allowed(await store.signIns.begin('b@example.com', ADDRESS, NOW)));
    await store.signIns.succeeded('b@example.com', ADDRESS, NOW);
    await fail('b@example.com', handful, NOW);
    t.is(retryAfter(await store.signIns.begin('b@example.com', ADDRESS, NOW)), 60);
  });

  test(`${kind}: an address may fail 100 times in 15 minutes across accounts; locked accounts' refusals and successes do not use that up`, async (t) => {
    const store = await openStore(t, place(t, kind));
    const { accountFailures, addressFailures } = SIGN_IN_LIMITS;
    // One locked account, hammered: its refusals are not the address's failures.
    for (let i = 0; i < accountFailures; i++) await store.signIns.begin('locked@example.com', ADDRESS, NOW);
    for (let i = 0; i < 50; i++) t.false(allowed(await store.signIns.begin('locked@example.com', ADDRESS, NOW)));
    // A success gives its attempt back.
    t.true(allowed(await store.signIns.begin('right@example.com', ADDRESS, NOW)));
    await store.signIns.succeeded('right@example.com', ADDRESS, NOW);
    for (let i = accountFailures; i < addressFailures; i++) {
      t.true(allowed(await store.signIns.begin(`guess${i}@example.com`, ADDRESS, NOW + MINUTE)), `attempt ${i + 1}`);
    }
    const refused = await store.signIns.begin('fresh@example.com', ADDRESS, NOW + MINUTE);
    t.is(retryAfter(refused), 14 * 60);
    t.true(allowed(await store.signIns.begin('fresh@example.com', '198.51.100.8', NOW + MINUTE)));
    t.true(allowed(await store.signIns.begin('fresh@example.com', ADDRESS, NOW + 15 * MINUTE)));
  });

  test(`${kind}: the counters are shared by stores over the same data and outlive a store: a new one still refuses`, async (t) => {
    const where = place(t, kind);
    const [one, two] = [await openStore(t, where), await openStore(t, where)];
    for (let i = 0; i < 3; i++) t.true(allowed(await one.signIns.begin('victim@example.com', ADDRESS, NOW)));
    for (let i = 0; i < 2; i++) t.true(allowed(await two.signIns.begin('victim@example.com', ADDRESS, NOW)));
    t.false(allowed(await one.signIns.begin('victim@example.com', ADDRESS, NOW)));
    await one.close();
    await two.close();
    const restarted = await openStore(t, where);
    t.is(retryAfter(await restarted.signIns.begin('victim@example.com', ADDRESS, NOW + 1000)), 59);
  });

  test(`${kind} over HTTP: of 200 parallel wrong passwords 5 are evaluated, the rest get 429, and the right one sent amid them does not get in`, async (t) => {
    const node = await startNode(t, place(t, kind));
    const email = await signUp(node);
    const wrong = Array.from({ length: 200 }, (_, i) => node.signIn(email, `wrong password ${i}`));
    // The right password goes out while the burst is still being answered, once the handful is used.
    await Promise.any(
      wrong.map(async (answer) => {
        if ((await answer).status !== 429) throw new Error('not refused');
      }),
    );
    const answers = await Promise.all([...wrong, node.signIn(email, PASSWORD)]);
    t.deepEqual(statusCounts(answers), { 401: SIGN_IN_LIMITS.accountFailures, 429: 201 - SIGN_IN_LIMITS.accountFailures });
    const throttled = answers.at(-1)!;
    t.regex(((await throttled.json()) as { message: string }).message, /too many failed sign-in attempts; try again in 60 seconds/);
    t.is(throttled.headers.get('retry-after'), '60');
  });

  test(`${kind} over HTTP: one account's lock does not stop another account signing in from the same address`, async (t) => {
    const node = await startNode(t, place(t, kind));
    const [victim, colleague] = [await signUp(node), await signUp(node)];
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => node.signIn(victim, `wrong ${i}`)));
    t.is(statusCounts(burst)[429], 15);
    t.is((await node.signIn(victim, PASSWORD)).status, 429);
    t.is((await node.signIn(colleague, PASSWORD)).status, 200);
    // Nor does an unknown email's: it is locked like an account.
    await Promise.all(Array.from({ length: 6 }, () => node.signIn('nobody@example.com', 'wrong password')));
    t.is((await node.signIn('nobody@example.com', 'wrong password')).status, 429);
    t.is((await node.signIn(colleague, PASSWORD)).status, 200);
  });

  test(`${kind} over HTTP: behind a trusted proxy X-Forwarded-For separates clients; an untrusted peer's is ignored`, async (t) => {
    const where = place(t, kind);
    const node = await startNode(t, where, ['127.0.0.0/8', '::1']);
    const email = await signUp(node);
    // 198.51.100.7 has used up its failures (made through the store: a hundred password checks would only be slow).
    for (let i = 0; i < SIGN_IN_LIMITS.addressFailures; i++) await node.store.signIns.begin(`guess${i}@example.com`, ADDRESS, NOW);
    t.is((await node.signIn(email, PASSWORD, { 'x-forwarded-for': ADDRESS })).status, 429);
    t.is(
      (await node.signIn(email, PASSWORD, { 'x-forwarded-for': `203.0.113.1, ${ADDRESS}` })).status,
      429,
      'a made-up entry on the left changes nothing',
    );
    t.is((await node.signIn(email, PASSWORD, { 'x-forwarded-for': '198.51.100.8' })).status, 200);
    t.is((await node.signIn(email, PASSWORD, { 'x-forwarded-for': `${ADDRESS}, 198.51.100.8` })).status, 200);
    await node.close();

    // Without trusted proxies the peer (127.0.0.1) is the client, whatever it claims.
    const untrusting = await startNode(t, where);
    for (let i = 0; i < SIGN_IN_LIMITS.addressFailures; i++)
      await untrusting.store.signIns.begin(`guess${i}@example.com`, '127.0.0.1', NOW);
    t.is((await untrusting.signIn(email, PASSWORD, { 'x-forwarded-for': '198.51.100.8' })).status, 429);
    t.is((await untrusting.signIn(email, PASSWORD)).status, 429);
  });

  test(`${kind} over HTTP: a locked account stays locked across ${kind === 'redis' ? 'nodes and ' : ''}a restart`, async (t) => {
    const where = place(t, kind);
    const first = await startNode(t, where);
    const email = await signUp(first);
    for (let i = 0; i < SIGN_IN_LIMITS.accountFailures; i++) t.is((await first.signIn(email, `wrong ${i}`)).status, 401);
    t.is((await first.signIn(email, PASSWORD)).status, 429);
    if (kind === 'redis') {
      const second = await startNode(t, where);
      t.is((await second.signIn(email, PASSWORD)).status, 429);
    }
    await first.close();
    const restarted = await startNode(t, where);
    const answer = await restarted.signIn(email, PASSWORD);
    t.is(answer.status, 429);
    t.is(answer.headers.get('retry-after'), '60');
    restarted.clock.set(NOW + MINUTE);
    t.is((await restarted.signIn(email, PASSWORD)).status, 200);
  });
}

// Serial, so that no other test's password checks run while scrypt calls are counted.
test.serial('an unknown email is checked against a password hash too, so it costs what a wrong password does', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-sign-in-'));
  const store = new SqliteStore(join(dir, 'waymark.db'));
  t.teardown(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await store.createUserWithOrg({ email: 'real@example.com', passwordHash: await hashPassword(PASSWORD), orgName: 'real' });
  // Counts the scrypt derivations passwords.ts makes (its import of node:crypto follows the patched export).
  const original = crypto.scrypt;
  let derivations = 0;
  crypto.scrypt = ((...args: Parameters<typeof original>) => {
    derivations++;
    return (original as (...a: unknown[]) => void)(...args);
  }) as typeof crypto.scrypt;
  syncBuiltinESMExports();
  t.teardown(() => {
    crypto.scrypt = original;
    syncBuiltinESMExports();
  });
  const derivationsOf = async (email: string, password: string) => {
    const before = derivations;
    t.is(await checkCredentials(store, email, password), null);
    return derivations - before;
  };
  await derivationsOf('nobody@example.com', 'a wrong password'); // the first one also makes the dummy hash
  t.is(await derivationsOf('real@example.com', 'a wrong password'), 1);
  t.is(await derivationsOf('nobody@example.com', 'a wrong password'), 1);
  t.is(await derivationsOf('nobody-else@example.com', PASSWORD), 1);
});
