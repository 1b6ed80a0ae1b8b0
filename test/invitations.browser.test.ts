/**
 * Joining an organization by invitation, in a real browser: an owner makes a single-use link for
 * an admin in the Team area and copies it; a second person opens it, sees the organization's name,
 * signs up as an admin and lands among its keys; the link then refuses a third person; a revoked link refuses too; and
 * whoever types a taken organization name at the ordinary sign-up is told to ask for an invitation.
 * Screenshots go to test-artifacts/invitations/.
 */
import type { ExecutionContext } from 'ava';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserTest } from './helpers/browser.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'invitations');
const PASSWORD = 'correct horse battery';

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

async function newPage(t: ExecutionContext, context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => t.fail(`page error: ${error.message}`));
  return page;
}

/** Signs up at the ordinary "Create account" form, with an organization name when given. */
async function fillSignUp(page: Page, email: string, organization?: string): Promise<void> {
  await page.getByRole('tab', { name: 'Create account' }).click();
  const form = page.locator('#signup-form');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(PASSWORD);
  if (organization) await form.getByLabel('Organization').fill(organization);
  await form.getByRole('button', { name: 'Create account' }).click();
}

/** Makes an invitation link in the Team area (for a member unless `role` says otherwise); returns the link shown once. */
async function createInvitationLink(page: Page, role = 'Member'): Promise<string> {
  await page.getByRole('link', { name: 'Team' }).click();
  await page.locator('#create-invitation-form').getByLabel('Role').selectOption({ label: role });
  await page.getByRole('button', { name: 'Create invitation link' }).click();
  const link = page.locator('#new-invitation-url');
  await link.filter({ hasText: '#invitation=' }).waitFor();
  return link.innerText();
}

/** The invitation row whose hint matches the link's token. */
function invitationRow(page: Page, url: string) {
  const token = new URL(url).hash.slice('#invitation='.length);
  return page.locator('#invitations-table tbody tr', { hasText: token.slice(-4) });
}

async function invitationJourney(t: ExecutionContext, browser: Browser, server: TestServer): Promise<void> {
  // A signs up, founding "acme", makes a key and an invitation link, and copies the link.
  const contextA = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const pageA = await newPage(t, contextA);
  await pageA.goto(`${server.url}/dashboard/`);
  await fillSignUp(pageA, 'ann@acme.example', 'acme');
  await pageA.getByRole('heading', { name: 'API Keys' }).waitFor();
  await pageA.getByLabel('Name', { exact: true }).fill('acme production');
  await pageA.getByRole('button', { name: 'Create key' }).click();
  await pageA.locator('#keys-table tbody tr', { hasText: 'acme production' }).waitFor();

  // An admin sees every key of the organization (a member only the keys it created).
  const url = await createInvitationLink(pageA, 'Admin');
  t.regex(url, /\/dashboard\/#invitation=wmi_[A-Za-z0-9_-]{43}$/);
  t.regex(await pageA.locator('#new-invitation .warning').innerText(), /will not be shown again.*works once.*expires in 7 days/s);
  await pageA.locator('#new-invitation').getByRole('button', { name: 'Copy' }).click();
  await pageA.locator('#new-invitation .copy-status').filter({ hasText: 'Copied' }).waitFor();
  t.is(await pageA.evaluate<string>('navigator.clipboard.readText()'), url);
  const row = invitationRow(pageA, url);
  await row.waitFor();
  t.regex(await row.innerText(), /Pending/);
  t.is(await row.locator('.invitation-role').innerText(), 'Admin');
  t.regex(await row.innerText(), /ann@acme\.example/);
  t.regex(await pageA.locator('#members-table').innerText(), /ann@acme\.example/);
  await screenshot(pageA, '01-invitation-created');

  // B opens the link in another browser: "Join acme", with no organization field; signs up and sees acme's keys.
  const contextB = await browser.newContext();
  const pageB = await newPage(t, contextB);
  await pageB.goto(url.replace(/^https?:\/\/[^/]+/, server.url));
  await pageB.getByRole('heading', { name: 'Join acme' }).waitFor();
  const joinForm = pageB.locator('#join-form');
  t.false(await pageB.getByLabel('Organization').isVisible());
  t.regex(await joinForm.innerText(), /invited to join acme/);
  await screenshot(pageB, '02-join-form');
  await joinForm.getByLabel('Email').fill('bob@acme.example');
  await joinForm.getByLabel('Password').fill(PASSWORD);
  await joinForm.getByRole('button', { name: 'Join acme' }).click();
  await pageB.locator('#keys-table tbody tr', { hasText: 'acme production' }).waitFor();
  t.is(await pageB.locator('#account-org').innerText(), 'acme');
  t.is(await pageB.locator('#account-email').innerText(), 'bob@acme.example');
  t.false(pageB.url().includes('invitation'), `the token stays in the address bar: ${pageB.url()}`);
  await screenshot(pageB, '03-joined');

  // A sees B among the members, as an admin, and the link accepted by B, with nothing left to revoke.
  await pageA.getByRole('link', { name: 'API Keys' }).click();
  await pageA.getByRole('link', { name: 'Team' }).click();
  await pageA.locator('#members-table', { hasText: 'bob@acme.example' }).waitFor();
  t.is(await pageA.getByLabel('Role of bob@acme.example').inputValue(), 'admin');
  await row.filter({ hasText: 'Accepted' }).waitFor();
  t.regex(await row.locator('.accepted-by').innerText(), /bob@acme\.example/);
  t.is(await row.getByRole('button', { name: /Revoke/ }).count(), 0);

  // C tries the same link: refused, and offered the ordinary forms.
  const contextC = await browser.newContext();
  const pageC = await newPage(t, contextC);
  await pageC.goto(url.replace(/^https?:\/\/[^/]+/, server.url));
  await pageC
    .locator('#banner.error')
    .filter({ hasText: /not valid/ })
    .waitFor();
  t.true(await pageC.getByRole('tab', { name: 'Create account' }).isVisible());
  t.false(await pageC.locator('#join-form').isVisible());
  t.false(pageC.url().includes('invitation'));
  await screenshot(pageC, '04-link-used');

  // A revoked link refuses as well.
  const revokedUrl = await createInvitationLink(pageA);
  await invitationRow(pageA, revokedUrl)
    .getByRole('button', { name: /Revoke invitation/ })
    .click();
  const dialog = pageA.getByRole('dialog');
  t.regex(await dialog.innerText(), /nobody can join/);
  await dialog.getByRole('button', { name: 'Revoke invitation' }).click();
  await invitationRow(pageA, revokedUrl).filter({ hasText: 'Revoked' }).waitFor();
  t.false(await pageA.locator('#new-invitation').isVisible(), 'the revoked link is no longer shown');
  await screenshot(pageA, '05-team');
  await pageC.goto(revokedUrl.replace(/^https?:\/\/[^/]+/, server.url));
  await pageC
    .locator('#banner.error')
    .filter({ hasText: /not valid/ })
    .waitFor();

  // A stranger who types "acme" at the ordinary sign-up is told how to join it.
  await fillSignUp(pageC, 'eve@elsewhere.example', 'acme');
  const error = pageC.locator('#signup-form .form-error');
  await error.filter({ hasText: 'already exists' }).waitFor();
  t.regex(await error.innerText(), /an organization named "acme" already exists.*invitation/);
  await screenshot(pageC, '06-organization-taken');

  await Promise.all([contextA.close(), contextB.close(), contextC.close()]);
}

browserTest('an owner invites someone into the organization with a single-use link', async (t, browser) => {
  const server = await startTestServer();
  try {
    await invitationJourney(t, browser, server);
  } finally {
    await server.close();
  }
});
