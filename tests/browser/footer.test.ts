import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { electionFacts, footerNav, paidForDisclaimer } from '../../src/content/campaign';
import { electionLines } from '../../src/content/election-lines';
import { FUTURE_CALENDAR } from '../helpers/election';
import { launchBrowser, type BrowserSession } from './helpers/browser';

let browser: BrowserSession;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// The social endpoint belongs to another module; these tests stub it so they do
// not depend on it or on stored data.
const SOCIAL_PATH = '**/api/social-media-links';

const socialIcons = (page: Page) => page.locator('footer [data-social-links] a');

describe('footer', () => {
  it('shows the tagline, disclaimer, links and election dates', async () => {
    const page = await browser.newPage();
    await page.route(SOCIAL_PATH, (route) => route.fulfill({ status: 404, body: 'Not found' }));
    await page.goto('/volunteer');
    const footer = page.locator('footer');
    const nav = footer.getByRole('navigation', { name: 'Footer' });
    const links = await nav
      .locator('a')
      .evaluateAll((anchors) => anchors.map((a) => [a.textContent?.trim(), a.getAttribute('href')]));
    expect(links).toEqual(footerNav.map((l) => [l.label, l.href]));
    expect(links.map(([label]) => label)).toEqual([
      'About',
      'Platform',
      'Volunteer',
      'Donate',
      'News',
      'Contact',
      'Privacy Policy',
      'Terms of Use',
    ]);
    const text = await footer.innerText();
    expect(text).toContain(paidForDisclaimer);
    // The dates in the tense of the site's stage (docs/decisions/157-election-calendar.md): the site under test
    // has its election ahead (global-setup.ts), so the present tense; tests/pages/election-pages.test.ts walks
    // every other stage through the real pages.
    const now = electionLines(FUTURE_CALENDAR, new Date(), 'en');
    expect(now.stage.kind).toBe('registration-open');
    expect(text).toContain('Election Day: January 11, 2031');
    expect(text).toContain('Early Voting: January 4 - January 6');
    expect(await footer.getByRole('link', { name: 'How to vote' }).getAttribute('href')).toBe('/vote');
    expect(electionFacts.electionDay.label).toBe('October 11, 2025');
    await page.close();
  });

  it('renders one icon per valid social link with the handle, else the platform, as title', async () => {
    const page = await browser.newPage();
    await page.route(SOCIAL_PATH, (route) =>
      route.fulfill({
        json: {
          links: [
            { id: 'a', platform: 'facebook', url: 'https://facebook.com/avery', handle: 'AveryForMayor' },
            { id: 'b', platform: 'x', url: 'https://x.com/avery', handle: '' },
            { id: 'c', platform: 'myspace', url: 'https://myspace.com/avery', handle: 'nope' },
            { id: 'd', platform: 'tiktok', url: 'javascript:alert(1)', handle: 'bad' },
          ],
        },
      }),
    );
    await page.goto('/');
    await expect.poll(() => socialIcons(page).count()).toBe(2);
    const icons = await socialIcons(page).evaluateAll((anchors) =>
      anchors.map((a) => ({
        href: a.getAttribute('href'),
        title: a.getAttribute('title'),
        platform: (a as HTMLElement).dataset.platform,
        hasSvg: a.querySelector('svg') !== null,
      })),
    );
    expect(icons).toEqual([
      { href: 'https://facebook.com/avery', title: 'AveryForMayor', platform: 'facebook', hasSvg: true },
      { href: 'https://x.com/avery', title: 'X', platform: 'x', hasSvg: true },
    ]);
    expect(await page.getByRole('link', { name: 'AveryForMayor' }).count()).toBe(1);
    expect(await page.locator('footer [data-social-links]').isVisible()).toBe(true);
    await page.close();
  });

  it.each([
    ['a 404', { status: 404, body: 'Not found' }],
    ['a 500', { status: 500, body: 'Internal error' }],
    ['a non-JSON body', { status: 200, body: '<html>oops</html>', contentType: 'text/html' }],
  ])('shows no icons when the endpoint answers %s', async (_label, reply) => {
    const page = await browser.newPage();
    let called = false;
    await page.route(SOCIAL_PATH, (route) => {
      called = true;
      return route.fulfill(reply);
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/about');
    await expect.poll(() => called).toBe(true);
    await page.waitForLoadState('networkidle');
    expect(await socialIcons(page).count()).toBe(0);
    expect(await page.locator('footer [data-social-links]').isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows no icons when the request fails at the network level', async () => {
    const page = await browser.newPage();
    await page.route(SOCIAL_PATH, (route) => route.abort('connectionrefused'));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/about');
    await page.waitForLoadState('networkidle');
    expect(await socialIcons(page).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
