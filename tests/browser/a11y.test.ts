import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectNoAxeViolations } from './helpers/axe';
import {
  buildURL,
  launchBrowser,
  viewports,
  type BrowserSession,
  type ViewportName,
} from './helpers/browser';
import { routes, spanishRoutes } from './helpers/routes';

/*
 * The pages as the production build serves them (global-setup.ts: the built pages from dist/, the on-demand pages
 * and the API passed on to the dev server): the markup visitors get, with bundled scripts, so a page's load and
 * hydration is not the dev server's module-by-module transform (docs/decisions/163-tests.md, "Less work per check").
 */
let browser: BrowserSession;
beforeAll(async () => {
  browser = await launchBrowser({ baseURL: buildURL });
});
afterAll(async () => {
  await browser?.close();
});

// Stub social links so the footer icons are part of what axe checks.
const socialLinks = {
  links: [
    { id: '1', platform: 'facebook', url: 'https://facebook.com/example', handle: 'ExampleCampaign' },
    { id: '2', platform: 'youtube', url: 'https://youtube.com/@example', handle: '' },
  ],
};

const widths = Object.keys(viewports) as ViewportName[];

/**
 * Where each route is checked: the reset page as a reset email's link opens it (with a token).
 * Without one it shows "Invalid Reset Link" and leaves for /admin 1.5 s later, which on a busy
 * machine came in the middle of the check (public-auth.test.ts tests that state).
 */
const address = (path: string) => (path === '/reset-password' ? `${path}?token=a11y-check` : path);

describe('accessibility (axe, WCAG 2.2 A/AA)', () => {
  // One load per route, checked at each width in turn (the layout is CSS media queries, so resizing
  // the page shows what a phone gets; the drawer tests below open the phone menu itself).
  it.each([...routes, ...spanishRoutes])(
    `$path has no violations at ${widths.join(' and ')} width`,
    async ({ path }) => {
      const page = await browser.newPage(widths[0]);
      await page.route('**/api/social-media-links', (route) => route.fulfill({ json: socialLinks }));
      await page.goto(address(path));
      await page.locator('footer [data-social-links] a').first().waitFor();
      for (const width of widths) {
        await page.setViewportSize(viewports[width]);
        await page.evaluate(() => new Promise(requestAnimationFrame));
        await expectNoAxeViolations(page);
      }
      await page.close();
    },
  );

  it('has no violations with the Spanish mobile drawer open', async () => {
    const page = await browser.newPage('mobile');
    await page.goto('/es/platform');
    await page.getByRole('button', { name: 'Menú', exact: true }).click();
    await page.locator('#nav-drawer[open]').waitFor();
    await expectNoAxeViolations(page);
    await page.close();
  });

  it('has no violations with the mobile drawer open', async () => {
    const page = await browser.newPage('mobile');
    await page.goto('/platform');
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.locator('#nav-drawer[open]').waitFor();
    await expectNoAxeViolations(page);
    await page.close();
  });
});
