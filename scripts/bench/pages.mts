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
 * directive loads nothing before: docs/decisions/162-public-pages-and-performance.md), which are `onInteraction`.
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

/** An audit that costs a category points: what Lighthouse says, to act on without re-running it. */
export interface FailingAudit {
  category: string;
  id: string;
  title: string;
  /** Lighthouse's displayed value ("1.4 s", "2 links found"), or the score when it shows none. */
  value: string;
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
  /** Lighthouse's host benchmark during the run (higher is faster): how much CPU the machine had to spare. */
  benchmarkIndex: number;
  /** The document's server response time Lighthouse observed (loopback: the server's own time). */
  ttfbMs: number;
  /** Audits with a weight in a category that scored below 1 (metrics included), when a category is below 100. */
  failing: FailingAudit[];
  /** The LCP element as Lighthouse names it (a selector and a text snippet), for diagnosis. */
  lcpElement: string;
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
  const lhr = JSON.parse(stdout) as Lhr;
  if (process.env.BENCH_LHR_DIR) {
    // Whole reports on request (BENCH_LHR_DIR=dir), one file per run, for diagnosis.
    await mkdir(process.env.BENCH_LHR_DIR, { recursive: true });
    const name = `${new URL(url).pathname.replace(/[^\w-]+/g, '_')}-${Date.now()}.json`;
    await writeFile(join(process.env.BENCH_LHR_DIR, name), stdout);
  }
  const score = (k: string) => Math.round((lhr.categories[k]?.score ?? 0) * 100);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
    cls: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
    tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
    ttfbMs: Math.round(lhr.audits['server-response-time']?.numericValue ?? 0),
    benchmarkIndex: Math.round(lhr.environment?.benchmarkIndex ?? 0),
    failing: failingAudits(lhr),
    lcpElement: lcpElement(lhr),
  };
}

interface Lhr {
  environment?: { benchmarkIndex?: number };
  categories: Record<
    string,
    { title: string; score: number | null; auditRefs: { id: string; weight: number }[] }
  >;
  audits: Record<
    string,
    {
      title: string;
      score: number | null;
      numericValue?: number;
      displayValue?: string;
      details?: unknown;
    }
  >;
}

/** The categories the targets name (Lighthouse 13.5 also reports an experimental "Agentic Browsing" one). */
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/** Every weighted audit below a full score, in the target categories that are not at 100. */
function failingAudits(lhr: Lhr): FailingAudit[] {
  const out: FailingAudit[] = [];
  for (const key of CATEGORIES) {
    const category = lhr.categories[key];
    if (!category) continue;
    if (category.score === null || category.score >= 1) continue;
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 1) continue;
      out.push({
        category: category.title,
        id: ref.id,
        title: audit.title,
        value: audit.displayValue ?? `score ${audit.score}`,
      });
    }
  }
  return out;
}

/** The first `node` item in the LCP breakdown insight's details (Lighthouse 13 names the element there). */
function lcpElement(lhr: Lhr): string {
  const find = (v: unknown): { selector?: string; snippet?: string } | null => {
    if (!v || typeof v !== 'object') return null;
    const o = v as Record<string, unknown>;
    if (o.type === 'node') return o;
    for (const child of Object.values(o)) {
      const hit = find(child);
      if (hit) return hit;
    }
    return null;
  };
  const node = find(lhr.audits['lcp-breakdown-insight']?.details);
  return node ? `${node.snippet ?? ''}`.replace(/\s+/g, ' ').slice(0, 100) : '';
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

/**
 * Lighthouse simulates the phone (Lantern): each CPU task it observed counts 4 times over, so a run during which
 * another process took the CPU measures that process. Such a run (host benchmark under this share of the median
 * of the runs so far) is repeated, up to twice, and the run with the higher benchmark kept.
 */
const STARVED_HOST = 0.7;
const MAX_REPEATS = 2;

export interface PageScores extends LighthouseScores {
  /** Every run's LCP, in run order. */
  lcpRuns: number[];
  /** Every run's performance score and Total Blocking Time, in run order (`performance`, `tbtMs`: their medians). */
  performanceRuns: number[];
  tbtRuns: number[];
  /** Every failing audit of any run: per audit id, the displayed value of each run it failed in. */
  failingRuns: { audit: FailingAudit; values: string[] }[];
  /** Runs measured. */
  rounds: number;
  /** Runs repeated because the host was starved (STARVED_HOST), for this page. */
  repeated: number;
}

/**
 * `rounds` Lighthouse runs of every route, interleaved (round 1 of every
 * route, then round 2, ...), so that the machine's noise spreads over all of
 * them alike. Per route: the median LCP, CLS and TTFB of the run that had it, the median performance score and
 * Total Blocking Time (timings, like LCP: one run's hiccup is not the page's), and the lowest accessibility, best
 * practices and SEO scores of any run (they do not depend on timing: a miss in any run is a miss).
 */
export async function lighthouseRounds(
  base: string,
  routes: string[],
  rounds = 3,
  onRun: (route: string, round: number) => void = () => {},
): Promise<PageScores[]> {
  const runs = new Map(routes.map((r) => [r, [] as Omit<LighthouseScores, 'route'>[]]));
  const repeats = new Map(routes.map((r) => [r, 0]));
  const indexes: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const route of routes) {
      const url = new URL(route, base).toString();
      // A visited page is in the CDN's cache (scripts/bench/compress.mts keeps what the page marks cacheable).
      await fetch(url)
        .then((r) => r.arrayBuffer())
        .catch(() => {});
      let result = await lighthouseOnce(url);
      indexes.push(result.benchmarkIndex);
      for (let i = 0; i < MAX_REPEATS && indexes.length >= 2; i++) {
        const reference = median(indexes);
        if (result.benchmarkIndex >= STARVED_HOST * reference) break;
        console.error(
          `lighthouse ${route}: host benchmark ${result.benchmarkIndex} under ${STARVED_HOST} x ${reference}; repeating`,
        );
        repeats.set(route, repeats.get(route)! + 1);
        const again = await lighthouseOnce(url);
        indexes.push(again.benchmarkIndex);
        if (again.benchmarkIndex > result.benchmarkIndex) result = again;
      }
      runs.get(route)!.push(result);
      onRun(route, round);
    }
  }
  return routes.map((route) => {
    const list = runs.get(route)!;
    const lcp = median(list.map((r) => r.lcpMs));
    const run = list.find((r) => r.lcpMs === lcp)!;
    const failing = new Map<string, { audit: FailingAudit; values: string[] }>();
    for (const r of list)
      for (const a of r.failing) {
        const key = `${a.category}/${a.id}`;
        const entry = failing.get(key) ?? { audit: a, values: [] };
        entry.values.push(a.value);
        failing.set(key, entry);
      }
    return {
      route,
      ...run,
      performance: median(list.map((r) => r.performance)),
      tbtMs: median(list.map((r) => r.tbtMs)),
      accessibility: Math.min(...list.map((r) => r.accessibility)),
      bestPractices: Math.min(...list.map((r) => r.bestPractices)),
      seo: Math.min(...list.map((r) => r.seo)),
      lcpMs: lcp,
      lcpRuns: list.map((r) => r.lcpMs),
      performanceRuns: list.map((r) => r.performance),
      tbtRuns: list.map((r) => r.tbtMs),
      failingRuns: [...failing.values()],
      rounds: list.length,
      repeated: repeats.get(route)!,
    };
  });
}

/** The audits that kept a page below 100 in any run, per page (what to fix, without re-running Lighthouse). */
export function failingAuditsMarkdown(pages: PageScores[]): string {
  const rows = pages.flatMap((p) =>
    p.failingRuns.map(
      ({ audit, values }) =>
        `| ${p.route} | ${audit.category} | \`${audit.id}\` | ${audit.title.replace(/\|/g, '\\|')} | ` +
        `${values.join('; ').replace(/\|/g, '\\|')} | ${values.length}/${p.rounds} |`,
    ),
  );
  const elements = pages.map((p) => `| ${p.route} | ${p.lcpElement.replace(/\|/g, '\\|') || '-'} |`);
  return [
    '### Audits below a full score',
    '',
    'Every weighted audit that scored below 1 in a run where its category was under 100 (the metrics included).',
    '',
    ...(rows.length === 0
      ? ['None: every category at 100 in every run.']
      : [
          '| Page | Category | Audit | Title | Displayed value (per failing run) | Runs |',
          '|---|---|---|---|---|---:|',
          ...rows,
        ]),
    '',
    '### LCP element (the median run)',
    '',
    '| Page | Element |',
    '|---|---|',
    ...elements,
    '',
  ].join('\n');
}
