import { execFile } from 'node:child_process';
import { readdir, readFile, mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'smol-toml';
// The Observatory's own CSP test (the scanner's code, run on our headers: it scans hosts over the network).
import { contentSecurityPolicyTest } from '@mdn/mdn-http-observatory/src/analyzer/tests/csp.js';
import { NON_HTML_POLICY, fallbackPagePolicy, policyFor } from '../../src/lib/server/page-policy.ts';

/**
 * Outside validators in the test loop (issue 9): the Nu Html Checker on every
 * built page and on the on-demand pages, and the MDN HTTP Observatory's CSP
 * test on every kind of response's policy. HTML_CodeSniffer (pa11y) runs in
 * `npm run bench` (scripts/bench/validators.mts): a browser per page.
 */
const run = promisify(execFile);
const base = inject('baseURL');
const root = process.cwd();
const VNU_JAR = join(root, 'node_modules', 'vnu-jar', 'build', 'dist', 'vnu.jar');

async function htmlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await htmlFiles(p)));
    else if (e.name.endsWith('.html')) out.push(p);
  }
  return out;
}

interface VnuMessage {
  type: string;
  url: string;
  message: string;
  extract?: string;
}

/** Runs vnu.jar once over many files; returns its error messages. */
async function vnu(files: string[]): Promise<VnuMessage[]> {
  let output: string;
  try {
    const r = await run('java', ['-jar', VNU_JAR, '--format', 'json', '--errors-only', ...files], {
      maxBuffer: 32 * 1024 * 1024,
    });
    output = r.stderr || r.stdout;
  } catch (err) {
    // vnu exits 1 when it found errors; the report is on stderr.
    output = (err as { stderr?: string }).stderr ?? '';
  }
  if (!output.trim()) return [];
  const { messages } = JSON.parse(output) as { messages: VnuMessage[] };
  return messages.filter((m) => m.type === 'error');
}

describe('Nu Html Checker: no errors', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'vnu-'));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it('on every built page', async () => {
    const files = await htmlFiles(join(root, 'dist'));
    expect(files.length).toBeGreaterThan(10);
    const errors = await vnu(files);
    expect(
      errors.map((m) => `${relative(root, new URL(m.url).pathname)}: ${m.message} ${m.extract ?? ''}`),
    ).toEqual([]);
  }, 120_000);

  it('on the on-demand pages (blog, volunteer, contact, an article, a form outcome)', async () => {
    const { articles } = (await (await fetch(`${base}/api/news`)).json()) as { articles: { slug: string }[] };
    const paths = [
      '/blog',
      '/volunteer',
      // On demand since it lists every upcoming event (docs/decisions/new-w2-contact-lists-events.md).
      '/contact',
      '/es/contact',
      `/article/${articles[0]!.slug}`,
      '/article/no-such-article',
      '/forms/contact?error=400',
      '/forms/volunteer?error=503',
      '/forms/text-signup?error=429',
      '/forms/newsletter?error=400',
    ];
    const files: string[] = [];
    for (const [i, path] of paths.entries()) {
      const html = await (await fetch(`${base}${path}`)).text();
      // The dev server's own scripts (Vite's client, styles served as modules from /src) are not what production serves.
      const file = join(tmp, `page-${i}.html`);
      await writeFile(
        file,
        html.replace(/<script type="module" src="\/(@vite\/client|src\/[^"]*)"><\/script>/g, ''),
      );
      files.push(file);
    }
    const errors = await vnu(files);
    expect(errors.map((m) => `${paths[Number(/page-(\d+)/.exec(m.url)?.[1])]}: ${m.message}`)).toEqual([]);
  }, 120_000);
});

interface Rule {
  for: string;
  values: Record<string, string>;
}

const matches = (pattern: string, path: string) =>
  pattern.endsWith('/*')
    ? path.startsWith(pattern.slice(0, -1)) || path === pattern.slice(0, -2)
    : pattern === path;

/** The Observatory's verdict on one response's headers (and meta policies). */
function observatory(csp: string, meta: string[] = []): string {
  return contentSecurityPolicyTest({
    responses: {
      auto: {
        headers: { 'content-security-policy': csp },
        httpEquiv: new Map([['content-security-policy', meta]]),
      },
    },
    session: { url: new URL('https://www.example.org/') },
  }).result;
}

const GOOD_PAGE = ['csp-implemented-with-no-unsafe', 'csp-implemented-with-unsafe-inline-in-style-src-only'];

describe('MDN HTTP Observatory: every response type has one CSP that parses', () => {
  it('static pages: the page policy, as netlify serve applies the header rules', async () => {
    const toml = parse(await readFile(join(root, 'netlify.toml'), 'utf8')) as unknown as { headers?: Rule[] };
    const framework = JSON.parse(await readFile(join(root, '.netlify/v1/config.json'), 'utf8')) as {
      headers?: Rule[];
    };
    const pages = (framework.headers ?? []).filter((r) => r.values['Content-Security-Policy']);
    expect(pages.length).toBeGreaterThan(8);
    for (const page of pages) {
      // As Netlify applies them: later rules win on the same header name.
      const headers: Record<string, string> = {};
      for (const rule of [...(toml.headers ?? []), ...(framework.headers ?? [])])
        if (matches(rule.for, page.for)) Object.assign(headers, rule.values);
      expect(observatory(headers['Content-Security-Policy']!), page.for).toSatisfy((r: string) =>
        GOOD_PAGE.includes(r),
      );
    }
    // `netlify serve` matches rules against the file it serves (/about.html), Netlify against the path
    // asked for (/about): each page's policy is on both (scripts/static-headers-html.mjs).
    for (const page of pages.filter((p) => p.for !== '/' && !p.for.endsWith('.html'))) {
      const twin = pages.find((p) => p.for === `${page.for}.html`);
      expect(twin?.values, `${page.for}.html`).toEqual(page.values);
    }
  });

  it('on-demand pages without an Astro policy, feeds, calendar, API answers and uploads', () => {
    const env = { PUBLIC_DONATION_URL: 'https://secure.actblue.com/donate/x' };
    expect(GOOD_PAGE).toContain(observatory(fallbackPagePolicy(env)));
    expect(GOOD_PAGE).toContain(observatory(policyFor('text/html', null, { dev: false, env })!));
    for (const type of ['application/rss+xml', 'application/xml', 'text/calendar', 'text/plain'])
      expect(observatory(policyFor(type, null, { dev: false, env })!)).toBe(
        'csp-implemented-with-no-unsafe-default-src-none',
      );
    expect(observatory(NON_HTML_POLICY)).toBe('csp-implemented-with-no-unsafe-default-src-none');
    expect(observatory("default-src 'none'; frame-ancestors 'none'")).toBe(
      'csp-implemented-with-no-unsafe-default-src-none',
    );
    expect(observatory("default-src 'none'; sandbox")).toBe(
      'csp-implemented-with-no-unsafe-default-src-none',
    );
  });

  it('the old double policy is what the Observatory refused (the check can fail)', () => {
    expect(observatory("frame-ancestors 'none'; object-src 'none'; frame-ancestors 'none'")).toBe(
      'csp-header-invalid',
    );
  });

  it('the dev server sends one CSP header per on-demand response', async () => {
    for (const path of ['/blog', '/volunteer', '/rss.xml', '/sitemap.xml', '/events.ics', '/no-such-page']) {
      const res = await fetch(`${base}${path}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).not.toContain(', ');
      expect(observatory(csp), path).not.toBe('csp-header-invalid');
      if (!(res.headers.get('content-type') ?? '').includes('html')) expect(csp, path).toBe(NON_HTML_POLICY);
      else expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
    }
  });
});
