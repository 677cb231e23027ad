import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type BrowserSession } from './helpers/browser.ts';
import { serveProductionBuild } from './helpers/prod-server.ts';
import { pageScriptReady } from './helpers/public.ts';
import { carouselVideos } from '../../src/content/home';
import { FAVICON } from '../../src/lib/favicon.ts';
import { embedUrl } from '../../src/lib/video-embed.ts';

/**
 * Nothing but the document (and the first screen's images) is
 * fetched before a page's first paint. The layout's page script is rendered
 * inert and fetched by the inline loader (src/lib/page-script-loader.mjs) after
 * the load event and the first contentful paint; the Menu button works before
 * it arrives (invoker commands). Checked on the production build, from the
 * browser's own resource and paint timings.
 */
let server: Awaited<ReturnType<typeof serveProductionBuild>>;
let browser: BrowserSession;

beforeAll(async () => {
  server = await serveProductionBuild(process.cwd());
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
  await server.close();
});

interface Timings {
  fcp: number;
  loadStart: number;
  /** Every fetched resource: its path, how it was asked for and when it started. */
  resources: { path: string; initiator: string; start: number }[];
}

async function timingsOf(path: string): Promise<Timings> {
  const page = await browser.newPage('mobile');
  await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
  await pageScriptReady(page);
  const timings = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
    loadStart: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventStart,
    resources: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
      path: new URL(r.name).pathname,
      initiator: r.initiatorType,
      start: r.startTime,
    })),
  }));
  await page.close();
  return timings;
}

/** Opens a page whose images never arrive: no load event, so only the visitor can start the page script. */
async function openBeforeLoad(path: string, options: { reducedMotion?: 'reduce' } = {}) {
  const page = await browser.newPage('mobile');
  if (options.reducedMotion) await page.emulateMedia({ reducedMotion: options.reducedMotion });
  await page.route(/\.(avif|webp|jpe?g|png)(\?|$)/, () => undefined);
  await page.goto(`${server.url}${path}`, { waitUntil: 'domcontentloaded' });
  expect(await page.evaluate(() => document.readyState)).not.toBe('complete');
  return page;
}

describe('before the first paint', () => {
  it.each(['/privacy-policy', '/about', '/es/donate', '/', '/es'])(
    '%s fetches no script before its first contentful paint and the load event',
    async (path) => {
      const { fcp, loadStart, resources } = await timingsOf(path);
      expect(fcp).toBeGreaterThan(0);
      const scripts = resources.filter((r) => r.path.endsWith('.js'));
      expect(scripts.map((r) => r.path)).toContainEqual(
        expect.stringMatching(/^\/_astro\/PageScriptBundle\..*\.js$/),
      );
      for (const script of scripts) {
        expect(script.start, `${script.path} started before the first paint`).toBeGreaterThan(fcp);
        expect(script.start, `${script.path} started before the load event`).toBeGreaterThanOrEqual(
          loadStart,
        );
      }
      // What the parser asks for before then is the first screen's images only (no stylesheet).
      const early = resources.filter((r) => r.start < fcp && r.path !== '/favicon.png');
      expect(early.filter((r) => r.initiator !== 'img').map((r) => r.path)).toEqual([]);
    },
  );

  it("a visitor's first key starts the page script at once, before the load event", async () => {
    const page = await openBeforeLoad('/');
    const pageScriptFetched = () =>
      page.evaluate(() =>
        performance.getEntriesByType('resource').some((r) => r.name.includes('/PageScriptBundle.')),
      );
    expect(await pageScriptFetched()).toBe(false);
    await page.keyboard.press('Tab');
    await pageScriptReady(page);
    expect(await pageScriptFetched()).toBe(true);
    expect(await page.evaluate(() => document.readyState)).not.toBe('complete');
    await page.close();
  });

  it('F8 pressed before the page has loaded starts the page script and still focuses the notification region', async () => {
    const page = await openBeforeLoad('/');
    await page.keyboard.press('F8');
    await pageScriptReady(page);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''), {
        timeout: 10_000,
      })
      .toMatch(/^Notification/);
    await page.close();
  });

  it('a key that started the page script is not acted on once focus has moved on (Tab, then the script)', async () => {
    const page = await openBeforeLoad('/');
    // F8 (on the page, where a real key press lands) starts the loader; focus moves on before the script runs.
    await page.evaluate(() => {
      document.body.dispatchEvent(new KeyboardEvent('keydown', { code: 'F8', key: 'F8', bubbles: true }));
      document.querySelector<HTMLElement>('a[href]')?.focus();
    });
    await pageScriptReady(page);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('A');
    await page.close();
  });

  it('Next and Play slideshow clicked before the page script has started act once it has', async () => {
    // Reduced motion: the script does not start the slideshow by itself, so only the visitor's click can.
    const page = await openBeforeLoad('/', { reducedMotion: 'reduce' });
    // The page script (asked for at the first press) is held until both clicks are in.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/PageScriptBundle\..*\.js/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Next slide' }).click();
    await page.getByRole('button', { name: 'Play slideshow' }).click();
    expect(await page.locator('.hero-carousel[data-ready]').count()).toBe(0);
    release();
    await page.locator('.hero-carousel[data-ready]').waitFor({ state: 'attached' });
    expect(await page.locator('.hero-slide[data-slide="1"]').getAttribute('aria-hidden')).toBe('false');
    expect(await page.locator('.hero-carousel').getAttribute('data-autoplay')).toBe('on');
    expect(await page.getByRole('button', { name: 'Pause slideshow' }).count()).toBe(1);
    await page.close();
  });

  it("with JavaScript off the home page's Play is a link to the player, and controls that need the script are not shown", async () => {
    const noJs = await launchBrowser({ javaScriptEnabled: false });
    try {
      const page = await noJs.newPage('mobile');
      await page.goto(`${server.url}/`);
      const first = carouselVideos[0]!;
      const play = page.getByRole('link', { name: `Play video: ${first.title}` });
      expect(await play.getAttribute('href')).toBe(embedUrl(first.videoId));
      expect(await play.isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Next slide' }).count()).toBe(0);
      expect(await page.locator('.hero-controls').isVisible()).toBe(false);
    } finally {
      await noJs.close();
    }
  });

  it('the Menu button opens and closes the drawer before the page script has loaded (no JavaScript at all)', async () => {
    const noJs = await launchBrowser({ javaScriptEnabled: false });
    try {
      const page = await noJs.newPage('mobile');
      await page.goto(`${server.url}/about`);
      const drawerOpen = () => page.locator('#nav-drawer').evaluate((d) => (d as HTMLDialogElement).open);
      await page.getByRole('button', { name: 'Menu', exact: true }).click();
      expect(await drawerOpen()).toBe(true);
      expect(await page.getByRole('navigation', { name: 'Main menu' }).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Close menu' }).click();
      expect(await drawerOpen()).toBe(false);
      await page.getByRole('button', { name: 'Menu', exact: true }).click();
      await page.keyboard.press('Escape');
      expect(await drawerOpen()).toBe(false);
    } finally {
      await noJs.close();
    }
  });
});

describe('the first layout', () => {
  /**
   * Every distinct size x weight x style a page's text uses is a font the
   * browser resolves before its first layout: on Linux Chromium a synchronous
   * call to the browser process each, the larger part of the home page's first
   * layout before the type scale (global.css;
   * docs/decisions/162-public-pages-and-performance.md). The text a visitor can see, on a phone.
   */
  async function fontsOf(path: string): Promise<string[]> {
    const page = await browser.newPage('mobile');
    await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
    // The text the page script adds counts too (the home page's rotating-text control): wait for it and its imports.
    await pageScriptReady(page);
    await page.waitForLoadState('networkidle');
    const fonts = await page.evaluate(() => {
      const seen = new Set<string>();
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const element = node.parentElement;
        if (!element || !node.textContent?.trim() || !element.checkVisibility()) continue;
        const style = getComputedStyle(element);
        seen.add(`${style.fontSize} ${style.fontWeight} ${style.fontStyle}`);
      }
      return [...seen].sort();
    });
    await page.close();
    return fonts;
  }

  it.each(['/', '/es', '/about', '/platform', '/donate', '/volunteer', '/privacy-policy'])(
    '%s sets its text in at most 9 fonts, bold always 700',
    async (path) => {
      const fonts = await fontsOf(path);
      expect(fonts.length, fonts.join(', ')).toBeLessThanOrEqual(9);
      expect(fonts.filter((f) => !/ (400|700) /.test(f))).toEqual([]);
    },
  );

  it('the site icon is a PNG, not an SVG (Chromium builds an SVG icon as a document on the main thread)', async () => {
    const html = await (await fetch(`${server.url}/about`)).text();
    const icons = html.match(/<link rel="icon"[^>]*>/g) ?? [];
    expect(icons).toEqual([
      `<link rel="icon" href="${FAVICON.path}" sizes="${FAVICON.size}x${FAVICON.size}" type="image/png">`,
    ]);
    const icon = await fetch(`${server.url}${FAVICON.path}`);
    expect(icon.headers.get('content-type')).toBe('image/png');
    const png = new DataView(await icon.arrayBuffer());
    expect(png.getUint32(0)).toBe(0x89504e47); // the PNG signature
    expect([png.getUint32(16), png.getUint32(20)]).toEqual([FAVICON.size, FAVICON.size]); // IHDR width, height
  });
});
