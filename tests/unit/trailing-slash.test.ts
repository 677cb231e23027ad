import { describe, expect, it } from 'vitest';
import { canonicalPath, redirectRules, routeOfHtmlFile } from '../../scripts/lib/trailing-slash.mts';
import { trailingSlashMiddleware } from '../../scripts/dev/trailing-slash.mts';

// docs/decisions/new-w2-trailing-slash-redirects.md
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

  it('writes a rule for every prerendered page and none for the error pages or the home page', () => {
    expect(routeOfHtmlFile('about.html')).toBe('/about');
    expect(routeOfHtmlFile('es.html')).toBe('/es');
    expect(routeOfHtmlFile('es/about.html')).toBe('/es/about');
    expect(routeOfHtmlFile('index.html')).toBeNull();
    expect(routeOfHtmlFile('404.html')).toBeNull();
    expect(routeOfHtmlFile('es/404.html')).toBeNull();
    expect(redirectRules(['about.html', 'index.html', 'es.html', 'es/about.html', '404.html'])).toEqual([
      '/about/  /about  301',
      '/es/  /es  301',
      '/es/about/  /es/about  301',
    ]);
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
