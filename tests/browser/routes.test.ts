import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paidForDisclaimer } from '../../src/content/campaign';
import { articleNotFoundCopy, notFoundCopy } from '../../src/content/pages';
import { launchBrowser, type BrowserSession } from './helpers/browser';
import { routes } from './helpers/routes';

let browser: BrowserSession;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const seenTitles = new Map<string, string>();
const seenDescriptions = new Map<string, string>();

describe('every route', () => {
  it.each(routes)('$path answers $status with its heading, metadata and disclaimer', async (route) => {
    const page = await browser.newPage();
    const response = await page.goto(route.path);
    expect(response?.status()).toBe(route.status);

    await expect.poll(() => page.locator('h1').allInnerTexts()).toEqual([route.h1]);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.locator('main#main-content').count()).toBe(1);

    const title = await page.title();
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    const keywords = await page.locator('meta[name="keywords"]').getAttribute('content');
    expect(title.trim()).not.toBe('');
    expect(description?.trim()).toBeTruthy();
    expect(keywords?.trim()).toBeTruthy();
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBe(title);
    expect(await page.locator('meta[property="og:description"]').getAttribute('content')).toBe(description);
    expect(await page.locator('meta[name="twitter:title"]').getAttribute('content')).toBe(title);
    expect(await page.locator('meta[name="twitter:description"]').getAttribute('content')).toBe(description);
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    expect(canonical && new URL(canonical).pathname).toBe(route.path);

    const robots = page.locator('meta[name="robots"]');
    if (route.noindex) expect(await robots.getAttribute('content')).toContain('noindex');
    else expect(await robots.count()).toBe(0);

    await expect.poll(() => page.locator('footer [data-paid-for]').innerText()).toBe(paidForDisclaimer);

    seenTitles.set(title, route.path);
    seenDescriptions.set(description ?? '', route.path);
    await page.close();
  });

  it('gives every page its own title and description', () => {
    expect(seenTitles.size).toBe(routes.length);
    expect(seenDescriptions.size).toBe(routes.length);
  });
});

describe('not-found states', () => {
  it('answers an unknown path with 404 and the Page Not Found page', async () => {
    const page = await browser.newPage();
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').innerText()).toBe('Page Not Found');
    expect(await page.locator('main').innerText()).toContain(notFoundCopy.text);
    expect(notFoundCopy.text).toMatch(/router/);
    await page.close();
  });

  it('answers an unknown article with 404, the spec text and a link back to /blog', async () => {
    const page = await browser.newPage();
    const response = await page.goto('/article/not-a-real-slug');
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').innerText()).toBe('Article Not Found');
    expect(await page.locator('main').innerText()).toContain(
      "The article you're looking for doesn't exist or has been unpublished.",
    );
    expect(articleNotFoundCopy.heading).toBe('Article Not Found');
    expect(await page.locator('main a[href="/blog"]').count()).toBe(1);
    await page.close();
  });
});
