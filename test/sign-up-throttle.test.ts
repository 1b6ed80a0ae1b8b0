/**
 * Issue 34, finding 3: sign-ups that make an organization (a fresh Free quota) are limited per
 * client address, in the store like the sign-in throttle: 20 an hour, exactly under a parallel
 * burst, on every node of a cluster; another address, an invitation's sign-up and a failed sign-up
 * are not counted. On SQLite and on Redis.
 */
import test from 'ava';
import { CidrSet } from '../core/cidr.js';
import { SIGN_UP_LIMITS } from '../src/control-plane/sign-ups.js';
import { STORE_KINDS, redisFor } from './helpers/backends.js';
import { serve } from './helpers/fixtures.js';
import { assertError } from './helpers/http.js';
import type { TestServer } from './helpers/server.js';

const ADDRESS = '198.51.100.7';
const PASSWORD = 'correct horse battery';
/** The test servers trust the loopback peer as their proxy, so X-Forwarded-For names the client. */
const trustedProxies = CidrSet.parse(['127.0.0.0/8', '::1']);

let emails = 0;
const newEmail = () => `sign-up${process.pid}-${++emails}@example.com`;

/** A sign-up from `address` (through the trusted proxy): its status, body and Retry-After. */
async function signUpFrom(server: TestServer, address: string, body: Record<string, unknown> = {}) {
  const res = await fetch(`${server.url}/dashboard/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ email: newEmail(), password: PASSWORD, ...body }),
  });
  return { status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') };
}

for (const kind of STORE_KINDS) {
  test(`${kind}: the 21st sign-up from one address within the hour is a 429 with Retry-After, on every node; another address signs up`, async (t) => {
    const redis = redisFor(t, kind);
    const node = await serve(t, { redis, trustedProxies });
    const limit = SIGN_UP_LIMITS.addressSignUps;
    // A failed sign-up (a taken name) is not counted.
    t.is((await signUpFrom(node, ADDRESS, { organization: 'acme' })).status, 201);
    t.is((await signUpFrom(node, ADDRESS, { organization: 'ACME' })).status, 409);
    // A parallel burst is limited as strictly as a sequence.
    const burst = await Promise.all(Array.from({ length: limit + 4 }, () => signUpFrom(node, ADDRESS)));
    t.is(burst.filter((answer) => answer.status === 201).length, limit - 1);
    const refused = burst.filter((answer) => answer.status === 429);
    t.is(refused.length, 5);
    for (const answer of refused) {
      t.regex(assertError(t, answer, 429), /^too many sign-ups from your address; try again in 3600 seconds/);
      t.is(answer.retryAfter, '3600');
    }
    const others = redis ? [node, await serve(t, { redis, trustedProxies })] : [node];
    for (const server of others) t.is((await signUpFrom(server, ADDRESS)).status, 429);
    t.is((await signUpFrom(node, '198.51.100.8')).status, 201);

    // Joining an organization by invitation makes none, and is not counted.
    const owner = await node.signUp();
    const invited = (await (await node.dashboard(owner, 'POST', '/invitations', {})).json()) as { token: string };
    t.is((await signUpFrom(node, ADDRESS, { invitation: invited.token })).status, 201);

    // The window is an hour from the address's first sign-up.
    node.clock.set(node.clock.now() + SIGN_UP_LIMITS.addressWindowMs - 1000);
    t.is((await signUpFrom(node, ADDRESS)).retryAfter, '1');
    node.clock.set(node.clock.now() + 1000);
    t.is((await signUpFrom(node, ADDRESS)).status, 201);
  });
}
