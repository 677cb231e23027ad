import { spawn } from 'node:child_process';
import { readdir, readFile, mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'smol-toml';
// The Observatory's own CSP test (the scanner's code, run on our headers: it scans hosts over the network).
import { contentSecurityPolicyTest } from '@mdn/mdn-http-observatory/src/analyzer/tests/csp.js';
import {
  builtPages,
  fillBlogArchive,
  NOT_FOUND,
  onDemandPages,
  pageFacts,
  STAFF_ONLY,
} from './helpers/pages.ts';
import { serveProductionBuild } from './helpers/prod-server.ts';
import { login } from './helpers/staff.ts';
import { vnu, type VnuMessage } from './helpers/vnu.ts';
import { NON_HTML_POLICY, fallbackPagePolicy, policyFor } from '../../src/lib/server/page-policy.ts';

/**
 * Outside validators in the test loop (docs/decisions/163-tests.md): the Nu Html Checker on every
 * built page and on the on-demand pages, and the MDN HTTP Observatory's CSP
 * test on every kind of response's policy. HTML_CodeSniffer (pa11y) runs in
 * `npm run bench` (scripts/bench/validators.mts): a browser per page.
 */
const base = inject('baseURL');
const root = process.cwd();
const staff = await login('admin');
await fillBlogArchive(base, staff.cookie);
const facts = await pageFacts(base, staff.cookie);

async function htmlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await htmlFiles(p)));
    else if (e.name.endsWith('.html')) out.push(p);
  }
  return out;
}

/** What the dev server answered for one on-demand page, and the file its HTML was written to. */
interface OnDemandAnswer {
  path: string;
  status: number;
  contentType: string | null;
  file: string;
}

/**
 * One run of the Nu Html Checker over every built page and every on-demand page (docs/decisions/163-tests.md,
 * "Less work per check"): Java starts once, not once per test; each test below asserts on its own pages' messages.
 * Made by whichever test runs first, so neither needs the other to have run.
 */
let nu: Promise<{ built: string[]; onDemand: OnDemandAnswer[]; errors: VnuMessage[] }> | undefined;
const checkedOnce = () => (nu ??= checkEveryPage());

async function checkEveryPage() {
  const built = await htmlFiles(join(root, 'dist'));
  const onDemand: OnDemandAnswer[] = [];
  for (const [i, path] of onDemandPages(facts).entries()) {
    const res = await fetch(`${base}${path}`, {
      headers: STAFF_ONLY(path) ? { cookie: staff.cookie } : {},
    });
    const html = await res.text();
    // The dev server's own scripts (Vite's client, styles served as modules from /src) are not what production serves.
    const file = join(tmp, `page-${i}.html`);
    await writeFile(
      file,
      html.replace(/<script type="module" src="\/(@vite\/client|src\/[^"]*)"><\/script>/g, ''),
    );
    onDemand.push({ path, status: res.status, contentType: res.headers.get('content-type'), file });
  }
  // Only when both lists are whole: a checker given no files fails (helpers/vnu.ts), never passes.
  const errors = built.length && onDemand.length ? await vnu([...built, ...onDemand.map((a) => a.file)]) : [];
  return { built, onDemand, errors };
}

/** The checker's messages about one file (vnu reports each file as a file: URL). */
const about = (errors: VnuMessage[], file: string) => errors.filter((m) => fileURLToPath(m.url) === file);

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'vnu-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('Nu Html Checker: no errors', () => {
  it('on every built page', async () => {
    const { built: files, errors: all } = await checkedOnce();
    expect(files.length).toBeGreaterThan(10);
    const errors = files.flatMap((f) => about(all, f));
    expect(
      errors.map((m) => `${relative(root, new URL(m.url).pathname)}: ${m.message} ${m.extract ?? ''}`),
    ).toEqual([]);
  }, 180_000);

  it('on every on-demand page, in each language and state (helpers/pages.ts)', async () => {
    const { onDemand, errors: all } = await checkedOnce();
    const paths = onDemand.map((a) => a.path);
    expect(paths.length).toBeGreaterThan(20);
    for (const { path, status, contentType } of onDemand) {
      expect(status, path).toBeLessThan(500);
      expect(contentType, path).toMatch(/^text\/html/);
    }
    const errors = onDemand.flatMap((a) => about(all, a.file).map((m) => `${a.path}: ${m.message}`));
    expect(errors).toEqual([]);
  }, 180_000);

  it("the one checker run's every message is about a file of one of the two lists (none lost by the split)", async () => {
    const { built, onDemand, errors } = await checkedOnce();
    const attributed = [...built, ...onDemand.map((a) => a.file)].flatMap((f) => about(errors, f));
    expect(attributed).toHaveLength(errors.length);
  }, 180_000);
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
        // No header at all when the response had none (an empty one is an invalid policy of its own).
        headers: csp ? { 'content-security-policy': csp } : {},
        httpEquiv: new Map([['content-security-policy', meta]]),
      },
    },
    session: { url: new URL('https://www.example.org/') },
  }).result;
}

/** The policies of an HTML body's <meta http-equiv="Content-Security-Policy"> elements. */
function metaPolicies(html: string): string[] {
  return [...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)"/gi)].map((m) =>
    m[1]!
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&'),
  );
}

interface BuiltAnswer {
  kind: string;
  path: string;
  status: number;
  contentType: string;
  csp: string | null;
  meta: string[];
}

/** What the production build answers (helpers/built-responses.mts, in a process of its own). */
async function builtResponses(pages: string[]): Promise<BuiltAnswer[]> {
  const child = spawn(process.execPath, [join(root, 'tests/browser/helpers/built-responses.mts')], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += String(c)));
  child.stderr.on('data', (c) => (err += String(c)));
  child.stdin.end(JSON.stringify({ pages }));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  if (code !== 0) throw new Error(`built-responses.mts exited ${code}: ${err.slice(-2000)}`);
  return JSON.parse(out) as BuiltAnswer[];
}

const GOOD_PAGE = ['csp-implemented-with-no-unsafe', 'csp-implemented-with-unsafe-inline-in-style-src-only'];
/**
 * A real page's verdict may also be the Observatory's best one: the static 404 page's <meta> policy
 * combined with the site-wide header (which has no default-src) reads as default-src 'none'.
 */
const PASSING_PAGE = [...GOOD_PAGE, 'csp-implemented-with-no-unsafe-default-src-none'];

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

  it("real responses: every built page as Netlify serves it (header rules, the 404 pages' <meta>)", async () => {
    const server = await serveProductionBuild(root);
    try {
      // An unknown path under /es is answered by the on-demand function in production (judged in the next
      // test); its page, dist/es/404.html, is judged here at its own path.
      const pages = builtPages().map((p) => (p === NOT_FOUND.es ? '/es/404' : p));
      expect(pages.length).toBeGreaterThan(30);
      // Every verdict first, then one assertion: a failure lists every page that fails.
      const failing: string[] = [];
      for (const path of pages) {
        const res = await fetch(`${server.url}${path}`);
        const html = await res.text();
        const verdict = observatory(res.headers.get('content-security-policy') ?? '', metaPolicies(html));
        if (!PASSING_PAGE.includes(verdict)) failing.push(`${path}: ${verdict}`);
      }
      expect(failing).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('real responses of every other kind from the production build: on-demand pages in both languages and every state, the staff preview, unknown paths, feeds, API JSON and refusals, an upload', async () => {
    const answers = await builtResponses(onDemandPages(facts));
    const kinds = new Set(answers.map((a) => a.kind));
    for (const kind of [
      'on-demand page',
      'staff preview',
      'unknown path',
      'feed or file',
      'API JSON',
      'API refusal',
      'upload answer',
      'uploaded image',
    ])
      expect(kinds, kind).toContain(kind);
    expect(answers.find((a) => a.kind === 'staff preview')?.status).toBe(200);
    const failing = answers.flatMap((a) => {
      const verdict = observatory(a.csp ?? '', a.meta);
      const ok = a.contentType.startsWith('text/html')
        ? PASSING_PAGE.includes(verdict)
        : verdict === 'csp-implemented-with-no-unsafe-default-src-none';
      return ok ? [] : [`${a.kind} ${a.path} (${a.contentType}): ${verdict}`];
    });
    expect(failing).toEqual([]);
  }, 120_000);

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
