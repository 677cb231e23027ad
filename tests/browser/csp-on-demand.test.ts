import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserSession } from './helpers/browser.ts';
import { cspBrowser, settle, watch } from './helpers/csp.ts';
import { onDemandPages, pageFacts, STAFF_ONLY } from './helpers/pages.ts';
import { serveProductionBuild } from './helpers/prod-server.ts';
import { hydrateAll } from './helpers/public.ts';

/**
 * Zero CSP violations on every on-demand page, in both languages and in each state
 * (helpers/pages.ts), under the policy production sends: the pages come from the built on-demand
 * function and the API from the function handlers (helpers/built-responses.mts --serve, on a
 * seeded throwaway store), behind the production build's static files and header rules. The
 * staff preview with a staff session. Violations are collected until the page is idle.
 */
const root = process.cwd();

/** Starts the production code's server; resolves with its address and a staff session cookie. */
async function startBuiltServer(): Promise<{ child: ChildProcess; url: string; cookie: string }> {
  const child = spawn(
    process.execPath,
    [join(root, 'tests/browser/helpers/built-responses.mts'), '--serve'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`built-responses.mts --serve exited ${code}`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  return { child, ...(JSON.parse(line) as { url: string; cookie: string }) };
}

const built = await startBuiltServer();
// Never left running, even when what follows fails.
process.once('exit', () => built.child.kill());
const server = await serveProductionBuild(root, { fallback: built.url });
const facts = await pageFacts(server.url, built.cookie);
const PAGES = onDemandPages(facts);

const browser: BrowserSession = await cspBrowser(server.url);
await browser.context.addCookies(
  built.cookie.split('; ').map((pair) => {
    const i = pair.indexOf('=');
    return { name: pair.slice(0, i), value: pair.slice(i + 1), url: server.url };
  }),
);

afterAll(async () => {
  await browser.close();
  await server.close();
  built.child.kill();
});

describe('production on-demand pages: zero CSP violations', () => {
  it('covers every on-demand page kind in both languages, the staff preview signed in', () => {
    expect(PAGES.length).toBeGreaterThan(20);
    expect(PAGES.filter(STAFF_ONLY)).toHaveLength(1);
    expect(PAGES.filter((p) => p.startsWith('/es/')).length).toBeGreaterThan(8);
  });

  it.each(PAGES)('%s', async (path) => {
    const { page, violations } = await watch(browser, path);
    // The page production sends: Astro's policy with its script hashes, in the header.
    expect(violations).toEqual([]);
    if (STAFF_ONLY(path)) await page.getByText('Preview', { exact: true }).first().waitFor();
    // Then the visitor starts on each form: it hydrates (the captcha loads) under the policy too.
    await hydrateAll(page);
    await settle(page);
    expect(violations).toEqual([]);
    await page.close();
  });
});
