import type { Page, Route } from 'playwright-core';
import { expect } from 'vitest';
import { PUBLIC_LIST_SWR } from '../../../src/lib/public-lists.ts';
import { baseURL } from './browser.ts';

/* Helpers for the public-site browser tests (docs/decisions/009-static-fallbacks-where-islands-will-mount.md). */

/** What a person first uses in an island that hydrates on first use: a form's first field, a list's first link. */
const FIRST_USE = 'input:not([type="hidden"]), select, textarea, button, a[href]';

/**
 * Scrolls an island into view (client:visible) and waits until Astro has
 * hydrated it. An island that hydrates on first use (client:interaction: the
 * forms, /blog's lists) is first used the way a person starts: focusing its
 * first field or link.
 */
export async function hydrated(page: Page, component: string): Promise<void> {
  const island = page.locator(`astro-island[component-url*="/${component}"]`).first();
  await island.scrollIntoViewIfNeeded();
  if ((await island.getAttribute('client')) === 'interaction') {
    await island.locator(FIRST_USE).first().focus();
  }
  await page.waitForSelector(`astro-island[component-url*="/${component}"]:not([ssr])`, {
    state: 'attached',
    timeout: 20_000,
  });
}

/**
 * Hydrates every island on the page: brings each one into view (client:visible),
 * uses each form that hydrates on first use (focus on its first field) unless
 * `forms` is false, then waits until no island it was meant to hydrate is left
 * server-rendered only.
 */
export async function hydrateAll(page: Page, { forms = true } = {}): Promise<void> {
  const pending = forms ? 'astro-island[ssr]' : 'astro-island[ssr]:not([client="interaction"])';
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
  await page.waitForFunction((selector) => document.querySelectorAll(selector).length === 0, pending, {
    timeout: 20_000,
  });
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
