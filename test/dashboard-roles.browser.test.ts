/**
 * Roles and browser-safe keys in the dashboard, in a real browser: an owner restricts a key to
 * origins, client addresses and an expiry, edits it and rolls it (with and without a grace period)
 * and the API honours each step; an owner invites an admin and a member, who join through their
 * links and see only what their role allows; the owner changes a role, cannot leave the
 * organization without an owner, and removes the member with its key; passwords are changed in the
 * Team area and set with a reset link. Screenshots go to test-artifacts/dashboard/ (roles-*).
 */
import type { ExecutionContext } from 'ava';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserTest, signedInContext } from './helpers/browser.js';
import { createPasswordReset } from '../src/control-plane/password-changes.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { join as joinTeam } from './helpers/team.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'dashboard');
const PASSWORD = 'correct horse battery';
/** The test server's clock; the pages' clocks are set to it, so "until" and "expired" read alike. */
const NOW = '2026-11-15T12:00:00Z';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 780 };
const ALLOWED_ORIGIN = 'https://app.example.com';

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `roles-${name}.png`), fullPage: true });
}

async function newPage(t: ExecutionContext, context: BrowserContext): Promise<Page> {
  await context.clock.setFixedTime(new Date(NOW));
  const page = await context.newPage();
  page.on('pageerror', (error) => t.fail(`page error: ${error.message}`));
  return page;
}

/** The status of a metered API call with the key, from outside the browser, with the headers given. */
async function apiStatus(server: TestServer, key: string, headers: Record<string, string> = { Origin: ALLOWED_ORIGIN }): Promise<number> {
  const res = await fetch(`${server.url}/api/v1/test/geocoding?key=${encodeURIComponent(key)}`, { headers });
  await res.arrayBuffer();
  return res.status;
}

const keyRow = (page: Page, name: string) => page.locator('#keys-table tbody tr', { hasText: name });

async function keyNames(page: Page): Promise<string[]> {
  return page.locator('#keys-table tbody .key-name').allInnerTexts();
}

/** Creates a key in the key form (restrictions filled in as given); returns its value shown once. */
async function createKey(
  page: Page,
  name: string,
  restrictions: { origins?: string; ips?: string; expires?: string; perMinute?: string } = {},
): Promise<string> {
  await page.getByRole('link', { name: 'API Keys' }).click();
  const form = page.locator('#create-key-form');
  await form.getByLabel('Name', { exact: true }).fill(name);
  if (restrictions.origins !== undefined) await form.getByLabel('Allowed origins').fill(restrictions.origins);
  if (restrictions.ips !== undefined) await form.getByLabel('Allowed IPs').fill(restrictions.ips);
  if (restrictions.expires !== undefined) await form.getByLabel('Expires').fill(restrictions.expires);
  if (restrictions.perMinute !== undefined) await form.getByLabel('Requests per minute').fill(restrictions.perMinute);
  await form.getByRole('button', { name: 'Create key' }).click();
  await page.locator('#new-key-name').filter({ hasText: name }).waitFor();
  await keyRow(page, name).waitFor();
  return page.locator('#new-key-value').innerText();
}

/** Rolls a key through its dialog with the grace choice named; returns the new value shown once. */
async function rollKey(page: Page, name: string, grace: RegExp | null, before: string): Promise<string> {
  await keyRow(page, name)
    .getByRole('button', { name: `Roll key ${name}` })
    .click();
  const dialog = page.getByRole('dialog', { name: `Roll key “${name}”` });
  await dialog.waitFor();
  if (grace) await dialog.getByRole('radio', { name: grace }).check();
  await dialog.getByRole('button', { name: 'Roll key' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const value = page.locator('#new-key-value');
  await page.locator('#new-key-intro').filter({ hasText: 'The new value of key' }).waitFor();
  await page.waitForFunction((old) => {
    const text: string = (globalThis as any).document.querySelector('#new-key-value').textContent;
    return /^wmk_/.test(text) && text !== old;
  }, before);
  return value.innerText();
}

browserTest(
  "the Usage area shows each endpoint's answers by status class, the 429s of a per-minute limit among them",
  async (t, browser) => {
    const server = await startTestServer({ now: NOW });
    const owner = await server.signUp('uma@example.com', 'Counted Ltd');
    const key = await server.createKey(owner, { name: 'Busy', perMinute: { geocoding: 2 } });
    for (let i = 0; i < 5; i++) await apiStatus(server, key.value);
    const context = await signedInContext(browser, server.url, owner.cookie, { viewport: DESKTOP });
    try {
      const page = await newPage(t, context);
      await page.goto(`${server.url}/dashboard/#usage`);
      const row = page.locator('#endpoint-usage-table tr[data-endpoint="/test/geocoding"]');
      await row.waitFor();
      t.deepEqual(await row.locator('td.num').allInnerTexts(), ['2', '0', '3', '0']);
      const shares = await row.locator('.status-part').evaluateAll((parts) => parts.map((part) => (part as any).style.width));
      t.deepEqual(shares, ['40%', '0%', '60%', '0%'], 'the bar shows the 429s');
      await row.scrollIntoViewIfNeeded();
      await screenshot(page, '00-usage-endpoints');
    } finally {
      await context.close();
      await server.close();
    }
  },
);

browserTest('an owner reads the audit log, with who changed what; a member has no audit log', async (t, browser) => {
  const server = await startTestServer({ now: NOW });
  const owner = await server.signUp('aude@example.com', 'Logged Ltd');
  const member = await joinTeam(server, owner, 'max@example.com');
  const key = await server.createKey(owner, { name: 'Shop' });
  const revoked = await server.dashboard(owner, 'POST', `/keys/${key.id}/revoke`);
  t.is(revoked.status, 200);
  const ownerContext = await signedInContext(browser, server.url, owner.cookie, { viewport: DESKTOP });
  const memberContext = await signedInContext(browser, server.url, member.cookie, { viewport: DESKTOP });
  try {
    const page = await newPage(t, ownerContext);
    await page.goto(`${server.url}/dashboard/#keys`);
    await page.getByRole('link', { name: 'Audit log' }).click();
    const rows = page.locator('#audit-table tbody tr');
    await rows.first().waitFor();
    t.deepEqual(await rows.locator('td:nth-child(4)').allInnerTexts(), ['key.revoked', 'key.created', 'member.joined', 'member.invited']);
    const revocation = page.locator('#audit-table tr[data-action="key.revoked"]');
    t.regex(await revocation.innerText(), /2026-11-15 12:00 UTC\s+aude@example\.com\s+127\.0\.0\.1/);
    t.regex(await revocation.locator('.audit-change').innerText(), /status "active" → "revoked"/);
    await screenshot(page, '00-audit-log');

    const memberPage = await newPage(t, memberContext);
    await memberPage.goto(`${server.url}/dashboard/#keys`);
    await memberPage.locator('#keys-view').waitFor();
    await memberPage.locator('#account-email').filter({ hasText: 'max@example.com' }).waitFor();
    t.true(await memberPage.locator('#audit-link').isHidden(), 'a member has no Audit log link');
  } finally {
    await ownerContext.close();
    await memberContext.close();
    await server.close();
  }
});

browserTest("an owner limits a key's requests per minute in the key form, and lifts the limit in the edit dialog", async (t, browser) => {
  const server = await startTestServer({ now: NOW });
  const owner = await server.signUp('pia@example.com', 'Paced Ltd');
  const context = await signedInContext(browser, server.url, owner.cookie, { viewport: DESKTOP });
  try {
    const page = await newPage(t, context);
    await page.goto(`${server.url}/dashboard/#keys`);
    const form = page.locator('#create-key-form');
    await form.getByLabel('Name', { exact: true }).fill('Script');
    await form.getByLabel('Requests per minute').fill('geocoding=0');
    await form.getByRole('button', { name: 'Create key' }).click();
    await form.locator('.form-error').filter({ hasText: 'limit per minute' }).waitFor();

    const value = await createKey(page, 'Script', { perMinute: 'geocoding=1, routing=30' });
    const limits = keyRow(page, 'Script').locator('[data-restriction="per-minute"]');
    t.regex(await limits.innerText(), /geocoding=1, routing=30/);
    t.is(await apiStatus(server, value), 200);
    t.is(await apiStatus(server, value), 429, 'the second geocoding request of the minute');

    await keyRow(page, 'Script').getByRole('button', { name: 'Edit key Script' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit key “Script”' });
    await edit.waitFor();
    t.is(await edit.getByLabel('Requests per minute').inputValue(), 'geocoding=1, routing=30');
    await edit.getByLabel('Requests per minute').fill('');
    await screenshot(page, '00-per-minute-edit');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'hidden' });
    await limits.filter({ hasText: "Plan's limits" }).waitFor();
    t.is(await apiStatus(server, value), 200, "the plan's 60 a minute apply again");
  } finally {
    await context.close();
    await server.close();
  }
});

browserTest('an owner restricts a key to origins, addresses and an expiry, edits it and rolls it', async (t, browser) => {
  const server = await startTestServer({ now: NOW });
  const owner = await server.signUp('olga@example.com', 'Restricted Ltd');
  // Berlin: the expiry is typed in local time (UTC+1 in winter) and listed in UTC.
  const context = await signedInContext(browser, server.url, owner.cookie, { viewport: DESKTOP, timezoneId: 'Europe/Berlin' });
  try {
    const page = await newPage(t, context);
    await page.goto(`${server.url}/dashboard/#keys`);
    const form = page.locator('#create-key-form');
    t.regex(await form.locator('.expires-hint').innerText(), /Europe\/Berlin/);

    // A wrong origin is refused with the server's reason, in the form.
    await form.getByLabel('Name', { exact: true }).fill('Web app');
    await form.getByLabel('Allowed origins').fill('app.example.com');
    await form.getByRole('button', { name: 'Create key' }).click();
    await form.locator('.form-error').filter({ hasText: 'is not a web origin' }).waitFor();

    const first = await createKey(page, 'Web app', { origins: `${ALLOWED_ORIGIN}, https://*.example.org`, expires: '2027-01-31T13:00' });
    const row = keyRow(page, 'Web app');
    const restrictions = row.locator('.key-restrictions');
    t.deepEqual(await restrictions.locator('[data-restriction="origins"] code').allInnerTexts(), [ALLOWED_ORIGIN, 'https://*.example.org']);
    t.regex(await restrictions.locator('[data-restriction="ips"]').innerText(), /Any IP/);
    t.regex(await restrictions.locator('[data-restriction="expires"]').innerText(), /2027-01-31 12:00 UTC/);
    t.true((await form.getByLabel('Allowed origins').inputValue()) === '', 'the form is emptied');
    await screenshot(page, '01-key-restricted');
    t.is(await apiStatus(server, first), 200);

    // Edit: the dialog holds the key as it is; a bad address is refused there; a range is added.
    await row.getByRole('button', { name: 'Edit key Web app' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit key “Web app”' });
    await edit.waitFor();
    t.is(await edit.getByLabel('Key name').inputValue(), 'Web app');
    t.is(await edit.getByLabel('Allowed origins').inputValue(), `${ALLOWED_ORIGIN}\nhttps://*.example.org`);
    t.is(await edit.getByLabel('Expires').inputValue(), '2027-01-31T13:00');
    t.true(await edit.getByRole('checkbox', { name: 'Routing' }).isChecked());
    await edit.getByLabel('Allowed IPs').fill('300.1.2.3');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit
      .locator('.form-error')
      .filter({ hasText: /allowed IPs/ })
      .waitFor();
    await edit.getByLabel('Allowed IPs').fill('127.0.0.0/8\n2001:db8::/32');
    await screenshot(page, '02-edit-dialog');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'hidden' });
    await restrictions.locator('[data-restriction="ips"]').filter({ hasText: '127.0.0.0/8' }).waitFor();
    t.deepEqual(await restrictions.locator('[data-restriction="ips"] code').allInnerTexts(), ['127.0.0.0/8', '2001:db8::/32']);
    t.regex(await page.locator('#banner').innerText(), /“Web app” has been updated/);
    t.is(await apiStatus(server, first), 200, 'the client (127.0.0.1) is in the range');

    // Roll with no grace: the new value works, the old one is refused at once.
    const second = await rollKey(page, 'Web app', /stop the old value now/, first);
    t.not(second, first);
    t.is(await page.locator('#new-key-grace').innerText(), 'The old value has stopped working.');
    await row
      .locator('code.hint')
      .filter({ hasText: second.slice(-4) })
      .waitFor();
    t.is(await restrictions.locator('[data-restriction="previous"]').count(), 0);
    t.is(await apiStatus(server, second), 200);
    t.is(await apiStatus(server, first), 401);

    // Roll with the default grace (24 hours): both values work until the old one's end, shown.
    await row.getByRole('button', { name: 'Roll key Web app' }).click();
    const roll = page.getByRole('dialog', { name: 'Roll key “Web app”' });
    t.true(await roll.getByRole('radio', { name: 'For 24 hours' }).isChecked(), '24 hours is the default');
    await screenshot(page, '03-roll-dialog');
    await roll.getByRole('button', { name: 'Cancel' }).click();
    const third = await rollKey(page, 'Web app', null, second);
    t.regex(await page.locator('#new-key-grace').innerText(), /old value keeps working until 2026-11-16 12:00 UTC/);
    await restrictions.locator('[data-restriction="previous"]').filter({ hasText: 'works until 2026-11-16 12:00 UTC' }).waitFor();
    await screenshot(page, '04-key-rolled');
    t.is(await apiStatus(server, third), 200);
    t.is(await apiStatus(server, second), 200, 'the old value works during the grace period');

    // From a page of an origin the key does not allow (the dashboard's own), the key is refused.
    const fromDashboard = await page.evaluate<number>(`fetch('/api/v1/test/geocoding?key=${third}').then((res) => res.status)`);
    t.is(fromDashboard, 403);
    t.is(await apiStatus(server, third, { Origin: 'https://evil.example.net' }), 403);
    t.is(await apiStatus(server, third, { Referer: 'https://shop.example.org/map' }), 200, 'a wildcard subdomain matches the Referer');

    // After the grace period only the new value works.
    server.clock.set('2026-11-16T12:00:01Z');
    t.is(await apiStatus(server, second), 401);
    t.is(await apiStatus(server, third), 200);
  } finally {
    await context.close();
    await server.close();
  }
});

/** Opens an invitation link in a new browser and joins with the email; returns the page, among the keys. */
async function joinByLink(t: ExecutionContext, browser: Browser, server: TestServer, url: string, email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await newPage(t, context);
  await page.goto(url.replace(/^https?:\/\/[^/]+/, server.url));
  const joinForm = page.locator('#join-form');
  await joinForm.getByRole('button', { name: 'Join Roles Ltd' }).waitFor();
  await joinForm.getByLabel('Email').fill(email);
  await joinForm.getByLabel('Password').fill(PASSWORD);
  await joinForm.getByRole('button', { name: 'Join Roles Ltd' }).click();
  await page.getByRole('heading', { name: 'API Keys' }).waitFor();
  return page;
}

/** Makes an invitation link for the role in the Team area; returns the link shown once. */
async function invite(page: Page, role: string): Promise<string> {
  await page.getByRole('link', { name: 'Team' }).click();
  const form = page.locator('#create-invitation-form');
  const before = (await page.locator('#new-invitation-url').textContent()) ?? '';
  await form.getByLabel('Role').selectOption({ label: role });
  await form.getByRole('button', { name: 'Create invitation link' }).click();
  await page.waitForFunction((old) => {
    const text: string = (globalThis as any).document.querySelector('#new-invitation-url').textContent;
    return text.includes('#invitation=') && text !== old;
  }, before);
  return page.locator('#new-invitation-url').innerText();
}

/** Opens the Team area and waits until it lists the number of members given. */
async function openTeam(page: Page, members: number): Promise<void> {
  await page.getByRole('link', { name: 'API Keys' }).click();
  await page.getByRole('link', { name: 'Team' }).click();
  await page
    .locator('#members-table tbody tr')
    .nth(members - 1)
    .waitFor();
}

async function openBilling(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Billing' }).click();
  await page.locator('.plan').first().waitFor();
}

/** Each member's role as the Team area shows it, by email. */
async function shownRoles(page: Page): Promise<Record<string, string>> {
  const rows = page.locator('#members-table tbody tr');
  const roles: Record<string, string> = {};
  for (const row of await rows.all()) {
    const email = (await row.locator('.member-email').innerText()).replace(' (you)', '').trim();
    const menu = row.locator('.member-role select');
    roles[email] = ((await menu.count()) ? await menu.inputValue() : await row.locator('.member-role').innerText()).toLowerCase();
  }
  return roles;
}

browserTest('an owner invites an admin and a member, who see only what their roles allow; the owner changes a role', async (t, browser) => {
  const server = await startTestServer({ now: NOW });
  const owner = await server.signUp('olga@roles.example', 'Roles Ltd');
  const ownerContext = await signedInContext(browser, server.url, owner.cookie, { viewport: DESKTOP });
  const contexts: BrowserContext[] = [ownerContext];
  try {
    const ownerPage = await newPage(t, ownerContext);
    await ownerPage.goto(`${server.url}/dashboard/#keys`);
    await ownerPage.locator('#keys-empty').waitFor();
    t.false(await ownerPage.locator('#keys-scope').isVisible(), 'an owner sees every key');
    await createKey(ownerPage, 'Owner key');

    // The owner may give every role; the invitations show theirs.
    await openTeam(ownerPage, 1);
    const roleMenu = ownerPage.locator('#create-invitation-form').getByLabel('Role');
    t.deepEqual(await roleMenu.locator('option').allInnerTexts(), ['Owner', 'Admin', 'Member']);
    t.is(await roleMenu.inputValue(), 'member', 'member is the default');
    const adminUrl = await invite(ownerPage, 'Admin');
    const memberUrl = await invite(ownerPage, 'Member');
    const invitationRole = (url: string) =>
      ownerPage
        .locator('#invitations-table tbody tr', { hasText: new URL(url).hash.slice(-4) })
        .locator('.invitation-role')
        .innerText();
    t.is(await invitationRole(adminUrl), 'Admin');
    t.is(await invitationRole(memberUrl), 'Member');
    t.regex(await ownerPage.locator('#team-role').innerText(), /You are an owner of Roles Ltd/);

    // The admin joins: every key, invitations up to admin, no role menus, no plan buttons.
    const adminPage = await joinByLink(t, browser, server, adminUrl, 'adam@roles.example');
    contexts.push(adminPage.context());
    await keyRow(adminPage, 'Owner key').waitFor();
    await createKey(adminPage, 'Admin key');
    await openTeam(adminPage, 2);
    t.deepEqual(await adminPage.locator('#create-invitation-form').getByLabel('Role').locator('option').allInnerTexts(), [
      'Admin',
      'Member',
    ]);
    t.true(await adminPage.locator('#invitations-table').isVisible());
    t.is(await adminPage.locator('#members-table select').count(), 0);
    t.deepEqual(await shownRoles(adminPage), { 'olga@roles.example': 'owner', 'adam@roles.example': 'admin' });
    await openBilling(adminPage);
    t.is(await adminPage.getByRole('button', { name: /Switch to/ }).count(), 0);
    t.regex(await adminPage.locator('#plan-note').innerText(), /Only an owner of the organization can change its plan; you are an admin/);

    // The member joins: only its own keys, no invitations, no role menus, no plan buttons.
    const memberPage = await joinByLink(t, browser, server, memberUrl, 'mia@roles.example');
    contexts.push(memberPage.context());
    await memberPage.locator('#keys-empty').waitFor();
    t.regex(await memberPage.locator('#keys-scope').innerText(), /keys you created/);
    await createKey(memberPage, 'Member key');
    t.deepEqual(await keyNames(memberPage), ['Member key']);
    await screenshot(memberPage, '05-member-keys');
    await openTeam(memberPage, 3);
    t.false(await memberPage.locator('#create-invitation-form').isVisible());
    t.false(await memberPage.locator('#invitations-card').isVisible());
    t.is(await memberPage.getByRole('button', { name: 'Create invitation link' }).count(), 0);
    t.is(await memberPage.locator('#members-table select').count(), 0);
    t.deepEqual(await shownRoles(memberPage), {
      'olga@roles.example': 'owner',
      'adam@roles.example': 'admin',
      'mia@roles.example': 'member',
    });
    t.regex(await memberPage.locator('#team-role').innerText(), /You are a member of Roles Ltd/);
    await screenshot(memberPage, '06-member-team');
    await openBilling(memberPage);
    t.is(await memberPage.getByRole('button', { name: /Switch to/ }).count(), 0);
    t.regex(await memberPage.locator('#plan-note').innerText(), /Only an owner/);
    await screenshot(memberPage, '07-member-billing');
    // Whatever the page shows, the server refuses a member's plan change.
    const refused = await memberPage.evaluate<number>(`(async () => {
      const { csrfToken } = await (await fetch('/dashboard/api/me')).json();
      const headers = { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken };
      return (await fetch('/dashboard/api/billing', { method: 'PUT', headers, body: '{"tier":"pro"}' })).status;
    })()`);
    t.is(refused, 403);
    await memberPage.setViewportSize(PHONE);
    await openTeam(memberPage, 3);
    await screenshot(memberPage, '08-member-team-phone');

    // The owner sees every key, and makes the admin a member.
    await ownerPage.getByRole('link', { name: 'API Keys' }).click();
    await keyRow(ownerPage, 'Member key').waitFor();
    t.deepEqual(await keyNames(ownerPage), ['Member key', 'Admin key', 'Owner key']);
    t.is(await keyRow(ownerPage, 'Member key').locator('.key-maker').innerText(), 'by mia@roles.example');
    t.is(await keyRow(ownerPage, 'Owner key').locator('.key-maker').count(), 0, "one's own keys need no maker");
    await screenshot(ownerPage, '09-owner-keys');
    await openTeam(ownerPage, 3);
    t.deepEqual(await shownRoles(ownerPage), {
      'olga@roles.example': 'owner',
      'adam@roles.example': 'admin',
      'mia@roles.example': 'member',
    });
    await screenshot(ownerPage, '10-owner-team');
    await ownerPage.getByLabel('Role of adam@roles.example').selectOption('member');
    await ownerPage.locator('#banner.success').filter({ hasText: 'adam@roles.example is now a member' }).waitFor();
    await ownerPage.locator('#members-table tr[data-role="member"]', { hasText: 'adam@roles.example' }).waitFor();
    t.is(await ownerPage.getByLabel('Role of adam@roles.example').inputValue(), 'member');

    // The former admin's page, opened again, shows a member's: its own key only, no invitations.
    await adminPage.goto('about:blank');
    await adminPage.goto(`${server.url}/dashboard/#keys`);
    await keyRow(adminPage, 'Admin key').waitFor();
    t.deepEqual(await keyNames(adminPage), ['Admin key']);
    await openTeam(adminPage, 3);
    await adminPage.locator('#create-invitation-form').waitFor({ state: 'hidden' });
    t.is(await adminPage.locator('#members-table select').count(), 0);

    // The only owner cannot make itself a member: the reason shows and the menu goes back.
    await ownerPage.getByLabel('Role of olga@roles.example').selectOption('member');
    await ownerPage.locator('#banner.error').filter({ hasText: 'keeps at least one owner' }).waitFor();
    t.is(await ownerPage.getByLabel('Role of olga@roles.example').inputValue(), 'owner');
    await screenshot(ownerPage, '11-last-owner');

    // Removing: a member has no Remove buttons and nobody one for themselves; the owner removes the
    // member and its key, and the member's open page is signed out.
    t.is(await memberPage.getByRole('button', { name: /^Remove / }).count(), 0);
    t.is(await ownerPage.getByRole('button', { name: 'Remove olga@roles.example' }).count(), 0);
    await ownerPage.getByRole('button', { name: 'Remove mia@roles.example' }).click();
    await ownerPage.getByLabel('Also revoke the key they created').check();
    await screenshot(ownerPage, '11b-remove-member');
    await ownerPage.locator('#confirm-button').click();
    const removed = 'mia@roles.example has been removed and the key they created revoked';
    await ownerPage.locator('#banner.success').filter({ hasText: removed }).waitFor();
    await ownerPage.locator('#members-table tbody tr', { hasText: 'mia@roles.example' }).waitFor({ state: 'detached' });
    await memberPage.getByRole('link', { name: 'API Keys' }).click();
    await memberPage.locator('#signin-form').waitFor();

    // The owner changes its password in the Team area; the former admin sets one with an operator's reset link.
    const passwordForm = ownerPage.locator('#password-form');
    await passwordForm.getByLabel('Current password').fill(PASSWORD);
    await passwordForm.getByLabel('New password').fill('olga has a new password');
    await passwordForm.getByRole('button', { name: 'Change password' }).click();
    await ownerPage.locator('#banner.success').filter({ hasText: 'Your password has been changed' }).waitFor();
    const adam = (await server.store.findUserByEmail('adam@roles.example'))!;
    const { token } = await createPasswordReset(server.store, adam, server.clock.now());
    await adminPage.goto(`${server.url}/dashboard/#reset=${token}`);
    await adminPage.locator('#reset-form').getByLabel('New password').fill('adam has a new password');
    await screenshot(adminPage, '11c-reset-password');
    await adminPage.getByRole('button', { name: 'Set password and sign in' }).click();
    await adminPage.locator('#app-view').waitFor();
    t.false(adminPage.url().includes('reset='), 'the token leaves the address bar');
    t.is((await server.dashboard(null as never, 'POST', '/signin', { email: 'adam@roles.example', password: PASSWORD })).status, 401);
    await ownerPage.setViewportSize(PHONE);
    await screenshot(ownerPage, '12-owner-team-phone');
    await ownerPage.setViewportSize(DESKTOP);

    // The owner changes the plan; on Enterprise the operator does.
    await openBilling(ownerPage);
    t.false(await ownerPage.locator('#plan-note').isVisible());
    await ownerPage.getByRole('button', { name: 'Switch to Pro' }).click();
    await ownerPage.getByRole('dialog').getByRole('button', { name: 'Switch to Pro' }).click();
    await ownerPage.locator('.plan.current[data-tier="pro"]').waitFor();
    await server.store.setTier(owner.orgId, 'enterprise');
    await ownerPage.getByRole('link', { name: 'Usage' }).click();
    await openBilling(ownerPage);
    await ownerPage.locator('.plan.current[data-tier="enterprise"]').waitFor();
    t.regex(await ownerPage.locator('#plan-note').innerText(), /Enterprise plan: your Waymark operator sets it/);
    t.is(await ownerPage.getByRole('button', { name: /Switch to/ }).count(), 0);
    await screenshot(ownerPage, '13-owner-enterprise');
  } finally {
    for (const context of contexts) await context.close();
    await server.close();
  }
});
