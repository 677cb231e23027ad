import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { PAGE_SCRIPT_SELECTOR } from '../../../src/lib/page-script-loader.mjs';
import { launchBrowser, type BrowserSession } from './browser.ts';
import { hydrateAll, pageScriptReady } from './public.ts';

/* The in-browser CSP checks' browser and page watcher (csp.test.ts, csp-on-demand.test.ts). */

/** A browser context for `base` whose third-party requests are answered locally. */
export async function cspBrowser(base: string): Promise<BrowserSession> {
  const browser = await launchBrowser({ baseURL: base });
  // Offline machine: answer third-party requests locally so pages settle fast.
  // CSP is checked by the browser before any request leaves, so this hides nothing.
  await browser.context.route(/^https:\/\/(?!127\.0\.0\.1)/, (route) =>
    route.request().url().includes('turnstile/v0/api.js')
      ? route.fulfill({
          status: 200,
          contentType: 'text/javascript',
          // A stand-in widget: renders an iframe from the captcha origin, as the real one does.
          body: `window.turnstile = { render(el) { const f = document.createElement('iframe'); f.title = 'captcha'; f.src = 'https://challenges.cloudflare.com/cdn-cgi/challenge-platform/stub'; el.appendChild(f); return 'w1'; }, reset() {}, remove() {} };`,
        })
      : route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>stub</title>' }),
  );
  return browser;
}

/** Requests in flight per page (every frame's, the captcha's cross-origin frame too), and when the last ended. */
const inFlight = new WeakMap<Page, { open: Set<unknown>; quietSince: number }>();

function track(page: Page): void {
  const state = { open: new Set<unknown>(), quietSince: Date.now() };
  inFlight.set(page, state);
  page.on('request', (r) => state.open.add(r));
  const done = (r: unknown) => {
    state.open.delete(r);
    if (state.open.size === 0) state.quietSince = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
}

/** How long no request may be in flight before the page counts as idle (Playwright's networkidle uses the same). */
const QUIET_MS = 500;

/**
 * Waits until the page is idle: no request in flight for 500 ms (counted here, across every frame:
 * Playwright's own networkidle never comes for a page with a cross-origin frame in the headless
 * shell), then an idle period of the main thread (requestIdleCallback: no task pending).
 * Violations are collected until then, not for a set time.
 */
export async function settle(page: Page): Promise<void> {
  const state = inFlight.get(page);
  if (!state) throw new Error('settle(): the page was not opened by watch()');
  await expect
    .poll(() => state.open.size === 0 && Date.now() - state.quietSince >= QUIET_MS, { interval: 100 })
    .toBe(true);
  await page.evaluate(() => new Promise<void>((r) => requestIdleCallback(() => r(), { timeout: 5_000 })));
}

/** Opens a page and records every CSP violation (event and console report) until it is idle. */
export async function watch(
  browser: BrowserSession,
  path: string,
): Promise<{ page: Page; violations: string[] }> {
  const page = await browser.newPage();
  track(page);
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(`console: ${msg.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(
        `Content Security Policy violation: ${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  const res = await page.goto(path, { waitUntil: 'load' });
  // Every page has a script policy: the header, or (the 404 page, served for any path) a <meta>.
  const header = res?.headers()['content-security-policy'] ?? '';
  const meta = await page.evaluate(
    () =>
      document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? null,
  );
  expect(`${header} ${meta ?? ''}`, `${path} has a script-src policy`).toMatch(/script-src 'self'/);
  expect(`${header} ${meta ?? ''}`).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  // Islands that hydrate without the visitor have (brought into view for client:visible), and the
  // scripts after the load event have run. Forms hydrate on first use: each test decides.
  await hydrateAll(page, { forms: false });
  await page.waitForFunction(() => document.readyState === 'complete');
  // The layout's page script, fetched by the inline loader (allowed by its hash), has run.
  if (await page.locator(PAGE_SCRIPT_SELECTOR).count()) await pageScriptReady(page);
  await settle(page);
  return { page, violations };
}
