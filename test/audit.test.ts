/**
 * The audit log (src/control-plane/audit.ts): every change to keys, members, roles, invitations and
 * the plan, with its actor, time, client address and the values before and after; a refused
 * attempt records nothing; owners and admins read it in the dashboard API and with `waymark
 * audit`, members get a 403. On the embedded store and on Redis.
 */
import test from 'ava';
import type { AuditEntry } from '../src/control-plane/types.js';
import { redisFor, STORE_KINDS } from './helpers/backends.js';
import { waymark } from './helpers/cli.js';
import { serve } from './helpers/fixtures.js';
import { as, join, whoIs } from './helpers/team.js';

const entriesOf = async (answer: { status: number; body: Record<string, unknown> }) => answer.body.entries as AuditEntry[];

for (const kind of STORE_KINDS) {
  test(`${kind}: an admin's revocation is logged with actor, address and before/after; a member's refused one is not; members cannot read the log`, async (t) => {
    const server = await serve(t, { redis: redisFor(t, kind) });
    const owner = await server.signUp('owner@example.com', 'Audited');
    const admin = await join(server, owner, 'admin@example.com', 'admin');
    const member = await join(server, owner, 'member@example.com', 'member');
    const key = await server.createKey(owner, { name: 'app', perMinute: { maps: 100 } });

    t.is((await as(server, member, 'POST', `/keys/${key.id}/revoke`)).status, 403, "a member cannot revoke another's key");
    const before = await entriesOf(await as(server, owner, 'GET', '/audit'));
    t.is((await as(server, admin, 'POST', `/keys/${key.id}/revoke`)).status, 200);

    const entries = await entriesOf(await as(server, owner, 'GET', '/audit'));
    t.is(entries.length, before.length + 1, "only the admin's revocation was added");
    const adminId = (await whoIs(server, admin)).id;
    t.like(entries[0], {
      orgId: owner.orgId,
      actor: { kind: 'user', id: adminId, email: 'admin@example.com' },
      address: '127.0.0.1',
      action: 'key.revoked',
      target: key.id,
      before: { status: 'active' },
      after: { status: 'revoked' },
    });
    t.regex(entries[0]!.at, /^\d{4}-\d\d-\d\dT/);
    // Oldest last: the key's creation, the two joins and their invitations.
    t.deepEqual(
      entries.map((e) => e.action),
      ['key.revoked', 'key.created', 'member.joined', 'member.invited', 'member.joined', 'member.invited'],
    );
    t.like(entries[1], { action: 'key.created', actor: { email: 'owner@example.com' }, after: { name: 'app', perMinute: { maps: 100 } } });
    t.false(JSON.stringify(entries).includes(key.value), 'no key value is ever logged');
    t.false(JSON.stringify(entries).includes('"hash"'), 'nor a hash');

    const refused = await as(server, member, 'GET', '/audit');
    t.is(refused.status, 403);
    t.regex(refused.body.message as string, /only an admin of the organization can read its audit log; you are a member/);
    t.is((await as(server, admin, 'GET', '/audit')).status, 200);
  });
}

test('edits record only the fields they change; role changes, removals, invitations revoked and plan changes are logged', async (t) => {
  const server = await serve(t);
  const owner = await server.signUp('olive@example.com', 'Changes');
  const member = await join(server, owner, 'mel@example.com');
  const memberId = (await whoIs(server, member)).id;
  const key = await server.createKey(owner, { name: 'old name' });
  t.is((await as(server, owner, 'PATCH', `/keys/${key.id}`, { name: 'new name', perMinute: 'routing=9' })).status, 200);
  t.is((await as(server, owner, 'POST', `/keys/${key.id}/roll`, { grace: '1h' })).status, 200);
  t.is((await as(server, owner, 'PUT', `/members/${memberId}/role`, { role: 'admin' })).status, 200);
  const invitation = await as(server, owner, 'POST', '/invitations', { role: 'member' });
  const invitationId = (invitation.body.invitation as { id: string }).id;
  t.is((await as(server, owner, 'POST', `/invitations/${invitationId}/revoke`)).status, 200);
  t.is((await as(server, owner, 'POST', `/members/${memberId}/remove`)).status, 200);
  t.is((await as(server, owner, 'PUT', '/billing', { tier: 'pro' })).status, 200);

  const entries = await entriesOf(await as(server, owner, 'GET', '/audit?limit=7'));
  t.deepEqual(
    entries.map((e) => e.action),
    ['plan.changed', 'member.removed', 'invitation.revoked', 'member.invited', 'member.role_changed', 'key.rolled', 'key.updated'],
  );
  const [plan, removed, , , role, rolled, updated] = entries;
  t.like(plan, { target: owner.orgId, before: { tier: 'free' }, after: { tier: 'pro' } });
  t.like(removed, { target: memberId, before: { email: 'mel@example.com', role: 'admin', revokedKeys: [] }, after: null });
  t.like(role, { before: { role: 'member' }, after: { role: 'admin' } });
  t.like(rolled, { after: { previousValueWorksUntil: '2026-11-15T13:00:00.000Z' } });
  t.deepEqual(updated!.before, { name: 'old name', perMinute: {} });
  t.deepEqual(updated!.after, { name: 'new name', perMinute: { routing: 9 } });
  for (const limit of ['0', '1001', 'x', '-1']) t.is((await as(server, owner, 'GET', `/audit?limit=${limit}`)).status, 400, limit);
});

test('the CLI logs its changes as the operator, and `waymark audit` lists the log', async (t) => {
  const server = await serve(t);
  await server.signUp('ops@example.com', 'Ops');
  const data = ['--data', server.dataDir];
  const created = await waymark(['key', 'create', '--org', 'Ops', '--name', 'deploy', '--json', ...data]);
  const { id } = JSON.parse(created.stdout) as { id: string };
  t.is((await waymark(['key', 'revoke', '--org', 'Ops', '--id', id, ...data])).code, 0);
  t.is((await waymark(['org', 'set-tier', '--org', 'Ops', '--tier', 'enterprise', '--per-minute', 'maps=50', ...data])).code, 0);
  const listed = await waymark(['audit', '--org', 'Ops', '--json', ...data]);
  t.is(listed.code, 0, listed.stderr);
  const entries = JSON.parse(listed.stdout) as AuditEntry[];
  t.deepEqual(
    entries.map((e) => [e.action, e.actor.kind, e.address]),
    [
      ['plan.changed', 'operator', null],
      ['key.revoked', 'operator', null],
      ['key.created', 'operator', null],
    ],
  );
  t.like(entries[0], { before: { tier: 'free', customPerMinute: {} }, after: { tier: 'enterprise', customPerMinute: { maps: 50 } } });
  const text = await waymark(['audit', '--org', 'Ops', ...data]);
  t.regex(text.stdout, /operator \(CLI\)\s+–\s+key\.revoked\s+key_\w+\s+status: "active" → "revoked"/);
});

test("a stranger's session and a member's burst of parallel calls see nothing of another organization's log and add nothing to it", async (t) => {
  const server = await serve(t);
  const owner = await server.signUp('own@example.com', 'Guarded');
  const member = await join(server, owner, 'mem@example.com');
  const stranger = await server.signUp('stranger@example.com', 'Elsewhere');
  const key = await server.createKey(owner, { name: 'guarded' });
  const before = await entriesOf(await as(server, owner, 'GET', '/audit'));

  const burst = await Promise.all([
    ...Array.from({ length: 10 }, () => as(server, member, 'GET', '/audit')),
    ...Array.from({ length: 10 }, () => as(server, member, 'POST', `/keys/${key.id}/revoke`)),
    ...Array.from({ length: 10 }, () => as(server, stranger, 'POST', `/keys/${key.id}/revoke`)),
  ]);
  t.deepEqual(
    burst.map((answer) => answer.status),
    [...Array(20).fill(403), ...Array(10).fill(404)],
  );
  t.deepEqual(await entriesOf(await as(server, owner, 'GET', '/audit')), before, 'nothing was added');
  const strangers = await entriesOf(await as(server, stranger, 'GET', '/audit'));
  t.true(strangers.every((entry) => entry.orgId === stranger.orgId));
  t.false(JSON.stringify(strangers).includes(key.id));
});
