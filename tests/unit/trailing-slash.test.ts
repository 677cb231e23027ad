import { describe, expect, it } from 'vitest';
import { canonicalPath, patchSsrSource } from '../../scripts/lib/trailing-slash.mts';
import { trailingSlashMiddleware } from '../../scripts/dev/trailing-slash.mts';

// docs/decisions/162-public-pages-and-performance.md
describe('trailing-slash URLs', () => {
  it('names the canonical path of a page URL that ends in a slash', () => {
    expect(canonicalPath('/about/')).toBe('/about');
    expect(canonicalPath('/blog/')).toBe('/blog');
    expect(canonicalPath('/es/')).toBe('/es');
    expect(canonicalPath('/es/about//')).toBe('/es/about');
    expect(canonicalPath('/article/a-slug/')).toBe('/article/a-slug');
  });

  it('leaves the root, canonical paths, the API and the dev server own paths alone', () => {
    for (const path of [
      '/',
      '/about',
      '/es',
      '/api/contact/',
      '/_astro/x/',
      '/@vite/client/',
      '/.netlify/x/',
    ])
      expect(canonicalPath(path), path).toBeNull();
  });

  it('puts the rule in front of the on-demand function Netlify hands /about/ and /blog/ to', async () => {
    // The handler as scripts/ssr-localized-404.mjs leaves it: every path no route matches gets the 404 page.
    const built = [
      'function createHandler() {',
      "  return async () => new Response('not found', { status: 404 });",
      '}',
      'export default function handler(request, context) {',
      '  return createHandler()(request, context);',
      '}',
    ].join('\n');
    const patched = patchSsrSource(built);
    expect(patched).not.toBeNull();
    expect(patchSsrSource(patched!)).toBe(patched);
    expect(patchSsrSource('export default createHandler({});')).toBeNull();
    const mod = (await import(`data:text/javascript,${encodeURIComponent(patched!)}`)) as {
      default: (request: Request, context: unknown) => Promise<Response>;
    };
    const answer = (path: string, method = 'GET') =>
      mod.default(new Request(`https://site.example${path}`, { method }), {});
    for (const [from, to] of [
      ['/about/', '/about'],
      ['/blog/', '/blog'],
      ['/es/', '/es'],
      ['/es/about/?ref=flyer', '/es/about?ref=flyer'],
    ]) {
      const res = await answer(from!);
      expect(res.status, from).toBe(301);
      expect(res.headers.get('location')).toBe(to);
    }
    expect((await answer('/blog/', 'POST')).status).toBe(308);
    expect((await answer('/no-such-page')).status).toBe(404);
    expect((await answer('/')).status).toBe(404);
  });

  it('answers 301 with the canonical URL (query kept) in the dev server, and passes everything else on', () => {
    const handle = trailingSlashMiddleware();
    const answer = (url: string, method = 'GET') => {
      const headers: Record<string, string> = {};
      const res = {
        statusCode: 200,
        setHeader: (name: string, value: string) => (headers[name] = value),
        end: () => undefined,
      };
      let passed = false;
      handle({ url, method } as never, res as never, () => (passed = true));
      return { passed, status: res.statusCode, location: headers.Location };
    };
    expect(answer('/about/')).toEqual({ passed: false, status: 301, location: '/about' });
    expect(answer('/es/?utm_source=flyer')).toEqual({
      passed: false,
      status: 301,
      location: '/es?utm_source=flyer',
    });
    expect(answer('/blog/', 'POST')).toMatchObject({ status: 308, location: '/blog' });
    expect(answer('/about').passed).toBe(true);
    expect(answer('/').passed).toBe(true);
    expect(answer('/api/contact/').passed).toBe(true);
  });
});
