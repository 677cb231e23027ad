/**
 * Page figures from the production build: JavaScript a page can load before any
 * interaction (its module scripts and islands, with their static imports,
 * gzip-compressed), and Lighthouse (mobile, median of 3) against a
 * production-like local server.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const run = promisify(execFile);

/** The static HTML file for a route in dist/, if the route is prerendered (pages are `about.html`). */
function htmlFile(route: string): string | null {
  const name = route.replace(/^\//, '');
  const candidates =
    route === '/' ? ['dist/index.html'] : [join('dist', `${name}.html`), join('dist', name, 'index.html')];
  return candidates.find((f) => existsSync(f)) ?? null;
}

/**
 * Where on-demand pages come from: a server of the same build (its origin,
 * e.g. the bench's `netlify serve`), or a function answering a route's
 * Request (scripts/bench/js-report.mts calls the built SSR function in process).
 */
export type PageSource = string | ((request: Request) => Promise<Response>);

/** A route's HTML: the built file, or (on-demand pages: /blog, /volunteer, articles) from `source`. */
async function pageHtml(route: string, source?: PageSource): Promise<string | null> {
  const file = htmlFile(route);
  if (file) return readFile(file, 'utf8');
  if (!source) return null;
  const res =
    typeof source === 'string'
      ? await fetch(new URL(route, source))
      : await source(new Request(new URL(route, 'http://localhost')));
  return res.ok ? res.text() : null;
}

/**
 * Entry scripts of a page: module scripts, modulepreloads and island
 * component/renderer URLs (`eager`), except the islands that hydrate only on
 * the visitor's first interaction with them (`client:interaction`, whose
 * directive loads nothing before: docs/decisions.md), which are `onInteraction`.
 */
export function entries(html: string): { eager: string[]; onInteraction: string[] } {
  const eager = new Set<string>();
  const later = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+\.js)(?:\?[^"]*)?"/g)) eager.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"?]+)(?:\?[^"]*)?"/g))
    eager.add(m[1]!);
  for (const island of html.matchAll(/<astro-island\b[^>]*>/g)) {
    const onInteraction = /\bclient="interaction"/.test(island[0]);
    for (const m of island[0].matchAll(/(?:component-url|renderer-url)="([^"?]+)(?:\?[^"]*)?"/g))
      (onInteraction ? later : eager).add(m[1]!);
  }
  // Any other component or renderer URL (outside an <astro-island> tag as Astro writes it) counts as eager.
  for (const m of html.matchAll(/(?:component-url|renderer-url)="([^"?]+)(?:\?[^"]*)?"/g))
    if (!later.has(m[1]!)) eager.add(m[1]!);
  // Netlify's build adds ?dpl=<deploy id> (skew protection); the file is the same.
  const local = (urls: Set<string>) => [...urls].filter((u) => u.startsWith('/'));
  return { eager: local(eager), onInteraction: local(later) };
}

/** Follows static imports (not dynamic import()) from the entry files. */
async function closure(start: string[]): Promise<Map<string, Buffer>> {
  const seen = new Map<string, Buffer>();
  const queue = [...start];
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    const file = join('dist', url);
    if (!existsSync(file)) continue;
    const body = await readFile(file);
    seen.set(url, body);
    const text = body.toString('utf8');
    for (const m of text.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g)) {
      const spec = m[1]!.replace(/\?.*$/, '');
      if (spec.startsWith('.') || spec.startsWith('/')) queue.push(new URL(spec, `http://x${url}`).pathname);
    }
  }
  return seen;
}

export interface PageJs {
  route: string;
  files: number;
  rawBytes: number;
  gzipBytes: number;
  /** What the page adds on the first interaction with a `client:interaction` island. */
  onInteractionGzipBytes: number;
}

export interface PageJsFile {
  url: string;
  rawBytes: number;
  gzipBytes: number;
}

/**
 * JavaScript per page after `npm run build`, file by file (largest first).
 * Prerendered pages are read from dist/; on-demand pages need `source` (a
 * server of the same build, or its SSR function) and are skipped without one.
 */
export async function pageJavaScriptFiles(
  routes: string[],
  source?: PageSource,
): Promise<{ route: string; files: PageJsFile[]; onInteraction: PageJsFile[] }[]> {
  const sized = (files: Map<string, Buffer>) =>
    [...files]
      .map(([url, body]) => ({ url, rawBytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length }))
      .sort((a, b) => b.gzipBytes - a.gzipBytes);
  const out: { route: string; files: PageJsFile[]; onInteraction: PageJsFile[] }[] = [];
  for (const route of routes) {
    const html = await pageHtml(route, source);
    if (!html) continue;
    const { eager, onInteraction } = entries(html);
    const before = await closure(eager);
    // What the first interaction adds: the deferred islands' files not already loaded.
    const after = await closure(onInteraction);
    for (const url of before.keys()) after.delete(url);
    out.push({ route, files: sized(before), onInteraction: sized(after) });
  }
  return out;
}

const gzipTotal = (files: PageJsFile[]) => files.reduce((n, f) => n + f.gzipBytes, 0);

/** JavaScript per page, summed (`npm run bench`'s table). */
export async function pageJavaScript(routes: string[], source?: PageSource): Promise<PageJs[]> {
  return (await pageJavaScriptFiles(routes, source)).map(({ route, files, onInteraction }) => ({
    route,
    files: files.length,
    rawBytes: files.reduce((n, f) => n + f.rawBytes, 0),
    gzipBytes: gzipTotal(files),
    onInteractionGzipBytes: gzipTotal(onInteraction),
  }));
}

export interface LighthouseScores {
  route: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
}

const CHROME_FLAGS =
  '--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync';

/** One Lighthouse run; its own trace hiccups (NO_NAVSTART and the like) are retried twice. */
async function lighthouseOnce(url: string, attempts = 3): Promise<Omit<LighthouseScores, 'route'>> {
  try {
    return await lighthouseRun(url);
  } catch (err) {
    if (attempts <= 1) throw err;
    console.error(`lighthouse ${url}: ${(err as Error).message.split('\n')[0]}; retrying`);
    return lighthouseOnce(url, attempts - 1);
  }
}

async function lighthouseRun(url: string): Promise<Omit<LighthouseScores, 'route'>> {
  const { stdout } = await run(
    'npx',
    [
      'lighthouse',
      url,
      '--output=json',
      '--quiet',
      `--chrome-flags=${CHROME_FLAGS}`,
      '--max-wait-for-load=30000',
    ],
    { env: { ...process.env, CHROME_PATH: '/usr/bin/chromium' }, maxBuffer: 64 * 1024 * 1024 },
  );
  const lhr = JSON.parse(stdout) as {
    categories: Record<string, { score: number | null }>;
    audits: Record<string, { numericValue?: number }>;
  };
  const score = (k: string) => Math.round((lhr.categories[k]?.score ?? 0) * 100);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
    cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
    tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
  };
}

/**
 * The physical floor: a bare HTML page (no CSS, no script, one heading and a
 * paragraph), served by the same server from the same build folder, measured
 * in the same Lighthouse run. A page's largest paint is judged by its ratio
 * to this page's, which holds on a noisy machine where absolute times do not.
 */
export const FLOOR_ROUTE = '/bench-floor/';

const FLOOR_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Floor</title>
<meta name="description" content="A bare page: the fastest first paint this server and network allow.">
</head>
<body>
<h1>The floor</h1>
<p>A bare HTML page with no stylesheet, no script and no image: the earliest any page served here can paint its largest text.</p>
</body>
</html>
`;

/** Writes the floor page into the served build folder (the server reads files per request); returns its remover. */
export async function writeFloorPage(distDir = 'dist'): Promise<() => Promise<void>> {
  const dir = join(distDir, FLOOR_ROUTE);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'index.html'), FLOOR_HTML);
  return () => rm(dir, { recursive: true, force: true });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface PageScores extends LighthouseScores {
  /** Every run's LCP, in run order. */
  lcpRuns: number[];
}

/**
 * `rounds` Lighthouse runs of every route, interleaved (round 1 of every
 * route, then round 2, ...), so that the machine's noise spreads over all of
 * them alike. Per route: the median LCP, and the scores of the run that had it.
 */
export async function lighthouseRounds(
  base: string,
  routes: string[],
  rounds = 3,
  onRun: (route: string, round: number) => void = () => {},
): Promise<PageScores[]> {
  const runs = new Map(routes.map((r) => [r, [] as Omit<LighthouseScores, 'route'>[]]));
  for (let round = 1; round <= rounds; round++) {
    for (const route of routes) {
      runs.get(route)!.push(await lighthouseOnce(new URL(route, base).toString()));
      onRun(route, round);
    }
  }
  return routes.map((route) => {
    const list = runs.get(route)!;
    const lcp = median(list.map((r) => r.lcpMs));
    const run = list.find((r) => r.lcpMs === lcp)!;
    return { route, ...run, lcpMs: lcp, lcpRuns: list.map((r) => r.lcpMs) };
  });
}
