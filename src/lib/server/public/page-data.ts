import type { Lang } from '../../lang.ts';
import { publicSlots } from '../events/shifts.ts';
import type { PublicSlot } from '../../schemas/shifts.ts';
import { MAX_BLOG_EVENTS, type ArticleSummary } from '../../public-lists.ts';
import type { PublicArticle } from '../../schemas/article.ts';
import {
  PUBLIC_FORMS,
  isPublicFormId,
  type FormInput,
  type PublicFormId,
} from '../../schemas/public-forms.ts';
import { localizedPath } from '../../lang-paths.ts';
import type { refusedCopy } from '../../../content/forms.ts';
import { takeOutcome, type StoredOutcome } from '../form-post.ts';
import type { PublicEvent } from '../../schemas/event.ts';
import type { PublicProgress } from '../../schemas/progress.ts';
import { publicArticleBySlug, publicArticles } from '../content/articles.ts';
import { publicEvents } from '../content/events.ts';
import { campaignProgress } from '../content/progress.ts';
import { CACHE_TAGS } from '../content/responses.ts';
import { BLOG_PAGE_SIZE, articlePath, blogPageCount, cdnHeaders } from './feeds.ts';

/*
 * What the on-demand public pages read, once for every language (docs/decisions/166-spanish.md):
 * the page files (src/pages/x.astro and src/pages/es/x.astro) call these and
 * hand the result to the shared page component, because only a page may set
 * the response's status and headers. `lang` is the seam for translated
 * records: articles and events in the page's language plug in here, in one place.
 */

/** The part of Astro.response a loader sets. */
export interface PageResponse {
  status?: number | undefined;
  headers: Headers;
}

function setHeaders(response: PageResponse, headers: Record<string, string>) {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
}

/**
 * The published articles a page in `lang` lists: each in that language where it has a version, else English.
 * From the articles index alone (no text): one blob read, however many articles.
 */
async function articlesIn(lang: Lang): Promise<ArticleSummary[]> {
  return publicArticles(lang);
}

/** The article a page in `lang` shows for a slug (either language's slug), in that language where it has one. */
export async function articleIn(slug: string, lang: Lang): Promise<PublicArticle | null> {
  return publicArticleBySlug(slug, lang);
}

export interface BlogData {
  articles: ArticleSummary[];
  events: PublicEvent[];
  pages: number;
  unavailable: boolean;
}

/** /blog: the newest articles and the next public events (CDN 30 s, purged by tag on edits). */
export async function loadBlog(response: PageResponse, lang: Lang): Promise<BlogData> {
  try {
    const [all, upcoming] = await Promise.all([articlesIn(lang), publicEvents(lang)]);
    setHeaders(response, cdnHeaders([CACHE_TAGS.news, CACHE_TAGS.events], 30));
    return {
      articles: all.slice(0, BLOG_PAGE_SIZE),
      events: upcoming.slice(0, MAX_BLOG_EVENTS),
      pages: blogPageCount(all.length),
      unavailable: false,
    };
  } catch (err) {
    console.error('[blog] could not read the news and events', err);
    response.headers.set('Cache-Control', 'no-store');
    return { articles: [], events: [], pages: 1, unavailable: true };
  }
}

export interface ContactData {
  /** Every upcoming public event, soonest first, in the page's language where it has a version. */
  events: PublicEvent[];
  unavailable: boolean;
}

/** /contact: every upcoming public event (the blog's "View All Events"), CDN 30 s, purged by the events tag. */
export async function loadContact(response: PageResponse, lang: Lang): Promise<ContactData> {
  try {
    const events = await publicEvents(lang);
    setHeaders(response, cdnHeaders(CACHE_TAGS.events, 30));
    return { events, unavailable: false };
  } catch (err) {
    console.error('[contact] could not read the events', err);
    response.headers.set('Cache-Control', 'no-store');
    return { events: [], unavailable: true };
  }
}

export type ArchiveData =
  | { kind: 'redirect' }
  | { kind: 'unavailable' }
  | { kind: 'page'; found: boolean; page: number; pages: number; articles: ArticleSummary[] };

/** /blog/page/N: that page of the news list, or not found (404). */
export async function loadArchive(response: PageResponse, raw: string, lang: Lang): Promise<ArchiveData> {
  const page = /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : NaN;
  if (page === 1) return { kind: 'redirect' };
  let all: ArticleSummary[];
  try {
    all = await articlesIn(lang);
  } catch (err) {
    console.error('[blog archive] could not read the articles', err);
    return { kind: 'unavailable' };
  }
  const pages = blogPageCount(all.length);
  const found = Number.isInteger(page) && page <= pages;
  setHeaders(response, cdnHeaders(CACHE_TAGS.news, 30));
  if (!found) response.status = 404;
  const articles = found ? all.slice((page - 1) * BLOG_PAGE_SIZE, page * BLOG_PAGE_SIZE) : [];
  return { kind: 'page', found, page, pages, articles };
}

export interface ArticleData {
  article: PublicArticle | null;
  unavailable: boolean;
  /** The article's own address in this language when another slug was asked for (a Spanish slug on the English site). */
  redirect?: string | undefined;
}

/** /article/slug: the article, 404 for unknown, draft or scheduled slugs, 503 when the store fails. */
export async function loadArticle(response: PageResponse, slug: string, lang: Lang): Promise<ArticleData> {
  let article: PublicArticle | null;
  try {
    article = await articleIn(slug, lang);
  } catch (err) {
    console.error('[article] could not read the article', err);
    response.status = 503;
    response.headers.set('Retry-After', '30');
    response.headers.set('Cache-Control', 'no-store');
    return { article: null, unavailable: true };
  }
  if (article && article.slug !== slug)
    return { article: null, unavailable: false, redirect: localizedPath(articlePath(article.slug), lang) };
  if (!article) response.status = 404;
  setHeaders(response, cdnHeaders('news'));
  return { article, unavailable: false };
}

export interface EventData {
  event: PublicEvent | null;
  unavailable: boolean;
  /** The event's shifts with their places (docs/decisions/181-shifts.md); empty: the event is one slot. */
  slots?: PublicSlot[];
}

/**
 * /events/<id>: one upcoming public event in the page's language (its Spanish
 * title and description where it has them), 404 for past, private and unknown
 * ids, 503 when the store fails (CDN 60 s, tag "events", purged on admin edits).
 */
export async function loadEvent(response: PageResponse, raw: string, lang: Lang): Promise<EventData> {
  let event: PublicEvent | null = null;
  if (/^\d{1,15}$/.test(raw)) {
    try {
      event = (await publicEvents(lang)).find((e) => e.id === Number(raw)) ?? null;
    } catch (err) {
      console.error('[event page] could not read events', err);
      response.status = 503;
      response.headers.set('Retry-After', '30');
      response.headers.set('Cache-Control', 'no-store');
      return { event: null, unavailable: true };
    }
  }
  if (!event) response.status = 404;
  setHeaders(response, cdnHeaders(CACHE_TAGS.events));
  // The shifts are listed in the page's HTML; a store failure leaves the form without them (the post then says
  // which shifts there are to choose from).
  const slots = event ? await publicSlots(event.id).catch(() => []) : [];
  return { event, unavailable: false, slots };
}

export interface ProgressData extends Pick<PublicProgress, 'goals' | 'metrics' | 'milestones'> {
  unavailable: boolean;
}

/** /volunteer: the stored weekly goals and the public metrics and milestones (CDN 30 s). */
export async function loadProgress(response: PageResponse): Promise<ProgressData> {
  try {
    const { goals, metrics, milestones } = await campaignProgress();
    setHeaders(response, cdnHeaders(CACHE_TAGS.metrics, 30));
    return { goals, metrics, milestones, unavailable: false };
  } catch (err) {
    // The figures are extra: the page (and its sign-up form) still works without them.
    console.error('[volunteer] could not read the progress figures', err);
    response.headers.set('Cache-Control', 'no-store');
    return { goals: [], metrics: [], milestones: [], unavailable: true };
  }
}

type RefusedCopy = typeof refusedCopy;

export type RefusedData =
  | { kind: 'not-found' }
  | { kind: 'form-page'; form: PublicFormId }
  | {
      kind: 'page';
      form: PublicFormId;
      message: string;
      values: FormInput;
      fieldErrors: Record<string, string>;
      /** Where to fill the form in again (an event's page for an RSVP). */
      back: string;
    };

/**
 * /forms/<form>?outcome=<id> (or ?error=<status>): where a refused browser
 * form post lands, with the server's message, or the one for its status in
 * the page's language, and what was typed. Never cached: it can hold personal data.
 */
export async function loadRefused(
  response: PageResponse,
  form: string,
  search: URLSearchParams,
  refused: RefusedCopy,
  lang: Lang,
): Promise<RefusedData> {
  if (!isPublicFormId(form)) return { kind: 'not-found' };
  const outcomeId = search.get('outcome');
  const status = Number(search.get('error'));
  if (!outcomeId && !status) return { kind: 'form-page', form };
  let outcome: StoredOutcome | null = null;
  if (outcomeId) {
    try {
      outcome = await takeOutcome(form, outcomeId);
    } catch (err) {
      console.error('[forms] could not read an outcome', err);
    }
  }
  response.headers.set('Cache-Control', 'no-store');
  // The server words its own messages in English: a page in another language shows the one for the status.
  const message =
    (lang === 'en' ? outcome?.message : undefined) ||
    (outcome ? refused.byStatus[outcome.status] : undefined) ||
    (outcomeId ? refused.expired : refused.byStatus[status]) ||
    refused.fallback;
  return {
    kind: 'page',
    form,
    message,
    values: outcome?.values ?? {},
    fieldErrors: outcome?.fields ?? {},
    back: outcome?.back ?? PUBLIC_FORMS[form].page,
  };
}
