import type { Page, Route } from 'playwright-core';

/* Helpers for the public-site browser tests (issue 4). */

/** Scrolls an island into view (client:visible) and waits until Astro has hydrated it. */
export async function hydrated(page: Page, component: string): Promise<void> {
  const island = page.locator(`astro-island[component-url*="/${component}"]`).first();
  await island.scrollIntoViewIfNeeded();
  await page.waitForSelector(`astro-island[component-url*="/${component}"]:not([ssr])`, {
    state: 'attached',
    timeout: 20_000,
  });
}

/** The visible toast's title and description text. */
export function toast(page: Page) {
  return page.locator('[data-sonner-toast]').first();
}

export function json(route: Route, status: number, body: unknown, delayMs = 0): Promise<void> {
  const send = () => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
  return delayMs ? new Promise((r) => setTimeout(() => r(send()), delayMs)) : send();
}
