import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

/*
 * The run's one Chromium (started by global-setup.ts) and a fresh, isolated
 * browser context per test file: cookies, storage and routes never leak
 * between files, and no file pays for starting a browser.
 */

export const baseURL = inject('baseURL');
/** The production build, passing the API and on-demand pages to the dev server (global-setup.ts). */
export const buildURL = inject('buildURL');
export { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

export const viewports = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof viewports;

export interface BrowserSession {
  context: BrowserContext;
  /** A new page at the given viewport (desktop by default). */
  newPage(viewport?: ViewportName): Promise<Page>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  /** Run the context with JavaScript disabled (public pages must work without it). */
  javaScriptEnabled?: boolean;
  /** Where relative URLs go: the dev server unless given (e.g. the production build's server). */
  baseURL?: string;
}

let shared: Promise<Browser> | null = null;

export async function launchBrowser(options: LaunchOptions = {}): Promise<BrowserSession> {
  shared ??= chromium.connect(inject('chromiumEndpoint'));
  const browser = await shared;
  const context = await browser.newContext({
    baseURL: options.baseURL ?? baseURL,
    viewport: viewports.desktop,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  return {
    context,
    async newPage(viewport = 'desktop') {
      const page = await context.newPage();
      await page.setViewportSize(viewports[viewport]);
      return page;
    },
    async close() {
      await context.close();
    },
  };
}
