import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserSession } from './helpers/browser.ts';
import { cspBrowser, settle, watch } from './helpers/csp.ts';
import { builtPages, oneOfEachTemplate } from './helpers/pages.ts';
import { serveProductionBuild } from './helpers/prod-server.ts';
import { hydrateAll } from './helpers/public.ts';
import { expectSameTemplate } from './helpers/same-template.ts';
import { PROD_BUILD_DONATION_URL } from './global-setup.ts';
import { fallbackMetaPolicy } from '../../src/lib/server/page-policy.ts';

/**
 * The production build's Content-Security-Policy in a real browser: no page,
 * in any state exercised here, triggers a CSP violation. The build was made by
 * the global setup with a donation provider and a Turnstile site key
 * configured, so the donate frame and the real captcha script are allowed or
 * refused by the policy exactly as on the live site. Every page the build wrote,
 * in both languages (helpers/pages.ts); the on-demand pages are in
 * csp-on-demand.test.ts. Violations are collected until the page is idle (helpers/csp.ts). Pages built
 * from one template whose copy alone differs (the forms' outcome pages) are opened once per template and
 * language; every other page of the template has that page's markup, code and served policy.
 */
const address = (path: string) =>
  path === '/reset-password' ? '/reset-password?token=abcdefghijklmnopqrstuvwxyz' : path;
const ALL_BUILT = builtPages().map(address);
const { open: BUILT_PAGES, same: SAME } = oneOfEachTemplate(ALL_BUILT);

let server: Awaited<ReturnType<typeof serveProductionBuild>>;
let browser: BrowserSession;

beforeAll(async () => {
  server = await serveProductionBuild(process.cwd());
  browser = await cspBrowser(server.url);
});
afterAll(async () => {
  await browser.close();
  await server.close();
});

describe('production build: zero CSP violations', () => {
  it('covers every built page in both languages', () => {
    expect(ALL_BUILT.length).toBeGreaterThan(30);
    expect(ALL_BUILT).toContain('/es/forms/volunteer/sent');
    // Every page is opened or held to an opened page of its template: none is left out.
    expect([...BUILT_PAGES, ...SAME.map((s) => s.path)].sort()).toEqual([...ALL_BUILT].sort());
    expect(SAME.map((s) => s.like).filter((p) => !BUILT_PAGES.includes(p))).toEqual([]);
    expect(BUILT_PAGES).toContain('/es/forms/contact/sent');
    expect(SAME.length).toBeGreaterThanOrEqual(30);
  });

  it.each(SAME)('$path is built like $like and served its policy', async ({ path, like }) => {
    expectSameTemplate(path, like);
    const policy = async (p: string) => {
      const res = await fetch(new URL(p, server.url));
      expect(res.status, p).toBe(200);
      return res.headers.get('content-security-policy');
    };
    const served = await policy(like);
    expect(served, like).toMatch(/script-src/);
    expect(await policy(path)).toBe(served);
  });

  it.each(BUILT_PAGES)('%s', async (path) => {
    const { page, violations } = await watch(browser, path);
    expect(violations).toEqual([]);
    // Then the visitor starts on each form: it hydrates (the captcha loads) under the policy too.
    await hydrateAll(page);
    await settle(page);
    expect(violations).toEqual([]);
    await page.close();
  });

  it('the 404 page (any unknown path, both languages) carries the page policy as a <meta>, less what a <meta> cannot', async () => {
    // The build's environment (global-setup.ts): the same directives on-demand pages get in a header.
    const expected = fallbackMetaPolicy({ ...process.env, PUBLIC_DONATION_URL: PROD_BUILD_DONATION_URL });
    expect(expected).toContain(new URL(PROD_BUILD_DONATION_URL).origin);
    expect(expected).not.toMatch(/frame-ancestors/);
    // This server answers unknown paths with dist/404.html; the Spanish page is read at its file's path.
    for (const path of ['/no-such-page', '/es/404']) {
      const { page, violations } = await watch(browser, path);
      const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
      expect(meta, path).toBe(expected);
      expect(violations).toEqual([]);
      await page.close();
    }
  });

  it('/donate with a provider configured: choosing an amount loads the provider frame', async () => {
    const { page, violations } = await watch(browser, '/donate?refcode=email1');
    await page.waitForSelector('[data-donate][data-ready]', { state: 'attached' });
    await page.getByRole('button', { name: /\$50\b/ }).click();
    const frame = page.locator('iframe[src^="https://"]');
    await expect
      .poll(() => frame.getAttribute('src'))
      .toMatch(new RegExp(`^${PROD_BUILD_DONATION_URL.replace(/[.?*+/]/g, '\\$&')}`));
    // The same address on the link under the frame (the form on its own page, and the no-script path).
    const href = new URL((await page.locator('a[data-donate-link]').getAttribute('href'))!);
    expect([href.searchParams.get('amount'), href.searchParams.get('refcode')]).toEqual(['50', 'email1']);
    await settle(page);
    expect(violations).toEqual([]);
    await page.close();
  });

  it('home page after a video is played', async () => {
    const { page, violations } = await watch(browser, '/');
    await page.mouse.wheel(0, -4000);
    await page.locator('.hero-slide[data-slide="0"] .hero-play').click();
    await expect.poll(() => page.locator('iframe[src*="youtube-nocookie.com"]').count()).toBeGreaterThan(0);
    await settle(page);
    expect(violations).toEqual([]);
    await page.close();
  });

  // The home page's text sign-up: the built page with a captcha (/contact is on demand since it lists the events).
  it('/: the captcha loads once the visitor starts on the form, under the policy', async () => {
    const { page, violations } = await watch(browser, '/');
    const captcha = page.locator('iframe[title="captcha"]');
    expect(await captcha.count(), 'no captcha request before the visitor asks').toBe(0);
    await page.getByRole('textbox').first().focus();
    await expect.poll(() => captcha.count()).toBe(1);
    await settle(page);
    expect(violations).toEqual([]);
    await page.close();
  });
});
