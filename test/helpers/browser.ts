/**
 * Real-browser tests in Debian's Chromium through playwright-core. Where Chromium is missing the
 * test is skipped with a message on a plain run, and fails under CI (CI=true).
 */
import test, { type ExecutionContext } from 'ava';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import type { TestServer } from './server.js';

export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function browserTest(title: string, body: (t: ExecutionContext, browser: Browser) => Promise<void>): void {
  if (!existsSync(CHROMIUM)) {
    if (process.env.CI === 'true') {
      test(title, (t) => t.fail(`${CHROMIUM} is missing; scripts/setup.sh installs it (apt-get install chromium)`));
    } else {
      console.warn(`skipping "${title}": ${CHROMIUM} is missing; run scripts/setup.sh (installs chromium)`);
      test.skip(title, () => {});
    }
    return;
  }
  if (!closesAfterFile) {
    closesAfterFile = true;
    test.after.always('the browser closes', async () => void (await (await fileBrowser)?.close()));
  }
  test(title, async (t) => body(t, await (fileBrowser ??= chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }))));
}

/**
 * The file's one Chromium, launched by the first browser test that runs and closed after the
 * file's tests; each test opens contexts of its own in it. A launch costs over a CPU-second.
 */
let fileBrowser: Promise<Browser> | undefined;
let closesAfterFile = false;

/** A browser context signed in to the dashboard with an account's session cookie (`name=value`). */
export async function signedInContext(
  browser: Browser,
  serverUrl: string,
  cookie: string,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  const equals = cookie.indexOf('=');
  await context.addCookies([{ name: cookie.slice(0, equals), value: cookie.slice(equals + 1), url: serverUrl }]);
  return context;
}

/** An Enterprise account with a maps-only key, for the map playground: the key's value and the session cookie. */
export async function playgroundAccount(server: TestServer): Promise<{ key: string; cookie: string }> {
  const account = await server.signUp();
  await server.store.setTier(account.orgId, 'enterprise');
  const key = (await server.createKey(account, { name: 'playground', scopes: ['maps'] })).value;
  return { key, cookie: account.cookie };
}

/** Collects what the page's Content-Security-Policy refused (Chromium reports each as a console error): empty while the page keeps to it. */
export function policyViolations(page: Page): string[] {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  return refused;
}

/** Shows `style` in the map playground of an open dashboard page, with the key `key` (not yet waiting for the map). */
export async function showInPlayground(page: Page, key: string, style: string): Promise<void> {
  await page.locator('#playground-key').fill(key);
  await page.locator('#playground-key').press('Tab'); // a changed key fills the style menu
  await page.locator(`#playground-style option[value="${style}"]`).waitFor({ state: 'attached' });
  await page.locator('#playground-style').selectOption(style);
  await page.getByRole('button', { name: 'Show map' }).click();
}

/**
 * The playground's status once its map is idle (or failed): the playground sets it on MapLibre's
 * `idle` event. `timeout`: the page's default timeout unless given.
 */
export async function playgroundIdleStatus(page: Page, timeout?: number): Promise<string> {
  const status = page.locator('#playground-status');
  await status.filter({ hasText: /^(Showing|Map error)/ }).waitFor({ timeout });
  return status.innerText();
}

/** The status once the map is idle again after `move`: cleared first, it is set on the next idle, so it says the map settled after the move. */
export async function playgroundIdleAfter(page: Page, move: () => Promise<unknown>, timeout?: number): Promise<string> {
  await page.evaluate("(s => { s.textContent = ''; delete s.dataset.kind; })(document.querySelector('#playground-status'))");
  await move();
  return playgroundIdleStatus(page, timeout);
}
