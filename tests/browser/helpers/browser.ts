import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

/*
 * Chromium from Debian driven by playwright-core (never a downloaded browser).
 * One persistent context per test file, in a throwaway profile directory.
 */

export const baseURL = inject('baseURL');

export const CHROMIUM_PATH = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

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

export async function launchBrowser(): Promise<BrowserSession> {
  const profileDir = await mkdtemp(join(tmpdir(), 'campaign-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    baseURL,
    viewport: viewports.desktop,
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
      await rm(profileDir, { recursive: true, force: true });
    },
  };
}
