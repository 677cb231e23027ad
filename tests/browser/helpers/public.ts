import type { ConsoleMessage, Frame, Page, Route } from 'playwright-core';
import { expect } from 'vitest';
import { PUBLIC_LIST_SWR } from '../../../src/lib/public-lists.ts';
import { baseURL } from './browser.ts';

/* Helpers for the public-site browser tests (docs/decisions/162-public-pages-and-performance.md). */

/** What a person first uses in an island that hydrates on first use: a form's first field, a list's first link. */
const FIRST_USE = 'input:not([type="hidden"]), select, textarea, button, a[href]';

/** How long an island may take to hydrate on a busy machine before a test gives up (it is not a speed target). */
const HYDRATION_TIMEOUT_MS = 45_000;
/** After this long without hydration, the first use is repeated, as a person would (see hydrated()). */
const HYDRATION_RETRY_MS = 15_000;

/**
 * Scrolls an island into view (client:visible) and waits until Astro has
 * hydrated it. An island that hydrates on first use (client:interaction: the
 * forms, /blog's lists) is first used the way a person starts: focusing its
 * first field or link.
 *
 * A dev server on a busy machine can take long to serve an island's modules,
 * and it may reload the page (Vite), which puts the island back as it was
 * served: so when the island has not hydrated after HYDRATION_RETRY_MS, the
 * first use is repeated (the directive starts once, so repeating changes
 * nothing if it is merely slow). When it never hydrates, the error says what
 * the page reported meanwhile (console errors, Astro's "Error hydrating",
 * page errors, reloads); a repeat that was needed is logged, never silent.
 */
export async function hydrated(page: Page, component: string): Promise<void> {
  const selector = `astro-island[component-url*="/${component}"]`;
  const { seen, stop } = watch(page);
  const deadline = Date.now() + HYDRATION_TIMEOUT_MS;
  try {
    for (let attempt = 1; ; attempt++) {
      const island = page.locator(selector).first();
      await island.scrollIntoViewIfNeeded();
      if ((await island.getAttribute('client')) === 'interaction') {
        // Away and back: focusing the field that already has focus would not be a new first use.
        if (attempt > 1) await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await island.locator(FIRST_USE).first().focus();
      }
      const wait = Math.min(HYDRATION_RETRY_MS, Math.max(1, deadline - Date.now()));
      try {
        await page.waitForSelector(`${selector}:not([ssr])`, { state: 'attached', timeout: wait });
        if (attempt > 1)
          console.warn(
            `${component} hydrated at attempt ${attempt}; the page said: ${seen.join(' | ') || 'nothing'}`,
          );
        return;
      } catch (error) {
        if (Date.now() < deadline) continue;
        throw new Error(
          `${component} did not hydrate within ${HYDRATION_TIMEOUT_MS / 1000} s (${attempt} attempts) at ${page.url()}; ` +
            `the page said: ${seen.join(' | ') || 'nothing'}`,
          { cause: error },
        );
      }
    }
  } finally {
    stop();
  }
}

/** Collects what a page reports (console errors, Vite's messages, page errors, reloads) until `stop()`. */
function watch(page: Page): { seen: string[]; stop: () => void } {
  const seen: string[] = [];
  const onConsole = (m: ConsoleMessage) => {
    if (m.type() === 'error' || m.text().includes('[vite]')) seen.push(`console.${m.type()}: ${m.text()}`);
  };
  const onPageError = (e: Error) => seen.push(`page error: ${e.message}`);
  const onNavigated = (frame: Frame) => {
    if (frame === page.mainFrame()) seen.push(`navigated to ${frame.url()}`);
  };
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  page.on('framenavigated', onNavigated);
  return {
    seen,
    stop: () => {
      page.off('console', onConsole);
      page.off('pageerror', onPageError);
      page.off('framenavigated', onNavigated);
    },
  };
}

/**
 * Hydrates every island on the page: brings each one into view (client:visible),
 * uses each form that hydrates on first use (focus on its first field) unless
 * `forms` is false, then waits until no island it was meant to hydrate is left
 * server-rendered only.
 */
export async function hydrateAll(page: Page, { forms = true } = {}): Promise<void> {
  const pending = forms ? 'astro-island[ssr]' : 'astro-island[ssr]:not([client="interaction"])';
  const { seen, stop } = watch(page);
  try {
    await useEveryIsland(page, pending);
    await page.waitForFunction((selector) => document.querySelectorAll(selector).length === 0, pending, {
      timeout: HYDRATION_TIMEOUT_MS,
    });
  } catch (error) {
    const left = await page
      .locator(pending)
      .evaluateAll((islands) => islands.map((el) => el.getAttribute('component-url')))
      .catch(() => ['(the page is gone)']);
    throw new Error(
      `islands not hydrated within ${HYDRATION_TIMEOUT_MS / 1000} s at ${page.url()}: ${left.join(', ')}; ` +
        `the page said: ${seen.join(' | ') || 'nothing'}`,
      { cause: error },
    );
  } finally {
    stop();
  }
}

/** Brings each pending island into view and uses each that hydrates on first use (see hydrateAll()). */
async function useEveryIsland(page: Page, pending: string): Promise<void> {
  // Handles, not locators: an island that hydrates leaves the selector, which would shift the rest.
  for (const island of await page.locator(pending).elementHandles()) {
    await island.evaluate(async (el: Element, firstUse: string) => {
      // Scrolled by the page itself: an island is display: contents (no box of its own).
      (el.firstElementChild ?? el).scrollIntoView({ block: 'center', behavior: 'instant' });
      if (el.getAttribute('client') === 'interaction') {
        el.querySelector<HTMLElement>(firstUse)?.focus();
      }
      // Two frames: the intersection observers of client:visible islands see it in view.
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }, FIRST_USE);
  }
}

/**
 * Moves the page's fake clock past the public lists' 30 s refresh until `read`
 * gives what the assertion wants: `await afterRefresh(page, read).toEqual(x)`.
 * The refresh timer exists only once React has committed the hydration, which
 * can come after `hydrated()` returns (the island marks itself hydrated when
 * hydration starts): a single jump could land before the timer is set.
 */
export function afterRefresh<T>(page: Page, read: () => Promise<T>) {
  return expect.poll(async () => {
    await page.clock.runFor(PUBLIC_LIST_SWR.refreshInterval + 500);
    return read();
  });
}

/**
 * Waits until the layout's page script has started the header (it loads once
 * the page has painted, or at the first key or tap: src/lib/page-script-loader.mjs).
 */
export async function pageScriptReady(page: Page): Promise<void> {
  await page.waitForSelector('.site-header[data-ready]', { state: 'attached', timeout: 20_000 });
}

/** Waits until the home carousel's script has started it (src/scripts/home-carousel.ts). */
export async function carouselReady(page: Page): Promise<void> {
  await page.waitForSelector('.hero-carousel[data-ready]', { state: 'attached', timeout: 20_000 });
}

/** The visible toast's title and description text. */
export function toast(page: Page) {
  return page.locator('[data-sonner-toast]').first();
}

export function json(route: Route, status: number, body: unknown, delayMs = 0): Promise<void> {
  const send = () => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
  return delayMs ? new Promise((r) => setTimeout(() => r(send()), delayMs)) : send();
}

/** Signs in the seeded dev admin (`npm run seed`) through the real API; '' when it cannot. */
export async function devAdminCookie(): Promise<string> {
  const login = await fetch(new URL('/api/auth/login', baseURL), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: baseURL, 'Sec-Fetch-Site': 'same-origin' },
    body: JSON.stringify({ username: 'admin', password: 'admin-dev-password' }),
  });
  return login.status === 200 ? (login.headers.getSetCookie()[0] ?? '').split(';')[0]! : '';
}

/** A same-origin JSON call to the dev server's API with a session cookie. */
export async function apiAs(cookie: string, method: string, path: string, body?: unknown) {
  const res = await fetch(new URL(path, baseURL), {
    method,
    headers: {
      'Content-Type': 'application/json',
      Origin: baseURL,
      'Sec-Fetch-Site': 'same-origin',
      Cookie: cookie,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json().catch(() => null)) as Record<string, unknown> | null,
    res,
  };
}
