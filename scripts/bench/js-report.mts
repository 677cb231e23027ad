/**
 * The JavaScript each public page loads before any interaction, file by file
 * (docs/decisions/162-public-pages-and-performance.md): the same count as `npm run bench`'s table (scripts/bench/pages.mts,
 * gzip -9), without a server. Run after a build:
 *
 *   flock /tmp/campaign-heavy.lock npm run build && node scripts/bench/js-report.mts
 *   JS_REPORT_BRIEF=1 ...   totals only
 *
 * Prerendered pages are read from dist/; on-demand pages (/volunteer, /blog, an
 * article) are rendered by the built SSR function in this process, on a
 * throwaway Blobs store with the local demo content.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchBlobs } from './serve.mts';
import { pageJavaScriptFiles } from './pages.mts';

/** The JavaScript targets (docs/decisions/162-public-pages-and-performance.md, gzip), the English pages and their Spanish versions alike. */
const TARGETS: Record<string, number> = { '/': 70, '/volunteer': 75, '/contact': 75 };
const ROUTES = ['/', '/volunteer', '/contact', '/donate', '/blog', '/about', '/platform'];

const SSR = '.netlify/v1/functions/ssr/ssr.mjs';
if (!existsSync(SSR) || !existsSync('dist/index.html')) {
  console.error('js-report: no build here; run `npm run build` first');
  process.exit(1);
}

const stopBlobs = await benchBlobs();
try {
  process.env.APP_ENV = 'development';
  const { seedLocalStore } = await import('../lib/seed.mts');
  await seedLocalStore();
  const ssr = (await import(pathToFileURL(resolve(SSR)).href)) as {
    default: (request: Request, context: unknown) => Promise<Response>;
  };
  const render = (request: Request) =>
    ssr.default(request, {
      ip: '127.0.0.1',
      params: {},
      geo: {},
      site: {},
      deploy: {},
      account: {},
      server: {},
      cookies: { get: () => undefined, set: () => {}, delete: () => {} },
      waitUntil: () => {},
    });
  const { publicArticles } = await import('../../src/lib/server/content/articles.ts');
  const [first] = await publicArticles();
  const routes = [...ROUTES, ...(first ? [`/article/${first.slug}`] : [])].flatMap((r) => [
    r,
    r === '/' ? '/es' : `/es${r}`,
  ]);
  const pages = await pageJavaScriptFiles(routes, render);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  for (const { route, files, onInteraction } of pages) {
    const gz = files.reduce((n, f) => n + f.gzipBytes, 0);
    const later = onInteraction.reduce((n, f) => n + f.gzipBytes, 0);
    const target = TARGETS[route.replace(/^\/es(?=\/|$)/, '') || '/'];
    const verdict =
      target === undefined
        ? ''
        : gz <= target * 1024
          ? ` (target ${target} KB: ok)`
          : ` (target ${target} KB: OVER)`;
    console.log(
      `${route}: ${files.length} files, ${kb(gz)} gzip${verdict}` +
        (later ? `; on first interaction with a form +${kb(later)}` : ''),
    );
    if (process.env.JS_REPORT_BRIEF) continue;
    for (const f of files) console.log(`  ${kb(f.gzipBytes).padStart(9)}  ${f.url}`);
    for (const f of onInteraction) console.log(`  ${kb(f.gzipBytes).padStart(9)}  ${f.url} (on interaction)`);
  }
} finally {
  await stopBlobs();
}
process.exit(0);
