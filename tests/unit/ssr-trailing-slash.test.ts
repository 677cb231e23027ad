import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

/*
 * docs/decisions/162-public-pages-and-performance.md: on Netlify, `/about/`, `/blog/` and `/es/` have no
 * file and reach the on-demand function, whose handler answered them with the 404 page. `npm run build`
 * runs scripts/ssr-localized-404.mjs and then scripts/ssr-trailing-slash.mts on the adapter's function;
 * this runs both, in that order, on a function written as @astrojs/netlify 8 writes it (the browser
 * project's dev server empties .netlify/v1/functions, so the built one cannot be called there), with a
 * handler that behaves like the adapter's (see tests/unit/ssr-localized-404.test.ts).
 */
const run = promisify(execFile);
const LOCALIZED_404 = join(process.cwd(), 'scripts', 'ssr-localized-404.mjs');
const TRAILING_SLASH = join(process.cwd(), 'scripts', 'ssr-trailing-slash.mts');

const adapterSsr = `
			import { createHandler } from './.netlify/build/entry.mjs';

			export default createHandler(${JSON.stringify({ notFoundContent: '<h1>Page Not Found</h1>' })});

			export const config = {
				name: 'Astro SSR',
				path: '/*',
				excludedPath: ['/api/*'],
				preferStatic: true,
			};
		`;
const ENTRY = `export function createHandler({ notFoundContent }) {
  return async function handler(request) {
    const path = new URL(request.url).pathname;
    if (['/about', '/es/about', '/blog', '/es'].includes(path)) return new Response('page ' + path, { status: 200 });
    return new Response(notFoundContent, { status: 404 });
  };
}
`;

let root = '';
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = '';
});

async function site(ssr = adapterSsr): Promise<string> {
  root = await mkdtemp(join(tmpdir(), 'ssr-slash-'));
  const fn = join(root, '.netlify', 'v1', 'functions', 'ssr');
  await mkdir(join(fn, '.netlify', 'build'), { recursive: true });
  await writeFile(join(fn, '.netlify', 'build', 'entry.mjs'), ENTRY);
  await writeFile(join(fn, 'ssr.mjs'), ssr);
  await mkdir(join(root, 'dist', 'es'), { recursive: true });
  await writeFile(join(root, 'dist', '404.html'), '<h1>Page Not Found</h1>');
  await writeFile(join(root, 'dist', 'es', '404.html'), '<h1>Página no encontrada</h1>');
  return join(fn, 'ssr.mjs');
}
const script = (file: string) => run(process.execPath, [file], { cwd: root });

describe('scripts/ssr-trailing-slash.mts', () => {
  it('the built function answers /page/ with 301 /page; pages and 404s as before', async () => {
    const file = await site();
    await script(LOCALIZED_404);
    await script(TRAILING_SLASH);
    const { default: handler } = (await import(pathToFileURL(file).href)) as {
      default: (r: Request, c: unknown) => Promise<Response>;
    };
    const ask = async (path: string, method = 'GET') => {
      const res = await handler(new Request(`https://site.example${path}`, { method }), {});
      return { status: res.status, location: res.headers.get('location') };
    };
    expect(await ask('/about/')).toEqual({ status: 301, location: '/about' });
    expect(await ask('/blog/')).toEqual({ status: 301, location: '/blog' });
    expect(await ask('/es/')).toEqual({ status: 301, location: '/es' });
    expect(await ask('/es/about/?utm_source=flyer')).toEqual({
      status: 301,
      location: '/es/about?utm_source=flyer',
    });
    expect(await ask('/blog/', 'POST')).toEqual({ status: 308, location: '/blog' });
    expect(await ask('/about')).toEqual({ status: 200, location: null });
    expect(await ask('/no-such-page')).toEqual({ status: 404, location: null });
    // Once: a second run changes nothing.
    const once = await readFile(file, 'utf8');
    await script(TRAILING_SLASH);
    expect(await readFile(file, 'utf8')).toBe(once);
  });

  it("fails the build when the function's handler no longer looks as expected", async () => {
    await site('export default function other() {}');
    await expect(script(TRAILING_SLASH)).rejects.toThrow(/unexpected/);
  });
});
