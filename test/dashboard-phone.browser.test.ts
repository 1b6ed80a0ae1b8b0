/**
 * The dashboard on phone-width screens (390 and 360 CSS pixels) in a real browser: every page —
 * sign-in, sign-up, joining by invitation, API Keys, Usage, Billing, Team, Map playground — fits
 * the width (no horizontal page scroll), keeps a compact header whose Sign out button is on
 * screen, and keeps its navigation and main controls inside the viewport; so do the key edit and
 * roll dialogs. A full-page screenshot of each goes to a temporary folder named in the test's log.
 */
import type { ExecutionContext } from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { browserTest, signedInContext } from './helpers/browser.js';
import { startTestServer, type Account, type TestServer } from './helpers/server.js';

const WIDTHS = [390, 360];
const HEIGHT = 780;
/** Most of a phone screen stays for the page. */
const MAX_HEADER_HEIGHT = 64;
const NAVIGATION = ['API Keys', 'Usage', 'Billing', 'Team', 'Map playground'];

interface Check {
  t: ExecutionContext;
  width: number;
  folder: string;
}

/** The box of a control scrolled into view; it must be visible and lie within the page's width. */
async function assertWithinWidth({ t, width }: Check, page: string, control: Locator, name: string): Promise<void> {
  await control.scrollIntoViewIfNeeded();
  const box = await control.boundingBox();
  t.truthy(box, `${width}px ${page}: ${name} is not visible`);
  if (box) t.true(box.x >= 0 && box.x + box.width <= width + 0.5, `${width}px ${page}: ${name} spans x ${box.x}…${box.x + box.width}`);
}

/** Screenshots the page and checks its width and the controls named. */
async function checkPage(check: Check, page: Page, name: string, controls: Record<string, Locator>): Promise<void> {
  const { t, width, folder } = check;
  await page.screenshot({ path: join(folder, `${width}-${name}.png`), fullPage: true });
  const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
  t.true(scrollWidth <= width, `${width}px ${name}: the page is ${scrollWidth}px wide`);
  for (const [label, control] of Object.entries(controls)) await assertWithinWidth(check, name, control, label);
}

/** Signed in: a compact header with Sign out on screen, every navigation link reachable, then the page. */
async function checkDashboardPage(check: Check, page: Page, name: string, controls: Record<string, Locator>): Promise<void> {
  const { t, width } = check;
  await page.evaluate('scrollTo(0, 0)');
  const header = await page.locator('header').boundingBox();
  t.true(header !== null && header.height <= MAX_HEADER_HEIGHT, `${width}px ${name}: the header is ${header?.height}px high`);
  const signOut = await page.getByRole('button', { name: 'Sign out' }).boundingBox();
  t.true(
    signOut !== null &&
      signOut.x >= 0 &&
      signOut.x + signOut.width <= width &&
      signOut.y >= 0 &&
      signOut.y + signOut.height <= MAX_HEADER_HEIGHT,
    `${width}px ${name}: Sign out is at ${JSON.stringify(signOut)}`,
  );
  const navigation = page.getByRole('navigation', { name: 'Dashboard' });
  const links = Object.fromEntries(NAVIGATION.map((label) => [`the ${label} link`, navigation.getByRole('link', { name: label })]));
  await checkPage(check, page, name, { ...links, ...controls });
}

async function signedOutPages(check: Check, browser: Browser, server: TestServer, invitationUrl: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: check.width, height: HEIGHT } });
  const page = await context.newPage();
  try {
    await page.goto(`${server.url}/dashboard/`);
    await page.getByRole('heading', { name: 'Sign in to Waymark' }).waitFor();
    await checkPage(check, page, '01-sign-in', { 'the Sign in button': page.getByRole('button', { name: 'Sign in' }) });

    await page.getByRole('tab', { name: 'Create account' }).click();
    await checkPage(check, page, '02-sign-up', {
      'the Organization field': page.getByLabel('Organization'),
      'the Create account button': page.getByRole('button', { name: 'Create account' }),
    });

    await page.goto(invitationUrl);
    await page.getByRole('heading', { name: 'Join Analytical Engines Ltd' }).waitFor();
    await checkPage(check, page, '03-invitation', {
      'the Password field': page.locator('#join-form').getByLabel('Password'),
      'the Join button': page.getByRole('button', { name: 'Join Analytical Engines Ltd' }),
    });
  } finally {
    await context.close();
  }
}

async function dashboardPages(check: Check, browser: Browser, server: TestServer, account: Account): Promise<void> {
  const context = await signedInContext(browser, server.url, account.cookie, { viewport: { width: check.width, height: HEIGHT } });
  const page = await context.newPage();
  try {
    await page.goto(`${server.url}/dashboard/#keys`);
    await page.getByLabel('Name', { exact: true }).fill(`Phone ${check.width}`);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#new-key-value').waitFor();
    const keyForm = page.locator('#create-key-form');
    await checkDashboardPage(check, page, '04-keys', {
      'the Copy button': page.getByRole('button', { name: 'Copy' }),
      'the new key': page.locator('#new-key-value'),
      'the Allowed origins field': keyForm.getByLabel('Allowed origins'),
      'the Allowed IPs field': keyForm.getByLabel('Allowed IPs'),
      'the Expires field': keyForm.getByLabel('Expires'),
      'the Create key button': page.getByRole('button', { name: 'Create key' }),
    });
    await page.getByRole('button', { name: `Edit key Phone ${check.width}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit key “Phone ${check.width}”` });
    await checkPage(check, page, '05-edit-dialog', {
      'the dialog': edit,
      'the Allowed origins field': edit.getByLabel('Allowed origins'),
      'the Expires field': edit.getByLabel('Expires'),
      'the Save changes button': edit.getByRole('button', { name: 'Save changes' }),
    });
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: `Roll key Phone ${check.width}` }).click();
    const roll = page.getByRole('dialog', { name: `Roll key “Phone ${check.width}”` });
    await checkPage(check, page, '05-roll-dialog', {
      'the dialog': roll,
      'the stop-now choice': roll.getByRole('radio', { name: /stop the old value now/ }),
      'the Roll key button': roll.getByRole('button', { name: 'Roll key' }),
    });
    await roll.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: `Revoke key Phone ${check.width}` }).click();
    const dialog = page.getByRole('dialog');
    await checkPage(check, page, '05-revoke-dialog', {
      'the dialog': dialog,
      'the Revoke key button': dialog.getByRole('button', { name: 'Revoke key' }),
    });
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('link', { name: 'Usage' }).click();
    await page.locator('.service-card').first().waitFor();
    await checkDashboardPage(check, page, '06-usage', {
      'the Refresh button': page.getByRole('button', { name: 'Refresh' }),
      'the daily chart': page.locator('#usage-chart svg'),
    });

    await page.getByRole('link', { name: 'Billing' }).click();
    await page.locator('.plan').first().waitFor();
    await checkDashboardPage(check, page, '07-billing', {
      'the Switch to Pro button': page.getByRole('button', { name: 'Switch to Pro' }),
    });

    await page.getByRole('link', { name: 'Team' }).click();
    // The invitation's role menu is filled as the Team view loads, with its member list.
    await page.locator('#members-table tbody tr').first().waitFor();
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    await page.locator('#new-invitation-url').waitFor();
    await page.locator('#invitations-table tbody tr').first().waitFor();
    await checkDashboardPage(check, page, '08-team', {
      'the invitation Role menu': page.locator('#create-invitation-form').getByLabel('Role'),
      'the Copy button': page.getByRole('button', { name: 'Copy' }),
      'the invitation link': page.locator('#new-invitation-url'),
    });

    await page.getByRole('link', { name: 'Map playground' }).click();
    await page.locator('#playground-style option').first().waitFor({ state: 'attached' });
    await checkDashboardPage(check, page, '09-playground', {
      'the key picker': page.getByRole('combobox', { name: 'API key', exact: true }),
      'the Style menu': page.getByLabel('Style'),
      'the Show map button': page.getByRole('button', { name: 'Show map' }),
    });
  } finally {
    await context.close();
  }
}

browserTest('every dashboard page fits a phone screen 390 and 360 pixels wide', async (t, browser) => {
  const folder = mkdtempSync(join(tmpdir(), 'waymark-phone-'));
  t.log(`screenshots in ${folder}`);
  const server = await startTestServer();
  try {
    const account = await server.signUp('ada@example.com', 'Analytical Engines Ltd');
    const invitation = await server.dashboard(account, 'POST', '/invitations', {});
    t.is(invitation.status, 201, 'the invitation API answers');
    const { url } = (await invitation.json()) as { url: string };
    const invitationUrl = `${server.url}/dashboard/${new URL(url).hash}`;
    for (const width of WIDTHS) {
      const check = { t, width, folder };
      await signedOutPages(check, browser, server, invitationUrl);
      await dashboardPages(check, browser, server, account);
    }
  } finally {
    await server.close();
  }
});
