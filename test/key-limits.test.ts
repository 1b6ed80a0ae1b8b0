/**
 * Issue 34, finding 3: one organization cannot create keys without limit. Past its tier's active
 * keys (100 on Free) the dashboard answers 409 with the uniform error body and the CLI exits
 * non-zero, and nothing is created; past 50 origins on a key, a 400. On SQLite and on Redis.
 */
import test from 'ava';
import { createKey } from '../src/control-plane/accounts.js';
import { TIER_ACTIVE_KEYS } from '../src/control-plane/tiers.js';
import { STORE_KINDS, redisFor } from './helpers/backends.js';
import { waymark } from './helpers/cli.js';
import { serve } from './helpers/fixtures.js';
import { assertError } from './helpers/http.js';
import type { Account, TestServer } from './helpers/server.js';

const answer = async (res: Response) => ({ status: res.status, body: await res.json() });
const keyCount = async (server: TestServer, account: Account) =>
  ((await (await server.dashboard(account, 'GET', '/keys')).json()) as { keys: unknown[] }).keys.length;

for (const kind of STORE_KINDS) {
  test(`${kind}: the dashboard refuses a key past the Free plan's active keys with a 409, and creates nothing`, async (t) => {
    const server = await serve(t, { redis: redisFor(t, kind) });
    const owner = await server.signUp('owner@acme.example', 'acme');
    for (let i = 0; i < TIER_ACTIVE_KEYS.free; i++) await createKey(server.store, owner.orgId, { name: `k${i}` }, server.clock.now());
    const refused = await answer(await server.dashboard(owner, 'POST', '/keys', { name: 'one too many' }));
    t.regex(assertError(t, refused, 409), /has 100 active API keys, the most the Free plan allows; revoke a key .*upgrade to Pro/);
    t.is(await keyCount(server, owner), TIER_ACTIVE_KEYS.free);
  });

  test(`${kind}: a key may list at most 50 allowed origins`, async (t) => {
    const server = await serve(t, { redis: redisFor(t, kind) });
    const owner = await server.signUp();
    const origins = (n: number) => Array.from({ length: n }, (_, i) => `https://app${i}.example.com`);
    const refused = await answer(await server.dashboard(owner, 'POST', '/keys', { name: 'web', allowedOrigins: origins(51) }));
    t.regex(assertError(t, refused, 400), /allowed origins may hold at most 50 entries/);
    t.is(await keyCount(server, owner), 0);
    const { id } = await server.createKey(owner, { allowedOrigins: origins(50) });
    const edit = await answer(await server.dashboard(owner, 'PATCH', `/keys/${id}`, { allowedOrigins: origins(51) }));
    t.regex(assertError(t, edit, 400), /at most 50 entries/);
  });
}

test('waymark key create refuses a key past the active keys, with the reason', async (t) => {
  const server = await serve(t);
  const owner = await server.signUp('owner@acme.example', 'acme');
  for (let i = 0; i < TIER_ACTIVE_KEYS.free; i++) await createKey(server.store, owner.orgId, { name: `k${i}` }, server.clock.now());
  const run = await waymark(['key', 'create', '--org', 'acme', '--name', 'one too many', '--data', server.dataDir]);
  t.not(run.code, 0);
  t.regex(run.stderr, /has 100 active API keys, the most the Free plan allows/);
  t.is(await keyCount(server, owner), TIER_ACTIVE_KEYS.free);
});
