import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './helpers/axe';
import { baseURL, launchBrowser, viewports, type BrowserSession, type ViewportName } from './helpers/browser';
import {
  builtPages,
  fillBlogArchive,
  oneOfEachTemplate,
  onDemandPages,
  pageFacts,
  STAFF_ONLY,
} from './helpers/pages';
import { routes, spanishRoutes } from './helpers/routes';
import { expectSameTemplate } from './helpers/same-template';
import { login } from './helpers/staff';

/*
 * axe (WCAG 2.2 A/AA) at desktop and mobile width on every page a11y.test.ts does not already load:
 * every other page the build wrote (the forms' outcome pages in both languages) and every on-demand
 * page in both languages in each of its states (an article, an event, /blog/page/N, the refused form
 * pages, /rsvp/cancel, the staff preview), from the one list in helpers/pages.ts. A file of its own,
 * so it runs beside a11y.test.ts (docs/decisions/163-tests.md). Pages built from one template whose copy
 * alone differs (the forms' outcome pages) are opened once per template and language; every other page
 * of the template is held to that page's markup and code (helpers/same-template.ts).
 */

const staff = await login('admin');
await fillBlogArchive(baseURL, staff.cookie);
const facts = await pageFacts(baseURL, staff.cookie);
const checked = new Set([...routes, ...spanishRoutes].map((r) => r.path));
const ALL = [...new Set([...builtPages(), ...onDemandPages(facts)])].filter((p) => !checked.has(p));
const { open: PAGES, same: SAME } = oneOfEachTemplate(ALL);

let browser: BrowserSession;
beforeAll(async () => {
  browser = await launchBrowser();
  // The staff preview needs the session in the browser.
  await browser.context.addCookies(
    staff.cookie.split('; ').map((pair) => {
      const i = pair.indexOf('=');
      return { name: pair.slice(0, i), value: pair.slice(i + 1), url: baseURL };
    }),
  );
});
afterAll(async () => {
  await browser?.close();
});

const widths = Object.keys(viewports) as ViewportName[];

describe('accessibility (axe, WCAG 2.2 A/AA) on every other page', () => {
  it('covers every built page and every on-demand page kind in both languages', () => {
    expect(ALL.length).toBeGreaterThan(40);
    for (const p of ['/blog/page/2', '/es/blog/page/2', '/rsvp/cancel', `/events/${facts.eventId}`])
      expect(
        PAGES.some((x) => x.startsWith(p)),
        p,
      ).toBe(true);
    expect(PAGES.filter(STAFF_ONLY)).toHaveLength(1);
    // Every page is opened or held to an opened page of its template: none is left out.
    expect([...PAGES, ...SAME.map((s) => s.path)].sort()).toEqual([...ALL].sort());
    expect(SAME.map((s) => s.like).filter((p) => !PAGES.includes(p))).toEqual([]);
    // One outcome page opened per language.
    expect(PAGES.filter((p) => /^(\/es)?\/forms\/[^/]+\/[^/]+$/.test(p)).sort()).toEqual([
      '/es/forms/contact/sent',
      '/forms/contact/sent',
    ]);
    expect(SAME.length).toBeGreaterThanOrEqual(30);
  });

  it.each(SAME)('$path is built like $like, which axe checks', ({ path, like }) => {
    expectSameTemplate(path, like);
  });

  it.each(PAGES)(`%s has no violations at ${widths.join(' and ')} width`, async (path) => {
    const page = await browser.newPage(widths[0]);
    const res = await page.goto(path);
    expect(res?.status(), path).toBeLessThan(500);
    await page.waitForLoadState('load');
    for (const width of widths) {
      await page.setViewportSize(viewports[width]);
      await page.evaluate(() => new Promise(requestAnimationFrame));
      await expectNoAxeViolations(page);
    }
    await page.close();
  });
});
