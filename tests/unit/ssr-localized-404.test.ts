import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_SCRIPT_LOADER } from '../../src/lib/page-script-loader.mjs';

/*
 * Unknown /es/ paths in production. The Netlify adapter's on-demand
 * function answers any path no route matches with ONE prerendered page (its
 * `notFoundContent`, dist/404.html: English); `npm run build` ends with
 * scripts/ssr-localized-404.mjs, which wraps that handler so a path under a
 * language prefix gets that language's prerendered 404. The browser project's
 * dev server empties .netlify/v1/functions when it starts (the adapter's
 * config hook), so the built function cannot be called there: this runs the
 * script on a function written exactly as @astrojs/netlify 8 writes it, whose
 * handler behaves like the adapter's (`createHandler` in ssr-function.js).
 * tests/browser/build-output.test.ts checks the two prerendered pages.
 */

const run = promisify(execFile);
const SCRIPT = join(process.cwd(), 'scripts', 'ssr-localized-404.mjs');
// With the layout's inline script as the real pages have it: its "});" once cut the adapter's call short.
const EN = `<!DOCTYPE html><html lang="en"><head><title>Page Not Found</title></head><body><h1>Page Not Found</h1><script>${PAGE_SCRIPT_LOADER}</script></body></html>`;
const ES =
  '<!DOCTYPE html><html lang="es"><head><title>Página no encontrada</title></head><body><h1>Página no encontrada</h1></body></html>';

/** The adapter's ssr.mjs template (node_modules/@astrojs/netlify/dist/index.js, writeSSRFunction). */
const adapterSsr = (notFoundContent: string) => `
			import { createHandler } from './.netlify/build/entry.mjs';

			export default createHandler(${JSON.stringify({ notFoundContent })});

			// The config must be inlined here instead of imported because Netlify
			// parses this file statically to read the config.
			export const config = {
				includedFiles: ['**/*'],
				name: 'Astro SSR',
				nodeBundler: 'none',
				generator: '@astrojs/netlify@8.2.6',
				path: '/*',
				excludedPath: ['/api/*'],
				preferStatic: true,
			};
		`;

/** Like the adapter's createHandler: a matched route renders, anything else is notFoundContent with 404. */
const ENTRY = `export function createHandler({ notFoundContent }) {
  return async function handler(request) {
    const path = new URL(request.url).pathname;
    if (path === '/about' || path === '/es/about') return new Response('page ' + path, { status: 200 });
    return new Response(notFoundContent, { status: 404, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  };
}
`;

let root = '';
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = '';
});

async function site({ es = true, ssr = adapterSsr(EN) } = {}) {
  root = await mkdtemp(join(tmpdir(), 'ssr-404-'));
  const fn = join(root, '.netlify', 'v1', 'functions', 'ssr');
  await mkdir(join(fn, '.netlify', 'build'), { recursive: true });
  await writeFile(join(fn, '.netlify', 'build', 'entry.mjs'), ENTRY);
  await writeFile(join(fn, 'ssr.mjs'), ssr);
  await mkdir(join(root, 'dist', 'es'), { recursive: true });
  await writeFile(join(root, 'dist', '404.html'), EN);
  if (es) await writeFile(join(root, 'dist', 'es', '404.html'), ES);
  return join(fn, 'ssr.mjs');
}

const script = () => run(process.execPath, [SCRIPT], { cwd: root });

describe('scripts/ssr-localized-404.mjs', () => {
  it('unknown paths under /es/ get the Spanish 404 (status 404), others the English one; pages still render', async () => {
    const file = await site();
    await script();
    const { default: handler, config } = (await import(pathToFileURL(file).href)) as {
      default: (r: Request, c: unknown) => Promise<Response>;
      config: Record<string, unknown>;
    };
    expect(config).toMatchObject({ path: '/*', excludedPath: ['/api/*'], preferStatic: true });
    const ask = async (path: string) => {
      const res = await handler(new Request(`http://localhost${path}`), {});
      return { status: res.status, body: await res.text() };
    };
    for (const path of ['/es/no-existe', '/es/a/b', '/es/events/abc'])
      expect(await ask(path), path).toEqual({ status: 404, body: ES });
    for (const path of ['/no-such', '/esx/y', '/events/abc'])
      expect(await ask(path), path).toEqual({ status: 404, body: EN });
    expect(await ask('/es/about')).toEqual({ status: 200, body: 'page /es/about' });
    expect(await ask('/about')).toEqual({ status: 200, body: 'page /about' });
  });

  it('runs once: a second run changes nothing', async () => {
    const file = await site();
    await script();
    const once = await readFile(file, 'utf8');
    const { stdout } = await script();
    expect(stdout).toContain('already applied');
    expect(await readFile(file, 'utf8')).toBe(once);
  });

  it("fails the build when a language's 404 page is missing or the adapter's output changed", async () => {
    await site({ es: false });
    await expect(script()).rejects.toThrow(/dist\/es\/404\.html is missing/);
    await rm(root, { recursive: true, force: true });
    await site({ ssr: 'export default function handler() {}' });
    await expect(script()).rejects.toThrow(/unexpected/);
  });
});
