/**
 * PRODUCT.md "Dashboard": sign-up always creates a new organization, names are unique, and an
 * existing organization is joined only through a single-use invitation made by one of its members.
 * A stranger never reads or acts on an organization they were not admitted to.
 */
import test from 'ava';
import { customer, otherProcess, serve } from './helpers/fixtures.js';
import { assertError, call } from './helpers/http.js';
import type { Account, TestServer } from './helpers/server.js';

const PASSWORD = 'correct horse battery';
const DAY_MS = 86_400_000;

interface Invitation {
  id: string;
  hint: string;
  status: string;
  createdAt: string;
  expiresAt: string;
  createdBy: string | null;
  acceptedBy: string | null;
}

const signupBody = (server: TestServer, body: unknown) =>
  call(`${server.url}/dashboard/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function invite(server: TestServer, account: Account): Promise<{ invitation: Invitation; token: string; url: string }> {
  const res = await server.dashboard(account, 'POST', '/invitations', {});
  if (res.status !== 201) throw new Error(`invitation failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { invitation: Invitation; token: string; url: string };
}

const keyNames = async (server: TestServer, account: Account) =>
  ((await (await server.dashboard(account, 'GET', '/keys')).json()) as { keys: { name: string }[] }).keys.map((k) => k.name);

test('signing up with the name of an existing organization is a 409 that admits nobody', async (t) => {
  const server = await serve(t);
  const owner = await server.signUp('owner@acme.example', 'acme');
  await server.createKey(owner, { name: 'acme production' });
  for (const organization of ['acme', 'ACME', ' Acme ']) {
    const answer = await signupBody(server, { email: 'stranger@evil.example', password: PASSWORD, organization });
    const message = assertError(t, answer, 409);
    t.regex(message, /an organization named "[^"]+" already exists; choose another name, or ask one of its members for an invitation/);
    t.is(answer.headers.get('set-cookie'), null);
    t.false(JSON.stringify(answer.body).includes(owner.orgId), 'the 409 reveals nothing of the organization');
  }
  // The stranger was not created, and can sign up with an organization of their own.
  const own = await server.signUp('stranger@evil.example', 'evil corp');
  t.not(own.orgId, owner.orgId);
  t.deepEqual(await keyNames(server, own), []);
  t.deepEqual(await keyNames(server, owner), ['acme production']);
});

test('an invitation link admits one person into the organization that made it', async (t) => {
  const server = await serve(t, { publicUrl: 'https://maps.example.com' });
  const owner = await server.signUp('owner@acme.example', 'acme');
  await server.createKey(owner, { name: 'acme production' });
  const { invitation, token, url } = await invite(server, owner);
  t.regex(token, /^wmi_[A-Za-z0-9_-]{43}$/);
  t.is(url, `https://maps.example.com/dashboard/#invitation=${token}`);
  t.like(invitation, { status: 'pending', createdBy: 'owner@acme.example', acceptedBy: null, expiresAt: '2026-11-22T12:00:00.000Z' });
  t.is(invitation.hint, `${token.slice(0, 8)}…${token.slice(-4)}`);

  const preview = await call(`${server.url}/dashboard/api/invitations/preview`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ invitation: token }),
  });
  t.is(preview.status, 200);
  t.deepEqual(preview.body, { organization: { name: 'acme' }, expiresAt: '2026-11-22T12:00:00.000Z' });

  const joined = await signupBody(server, { email: 'colleague@acme.example', password: PASSWORD, invitation: token });
  t.is(joined.status, 201);
  t.like(joined.body, { organization: { id: owner.orgId, name: 'acme' } });
  const colleague: Account = {
    cookie: joined.headers.get('set-cookie')!.split(';')[0]!,
    csrfToken: (joined.body as { csrfToken: string }).csrfToken,
    orgId: owner.orgId,
    email: 'colleague@acme.example',
  };
  // A member sees the keys it made, not the owner's.
  t.deepEqual(await keyNames(server, colleague), []);

  // Used once: a second person is refused, and nobody is created.
  const again = await signupBody(server, { email: 'third@evil.example', password: PASSWORD, invitation: token });
  t.regex(assertError(t, again, 400), /invitation link is not valid/);
  t.is(again.headers.get('set-cookie'), null);
  t.is(await otherProcess(server, (store) => store.findUserByEmail('third@evil.example')), null);

  const list = (await (await server.dashboard(owner, 'GET', '/invitations')).json()) as { invitations: Invitation[] };
  t.like(list.invitations[0], { id: invitation.id, status: 'accepted', acceptedBy: 'colleague@acme.example' });
  t.false(JSON.stringify(list).includes(token), 'the token is shown once, at creation');
  const members = (await (await server.dashboard(colleague, 'GET', '/members')).json()) as { members: { email: string }[] };
  t.deepEqual(
    members.members.map((m) => m.email),
    ['owner@acme.example', 'colleague@acme.example'],
  );
});

test('an invitation expires after 7 days and can be revoked by its organization only', async (t) => {
  const server = await serve(t);
  const owner = await server.signUp('owner@acme.example', 'acme');
  const stranger = await server.signUp('stranger@evil.example', 'evil');

  const late = await invite(server, owner);
  server.clock.set(server.clock.now() + 7 * DAY_MS);
  t.regex(
    assertError(t, await signupBody(server, { email: 'late@acme.example', password: PASSWORD, invitation: late.token }), 400),
    /not valid/,
  );

  const revoked = await invite(server, owner);
  const foreign = await server.dashboard(stranger, 'POST', `/invitations/${revoked.invitation.id}/revoke`);
  t.is(foreign.status, 404);
  t.is(((await (await server.dashboard(stranger, 'GET', '/invitations')).json()) as { invitations: unknown[] }).invitations.length, 0);
  const revoke = await server.dashboard(owner, 'POST', `/invitations/${revoked.invitation.id}/revoke`);
  t.is(revoke.status, 200);
  t.like(((await revoke.json()) as { invitation: Invitation }).invitation, { status: 'revoked' });
  t.is((await server.dashboard(owner, 'POST', `/invitations/${revoked.invitation.id}/revoke`)).status, 404);
  t.regex(
    assertError(t, await signupBody(server, { email: 'x@acme.example', password: PASSWORD, invitation: revoked.token }), 400),
    /not valid/,
  );

  const statuses = ((await (await server.dashboard(owner, 'GET', '/invitations')).json()) as { invitations: Invitation[] }).invitations.map(
    (i) => i.status,
  );
  t.deepEqual(statuses, ['revoked', 'expired']);
});

test('invitation routes need a session and its CSRF token; bad tokens and mixed bodies are 400s', async (t) => {
  const server = await serve(t);
  const owner = await server.signUp();
  t.is((await call(`${server.url}/dashboard/api/invitations`)).status, 401);
  t.is((await call(`${server.url}/dashboard/api/members`)).status, 401);
  const noCsrf = await server.dashboard({ ...owner, csrfToken: 'wrong' }, 'POST', '/invitations', {});
  t.is(noCsrf.status, 403);
  const { token } = await invite(server, owner);
  for (const invitation of ['', 'wmi_short', `${token}x`, token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), 42, null, ['x']]) {
    t.regex(
      assertError(t, await signupBody(server, { email: 'x@example.com', password: PASSWORD, invitation }), 400),
      /not valid/,
      JSON.stringify(invitation),
    );
  }
  const both = await signupBody(server, { email: 'x@example.com', password: PASSWORD, invitation: token, organization: 'other' });
  t.regex(assertError(t, both, 400), /either invitation or organization/);
  // A good token with a bad password is refused without using the invitation up.
  assertError(t, await signupBody(server, { email: 'x@example.com', password: 'short', invitation: token }), 400);
  t.is((await signupBody(server, { email: 'x@example.com', password: PASSWORD, invitation: token })).status, 201);
});

test('no dashboard route acts on another organization: keys, invitations, members, usage and billing stay apart', async (t) => {
  const server = await serve(t);
  const mine = await customer(server);
  const theirs = await customer(server);
  const theirInvitation = await invite(server, theirs.account);
  t.is((await server.dashboard(mine.account, 'POST', `/keys/${theirs.key.id}/revoke`)).status, 404);
  t.is((await server.dashboard(mine.account, 'POST', `/invitations/${theirInvitation.invitation.id}/revoke`)).status, 404);
  const members = (await (await server.dashboard(mine.account, 'GET', '/members')).json()) as { members: { email: string }[] };
  t.deepEqual(
    members.members.map((m) => m.email),
    [mine.account.email],
  );
  // Identifiers in the body are ignored: the session's organization is the only one acted on.
  const billing = await server.dashboard(mine.account, 'PUT', '/billing', {
    tier: 'pro',
    orgId: theirs.account.orgId,
    organization: theirs.account.orgId,
  });
  t.is(billing.status, 200);
  t.is((await server.store.getOrg(theirs.account.orgId))?.tier, 'free');
  const key = await server.dashboard(mine.account, 'POST', '/keys', { name: 'k', orgId: theirs.account.orgId });
  t.is(((await key.json()) as { key: { orgId: string } }).key.orgId, mine.account.orgId);
  t.deepEqual(await keyNames(server, theirs.account), ['main']);
  const usage = (await (await server.dashboard(mine.account, 'GET', '/usage')).json()) as { organization: { id: string } };
  t.is(usage.organization.id, mine.account.orgId);
  // Their invitation still works after all of that.
  t.is((await signupBody(server, { email: 'new@theirs.example', password: PASSWORD, invitation: theirInvitation.token })).status, 201);
});
