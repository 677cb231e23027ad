import { describe, expect, it } from 'vitest';
import { cancelledByPerson } from '../../src/lib/client/share.ts';
import {
  formFieldsToInput,
  outcomesOf,
  PUBLIC_FORM_IDS,
  refillValues,
} from '../../src/lib/schemas/public-forms.ts';
import {
  archivePaths,
  BLOG_PAGE_SIZE,
  blogPageCount,
  blogPagePath,
  buildRobots,
  buildRss,
  buildSitemap,
  cdnHeaders,
} from '../../src/lib/server/public/feeds.ts';
import {
  NON_HTML_POLICY,
  fallbackMetaPolicy,
  fallbackPagePolicy,
  policyFor,
} from '../../src/lib/server/page-policy.ts';
import { SECURITY_HEADERS } from '../../src/lib/server/security-headers.ts';
import {
  FALLBACK_SCRIPT_SRC,
  PAGE_SCRIPT_LOADER,
  PAGE_SCRIPT_LOADER_HASH,
} from '../../src/lib/page-script-loader.mjs';
import { createHash } from 'node:crypto';
import { formCopy } from '../../src/content/forms.ts';
import { pagePath, pageUrl } from '../../src/lib/urls.ts';
import type { Article } from '../../src/lib/schemas/article.ts';
import { toPublicArticle } from '../../src/lib/schemas/public-projections.ts';

const directives = (policy: string) => policy.split(';').map((d) => d.trim().split(/\s+/)[0]);

describe('one Content-Security-Policy per response, complete', () => {
  const opts = { dev: false, env: {} };
  it('keeps a page policy Astro built', () => {
    expect(policyFor('text/html', "default-src 'self'; script-src 'self'", opts)).toBeNull();
  });
  it('a page without one gets the full page policy, with default-src and no duplicate directive', () => {
    const p = policyFor('text/html; charset=utf-8', null, opts)!;
    expect(p).toBe(fallbackPagePolicy({}));
    const names = directives(p);
    expect(names).toContain('default-src');
    expect(new Set(names).size).toBe(names.length);
    // Script files, and the one inline script (the page script's loader) by its hash.
    expect(p).toContain(`${FALLBACK_SCRIPT_SRC};`);
    expect(FALLBACK_SCRIPT_SRC).toBe(
      `script-src 'self' 'sha256-${createHash('sha256').update(PAGE_SCRIPT_LOADER).digest('base64')}'`,
    );
    expect(FALLBACK_SCRIPT_SRC).toContain(PAGE_SCRIPT_LOADER_HASH);
    expect(p).not.toMatch(/script-src[^;]*unsafe/);
  });
  it("the 404 page's <meta> policy is the same policy without the directives a <meta> cannot carry", () => {
    const env = { PUBLIC_ANALYTICS_URL: 'https://stats.example.org/api/event' };
    const header = fallbackPagePolicy(env);
    const meta = fallbackMetaPolicy(env);
    expect(directives(header)).toContain('frame-ancestors');
    expect(directives(meta)).toEqual(directives(header).filter((d) => d !== 'frame-ancestors'));
    // What an analytics deploy needs on its 404 page too (the page view after load).
    expect(meta).toMatch(/connect-src [^;]*https:\/\/stats\.example\.org/);
    expect(meta).toContain(`${FALLBACK_SCRIPT_SRC};`);
  });
  it('feeds, calendars and text allow nothing', () => {
    for (const type of [
      'application/rss+xml; charset=utf-8',
      'application/xml',
      'text/calendar',
      'text/plain',
    ])
      expect(policyFor(type, null, opts)).toBe(NON_HTML_POLICY);
    expect(directives(NON_HTML_POLICY)).toEqual([
      'default-src',
      'frame-ancestors',
      'base-uri',
      'form-action',
    ]);
  });
  it('the dev server (no Astro CSP) keeps the site-wide directives only', () => {
    expect(policyFor('text/html', null, { dev: true, env: {} })).toBe(
      SECURITY_HEADERS['Content-Security-Policy'],
    );
  });
});

describe('one URL form', () => {
  it.each([
    ['/about/', '/about'],
    ['/about', '/about'],
    ['/about.html', '/about'],
    ['/about/index.html', '/about'],
    ['/', '/'],
    ['/index.html', '/'],
    ['/blog/page/2/', '/blog/page/2'],
  ])('%s -> %s', (input, output) => expect(pagePath(input)).toBe(output));
  it('on the configured site', () => {
    expect(pageUrl('/about/', 'https://www.example.org')).toBe('https://www.example.org/about');
  });
});

const article = (i: number): Article => ({
  id: i,
  title: `Article ${i}`,
  content: '<p>x</p>',
  excerpt: `Excerpt ${i}`,
  imageUrl: '',
  author: 'Jordan Avery',
  slug: `article-${i}`,
  isPublished: true,
  publishedAt: new Date(Date.UTC(2025, 0, i)).toISOString(),
  createdAt: new Date(Date.UTC(2025, 0, i)).toISOString(),
  updatedAt: new Date(Date.UTC(2025, 0, i)).toISOString(),
  translations: {},
});

describe('news archive and feeds list every article', () => {
  const sixty = Array.from({ length: 60 }, (_, i) => toPublicArticle(article(i + 1)));
  it('pages: /blog, then /blog/page/2..N', () => {
    expect(blogPageCount(0)).toBe(1);
    expect(blogPageCount(BLOG_PAGE_SIZE)).toBe(1);
    expect(blogPageCount(60)).toBe(Math.ceil(60 / BLOG_PAGE_SIZE));
    expect(blogPagePath(1)).toBe('/blog');
    expect(archivePaths(60)).toEqual(
      Array.from({ length: blogPageCount(60) - 1 }, (_, i) => `/blog/page/${i + 2}`),
    );
  });
  it('RSS: every article, the author as dc:creator, links in the one URL form', () => {
    const xml = buildRss(sixty, { site: new URL('https://www.example.org'), title: 'T', description: 'D' });
    expect(xml.match(/<item>/g)).toHaveLength(60);
    expect(xml).not.toContain('<author>');
    expect(xml).toContain('<dc:creator>Jordan Avery</dc:creator>');
    expect(xml).toContain('xmlns:dc="http://purl.org/dc/elements/1.1/"');
    expect(xml).toContain('<link>https://www.example.org/blog</link>');
  });
  it('robots.txt lets crawlers read every page, keeps them off the API and names the sitemap', () => {
    const txt = buildRobots(new URL('https://www.example.org'));
    expect(txt.split('\n')).toEqual(
      expect.arrayContaining([
        'User-agent: *',
        'Allow: /',
        'Disallow: /api/',
        'Sitemap: https://www.example.org/sitemap.xml',
      ]),
    );
    expect(txt).not.toMatch(/Disallow: \/\s*$/m);
  });
  it('sitemap: every article and every archive page', () => {
    const xml = buildSitemap(sixty, new URL('https://www.example.org'));
    for (const a of sixty) expect(xml).toContain(`https://www.example.org/article/${a.slug}<`);
    expect(xml).toContain('https://www.example.org/blog/page/2<');
    expect(xml).not.toMatch(/example\.org\/[a-z-/]+\/</);
  });
  it('sitemap: every page in both languages, each listing both versions (docs/decisions/166-spanish.md)', () => {
    const xml = buildSitemap(sixty, new URL('https://www.example.org'));
    for (const path of [
      '',
      '/about',
      '/platform',
      '/donate',
      '/volunteer',
      '/blog',
      '/contact',
      '/privacy-policy',
    ])
      expect(xml).toContain(`<loc>https://www.example.org/es${path}</loc>`);
    expect(xml).toContain(`<loc>https://www.example.org/es/article/${sixty[0]!.slug}</loc>`);
    expect(xml).toContain('<loc>https://www.example.org/es/blog/page/2</loc>');
    const about = xml.split('\n').filter((line) => line.includes('/about</loc>'));
    expect(about).toHaveLength(2);
    for (const line of about) {
      expect(line).toContain('hreflang="en" href="https://www.example.org/about"');
      expect(line).toContain('hreflang="es" href="https://www.example.org/es/about"');
    }
    expect(xml).not.toContain('/es/admin');
  });
  it('CDN headers name every tag and the freshness window', () => {
    expect(cdnHeaders(['news', 'events'], 30)).toMatchObject({
      'Netlify-Cache-Tag': 'news,events',
      'Netlify-CDN-Cache-Control': 'public, s-maxage=30, stale-while-revalidate=150',
    });
  });
});

describe('share', () => {
  it('copies on every failure but the person cancelling', () => {
    expect(cancelledByPerson(new DOMException('Share canceled', 'AbortError'))).toBe(true);
    expect(cancelledByPerson({ name: 'AbortError' })).toBe(true); // another realm's DOMException
    expect(cancelledByPerson(new DOMException('no gesture', 'NotAllowedError'))).toBe(false);
    expect(cancelledByPerson(new TypeError('cannot share'))).toBe(false);
    expect(cancelledByPerson('failed')).toBe(false);
    expect(cancelledByPerson(undefined)).toBe(false);
  });
});

describe('public forms registry', () => {
  it('every form has copy for each of its outcomes', () => {
    for (const id of PUBLIC_FORM_IDS)
      for (const outcome of outcomesOf(id))
        expect((formCopy[id].outcomes as Record<string, unknown>)[outcome], `${id}/${outcome}`).toBeDefined();
  });
  it('never refills a captcha token or a password', () => {
    const input = formFieldsToInput('contact', [
      ['name', 'A'],
      ['captcha', 'tok'],
      ['cf-turnstile-response', 'tok2'],
    ]);
    expect(refillValues('contact', input)).toEqual({ name: 'A' });
    expect(refillValues('reset-password', { password: 'secret', token: 't' })).toEqual({});
  });
});

describe('island styles in the head', () => {
  it('moves the body <style> into the head once', async () => {
    const { hoistIslandStyles } = await import('../../src/lib/server/security-headers.ts');
    const style = '<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>';
    const html = `<html><head><title>x</title></head><body><p>a</p>${style}<script>1</script><astro-island></astro-island>${style}</body></html>`;
    expect(hoistIslandStyles(html)).toBe(
      `<html><head><title>x</title>${style}</head><body><p>a</p><script>1</script><astro-island></astro-island></body></html>`,
    );
    expect(hoistIslandStyles('<html><head></head><body></body></html>')).toBe(
      '<html><head></head><body></body></html>',
    );
  });
});
