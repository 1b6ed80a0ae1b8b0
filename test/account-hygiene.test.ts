/**
 * Issue 21, finding 5: emails without control characters and at most 254 characters; organization
 * names NFKC-normalized, without format or control characters, unique in any case — so that no
 * look-alike organization shows in an invitation preview and no NUL email signs in as another.
 * Through the dashboard's sign-up, on SQLite and on Redis.
 */
import test from 'ava';
import { serve } from './helpers/fixtures.js';
import { STORE_KINDS, redisFor } from './helpers/backends.js';
import { assertError, call } from './helpers/http.js';
import type { TestServer } from './helpers/server.js';

const PASSWORD = 'correct horse battery';

const signUp = (server: TestServer, body: Record<string, unknown>) =>
  call(`${server.url}/dashboard/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: PASSWORD, ...body }),
  });

const signIn = (server: TestServer, email: string, password: string) =>
  call(`${server.url}/dashboard/api/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });

for (const kind of STORE_KINDS) {
  test(`${kind}: emails with control characters or over 254 characters are refused, and change nothing`, async (t) => {
    const server = await serve(t, { redis: redisFor(t, kind) });
    const local = 'a'.repeat(64);
    const long = `${local}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.example`;
    t.true(long.length > 254);
    for (const email of [
      'ann\u0000x@example.com',
      'ann@example.com\u0000',
      'a\u0007@example.com',
      'a\u007f@example.com',
      'a\u0085@example.com',
      long,
    ]) {
      const answer = await signUp(server, { email });
      t.regex(assertError(t, answer, 400), /valid email address/, JSON.stringify(email));
    }
    // The account the NUL emails would have been compared with is untouched, and reachable only with its own password.
    t.is((await signUp(server, { email: 'ann@example.com' })).status, 201);
    t.is((await signIn(server, 'ann\u0000x@example.com', PASSWORD)).status, 401);
    t.is((await signUp(server, { email: `${local}@example.com` })).status, 201, 'a 64-character local part is fine');
  });

  test(`${kind}: organization names are NFKC-normalized, refuse invisible characters, and are unique in any case`, async (t) => {
    const server = await serve(t, { redis: redisFor(t, kind) });
    t.is((await signUp(server, { email: 'a@example.com', organization: 'orgA' })).status, 201);
    for (const organization of ['org\u200bA', 'org\u200dA', '\u202eAgro', 'org\u0000A', 'org\u0085A']) {
      t.regex(
        assertError(t, await signUp(server, { email: `x${organization.length}@example.com`, organization }), 400),
        /(invisible|control)/,
        JSON.stringify(organization),
      );
    }
    for (const organization of ['ｏｒｇＡ', 'ORGA', 'orga', 'ｏｒｇａ']) {
      t.regex(assertError(t, await signUp(server, { email: 'b@example.com', organization }), 409), /already exists/, organization);
    }
    const fullWidth = await signUp(server, { email: 'c@example.com', organization: 'Ｗｉｄｅ Ｃｏ' });
    t.is(fullWidth.status, 201);
    t.like(fullWidth.body, { organization: { name: 'Wide Co' } });
    t.is((await signUp(server, { email: 'd@example.com', organization: 'ÄRZTE' })).status, 201);
    assertError(t, await signUp(server, { email: 'e@example.com', organization: 'ärzte' }), 409);
  });
}
