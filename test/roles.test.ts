/**
 * Issue 21, finding 3: roles. The creator of an organization is its owner; invitations carry a
 * role; owners set the plan and roles, admins manage every key and the invitations, members their
 * own keys. The server refuses the rest (403), whatever the page shows; the dashboard never moves
 * an organization onto or off Enterprise. On SQLite and on Redis.
 */
import test from 'ava';
import { serve } from './helpers/fixtures.js';
import { STORE_KINDS, redisFor } from './helpers/backends.js';
import { assertError } from './helpers/http.js';
import type { Account, TestServer } from './helpers/server.js';
import { as, join } from './helpers/team.js';

const roleOf = async (server: TestServer, account: Account) =>
  ((await as(server, account, 'GET', '/me')).body.user as { role: string }).role;

async function organization(t: Parameters<typeof serve>[0], kind: (typeof STORE_KINDS)[number]) {
  const server = await serve(t, { redis: redisFor(t, kind) });
  const owner = await server.signUp('owner@acme.example', 'acme');
  const admin = await join(server, owner, 'admin@acme.example', 'admin');
  const member = await join(server, owner, 'member@acme.example');
  return { server, owner, admin, member };
}

for (const kind of STORE_KINDS) {
  test(`${kind}: the creator owns the organization; invitations carry a role (member by default), never above the inviter's`, async (t) => {
    const { server, owner, admin, member } = await organization(t, kind);
    t.is(await roleOf(server, owner), 'owner');
    t.is(await roleOf(server, admin), 'admin');
    t.is(await roleOf(server, member), 'member');
    const me = (await as(server, member, 'GET', '/me')).body.user;
    t.deepEqual(me, {
      id: (me as { id: string }).id,
      email: 'member@acme.example',
      role: 'member',
      powers: { plan: false, roles: false, invitations: false, members: false, allKeys: false, audit: false },
    });
    const members = (await as(server, member, 'GET', '/members')).body.members as { email: string; role: string }[];
    t.deepEqual(
      members.map((m) => [m.email, m.role]),
      [
        ['owner@acme.example', 'owner'],
        ['admin@acme.example', 'admin'],
        ['member@acme.example', 'member'],
      ],
    );

    t.regex(assertError(t, await as(server, admin, 'POST', '/invitations', { role: 'owner' }), 403), /cannot invite an owner/);
    t.is((await as(server, admin, 'POST', '/invitations', { role: 'admin' })).status, 201);
    t.regex(assertError(t, await as(server, owner, 'POST', '/invitations', { role: 'boss' }), 400), /unknown role/);
    t.regex(assertError(t, await as(server, member, 'POST', '/invitations', {}), 403), /only an admin/);
    assertError(t, await as(server, member, 'GET', '/invitations'), 403);
    const list = (await as(server, admin, 'GET', '/invitations')).body.invitations as { role: string; status: string }[];
    t.deepEqual(
      list.map((i) => [i.role, i.status]),
      [
        ['admin', 'pending'],
        ['member', 'accepted'],
        ['admin', 'accepted'],
      ],
    );
  });

  test(`${kind}: a member can neither change the plan nor roles, nor revoke or see another's key; it manages its own`, async (t) => {
    const { server, owner, admin, member } = await organization(t, kind);
    const ownerKey = await server.createKey(owner, { name: 'owner key' });
    const { body: meOwner } = await as(server, owner, 'GET', '/me');
    const ownerId = (meOwner.user as { id: string }).id;

    t.regex(
      assertError(t, await as(server, member, 'PUT', '/billing', { tier: 'pro' }), 403),
      /only an owner .* change its plan; you are a member/,
    );
    t.regex(assertError(t, await as(server, member, 'PUT', `/members/${ownerId}/role`, { role: 'member' }), 403), /only an owner/);
    t.regex(assertError(t, await as(server, member, 'POST', `/keys/${ownerKey.id}/revoke`), 403), /only the keys they created/);
    assertError(t, await as(server, member, 'PATCH', `/keys/${ownerKey.id}`, { name: 'mine now' }), 403);
    assertError(t, await as(server, member, 'POST', `/keys/${ownerKey.id}/roll`, {}), 403);
    t.like((await as(server, owner, 'GET', '/me')).body, { organization: { tier: 'free' } });
    t.is((await fetch(`${server.url}/api/v1/test/maps?key=${ownerKey.value}`)).status, 200, 'the owner key still works');

    const own = await server.createKey(member, { name: 'member key' });
    t.deepEqual(
      ((await as(server, member, 'GET', '/keys')).body.keys as { name: string }[]).map((k) => k.name),
      ['member key'],
    );
    t.deepEqual(
      ((await as(server, admin, 'GET', '/keys')).body.keys as { name: string }[]).map((k) => k.name),
      ['owner key', 'member key'],
    );
    t.is((await as(server, member, 'PATCH', `/keys/${own.id}`, { name: 'renamed' })).status, 200);
    t.is((await as(server, member, 'POST', `/keys/${own.id}/revoke`)).status, 200);

    // An admin manages every key, but not the plan or roles.
    t.is((await as(server, admin, 'POST', `/keys/${ownerKey.id}/revoke`)).status, 200);
    t.is((await fetch(`${server.url}/api/v1/test/maps?key=${ownerKey.value}`)).status, 401);
    assertError(t, await as(server, admin, 'PUT', '/billing', { tier: 'pro' }), 403);
    assertError(t, await as(server, admin, 'PUT', `/members/${ownerId}/role`, { role: 'member' }), 403);
  });

  test(`${kind}: a burst of parallel requests from a member and a stranger changes nothing they may not change`, async (t) => {
    const { server, owner, member } = await organization(t, kind);
    const stranger = await server.signUp('stranger@other.example', 'other');
    const ownerKey = await server.createKey(owner, { name: 'owner key' });
    const ownerId = ((await as(server, owner, 'GET', '/me')).body.user as { id: string }).id;
    const attempts = Array.from({ length: 20 }, () => [
      as(server, member, 'PUT', '/billing', { tier: 'pro' }),
      as(server, member, 'PUT', `/members/${ownerId}/role`, { role: 'member' }),
      as(server, member, 'POST', `/keys/${ownerKey.id}/revoke`),
      as(server, member, 'POST', `/keys/${ownerKey.id}/roll`, { grace: '0' }),
      as(server, stranger, 'POST', `/keys/${ownerKey.id}/revoke`),
      as(server, stranger, 'PUT', `/members/${ownerId}/role`, { role: 'member' }),
    ]).flat();
    const statuses = (await Promise.all(attempts)).map((answer) => answer.status);
    t.true(
      statuses.every((status) => status === 403 || status === 404),
      JSON.stringify([...new Set(statuses)]),
    );
    t.true(statuses.includes(403) && statuses.includes(404), 'the member is refused (403), the stranger finds nothing (404)');
    t.like((await as(server, owner, 'GET', '/me')).body, { user: { role: 'owner' }, organization: { tier: 'free' } });
    t.is((await fetch(`${server.url}/api/v1/test/maps?key=${ownerKey.value}`)).status, 200, 'the owner key was neither revoked nor rolled');
  });

  test(`${kind}: owners set roles, and the last owner cannot step down`, async (t) => {
    const { server, owner, admin } = await organization(t, kind);
    const idOf = async (account: Account) => ((await as(server, account, 'GET', '/me')).body.user as { id: string }).id;
    const [ownerId, adminId] = [await idOf(owner), await idOf(admin)];

    t.regex(assertError(t, await as(server, owner, 'PUT', `/members/${ownerId}/role`, { role: 'admin' }), 409), /at least one owner/);
    t.like((await as(server, owner, 'PUT', `/members/${adminId}/role`, { role: 'member' })).body, {
      member: { id: adminId, role: 'member' },
    });
    t.is(await roleOf(server, admin), 'member', 'applied to the existing session at once');
    assertError(t, await as(server, admin, 'GET', '/invitations'), 403);
    assertError(t, await as(server, owner, 'PUT', '/members/usr_nobody/role', { role: 'admin' }), 404);
    assertError(t, await as(server, owner, 'PUT', `/members/${adminId}/role`, { role: 'king' }), 400);

    // Another organization's member is not found, whatever its id.
    const stranger = await server.signUp('stranger@other.example', 'other');
    assertError(t, await as(server, stranger, 'PUT', `/members/${adminId}/role`, { role: 'owner' }), 404);

    t.is((await as(server, owner, 'PUT', `/members/${adminId}/role`, { role: 'owner' })).status, 200);
    t.is((await as(server, owner, 'PUT', `/members/${ownerId}/role`, { role: 'member' })).status, 200);
    t.is(await roleOf(server, owner), 'member');
    assertError(t, await as(server, owner, 'PUT', '/billing', { tier: 'pro' }), 403);
    t.is((await as(server, admin, 'PUT', '/billing', { tier: 'pro' })).status, 200);
  });

  test(`${kind}: the dashboard cannot move an organization off Enterprise or onto it`, async (t) => {
    const { server, owner } = await organization(t, kind);
    await server.store.setTier(owner.orgId, 'enterprise', { maps: 3 });
    for (const tier of ['pro', 'free', 'enterprise']) {
      t.regex(assertError(t, await as(server, owner, 'PUT', '/billing', { tier }), 403), /Enterprise plan.*operator/, tier);
    }
    t.like(await server.store.getOrg(owner.orgId), { tier: 'enterprise', customQuotas: { maps: 3 } });
    await server.store.setTier(owner.orgId, 'pro', {});
    t.regex(assertError(t, await as(server, owner, 'PUT', '/billing', { tier: 'enterprise' }), 403), /arranged by contact/);
  });
}
