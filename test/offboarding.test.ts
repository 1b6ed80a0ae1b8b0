/**
 * Issue 34, finding 1: an invitation made before a demotion took the organization over; and there
 * was no way to remove a member, end their sessions, or change or reset a password. Now an
 * invitation admits nobody beyond what its maker may grant at the moment it is used (and a
 * demotion or removal revokes the maker's pending ones); owners and admins remove members, whose
 * sessions end at once on every node and whose keys stay or go as asked; a password change ends
 * the other sessions; an operator's reset link works once, within 1 hour. SQLite and Redis.
 */
import test from 'ava';
import { createPasswordReset } from '../src/control-plane/password-changes.js';
import { RedisStore } from '../src/control-plane/redis/index.js';
import { STORE_KINDS, redisFor, type StoreKind } from './helpers/backends.js';
import { waymark } from './helpers/cli.js';
import { REDIS_URL } from './helpers/queue.js';
import { serve } from './helpers/fixtures.js';
import { storeWithKey } from './helpers/redis-store.js';
import { assertError, call } from './helpers/http.js';
import type { Account, TestServer } from './helpers/server.js';
import { accountOf, answerOf, as, invitationToken, join, PASSWORD, signIn, signUpWith, whoIs } from './helpers/team.js';

const HOUR_MS = 3_600_000;

async function organization(t: Parameters<typeof serve>[0], kind: StoreKind) {
  const redis = redisFor(t, kind);
  const server = await serve(t, { redis });
  const owner = await server.signUp('owner@acme.example', 'acme');
  const admin = await join(server, owner, 'admin@acme.example', 'admin');
  const member = await join(server, owner, 'member@acme.example');
  return { server, redis, owner, admin, member };
}

const members = async (server: TestServer, account: Account) =>
  ((await as(server, account, 'GET', '/members')).body.members as { email: string; role: string }[]).map((m) => `${m.email} ${m.role}`);

const keyAnswer = async (server: TestServer, value: string) => (await call(`${server.url}/api/v1/test/maps?key=${value}`)).status;

for (const kind of STORE_KINDS) {
  test(`${kind}: an owner or admin invitation made before its maker's demotion admits nobody`, async (t) => {
    const { server, owner, admin } = await organization(t, kind);
    const coOwner = await join(server, owner, 'co-owner@acme.example', 'owner');
    const ownerLink = await invitationToken(server, coOwner, 'owner');
    const coOwnersMemberLink = await invitationToken(server, coOwner, 'member');
    const adminLink = await invitationToken(server, admin, 'admin');
    const adminsMemberLink = await invitationToken(server, admin, 'member');

    t.is((await as(server, owner, 'PUT', `/members/${(await whoIs(server, coOwner)).id}/role`, { role: 'member' })).status, 200);
    t.is((await as(server, owner, 'PUT', `/members/${(await whoIs(server, admin)).id}/role`, { role: 'member' })).status, 200);

    for (const [token, email] of [
      [ownerLink, 'taker@evil.example'],
      [adminLink, 'helper@evil.example'],
      [coOwnersMemberLink, 'late@acme.example'],
      [adminsMemberLink, 'later@acme.example'],
    ] as const) {
      t.regex(assertError(t, await answerOf(await signUpWith(server, token, email)), 400), /not valid/, email);
    }
    const invitations = (await as(server, owner, 'GET', '/invitations')).body.invitations as {
      createdBy: string;
      role: string;
      status: string;
    }[];
    t.deepEqual(
      invitations.filter((i) => i.createdBy !== 'owner@acme.example').map((i) => `${i.createdBy} ${i.role} ${i.status}`),
      [
        'admin@acme.example member revoked',
        'admin@acme.example admin revoked',
        'co-owner@acme.example member revoked',
        'co-owner@acme.example owner revoked',
      ],
    );
    t.deepEqual(await members(server, owner), [
      'owner@acme.example owner',
      'admin@acme.example member',
      'member@acme.example member',
      'co-owner@acme.example member',
    ]);
  });

  test(`${kind}: an admin demoted to member keeps no invitation, and an owner made admin keeps the admin and member ones only`, async (t) => {
    const { server, owner } = await organization(t, kind);
    const coOwner = await join(server, owner, 'co-owner@acme.example', 'owner');
    const [ownerLink, adminLink, memberLink] = [
      await invitationToken(server, coOwner, 'owner'),
      await invitationToken(server, coOwner, 'admin'),
      await invitationToken(server, coOwner, 'member'),
    ];
    t.is((await as(server, owner, 'PUT', `/members/${(await whoIs(server, coOwner)).id}/role`, { role: 'admin' })).status, 200);
    assertError(t, await answerOf(await signUpWith(server, ownerLink, 'a@acme.example')), 400);
    t.is((await signUpWith(server, adminLink, 'b@acme.example')).status, 201);
    t.is((await signUpWith(server, memberLink, 'c@acme.example')).status, 201);
    t.deepEqual((await members(server, owner)).slice(3), ['co-owner@acme.example admin', 'b@acme.example admin', 'c@acme.example member']);
  });

  test(`${kind}: a removed member's sessions end at once on every node; its keys stay unless asked, and its links stop`, async (t) => {
    const { server, redis, owner, admin, member } = await organization(t, kind);
    // A second node on the same store (Redis), or the same server again (SQLite: one node).
    const other = redis ? await serve(t, { redis }) : server;
    const memberKey = await server.createKey(member, { name: 'member app' });
    const adminKey = await server.createKey(admin, { name: 'admin app' });
    const adminLink = await invitationToken(server, admin, 'member');
    const secondSession = await accountOf(await signIn(other, member.email), member.email);
    t.is((await as(other, secondSession, 'GET', '/me')).status, 200);

    const removed = await as(server, owner, 'POST', `/members/${(await whoIs(server, member)).id}/remove`);
    t.is(removed.status, 200);
    t.like(removed.body, { member: { email: 'member@acme.example', role: 'member' }, revokedKeys: [] });
    for (const [node, session] of [
      [server, member],
      [other, secondSession],
      [other, member],
    ] as const) {
      t.regex(assertError(t, await as(node, session, 'GET', '/me'), 401), /sign in first/);
    }
    t.is(await keyAnswer(other, memberKey.value), 200, 'kept by default');
    assertError(t, await answerOf(await signIn(server, member.email)), 401);

    const adminRemoved = await as(other, owner, 'POST', `/members/${(await whoIs(server, admin)).id}/remove`, { revokeKeys: true });
    t.deepEqual(adminRemoved.body.revokedKeys, [adminKey.id]);
    t.is(await keyAnswer(server, adminKey.value), 401);
    t.is(await keyAnswer(other, adminKey.value), 401);
    assertError(t, await as(server, admin, 'GET', '/me'), 401);
    assertError(t, await answerOf(await signUpWith(server, adminLink, 'via-admin@acme.example')), 400);
    t.deepEqual(await members(server, owner), ['owner@acme.example owner']);

    // The email is free again: the person can be invited back, as a new account.
    t.is((await signUpWith(server, await invitationToken(server, owner), member.email)).status, 201);
  });

  test(`${kind}: refused removals change nothing: a member removing anyone, an admin an owner, the last owner itself`, async (t) => {
    const { server, owner, admin, member } = await organization(t, kind);
    const [ownerId, adminId, memberId] = [
      (await whoIs(server, owner)).id,
      (await whoIs(server, admin)).id,
      (await whoIs(server, member)).id,
    ];
    const before = await members(server, owner);

    t.regex(assertError(t, await as(server, member, 'POST', `/members/${adminId}/remove`), 403), /only an admin/);
    t.regex(assertError(t, await as(server, admin, 'POST', `/members/${ownerId}/remove`), 403), /an admin cannot remove an owner/);
    t.regex(assertError(t, await as(server, owner, 'POST', `/members/${ownerId}/remove`), 409), /at least one owner/);
    assertError(t, await as(server, owner, 'POST', `/members/${memberId}/remove`, { revokeKeys: 'yes' }), 400);
    assertError(t, await as(server, owner, 'POST', '/members/usr_nobody/remove'), 404);
    const stranger = await server.signUp('stranger@other.example', 'other');
    assertError(t, await as(server, stranger, 'POST', `/members/${memberId}/remove`), 404);
    const withoutCsrf = await call(`${server.url}/dashboard/api/members/${memberId}/remove`, {
      method: 'POST',
      headers: { cookie: owner.cookie },
    });
    t.regex(assertError(t, withoutCsrf, 403), /X-CSRF-Token/);

    t.deepEqual(await members(server, owner), before);
    for (const account of [owner, admin]) t.is((await as(server, account, 'GET', '/me')).status, 200);
  });

  test(`${kind}: under a burst of parallel removals a member and a stranger are all refused, and two owners removing each other leave one`, async (t) => {
    const { server, owner, admin, member } = await organization(t, kind);
    const coOwner = await join(server, owner, 'co-owner@acme.example', 'owner');
    const [ownerId, coOwnerId, adminId] = [owner, coOwner, admin].map(async (account) => (await whoIs(server, account)).id);
    const stranger = await server.signUp('stranger@other.example', 'other');
    const before = await members(server, owner);

    const refused = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const target = await [ownerId, coOwnerId, adminId][i % 3]!;
        return [
          (await as(server, member, 'POST', `/members/${target}/remove`)).status,
          (await as(server, stranger, 'POST', `/members/${target}/remove`)).status,
        ];
      }),
    );
    t.deepEqual(
      refused,
      Array.from({ length: 10 }, () => [403, 404]),
    );
    t.deepEqual(await members(server, owner), before);

    // Each owner removes the other at the same moment: one removal wins, the other finds its remover gone or the last owner.
    const [first, second] = await Promise.all([
      as(server, owner, 'POST', `/members/${await coOwnerId}/remove`),
      as(server, coOwner, 'POST', `/members/${await ownerId}/remove`),
    ]);
    t.is([first.status, second.status].filter((status) => status === 200).length, 1, `${first.status} ${second.status}`);
    const survivor = first.status === 200 ? owner : coOwner;
    t.deepEqual(
      (await members(server, survivor)).filter((line) => line.endsWith(' owner')),
      [`${survivor.email} owner`],
    );
  });

  test(`${kind}: a password change ends the user's other sessions, and the old password stops working`, async (t) => {
    const { server, member } = await organization(t, kind);
    const elsewhere = await accountOf(await signIn(server, member.email), member.email);
    const newPassword = 'a brand new passphrase';

    t.regex(
      assertError(t, await as(server, member, 'PUT', '/password', { currentPassword: 'not it at all', newPassword }), 403),
      /current password is wrong/,
    );
    t.regex(
      assertError(t, await as(server, member, 'PUT', '/password', { currentPassword: PASSWORD, newPassword: 'short' }), 400),
      /at least 8/,
    );
    t.is((await as(server, elsewhere, 'GET', '/me')).status, 200, 'refused changes end nothing');

    t.is((await as(server, member, 'PUT', '/password', { currentPassword: PASSWORD, newPassword })).status, 204);
    t.is((await as(server, member, 'GET', '/me')).status, 200, 'the session that changed it stays');
    assertError(t, await as(server, elsewhere, 'GET', '/me'), 401);
    assertError(t, await answerOf(await signIn(server, member.email)), 401);
    t.is((await signIn(server, member.email, newPassword)).status, 200);
  });

  test(`${kind}: an operator's reset link sets a new password once, within 1 hour, and ends every session`, async (t) => {
    const { server, member } = await organization(t, kind);
    const user = (await server.store.findUserByEmail(member.email))!;
    const reset = (token: string, password: string) =>
      call(`${server.url}/dashboard/api/password/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, password }),
      });

    const { token, expiresAt } = await createPasswordReset(server.store, user, server.clock.now());
    t.is(Date.parse(expiresAt), server.clock.now() + HOUR_MS);
    t.regex(assertError(t, await reset(token, 'short'), 400), /at least 8/);
    const used = await reset(token, 'reset passphrase one');
    t.is(used.status, 200);
    t.like(used.body, { user: { email: member.email } });
    assertError(t, await as(server, member, 'GET', '/me'), 401);
    t.regex(assertError(t, await reset(token, 'reset passphrase two'), 400), /not valid/);
    t.is((await signIn(server, member.email, 'reset passphrase one')).status, 200);

    const replaced = await createPasswordReset(server.store, user, server.clock.now());
    const newest = await createPasswordReset(server.store, user, server.clock.now());
    assertError(t, await reset(replaced.token, 'reset passphrase three'), 400);
    server.clock.set(server.clock.now() + HOUR_MS);
    assertError(t, await reset(newest.token, 'reset passphrase three'), 400);
    assertError(t, await reset('wmr_nonsense', 'reset passphrase three'), 400);
    t.is((await signIn(server, member.email, 'reset passphrase one')).status, 200);
  });
}

test('the CLI removes a member, sets a password and prints a reset link; a running server applies each at once', async (t) => {
  const { server, owner, member } = await organization(t, 'sqlite');
  const key = await server.createKey(member, { name: 'member app' });
  const data = ['--data', server.dataDir];

  const link = await waymark(['user', 'reset-password', '--email', member.email, ...data, '--json'], {
    WAYMARK_PUBLIC_URL: 'https://maps.example.com',
  });
  t.is(link.code, 0, link.stderr);
  const { url, token } = JSON.parse(link.stdout) as { url: string; token: string };
  t.is(url, `https://maps.example.com/dashboard/#reset=${token}`);

  const set = await waymark(['user', 'set-password', '--email', owner.email, '--password', 'operator chosen one', ...data]);
  t.is(set.code, 0, set.stderr);
  assertError(t, await as(server, owner, 'GET', '/me'), 401);
  t.is((await signIn(server, owner.email, 'operator chosen one')).status, 200);

  const removal = await waymark(['org', 'remove-member', '--org', 'acme', '--email', member.email, '--revoke-keys', ...data]);
  t.is(removal.code, 0, removal.stderr);
  t.regex(removal.stdout, /Removed member@acme\.example from acme: its sessions have ended; 1 key it created revoked/);
  assertError(t, await as(server, member, 'GET', '/me'), 401);
  t.is(await keyAnswer(server, key.value), 401);
  const unusedLink = await call(`${server.url}/dashboard/api/password/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, password: 'too late for that' }),
  });
  assertError(t, unusedLink, 400);

  const lastOwner = await waymark(['org', 'remove-member', '--org', 'acme', '--email', owner.email, ...data]);
  t.is(lastOwner.code, 1);
  t.regex(lastOwner.stderr, /at least one owner/);
  const unknown = await waymark(['org', 'remove-member', '--org', 'acme', '--email', member.email, ...data]);
  t.regex(unknown.stderr, /is not a member of acme/);
});

test('redis: sessions stored before the session index are indexed when the prefix is next opened, so a password change ends them', async (t) => {
  const { store, names, request } = await storeWithKey(t);
  const { org } = request('maps');
  const [user] = await store.listUsers(org.id);
  const expiresAt = new Date(Date.now() + HOUR_MS).toISOString();
  // As an older Waymark stored a session: its hash only, and no index yet.
  await store.redis.hset(names.session('legacy'), { hash: 'legacy', userId: user!.id, expiresAt });
  await store.redis.del(names.sessionsIndexed);

  const upgraded = await RedisStore.open({ url: REDIS_URL, prefix: org.name }, { directory: false });
  t.teardown(() => upgraded.close());
  t.true(await upgraded.setPassword(user!.id, 'another hash', null));
  t.is(await upgraded.findSession('legacy', new Date().toISOString()), null);
});
