import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { basePath, langOfPath } from '../../../src/lib/lang-paths.ts';
import { DEFAULT_LANG, type Lang } from '../../../src/lib/lang.ts';
import { DEMO_PLAN_LINK } from '../../../scripts/lib/seed.mts';

/*
 * Every page of the site, from one source each, for the checks that claim "every page" (axe in
 * a11y-pages.test.ts, the Nu Html Checker and the Observatory in validators.test.ts, the in-browser
 * CSP test in csp.test.ts): the pages the build wrote (dist/**.html) and, for each on-demand page
 * file under src/pages (`prerender = false`), example addresses in both languages. A new on-demand
 * page file without examples here fails `onDemandPages()`: it cannot be left out of the checks
 * (docs/decisions/163-tests.md).
 */

const root = process.cwd();

function walk(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p, keep));
    else if (keep(e.name)) out.push(p);
  }
  return out;
}

/** Unknown addresses: each language's 404 page (dist/404.html, dist/es/404.html). */
export const NOT_FOUND = { en: '/this-page-does-not-exist', es: '/es/esta-pagina-no-existe' } as const;

/** Every page the production build wrote, as the address a visitor asks for (the 404 pages as an unknown one). */
export function builtPages(): string[] {
  const dist = join(root, 'dist');
  return walk(dist, (n) => n.endsWith('.html'))
    .map((f) => `/${relative(dist, f).replace(/\.html$/, '')}`)
    .map((p) => (p === '/index' ? '/' : p === '/404' ? NOT_FOUND.en : p === '/es/404' ? NOT_FOUND.es : p))
    .sort();
}

/** The route pattern of every on-demand page file (src/pages/**.astro with `prerender = false`), e.g. '/es/events/[id]'. */
export function onDemandRoutes(): string[] {
  const pages = join(root, 'src', 'pages');
  return walk(pages, (n) => n.endsWith('.astro'))
    .filter((f) => readFileSync(f, 'utf8').includes('export const prerender = false'))
    .map(
      (f) =>
        `/${relative(pages, f)
          .replace(/\.astro$/, '')
          .replace(/(^|\/)index$/, '')}`,
    )
    .sort();
}

/** What the examples are made of: real records of the running site. */
export interface PageFacts {
  /** An article's slug in each language (the Spanish one where the article has a Spanish version). */
  articleSlug: Record<Lang, string>;
  /** A saved article's id, for the staff preview. */
  articleId: number;
  /** An upcoming public event's id. */
  eventId: number;
}

const RSVP_LINK = `event=1&token=${'A'.repeat(43)}`;

/**
 * Example addresses of each on-demand page, keyed by its route pattern without the language prefix:
 * the page with content and the page's other states (not found, refused, a bad link).
 */
const EXAMPLES: Record<string, (facts: PageFacts, lang: Lang) => string[]> = {
  '/blog': () => ['/blog'],
  '/volunteer': () => ['/volunteer'],
  '/contact': () => ['/contact'],
  '/article/[slug]': (f, lang) => [`/article/${f.articleSlug[lang]}`, '/article/no-such-article'],
  '/blog/page/[page]': () => ['/blog/page/2', '/blog/page/999'],
  '/events/[id]': (f) => [`/events/${f.eventId}`, '/events/999999'],
  '/forms/[form]': () => [
    '/forms/contact?error=400',
    '/forms/volunteer?error=503',
    '/forms/text-signup?error=429',
    '/forms/newsletter?error=400',
    '/forms/newsletter-confirm?error=400',
    // The plan to vote's refused page has the form again (docs/decisions/158-plan-to-vote.md).
    '/forms/vote-plan?error=400',
  ],
  '/rsvp/cancel': () => [`/rsvp/cancel?${RSVP_LINK}`, '/rsvp/cancel'],
  // The newsletter's confirmation link: a well-formed unknown token, and a malformed one.
  '/newsletter/confirm': () => [
    `/newsletter/confirm?token=${'A'.repeat(43)}`,
    '/newsletter/confirm?token=bad',
  ],
  // A bulk email's unsubscribe link: well formed (the button's page), and broken.
  '/unsubscribe': () => [`/unsubscribe?u=${'a'.repeat(64)}&t=${'A'.repeat(43)}`, '/unsubscribe?u=bad'],
  '/admin/preview': (f) => [`/admin/preview?id=${f.articleId}`],
  // A plan to vote's own page (the seeded demo plan), a link that is not a plan's, and no link at all.
  '/vote/plan': () => [`/vote/plan?id=${DEMO_PLAN_LINK}`, `/vote/plan?id=${'A'.repeat(22)}`, '/vote/plan'],
  // A supporter's own page signed out (docs/decisions/182-supporter-page.md), and a sign-in link's landing page:
  // a well-formed unknown token, and none.
  '/my': () => ['/my'],
  '/my/signin': () => [`/my/signin?token=${'A'.repeat(43)}`, '/my/signin'],
};

/** Pages that need a staff session (the browser or fetch must carry one). */
export const STAFF_ONLY = (path: string) => path.startsWith('/admin/preview');

/** Example addresses of every on-demand page in every language it exists in. */
export function onDemandPages(facts: PageFacts): string[] {
  const out: string[] = [];
  const missing: string[] = [];
  for (const route of onDemandRoutes()) {
    const lang = langOfPath(route);
    const make = EXAMPLES[basePath(route)];
    if (!make) {
      missing.push(route);
      continue;
    }
    out.push(...make(facts, lang).map((p) => (lang === DEFAULT_LANG ? p : `/${lang}${p}`)));
  }
  if (missing.length)
    throw new Error(
      `on-demand pages without example addresses in tests/browser/helpers/pages.ts: ${missing.join(', ')}`,
    );
  return out;
}

/** Reads the facts off the running site: the first article /blog and /es/blog link to, the first public event. */
export async function pageFacts(base: string, staffCookie: string): Promise<PageFacts> {
  const link = async (path: string, re: RegExp) => {
    const html = await (await fetch(new URL(path, base))).text();
    const m = re.exec(html);
    if (!m) throw new Error(`no link matching ${re} on ${path}`);
    return m[1]!;
  };
  const en = await link('/blog', /href="\/article\/([^"?#]+)"/);
  const es = await link('/es/blog', /href="\/es\/article\/([^"?#]+)"/);
  const { events } = (await (await fetch(new URL('/api/events', base))).json()) as {
    events: { id: number }[];
  };
  const eventId = events[0]?.id;
  if (!eventId) throw new Error('no public event to show');
  const res = await fetch(new URL('/api/admin/news?pageSize=1', base), { headers: { cookie: staffCookie } });
  if (!res.ok) throw new Error(`GET /api/admin/news: ${res.status}`);
  const body = (await res.json()) as { articles: { id: number }[] };
  const articleId = body.articles[0]?.id;
  if (!articleId) throw new Error('no article to preview');
  return { articleSlug: { en, es }, articleId, eventId };
}

/** Nine published articles dated 2020, after every other article: /blog/page/2 then lists articles. */
export const ARCHIVE_ARTICLES = Array.from({ length: 9 }, (_, n) => ({
  title: `Archive article ${n + 1}`,
  slug: `archive-article-${n + 1}`,
  content: `<p>An older article, number ${n + 1}.</p>`,
  excerpt: `An older article, number ${n + 1}.`,
  author: 'Press Office',
  isPublished: true,
  publishedAt: `2020-01-0${n + 1}T12:00:00.000Z`,
}));

/**
 * Makes /blog/page/2 a page with articles in both languages (no page 1 changes), each article created
 * once: the fixed slugs make a second call, from another file, a 409 that changes nothing.
 */
export async function fillBlogArchive(base: string, staffCookie: string): Promise<void> {
  for (const article of ARCHIVE_ARTICLES) {
    // Files run side by side: a write that met another is refused with "try again" (503, or 409 with Retry-After).
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(new URL('/api/admin/news', base), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: base, Cookie: staffCookie },
        body: JSON.stringify(article),
      });
      const retry = res.status === 503 || (res.status === 409 && res.headers.has('retry-after'));
      if (retry && attempt < 10) continue;
      if (res.status !== 201 && res.status !== 409)
        throw new Error(`creating ${article.slug}: ${res.status} ${await res.text()}`);
      break;
    }
  }
}

/**
 * Built pages made from one template whose instances differ only in their words: the forms' outcome pages
 * (src/pages/forms/[form]/[outcome].astro and its Spanish twin, 17 forms and outcomes in each language). A
 * language's copy is data in the same markup, so the slow checks (axe at two widths, the in-browser CSP test)
 * open one page per template and language, the first in sorted order; every other page of the template is held
 * to that page's markup and policy by `expectSameTemplate` (docs/decisions/163-tests.md, "Less work per check").
 */
const OUTCOME_PAGE = /^(?:\/([a-z]{2}))?\/forms\/[^/?#]+\/[^/?#]+$/;

/** The template key of a built page ('en /forms/[form]/[outcome]'), or null for a page of its own. */
export function templateOf(path: string): string | null {
  const m = OUTCOME_PAGE.exec(path);
  return m ? `${m[1] ?? DEFAULT_LANG} /forms/[form]/[outcome]` : null;
}

/**
 * Splits a list of pages into those the slow checks open (every page of its own, and the first page of each
 * template and language) and the rest, each with the opened page of its template it must match.
 */
export function oneOfEachTemplate(pages: string[]): {
  open: string[];
  same: { path: string; like: string }[];
} {
  const first = new Map<string, string>();
  const open: string[] = [];
  const same: { path: string; like: string }[] = [];
  for (const path of [...pages].sort()) {
    const key = templateOf(path);
    const like = key === null ? undefined : first.get(key);
    if (key !== null && like === undefined) first.set(key, path);
    if (like === undefined) open.push(path);
    else same.push({ path, like });
  }
  return { open: pages.filter((p) => open.includes(p)), same };
}

/** The built HTML file of a built page's address. */
export function builtFile(path: string): string {
  return join(root, 'dist', `${path}.html`);
}

/**
 * A page's markup without its words: every element and attribute name in order, text and attribute values
 * dropped, then the code of every inline script and style as written. Two pages with the same skeleton run the
 * same template code; only their copy differs.
 */
export function skeleton(html: string): string {
  const code = [...html.matchAll(/<(script|style)\b[^>]*>([\s\S]*?)<\/\1>/gi)].map((m) => m[2]);
  const tags = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style)\b([^>]*)>[\s\S]*?<\/\1>/gi, '<$1$2></$1>')
    .replace(/>[^<]*</g, '><')
    .replace(/\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/g, '');
  return [tags, ...code].join('\n');
}
