import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_USERS } from '../../scripts/lib/dev-users.mts';
import { bundleFunctions, type FunctionBundle } from '../../scripts/lib/bundle-functions.mts';
import { PUBLIC_READ_FUNCTIONS } from '../../scripts/bench/functions.mts';
import { copyFor } from '../../src/content/copy.ts';

/*
 * The dashboard is mounted client:only on /admin; no public page may load any
 * of its code or styles. Reads the production build the browser project's
 * global setup made (dist/) and follows every page's scripts, island
 * components, preloads, stylesheets and their imports, looking for marker text
 * that exists only in src/admin.
 */

const ADMIN_MARKERS = ['useAuth must be used within an AuthProvider', '.admin-app', 'Blog Management'];

const outDir = join(process.cwd(), 'dist');

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => join(e.parentPath, e.name));
}

/** Every /_astro asset a page loads, following JS imports transitively. */
async function assetsOf(html: string): Promise<Set<string>> {
  const found = new Set<string>();
  const queue: string[] = [];
  const add = (url: string) => {
    const path = url.replace(/^\//, '').split(/[?#]/)[0]!;
    if (path.startsWith('_astro/') && !found.has(path)) {
      found.add(path);
      queue.push(path);
    }
  };
  for (const m of html.matchAll(/(?:src|href|component-url|renderer-url|before-hydration-url)="([^"]+)"/g))
    add(m[1]!);
  while (queue.length) {
    const path = queue.pop()!;
    if (!path.endsWith('.js')) continue;
    const js = await readFile(join(outDir, path), 'utf8');
    for (const m of js.matchAll(/(?:from\s*|import\s*\(?\s*)["'](\.{1,2}\/[^"']+|\/_astro\/[^"']+)["']/g)) {
      const spec = m[1]!;
      add(spec.startsWith('/') ? spec : join('_astro', spec).replace(/^_astro\/\.\.\//, ''));
    }
  }
  return found;
}

async function containsAdminCode(assets: Set<string>): Promise<string[]> {
  const hits: string[] = [];
  for (const path of assets) {
    const text = await readFile(join(outDir, path), 'utf8');
    if (ADMIN_MARKERS.some((m) => text.includes(m))) hits.push(path);
  }
  return hits;
}

describe('admin code stays on /admin', () => {
  it('the admin page loads the dashboard bundle', async () => {
    const html = await readFile(join(outDir, 'admin.html'), 'utf8');
    expect(html).toContain('client="only"');
    expect(await containsAdminCode(await assetsOf(html))).not.toEqual([]);
  });

  it('no public page loads any admin code or styles', async () => {
    const pages = (await htmlFiles(outDir)).filter((p) => relative(outDir, p) !== 'admin.html');
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) {
      const hits = await containsAdminCode(await assetsOf(await readFile(page, 'utf8')));
      expect(hits, relative(outDir, page)).toEqual([]);
    }
  });
});

describe('no render-blocking request', () => {
  // One TCP round trip carries about 14 KB (10 segments): the CSS for the first screen must fit.
  const FIRST_ROUND_TRIP = 14 * 1024;

  it('every page has its CSS in the HTML, within the first round trip, and links no stylesheet', async () => {
    const pages = await htmlFiles(outDir);
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) {
      const html = await readFile(page, 'utf8');
      const name = relative(outDir, page);
      expect(html, `${name} links a stylesheet`).not.toMatch(/<link[^>]*rel="stylesheet"/);
      const css = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('');
      expect(css.length, `${name} has its styles inline`).toBeGreaterThan(1000);
      expect(gzipSync(css).length, `${name}: inline CSS, gzip`).toBeLessThan(FIRST_ROUND_TRIP);
      // Nor does a script file block rendering: each is a deferred module (inline scripts need no request).
      const scripts = (html.match(/<script\b[^>]*>/g) ?? []).filter((t) => /\bsrc=/.test(t));
      for (const tag of scripts) expect(tag, `${name}: ${tag}`).toMatch(/type="module"|\bdefer\b|\basync\b/);
      // One layout script (PageScripts.astro), not one per component: each is a request before the first paint.
      expect(scripts.length, `${name}: script files`).toBeLessThanOrEqual(1);
    }
  });

  it('robots.txt is a static file (crawlers never wait on a function) that names the sitemap', async () => {
    const robots = await readFile(join(outDir, 'robots.txt'), 'utf8');
    expect(robots).toMatch(/^User-agent: \*$/m);
    expect(robots).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);
  });
});

describe('function bundles (as Netlify deploys them)', () => {
  let out = '';
  let bundles: FunctionBundle[] = [];
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'function-bundles-'));
    bundles = await bundleFunctions(process.cwd(), out);
    // A limit, not a budget: bundling every function takes about a minute on an idle machine and
    // measured over three on a busy one (2026-11-27); the test is about what the bundles contain.
  }, 600_000);
  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true });
  });

  /** Whether the bundle ships an npm package (zip-it-and-ship-it leaves every package as files in node_modules). */
  const ships = (b: FunctionBundle, pkg: string) =>
    b.files.some((f) => f.replace(/\\/g, '/').startsWith(`node_modules/${pkg}/`));

  it('no deployed function contains the dev passwords, the seed or the dev-server plugin', async () => {
    expect(bundles.length).toBeGreaterThan(20);
    const forbidden = [
      ...DEV_USERS.map((u) => u.password),
      'seedLocalStore',
      'campaign:functions-in-process',
    ];
    for (const b of bundles) {
      expect(
        b.files.some((f) => /scripts[\\/]/.test(f)),
        `${b.name} bundles a file from scripts/`,
      ).toBe(false);
      for (const f of b.files.filter(
        (x) => /\.(m?js|cjs|mts|ts|json)$/.test(x) && !x.includes('node_modules'),
      )) {
        const text = await readFile(join(b.dir, f), 'utf8');
        for (const word of forbidden)
          expect(text.includes(word), `${b.name}/${f} contains ${word}`).toBe(false);
      }
    }
  });

  it('the public reads ship neither zod, sanitize-html nor twilio (they start in a few ms)', async () => {
    for (const name of PUBLIC_READ_FUNCTIONS) {
      const b = bundles.find((x) => x.name === name);
      expect(b, name).toBeTruthy();
      for (const pkg of ['zod', 'sanitize-html', 'twilio', 'jose'])
        expect(ships(b!, pkg), `${name} ships ${pkg}`).toBe(false);
      const code = await readFile(b!.module, 'utf8');
      expect(code).not.toMatch(/from\s*["']zod["']|import\(["']zod["']\)/);
      // node:crypto costs as much as the rest of a public read: loaded on first use (storage/keys.ts, form-post.ts).
      expect(code, `${name} imports node:crypto at start-up`).not.toMatch(/from\s*["']node:crypto["']/);
    }
  });

  it('twilio, sanitize-html and argon2 are imported only on use; sanitize-html only where rich text is written', async () => {
    const named = (name: string) => bundles.find((b) => b.name === name)!;
    expect(ships(named('text-signup'), 'twilio')).toBe(true);
    expect(ships(named('sms-inbound'), 'twilio')).toBe(true);
    expect(ships(named('admin-news'), 'sanitize-html')).toBe(true);
    // Articles, and broadcast emails (cleaned with the article allowlist: docs/decisions/152-broadcasts.md).
    const writesArticles = ['admin-news', 'admin-preview', 'admin-revisions', 'admin-broadcasts'];
    const staticImport = (pkg: string) =>
      new RegExp(`(^|[;\\n])\\s*import\\s[^;]*?from\\s*["']${pkg}["']|require\\(["']${pkg}["']\\)`);
    for (const b of bundles) {
      const code = await readFile(b.module, 'utf8');
      // Never a static import: only `import("twilio")` where a text is sent or a webhook checked,
      // `import("sanitize-html")` where article HTML is cleaned, `import("argon2")` where a password is hashed or checked.
      for (const pkg of ['twilio', 'sanitize-html', 'argon2'])
        expect(code, `${b.name} imports ${pkg} at start-up`).not.toMatch(staticImport(pkg));
      if (ships(b, 'sanitize-html')) expect(writesArticles, b.name).toContain(b.name);
    }
  });
});

describe('not-found pages in production (docs/decisions/166-spanish.md)', () => {
  /*
   * Netlify sends every path without a static file to the on-demand function, whose
   * adapter answers an unmatched one with a prerendered 404 page;
   * scripts/ssr-localized-404.mjs picks the page by the path's language (tested in
   * tests/unit/ssr-localized-404.test.ts: the dev server this project starts empties
   * the built function). Here: the prerendered pages it serves are each in their language.
   */
  const h1 = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1]?.trim();
  const lang = (html: string) => /<html[^>]*\slang="([^"]+)"/.exec(html)?.[1];

  it('the static 404 files are each in their language', async () => {
    for (const [file, l] of [
      ['404.html', 'en'],
      ['es/404.html', 'es'],
    ] as const) {
      const html = await readFile(join(outDir, file), 'utf8');
      expect(lang(html), file).toBe(l);
      expect(h1(html), file).toBe(copyFor(l).pages.notFoundCopy.heading);
    }
  });
});
