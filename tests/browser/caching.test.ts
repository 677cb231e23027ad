import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NETLIFY_DEFAULT_CACHE_CONTROL, serveProductionBuild } from './helpers/prod-server.ts';
import { launchBrowser } from './helpers/browser.ts';
import { TEST_DEPLOY_ID } from './global-setup.ts';

/**
 * Caching that fits the files, on the production build served with the header
 * rules as Netlify applies them (netlify.toml, then the adapter's
 * .netlify/v1/config.json; Netlify's default where no rule sets one):
 * fingerprinted /_astro/ files are immutable for a year, HTML is revalidated.
 */
const IMMUTABLE = 'public, max-age=31536000, immutable';

let server: Awaited<ReturnType<typeof serveProductionBuild>>;
beforeAll(async () => {
  server = await serveProductionBuild(process.cwd());
});
afterAll(async () => {
  await server.close();
});

const built = readdirSync(join(process.cwd(), 'dist', '_astro'));

describe('production build: Cache-Control by kind of file', () => {
  it.each([
    ['script', built.find((f) => f.endsWith('.js'))],
    ['AVIF image (a poster or the portrait)', built.find((f) => f.endsWith('.avif'))],
    ['WebP image', built.find((f) => f.endsWith('.webp'))],
  ])('a built /_astro/ %s is cached for a year, immutable', async (_kind, file) => {
    expect(file, 'the build has such a file').toBeTruthy();
    const res = await fetch(`${server.url}/_astro/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
  });

  it.each(['/', '/about', '/platform', '/donate'])(
    'HTML %s is revalidated on every visit (ETag, 304 when unchanged)',
    async (path) => {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe(NETLIFY_DEFAULT_CACHE_CONTROL);
      const etag = res.headers.get('etag');
      expect(etag).toBeTruthy();
      const again = await fetch(`${server.url}${path}`, { headers: { 'if-none-match': etag! } });
      expect(again.status).toBe(304);
    },
  );

  it('the dashboard is never stored', async () => {
    const res = await fetch(`${server.url}/admin`);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('production build: each file fetched once', () => {
  /*
   * With skew protection (DEPLOY_ID set, as on every Netlify build) each /_astro
   * URL carries ?dpl=<deploy>. The chunks a dynamic import preloads must use the
   * same URL as the import itself, or the browser downloads each one twice.
   */
  // A built page with a form island besides the home pages (/contact is on demand since it lists the events).
  it.each(['/', '/es', '/forgot-password'])('%s requests no /_astro file under two URLs', async (path) => {
    const session = await launchBrowser({ baseURL: server.url });
    try {
      const page = await session.newPage('mobile');
      const urls: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/_astro/')) urls.push(url.pathname + url.search);
      });
      await page.goto(path, { waitUntil: 'load' });
      // The layout's script imports its deferred parts after the load event (src/lib/client/after-load.ts).
      await page.waitForLoadState('networkidle');
      const scripts = urls.filter((u) => u.split('?')[0]!.endsWith('.js'));
      expect(scripts.length, 'the page loads scripts').toBeGreaterThan(1);
      for (const url of scripts) expect(url, 'the deploy query').toContain(`dpl=${TEST_DEPLOY_ID}`);
      const byFile = new Map<string, Set<string>>();
      for (const url of urls) {
        const file = url.split('?')[0]!;
        byFile.set(file, (byFile.get(file) ?? new Set()).add(url));
      }
      const twice = [...byFile]
        .filter(([, seen]) => seen.size > 1)
        .map(([file, seen]) => `${file}: ${[...seen].join(', ')}`);
      expect(twice).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
