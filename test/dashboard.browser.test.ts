/**
 * The dashboard in a real browser (headless Chromium driven by playwright-core), used the way a
 * person would: sign up, create and copy a key, watch its usage, upgrade, revoke, sign out and in;
 * the map playground's choice of key; errors cleared by a later success; the favicon.
 * Screenshots go to test-artifacts/dashboard/.
 */
import type { ExecutionContext } from 'ava';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { TIER_LABELS, TIER_PRICES_USD, TIER_QUOTAS } from '../src/control-plane/tiers.js';
import { SERVICES, type Tier } from '../src/control-plane/types.js';
import { browserTest, policyViolations, signedInContext } from './helpers/browser.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'dashboard');
const EMAIL = 'ada@example.com';
const PASSWORD = 'correct horse battery';

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

async function geocodeStatus(server: TestServer, key: string): Promise<number> {
  const res = await fetch(`${server.url}/api/v1/test/geocoding?key=${encodeURIComponent(key)}`);
  await res.arrayBuffer();
  return res.status;
}

/** The "used / limit" figure on a service card of the Usage area, e.g. "3 / 5,000". */
async function usageFigure(page: Page, service: string): Promise<string> {
  return (await page.locator(`.service-card[data-service="${service}"] .usage-figure`).innerText()).replace(/\s+/g, ' ').trim();
}

async function dashboardJourney(t: ExecutionContext, browser: Browser, server: TestServer): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (error) => t.fail(`page error: ${error.message}`));
  const refused = policyViolations(page);

  // Sign up.
  await page.goto(`${server.url}/dashboard/`);
  await page.getByRole('heading', { name: 'Sign in to Waymark' }).waitFor();
  await screenshot(page, '01-sign-in');
  await page.getByRole('tab', { name: 'Create account' }).click();
  const signUpForm = page.locator('#signup-form');
  await signUpForm.getByLabel('Email').fill(EMAIL);
  await signUpForm.getByLabel('Password').fill(PASSWORD);
  await signUpForm.getByLabel('Organization').fill('Analytical Engines Ltd');
  await signUpForm.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'API Keys' }).waitFor();
  t.is(await page.locator('#account-email').innerText(), EMAIL);
  t.is(await page.locator('#account-org').innerText(), 'Analytical Engines Ltd');

  // Create a key: all three scopes are checked by default; the value is shown once.
  for (const scope of ['Maps', 'Geocoding', 'Routing']) t.true(await page.getByRole('checkbox', { name: scope }).isChecked(), scope);
  await page.getByLabel('Name', { exact: true }).fill('Production server');
  await page.getByRole('button', { name: 'Create key' }).click();
  const valueBox = page.locator('#new-key-value');
  await valueBox.waitFor();
  const value = await valueBox.innerText();
  t.regex(value, /^wmk_[0-9A-Za-z]{38}$/);
  t.regex(await page.locator('#new-key .warning').innerText(), /will not be shown again/);
  await page.getByRole('button', { name: 'Copy' }).click();
  await page
    .locator('#new-key .copy-status')
    .filter({ hasText: /copied|selected/i })
    .waitFor();
  await screenshot(page, '02-key-created');

  // After a reload the list shows only the hint, and the value is nowhere in the page.
  await page.reload();
  const row = page.locator('#keys-table tbody tr', { hasText: 'Production server' });
  await row.waitFor();
  t.false(await page.locator('#new-key').isVisible());
  const hint = await row.locator('code.hint').innerText();
  t.is(hint, `${value.slice(0, 8)}…${value.slice(-4)}`);
  t.false((await page.content()).includes(value));
  t.regex(await row.innerText(), /Maps\s+Geocoding\s+Routing/);
  t.regex(await row.locator('.key-status').innerText(), /active/i);
  t.regex(await row.innerText(), /Never/);
  await screenshot(page, '03-keys-list');

  // Use the key from outside the browser.
  for (let i = 0; i < 3; i++) t.is(await geocodeStatus(server, value), 200);

  // Usage: per service against the Free quotas, the daily chart and the per-key table.
  await page.getByRole('link', { name: 'Usage' }).click();
  await page.getByRole('heading', { name: 'Usage' }).waitFor();
  await page.locator('.service-card[data-service="geocoding"] .used').filter({ hasText: '3' }).waitFor();
  t.is(await usageFigure(page, 'geocoding'), '3 / 5,000');
  t.is(await usageFigure(page, 'maps'), '0 / 10,000');
  t.is(await usageFigure(page, 'routing'), '0 / 5,000');
  t.is(await page.locator('.daily-chart .day').count(), 30);
  t.is(await page.locator('.daily-chart .day[data-day="2026-11-15"] rect.bar-geocoding').getAttribute('data-count'), '3');
  const keyUsage = page.locator('#key-usage-table tbody tr', { hasText: 'Production server' });
  t.is(await keyUsage.locator('td[data-service="geocoding"]').innerText(), '3');
  t.is(await keyUsage.locator('td[data-service="maps"]').innerText(), '0');
  await screenshot(page, '04-usage');

  // Billing, opened by a fresh load of the link the 429 message points at: Free is current; upgrade to Pro.
  await page.goto('about:blank');
  await page.goto(`${server.url}/dashboard/#billing`);
  await page.getByRole('heading', { name: 'Billing' }).waitFor();
  t.is(await page.locator('.plan.current').getAttribute('data-tier'), 'free');
  t.regex(await page.locator('.plan[data-tier="pro"]').innerText(), /\$49 per month/);
  t.regex(await page.locator('.plan[data-tier="enterprise"]').innerText(), /Contact us/);
  t.is(await page.locator('.plan[data-tier="enterprise"] button').count(), 0);
  t.is(await page.locator('#current-quotas dd[data-service="maps"]').innerText(), '10,000 per month');
  await screenshot(page, '05-billing-free');
  // The switch asks first, saying what changes: cancelled, nothing does; confirmed, the plan changes.
  await page.getByRole('button', { name: 'Switch to Pro' }).click();
  const planDialog = page.getByRole('dialog', { name: 'Switch to Pro?' });
  await planDialog.waitFor();
  t.is(
    await planDialog.locator('#confirm-message').innerText(),
    "Your organization moves from Free (free) to Pro ($49 per month) now. Its monthly quotas become 500,000 maps, 100,000 geocoding, 100,000 routing requests, for this month's usage too.",
  );
  await screenshot(page, '05-billing-confirm');
  await planDialog.getByRole('button', { name: 'Cancel' }).click();
  await planDialog.waitFor({ state: 'hidden' });
  t.is(await page.locator('.plan.current').getAttribute('data-tier'), 'free');
  t.is(await page.locator('#account-tier').innerText(), 'FREE', 'cancelled: the plan is unchanged');
  await page.getByRole('button', { name: 'Switch to Pro' }).click();
  await planDialog.getByRole('button', { name: 'Switch to Pro' }).click();
  await page.locator('.plan.current[data-tier="pro"]').waitFor();
  t.is(await page.locator('#current-quotas dd[data-service="maps"]').innerText(), '500,000 per month');
  t.is(await page.locator('#current-quotas dd[data-service="geocoding"]').innerText(), '100,000 per month');
  t.is(await page.locator('#current-quotas dd[data-service="routing"]').innerText(), '100,000 per month');
  t.is(await page.locator('#account-tier').innerText(), 'PRO');
  await screenshot(page, '06-billing-pro');
  const proResponse = await fetch(`${server.url}/api/v1/test/geocoding?key=${value}`);
  t.is(proResponse.headers.get('x-ratelimit-limit'), '100000');

  await page.getByRole('link', { name: 'Usage' }).click();
  await page.locator('.service-card[data-service="geocoding"] .limit').filter({ hasText: '100,000' }).waitFor();
  t.is(await usageFigure(page, 'geocoding'), '4 / 100,000');
  t.is(await usageFigure(page, 'maps'), '0 / 500,000');

  // Revoke through the confirmation dialog: cancelling keeps the key, confirming revokes it.
  await page.getByRole('link', { name: 'API Keys' }).click();
  const revoke = row.getByRole('button', { name: 'Revoke key Production server' });
  await revoke.click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  t.regex(await dialog.innerText(), /stop working immediately/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  t.regex(await row.locator('.key-status').innerText(), /active/i);
  t.is(await geocodeStatus(server, value), 200);

  await revoke.click();
  await dialog.waitFor();
  await screenshot(page, '07-revoke-dialog');
  await dialog.getByRole('button', { name: 'Revoke key' }).click();
  await row.locator('.status.revoked').waitFor();
  t.regex(await row.locator('.key-status').innerText(), /revoked/i);
  t.is(await row.getByRole('button', { name: /Revoke/ }).count(), 0);
  t.is(await geocodeStatus(server, value), 401);
  await screenshot(page, '08-key-revoked');

  // Sign out, fail once with a wrong password, then sign back in.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in to Waymark' }).waitFor();
  await page.reload();
  const signInForm = page.locator('#signin-form');
  await signInForm.waitFor();
  await signInForm.getByLabel('Email').fill(EMAIL);
  await signInForm.getByLabel('Password').fill('not the password');
  await signInForm.getByRole('button', { name: 'Sign in' }).click();
  await signInForm.locator('.form-error').filter({ hasText: 'wrong email or password' }).waitFor();
  await screenshot(page, '09-wrong-password');
  await signInForm.getByLabel('Password').fill(PASSWORD);
  await signInForm.getByRole('button', { name: 'Sign in' }).click();
  await row.waitFor();
  t.is(await page.locator('#account-email').innerText(), EMAIL);
  t.regex(await row.locator('.key-status').innerText(), /revoked/i);
  t.false((await page.content()).includes(value));
  await screenshot(page, '10-signed-in-again');

  // An operator moves the organization to Enterprise with a custom maps quota: the rest is unlimited.
  const orgId = await page.evaluate(async () => {
    const me = (await (await fetch('/dashboard/api/me')).json()) as { organization: { id: string } };
    return me.organization.id;
  });
  await server.store.setTier(orgId, 'enterprise', { maps: 2_000_000 });
  await page.goto(`${server.url}/dashboard/#usage`);
  await page.locator('.service-card[data-service="geocoding"] .limit').filter({ hasText: 'unlimited' }).waitFor();
  t.is(await usageFigure(page, 'geocoding'), '5 / unlimited');
  t.is(await usageFigure(page, 'maps'), '0 / 2,000,000');
  t.is(await page.locator('#account-tier').innerText(), 'ENTERPRISE');
  await screenshot(page, '11-usage-enterprise');
  await page.getByRole('link', { name: 'Billing' }).click();
  await page.locator('.plan.current[data-tier="enterprise"]').waitFor();
  t.is(await page.locator('#current-quotas dd[data-service="routing"]').innerText(), 'unlimited per month');
  t.deepEqual(refused, [], 'the dashboard keeps to its Content-Security-Policy');
}

browserTest('a person uses the dashboard end to end in a real browser', async (t, browser) => {
  const server = await startTestServer();
  try {
    await dashboardJourney(t, browser, server);
  } finally {
    await server.close();
  }
});

/** Creates a key with the key form as it stands (after `scopes`, when given, are chosen); returns its value. */
async function createKeyInForm(page: Page, name: string, scopes?: string[]): Promise<string> {
  await page.getByRole('link', { name: 'API Keys' }).click();
  const form = page.locator('#create-key-form');
  await form.getByLabel('Name', { exact: true }).fill(name);
  for (const scope of scopes ? ['Maps', 'Geocoding', 'Routing'] : [])
    await form.getByRole('checkbox', { name: scope }).setChecked(scopes!.includes(scope));
  await form.getByRole('button', { name: 'Create key' }).click();
  await page.locator('#new-key-name').filter({ hasText: name }).waitFor();
  return page.locator('#new-key-value').innerText();
}

async function revokeKey(page: Page, name: string): Promise<void> {
  await page.getByRole('link', { name: 'API Keys' }).click();
  const row = page.locator('#keys-table tbody tr', { hasText: name });
  await row.getByRole('button', { name: `Revoke key ${name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
  await row.locator('.status.revoked').waitFor();
}

/** Opens the playground and waits until it has filled in `value` ('' for none, when it asks for a key instead). */
async function playgroundFillsIn(page: Page, value: string): Promise<void> {
  await page.getByRole('link', { name: 'Map playground', exact: true }).click();
  await page.waitForFunction((expected) => (globalThis as any).document.querySelector('#playground-key').value === expected, value);
  if (value === '') await page.locator('#playground-no-key').waitFor();
  else await page.locator('#playground-style option').first().waitFor({ state: 'attached' });
}

browserTest('the map playground fills in only an active key with the Maps scope, and otherwise asks for one', async (t, browser) => {
  const server = await startTestServer();
  const context = await signedInContext(browser, server.url, (await server.signUp()).cookie, { viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => t.fail(`page error: ${error.message}`));
    await page.goto(`${server.url}/dashboard/#keys`);

    // A key without the Maps scope is never filled in: the playground asks for one instead.
    await createKeyInForm(page, 'Geocoding only', ['Geocoding']);
    await playgroundFillsIn(page, '');
    const noKey = page.locator('#playground-no-key');
    t.regex(await noKey.innerText(), /needs an API key with the Maps scope/);
    await screenshot(page, 'playground-no-key');

    // Its button leads to a key form set up for the playground; the new key offers the playground.
    await noKey.getByRole('link', { name: 'Create a key with the Maps scope' }).click();
    const form = page.locator('#create-key-form');
    t.is(await form.getByLabel('Name', { exact: true }).inputValue(), 'Map playground');
    t.deepEqual(
      await Promise.all(['Maps', 'Geocoding', 'Routing'].map((scope) => form.getByRole('checkbox', { name: scope }).isChecked())),
      [true, false, false],
    );
    await form.getByRole('button', { name: 'Create key' }).click();
    const playgroundValue = await page.locator('#new-key-value').filter({ hasText: /^wmk_/ }).innerText();
    await page.getByRole('link', { name: 'Try it in the map playground' }).click();
    await page.waitForFunction(
      (expected) => (globalThis as any).document.querySelector('#playground-key').value === expected,
      playgroundValue,
    );
    await page.locator('#playground-style option').first().waitFor({ state: 'attached' });
    // The notice goes once the maps API has taken the key, a request after the value is set.
    await noKey.waitFor({ state: 'hidden' });

    // The newest usable key wins; when it is revoked, the playground falls back to an older one.
    const allScopes = await createKeyInForm(page, 'All scopes');
    await playgroundFillsIn(page, allScopes);
    await revokeKey(page, 'All scopes');
    await playgroundFillsIn(page, playgroundValue);

    // With every Maps key revoked: no key, no map, no error — the prompt for a key.
    await revokeKey(page, 'Map playground');
    await playgroundFillsIn(page, '');
    t.false(await page.locator('#banner').isVisible(), `banner: ${await page.locator('#banner').innerText()}`);
    t.not(await page.locator('#playground-status').getAttribute('data-kind'), 'error');
    t.false(await page.locator('#playground-map').isVisible());
    await screenshot(page, 'playground-keys-revoked');
  } finally {
    await context.close();
    await server.close();
  }
});

browserTest('a later successful action clears every error shown before', async (t, browser) => {
  const server = await startTestServer();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    page.on('pageerror', (error) => t.fail(`page error: ${error.message}`));
    const formErrors = () => page.locator('.form-error').allInnerTexts();

    // A failed sign-in, then a sign-up in the other tab: after signing out the sign-in form is clean.
    await page.goto(`${server.url}/dashboard/`);
    const signInForm = page.locator('#signin-form');
    await signInForm.getByLabel('Email').fill(EMAIL);
    await signInForm.getByLabel('Password').fill('not the password');
    await signInForm.getByRole('button', { name: 'Sign in' }).click();
    await signInForm.locator('.form-error').filter({ hasText: 'wrong email or password' }).waitFor();
    await page.getByRole('tab', { name: 'Create account' }).click();
    const signUpForm = page.locator('#signup-form');
    await signUpForm.getByLabel('Email').fill(EMAIL);
    await signUpForm.getByLabel('Password').fill(PASSWORD);
    await signUpForm.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'API Keys' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('tab', { name: 'Sign in' }).click();
    await signInForm.waitFor();
    t.deepEqual((await formErrors()).filter(Boolean), []);
    await signInForm.getByLabel('Email').fill(EMAIL);
    await signInForm.getByLabel('Password').fill(PASSWORD);
    await signInForm.getByRole('button', { name: 'Sign in' }).click();

    // A key form error, then a revocation that works: the form error goes.
    await createKeyInForm(page, 'First key');
    const keyForm = page.locator('#create-key-form');
    for (const scope of ['Maps', 'Geocoding', 'Routing']) await keyForm.getByRole('checkbox', { name: scope }).uncheck();
    await keyForm.getByRole('button', { name: 'Create key' }).click();
    await keyForm.locator('.form-error').filter({ hasText: 'Choose at least one scope.' }).waitFor();
    await revokeKey(page, 'First key');
    t.deepEqual((await formErrors()).filter(Boolean), []);

    // An error in the banner (a failed refresh), then a refresh that works: the banner error goes.
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.locator('.service-card').first().waitFor();
    const unavailable = { statusCode: 503, error: 'Service Unavailable', message: 'usage is resting' };
    await page.route('**/dashboard/api/usage', (route) => route.fulfill({ status: 503, json: unavailable }), { times: 1 });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.locator('#banner.error').filter({ hasText: 'usage is resting' }).waitFor();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.locator('#banner').waitFor({ state: 'hidden' });
    t.pass();
  } finally {
    await page.close();
    await server.close();
  }
});

browserTest("the billing page's plan table is the server's: tiers.ts's labels, prices and quotas", async (t, browser) => {
  const server = await startTestServer();
  const context = await signedInContext(browser, server.url, (await server.signUp()).cookie);
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => t.fail(`page error: ${error.message}`));
    await page.goto(`${server.url}/dashboard/#billing`);
    await page.locator('.plan').first().waitFor();
    const shown = [];
    for (const card of await page.locator('.plan').all()) {
      shown.push({
        tier: await card.getAttribute('data-tier'),
        label: await card.locator('h2').textContent(),
        price: await card.locator('.price').textContent(),
        quotas: await card.locator('.plan-quotas strong').allTextContents(),
      });
    }
    // Enterprise quotas are the operator's to set per organization: its card lists none.
    const expected = (Object.keys(TIER_QUOTAS) as Tier[]).map((tier) => ({
      tier,
      label: TIER_LABELS[tier],
      price: TIER_PRICES_USD[tier] === null ? 'Custom pricing' : `$${TIER_PRICES_USD[tier]} per month`,
      quotas: SERVICES.flatMap((s) => TIER_QUOTAS[tier][s]?.toLocaleString('en-US') ?? []),
    }));
    t.deepEqual(shown, expected);
  } finally {
    await context.close();
    await server.close();
  }
});

browserTest('the dashboard has a favicon, and /favicon.ico answers with an icon', async (t, browser) => {
  const server = await startTestServer();
  const page = await browser.newPage();
  try {
    await page.goto(`${server.url}/dashboard/`);
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    const svg = await page.request.get(new URL(href!, server.url).href);
    t.is(svg.status(), 200);
    t.is(svg.headers()['content-type'], 'image/svg+xml');

    const ico = await page.goto(`${server.url}/favicon.ico`);
    t.is(ico?.status(), 200);
    t.is(ico?.headers()['content-type'], 'image/x-icon');
    const bytes = await ico!.body();
    t.deepEqual([...bytes.subarray(0, 4)], [0, 0, 1, 0], 'an ICO header');
    const images = bytes.readUInt16LE(4);
    t.true(images >= 1);
    const first = bytes.readUInt32LE(6 + 12);
    t.is(bytes.subarray(first + 1, first + 4).toString('latin1'), 'PNG', 'the icon holds PNG images');
    // Chromium decodes it as an image.
    const width = await page.evaluate<number>('document.images[0]?.naturalWidth ?? 0');
    t.true(width > 0, 'Chromium shows the icon');
    await screenshot(page, 'favicon');
  } finally {
    await page.close();
    await server.close();
  }
});
