import { describe, expect, inject, it } from 'vitest';
import { SECURITY_HEADERS } from '../../src/lib/server/security-headers.ts';

/**
 * The header set on each kind of response, as the dev server (Netlify's
 * emulation: netlify.toml rules, functions, on-demand pages) serves them.
 * The build-time page CSP is checked against the production build in csp.test.ts.
 */
const base = inject('baseURL');

const ORIGIN_HEADERS = () => ({ origin: base, 'sec-fetch-site': 'same-origin' });

function expectSecurityHeaders(res: Response, except: string[] = []) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (except.includes(name)) continue;
    if (name === 'Content-Security-Policy') {
      for (const d of ["frame-ancestors 'none'"])
        expect(res.headers.get(name), `${res.url} ${name}`).toContain(d);
    } else {
      expect(res.headers.get(name), `${res.url} ${name}`).toBe(value);
    }
  }
}

async function signIn(username: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...ORIGIN_HEADERS() },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(200);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}

describe('response headers by kind of response', () => {
  it('static page', async () => {
    const res = await fetch(`${base}/about`);
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
  });

  it('the reset page sends no Referer', async () => {
    const res = await fetch(`${base}/reset-password`);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('on-demand page (article) and on-demand routes (rss, sitemap, ics)', async () => {
    const { articles } = (await (await fetch(`${base}/api/news`)).json()) as { articles: { slug: string }[] };
    const article = await fetch(`${base}/article/${articles[0]!.slug}`);
    expect(article.status).toBe(200);
    expectSecurityHeaders(article);
    for (const path of ['/rss.xml', '/sitemap.xml', '/events.ics']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      expectSecurityHeaders(res);
    }
  });

  it('API answers: security headers, a do-nothing CSP, and no-store for personal data', async () => {
    const me = await fetch(`${base}/api/auth/me`);
    expect(me.status).toBe(401);
    expectSecurityHeaders(me);
    expect(me.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(me.headers.get('cache-control')).toBe('no-store');
    const cookie = await signIn('admin', 'admin-dev-password');
    const users = await fetch(`${base}/api/admin/users`, { headers: { cookie } });
    expect(users.status).toBe(200);
    expect(users.headers.get('cache-control')).toBe('no-store');
    expect(users.headers.get('access-control-allow-origin') ?? '').not.toBe('*');
  });

  it('uploaded image: stored type, nosniff and a sandboxing CSP', async () => {
    const cookie = await signIn('editor', 'editor-dev-password');
    // A 1x1 PNG.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const form = new FormData();
    form.append('image', new Blob([png], { type: 'image/png' }), 'pixel.png');
    const up = await fetch(`${base}/api/upload`, {
      method: 'POST',
      body: form,
      headers: { cookie, ...ORIGIN_HEADERS() },
    });
    expect(up.status).toBeLessThan(300);
    const { imageUrl } = (await up.json()) as { imageUrl: string };
    const img = await fetch(`${base}${imageUrl}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    expect(img.headers.get('content-security-policy')).toMatch(/sandbox/);
  });

  it('not-found page: 404 with the security headers', async () => {
    const res = await fetch(`${base}/no-such-page-here`);
    expect(res.status).toBe(404);
    expectSecurityHeaders(res);
  });
});

/*
 * The dev server's own shortcuts change speed, never answers.
 * Netlify's dev middleware must not bundle the functions (a minute of CPU before
 * the first page; /api/* is served in-process), and a remembered /_image answer
 * is the same answer.
 */
describe('dev server shortcuts', () => {
  it("Netlify's dev middleware emulates Blobs, headers and redirects but not functions", async () => {
    const { readFile } = await import('node:fs/promises');
    const log = await readFile(new URL('../.tmp/astro-dev.log', import.meta.url), 'utf8');
    const features = /Emulating features: ([^.\n]+)/.exec(log)?.[1]?.split(/,\s*/) ?? [];
    expect(features).toEqual(expect.arrayContaining(['blobs', 'headers', 'redirects', 'static']));
    expect(features).not.toContain('functions');
  });

  it('a repeated /_image request gets the same image and headers', async () => {
    const html = await (await fetch(`${base}/about`)).text();
    const src = /(?:src|srcset)="(\/_image\?[^"\s]+)/.exec(html)?.[1]?.replaceAll('&amp;', '&');
    expect(src, 'the about page has a dev-server image').toBeTruthy();
    const first = await fetch(`${base}${src}`);
    const second = await fetch(`${base}${src}`);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^image\//);
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(second.headers.get('cache-control')).toBe(first.headers.get('cache-control'));
    const bytes = Buffer.from(await first.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(100);
    expect(Buffer.from(await second.arrayBuffer())).toEqual(bytes);
  });
});
