import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEV_USERS } from '../../scripts/lib/dev-users.mts';
import { bundleFunctions } from '../../scripts/lib/bundle-functions.mts';

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

describe('function bundles carry no development code', () => {
  it('no deployed function contains the dev passwords, the seed or the dev-server plugin', async () => {
    const out = await mkdtemp(join(tmpdir(), 'function-bundles-'));
    try {
      const bundles = await bundleFunctions(process.cwd(), out);
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
        for (const f of b.files.filter((x) => /\.(m?js|cjs|mts|ts|json)$/.test(x))) {
          const text = await readFile(join(b.dir, f), 'utf8');
          for (const word of forbidden)
            expect(text.includes(word), `${b.name}/${f} contains ${word}`).toBe(false);
        }
      }
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 180_000);
});
