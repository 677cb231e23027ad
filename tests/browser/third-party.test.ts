import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type BrowserSession } from './helpers/browser.ts';
import { serveProductionBuild } from './helpers/prod-server.ts';
import { carouselReady, hydrateAll } from './helpers/public.ts';

/**
 * Nothing is sent to a third party before the visitor asks: the production
 * home page, loaded, scrolled through and left to hydrate, requests only its
 * own origin; the video provider (youtube-nocookie.com) is contacted when, and
 * only when, a video is played.
 */
let server: Awaited<ReturnType<typeof serveProductionBuild>>;
let browser: BrowserSession;

beforeAll(async () => {
  server = await serveProductionBuild(process.cwd());
  browser = await launchBrowser();
  // Offline machine: answer any third-party request locally (it is still recorded).
  await browser.context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>stub</title>' }),
  );
});
afterAll(async () => {
  await browser.close();
  await server.close();
});

describe('home page: no third-party request until play', () => {
  it.each(['desktop', 'mobile'] as const)('%s', async (viewport) => {
    const page = await browser.newPage(viewport);
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y < height; y += 600) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await page.waitForTimeout(100);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    // The carousel's script has started it, and every island that hydrates without the visitor
    // (all but the forms, which hydrate on first use) has; give them time to ask for anything.
    await carouselReady(page);
    await hydrateAll(page, { forms: false });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(500);

    const foreign = requested.filter((u) => !/^(data|blob):/.test(u) && new URL(u).origin !== server.url);
    expect(foreign).toEqual([]);
    expect(
      requested.some((u) => /\/_astro\/[^?]+\.(avif|webp)(\?|$)/.test(u)),
      'the poster came from the site',
    ).toBe(true);

    await page.locator('.hero-slide[data-slide="0"] .hero-play').click();
    await expect
      .poll(() => requested.filter((u) => u.startsWith('https://www.youtube-nocookie.com/embed/')).length)
      .toBe(1);
    expect(
      requested.filter((u) => new URL(u).origin !== server.url && !/^(data|blob):/.test(u)),
      'the only other host is the player, after play',
    ).toEqual([expect.stringMatching(/^https:\/\/www\.youtube-nocookie\.com\/embed\//)]);
    await page.close();
  });
});
