/**
 * The dashboard's tables, chart and playground at the widths people use, in a real browser: on a
 * 390 × 844 phone no page scrolls sideways, the usage chart fits its card with today's bar on screen,
 * the tables stack their rows so that every status and every Revoke button is on screen and works;
 * at 1280 px a 64-character email fits its cell, wrapped, whole in the text and in the title; the
 * playground lists the styles before any key, and offers the member's Maps keys in a picker whose
 * known keys show the map at once. One browser, one page per viewport. Screenshots go to
 * test-artifacts/dashboard-fit/.
 */
import type { ExecutionContext } from 'ava';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { STYLES } from '../core/maps/style-catalog.js';
import { takeImportLock } from '../data-pipeline/import-lock.js';
import { browserTest, signedInContext } from './helpers/browser.js';
import { writeTestDataset } from './helpers/dataset.js';
import { startTestServer, type Account, type TestServer } from './helpers/server.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'dashboard-fit');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const LONG_EMAIL = 'augusta.ada.king.countess.of.lovelace@analytical-engines.example';
/** The test server's clock: its usage lands on this day, late in the month, where the bar is the last to fit. */
const TODAY = '2026-11-29';

interface Fixture {
  t: ExecutionContext;
  browser: Browser;
  server: TestServer;
  owner: Account;
}

async function newPage({ t, browser, server }: Fixture, account: Account, viewport: typeof PHONE): Promise<Page> {
  const context = await signedInContext(browser, server.url, account.cookie, { viewport });
  const page = await context.newPage();
  page.on('pageerror', (error) => t.fail(`page error: ${error.message}`));
  return page;
}

async function open(page: Page, view: string, ready: Locator): Promise<void> {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: view, exact: true }).click();
  await ready.first().waitFor({ state: 'attached' });
}

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Neither the page nor a table's or the chart's box in it scrolls sideways (a box would hide its right-hand side). */
async function assertNoSidewaysScroll(t: ExecutionContext, page: Page, view: string): Promise<void> {
  const [scrollWidth, innerWidth] = await page.evaluate<[number, number]>('[document.documentElement.scrollWidth, innerWidth]');
  t.true(scrollWidth <= innerWidth, `${view}: the page is ${scrollWidth} px wide in a ${innerWidth} px window`);
  const boxes = await page.evaluate<string[]>(
    `[...document.querySelectorAll('.table-card, .chart')].filter((box) => box.scrollWidth > box.clientWidth).map((box) => box.id || box.className)`,
  );
  t.deepEqual(boxes, [], `${view}: boxes that scroll sideways`);
}

/** Scrolled to, the element is visible and lies wholly within the window's width. */
async function assertOnScreen(t: ExecutionContext, element: Locator, what: string): Promise<void> {
  await element.scrollIntoViewIfNeeded();
  t.true(await element.isVisible(), `${what} is not visible`);
  const box = await element.boundingBox();
  const width = element.page().viewportSize()!.width;
  t.true(box !== null && box.x >= 0 && box.x + box.width <= width, `${what} spans x ${box?.x}…${box && box.x + box.width}`);
}

/** Every status pill and Revoke button of the table is on screen; returns the Revoke buttons. */
async function assertRowsOnScreen(t: ExecutionContext, table: Locator, what: string): Promise<Locator[]> {
  const statuses = await table.locator('tbody .status').all();
  t.true(statuses.length > 0, `${what}: no status shown`);
  for (const [i, status] of statuses.entries()) await assertOnScreen(t, status, `${what}: status ${i + 1}`);
  const revokes = await table.getByRole('button', { name: /^Revoke/ }).all();
  for (const button of revokes) await assertOnScreen(t, button, `${what}: ${await button.getAttribute('aria-label')}`);
  return revokes;
}

async function phonePages(fixture: Fixture): Promise<void> {
  const { t, server, owner } = fixture;
  const page = await newPage(fixture, owner, PHONE);
  try {
    await page.goto(`${server.url}/dashboard/#keys`);
    const keysTable = page.locator('#keys-table');
    await keysTable.locator('tbody tr').first().waitFor();
    await assertNoSidewaysScroll(t, page, 'API Keys');
    const revokes = await assertRowsOnScreen(t, keysTable, 'API Keys');
    t.is(revokes.length, 4, 'a Revoke button per active key');
    const spare = keysTable.locator('tbody tr', { hasText: 'Spare key' });
    await spare.getByRole('button', { name: 'Revoke key Spare key' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await spare.locator('.status.revoked').waitFor();
    await assertOnScreen(t, spare.locator('.status.revoked'), 'the revoked key’s status');
    await screenshot(page, 'phone-keys');

    await open(page, 'Usage', page.locator('#usage-chart svg'));
    await assertNoSidewaysScroll(t, page, 'Usage');
    const chart = page.locator('#usage-chart');
    const [chartScroll, chartWidth] = await chart.evaluate((box) => [box.scrollWidth, box.clientWidth]);
    t.true(chartScroll <= chartWidth, `the chart is ${chartScroll} px wide in a ${chartWidth} px box`);
    await assertOnScreen(t, chart.locator('svg'), 'the usage chart');
    await assertOnScreen(t, chart.locator(`g.day[data-day="${TODAY}"] rect`).first(), "today's bar");
    t.is(await chart.locator('g.day').count(), 30, 'a bar for each day of November');
    await assertOnScreen(t, chart.locator('text.axis-label').last().filter({ hasText: /^30$/ }), "the month's last day's label");
    await assertRowsOnScreen(t, page.locator('#key-usage-table'), 'requests per key');
    await screenshot(page, 'phone-usage');

    await open(page, 'Billing', page.locator('.plan'));
    await assertNoSidewaysScroll(t, page, 'Billing');

    await open(page, 'Team', page.locator('#invitations-table tbody tr'));
    await assertNoSidewaysScroll(t, page, 'Team');
    await assertOnScreen(t, page.locator('#members-table .member-email', { hasText: LONG_EMAIL }), 'the long member email');
    await assertOnScreen(t, page.locator('#invitations-table .accepted-by', { hasText: LONG_EMAIL }), 'the long accepting email');
    const invitations = page.locator('#invitations-table');
    const [revokeInvitation] = await assertRowsOnScreen(t, invitations, 'Invitations');
    t.truthy(revokeInvitation, 'the pending invitation has a Revoke button');
    await revokeInvitation!.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke invitation' }).click();
    await invitations.locator('tbody tr[data-status="pending"]').waitFor({ state: 'detached' });
    await assertOnScreen(t, invitations.locator('.status.revoked'), 'the revoked invitation’s status');
    await screenshot(page, 'phone-team');

    await open(page, 'Map playground', page.locator('#playground-style option'));
    await assertNoSidewaysScroll(t, page, 'Map playground');
    await assertOnScreen(t, page.getByRole('combobox', { name: 'API key', exact: true }), 'the key picker');
    await assertOnScreen(t, page.getByRole('button', { name: 'Show map' }), 'the Show map button');
  } finally {
    await page.context().close();
  }
}

/** At 1280 px the long email wraps inside its cell: nothing is cut off, and its title holds it whole. */
async function desktopTeam(fixture: Fixture): Promise<void> {
  const { t, server, owner } = fixture;
  const page = await newPage(fixture, owner, DESKTOP);
  try {
    await page.goto(`${server.url}/dashboard/#team`);
    await page.locator('#invitations-table tbody tr').first().waitFor();
    await assertNoSidewaysScroll(t, page, 'Team at 1280 px');
    await screenshot(page, 'desktop-team');
    for (const cell of [
      page.locator('#members-table .member-email', { hasText: LONG_EMAIL }),
      page.locator('#invitations-table .accepted-by', { hasText: LONG_EMAIL }),
    ]) {
      const fit = await cell.evaluate((td) => {
        const card = td.closest('.table-card')!;
        const email = td.querySelector('.email')!;
        return {
          cell: [td.scrollWidth, td.clientWidth],
          card: [card.scrollWidth, card.clientWidth],
          text: email.textContent,
          title: email.getAttribute('title'),
        };
      });
      t.true(fit.cell[0]! <= fit.cell[1]!, `the email's cell overflows: ${fit.cell}`);
      t.true(fit.card[0]! <= fit.card[1]!, `the table overflows its card: ${fit.card}`);
      t.is(fit.text, LONG_EMAIL);
      t.is(fit.title, LONG_EMAIL);
    }
  } finally {
    await page.context().close();
  }
}

/** The playground in a fresh tab: the styles before any key; a picker of the member's Maps keys. */
async function playground(fixture: Fixture, newcomer: Account): Promise<void> {
  const { t, server, owner } = fixture;
  const styleNames = STYLES.map((style) => style.name);
  const notice = (page: Page) => page.locator('#playground-no-key');

  // Without any key: the styles, no picker, and a notice that asks for a key as things are.
  const fresh = await newPage(fixture, newcomer, DESKTOP);
  try {
    await fresh.goto(`${server.url}/dashboard/#playground`);
    await notice(fresh).waitFor();
    t.deepEqual(await fresh.locator('#playground-style option').allInnerTexts(), styleNames);
    t.false(await fresh.locator('#playground-key-choice').isVisible(), 'no key picker');
    t.true(await fresh.getByRole('textbox', { name: 'API key', exact: true }).isVisible(), 'the field to paste a key');
    t.regex(await notice(fresh).innerText(), /needs an API key with the Maps scope, and none of the keys listed for you/);
  } finally {
    await fresh.context().close();
  }

  // With keys made elsewhere: the picker lists them; this tab does not know their values, and says so.
  const page = await newPage(fixture, owner, DESKTOP);
  try {
    await page.goto(`${server.url}/dashboard/#playground`);
    await notice(page).waitFor();
    t.deepEqual(await page.locator('#playground-style option').allInnerTexts(), styleNames);
    const picker = page.getByRole('combobox', { name: 'API key', exact: true });
    const choices = await picker.locator('option').allInnerTexts();
    t.deepEqual(
      choices.map((choice) => choice.replace(/ \(.*\)$/, '')),
      ['Maps key', 'Old key', 'Another key: paste its value'],
      'the active Maps keys, newest first',
    );
    t.true(await page.getByLabel('Value of “Maps key”').isVisible());
    t.regex(await notice(page).innerText(), /has not seen the value of “Maps key”/);
    t.false(await page.locator('#playground-map').isVisible());

    // A key created in this tab is chosen and known: no field to fill. Choosing it again shows its map.
    await open(page, 'API Keys', page.locator('#keys-table tbody tr'));
    await page.getByLabel('Name', { exact: true }).fill('Made here');
    await page.getByRole('button', { name: 'Create key' }).click();
    const value = await page.locator('#new-key-value').filter({ hasText: /^wmk_/ }).innerText();
    await open(page, 'Map playground', page.locator('#playground-key-choice option'));
    await page.waitForFunction((expected) => (globalThis as any).document.querySelector('#playground-key').value === expected, value);
    t.false(await page.locator('#playground-key').isVisible(), 'a known value needs no field');
    // The notice goes once the maps API has taken the key, a request after the value is set.
    await notice(page).waitFor({ state: 'hidden' });
    await picker.selectOption({ label: (await picker.locator('option', { hasText: 'Old key' }).innerText()).trim() });
    await page.getByLabel('Value of “Old key”').waitFor();
    t.is(await page.locator('#playground-key').inputValue(), '', 'the other key’s value is not offered for this one');
    t.regex(await notice(page).innerText(), /has not seen the value of “Old key”/);
    await picker.selectOption({ label: 'Another key: paste its value' });
    await page.getByLabel('Key value', { exact: true }).waitFor();
    t.regex(await notice(page).innerText(), /^Paste the value of a key with the Maps scope into the field above/);

    // The test server has no dataset (its tiles and icons answer 503): the style loaded with the chosen
    // key, and MapLibre's canvas, are the map here; test/maps.browser.test.ts draws one with data.
    const style = page.waitForResponse((response) => response.url().includes(`/style.json?key=${value}`));
    await picker.selectOption({ label: (await picker.locator('option', { hasText: 'Made here' }).innerText()).trim() });
    t.is((await style).status(), 200, 'the style loads with the chosen key');
    await page.locator('#playground-map canvas').waitFor();
    t.false(await notice(page).isVisible());
    // Without a dataset the page says so in words, never with the key (MapLibre's errors name the URL
    // they fetched); and why there is no 3D terrain, visible on a phone, not only as a hover title.
    const status = page.locator('#playground-status');
    const noDataset =
      "Map error (503): no dataset has been imported yet: the operator must run `waymark import` on this server's data folder";
    await status.filter({ hasText: noDataset }).waitFor();
    const terrainNote = page.locator('#playground-terrain-note');
    await terrainNote.filter({ hasText: 'No 3D terrain: there is no map data yet.' }).waitFor();
    await page.setViewportSize(PHONE);
    await assertOnScreen(t, terrainNote, 'the note on 3D terrain');
    await page.setViewportSize(DESKTOP);
    // While the first import runs (its lock held: by this process, here), the status says so.
    // A new map (a page loaded again, the key pasted), whose style asks for the tiles again.
    const showAgain = async () => {
      await page.reload();
      await picker.locator('option').first().waitFor({ state: 'attached' });
      await picker.selectOption({ label: 'Another key: paste its value' });
      await page.getByLabel('Key value', { exact: true }).fill(value);
      await page.getByRole('button', { name: 'Show map' }).click();
    };
    const release = takeImportLock(server.dataDir);
    try {
      await showAgain();
      await status.filter({ hasText: /^Map error \(503\): the first dataset is being imported \(waymark import, pid \d+/ }).waitFor();
    } finally {
      release();
    }
    t.false((await status.innerText()).includes(value), 'the key is not shown');
    await screenshot(page, 'playground-first-import');
    // A dataset without elevation: the note says so, and what the operator does.
    await writeTestDataset(server.dataDir, 'flat-1');
    server.datasets.reload();
    await showAgain();
    await terrainNote
      .filter({
        hasText:
          'No 3D terrain: the served dataset has no elevation data: the operator must import DEMs (waymark import --dem FILE_OR_DIR).',
      })
      .waitFor();
  } finally {
    await page.context().close();
  }
}

browserTest('the dashboard fits a phone, keeps long emails whole and lists the playground styles without a key', async (t, browser) => {
  const server = await startTestServer({ now: `${TODAY}T12:00:00Z` });
  try {
    const owner = await server.signUp('ada@example.com', 'Analytical Engines Ltd');
    await server.createKey(owner, { name: 'Old key', scopes: ['maps'] });
    await server.createKey(owner, { name: 'Geocoding key', scopes: ['geocoding'] });
    const { value } = await server.createKey(owner, { name: 'Maps key', scopes: ['maps', 'routing'] });
    await server.createKey(owner, { name: 'Spare key', scopes: ['routing'] });
    // Requests today, so that today's bar has a height.
    for (let i = 0; i < 3; i++) t.is((await fetch(`${server.url}/api/v1/test/maps?key=${value}`)).status, 200);
    const invitation = await server.dashboard(owner, 'POST', '/invitations', {});
    const { token } = (await invitation.json()) as { token: string };
    const joined = await fetch(`${server.url}/dashboard/api/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: LONG_EMAIL, password: 'correct horse battery', invitation: token }),
    });
    t.is(joined.status, 201, 'the invitation is accepted');
    t.is((await server.dashboard(owner, 'POST', '/invitations', {})).status, 201, 'a pending invitation');
    const newcomer = await server.signUp('grace@example.com', 'Compilers Inc');

    const fixture = { t, browser, server, owner };
    await phonePages(fixture);
    await desktopTeam(fixture);
    await playground(fixture, newcomer);
  } finally {
    await server.close();
  }
});
