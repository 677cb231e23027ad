import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, buildURL, launchBrowser, type BrowserSession } from './helpers/browser.ts';

/*
 * What a voter tripped over (docs/decisions/new-w2-*.md): each check here fails without its fix.
 */
let js: BrowserSession;
let noJs: BrowserSession;
beforeAll(async () => {
  js = await launchBrowser();
  noJs = await launchBrowser({ javaScriptEnabled: false });
});
afterAll(async () => {
  await js?.close();
  await noJs?.close();
});

const manual = (url: string) => fetch(url, { redirect: 'manual' });

describe('a URL with a trailing slash (docs/decisions/new-w2-trailing-slash-redirects.md)', () => {
  it.each([
    ['/about/', '/about'],
    ['/blog/', '/blog'],
    ['/es/', '/es'],
    ['/es/about/', '/es/about'],
    ['/contact/?ref=flyer', '/contact?ref=flyer'],
  ])('the dev server answers %s with 301 to %s', async (from, to) => {
    const res = await manual(new URL(from, baseURL).href);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(to);
  });

  it('the build has a Netlify rule for every prerendered page, and the built site answers by it', async () => {
    const rules = await readFile(join(process.cwd(), 'dist', '_redirects'), 'utf8');
    for (const line of ['/about/  /about  301', '/es/  /es  301', '/es/about/  /es/about  301'])
      expect(rules.split('\n')).toContain(line);
    // No rule for the home page or an on-demand page (a rule there would also match /blog and loop).
    expect(rules).not.toMatch(/^\/blog\/\s/m);
    const res = await manual(new URL('/about/', buildURL).href);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/about');
  });

  it('a person following a printed /about/ lands on the page, with or without JavaScript', async () => {
    for (const session of [js, noJs]) {
      const page = await session.newPage('mobile');
      const response = await page.goto('/es/about/');
      expect(response?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe('/es/about');
      await page.close();
    }
  });
});
