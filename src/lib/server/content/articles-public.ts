import { DEFAULT_LANG, LANGS, type Lang } from '../../lang.ts';
import type { Article, PublicArticle } from '../../schemas/article.ts';
import { toPublicArticle } from '../../schemas/public-projections.ts';
import { isArticlePublic } from '../../schemas/article-rules.ts';
import { ARTICLE_CATEGORIES, type ArticleCategory } from '../../schemas/category.ts';
import { summarize, type ArticleSummary } from '../../public-lists.ts';
import {
  CollectionReader,
  isRecordLike,
  type CollectionLayout,
  type ViewContext,
} from '../storage/collection.ts';

/*
 * What GET /api/news needs, and nothing that loads zod or sanitize-html: the
 * articles collection's layout (its index entry and its public feed view) and
 * the feed read. The schema, the writes and the other reads are in articles.ts.
 */

/** GET /api/news answers with at most this many articles (newest first); rss/sitemap use publicArticles(). */
export const PUBLIC_NEWS_LIMIT = 50;

/**
 * What the articles index keeps of each article: what a list, a card, the
 * feeds and the sitemap show, never the full text (a save rewrites the index:
 * its size must not grow with what was written), per
 * docs/decisions/153-storage.md.
 * The badge is the chosen category, else derived from `author` (docs/decisions/161-content-and-editor.md).
 */
export interface ArticleIndexEntry {
  id: number;
  title: string;
  slug: string;
  excerpt: string;
  imageUrl: string;
  author: string;
  /** The category staff chose (absent in entries written before the field: the rule from the author). */
  category?: ArticleCategory | null;
  isPublished: boolean;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Each translation's title, slug and excerpt (a Spanish list shows them). */
  translations: Partial<Record<Lang, { title: string; slug: string; excerpt: string }>>;
}

/** The index entry format (CollectionLayout.indexVersion): 1 held whole articles. */
const ARTICLE_INDEX_VERSION = 2;

const isString = (v: unknown): v is string => typeof v === 'string';

/**
 * An article's index entry, or null when the record lacks a field the entry
 * keeps. Zod-free (the public reader may repair the index, see collection.ts):
 * every field copied is type-checked here.
 */
export function articleIndexEntry(record: Article): ArticleIndexEntry | null {
  if (!isRecordLike(record as unknown)) return null;
  const a = record as unknown as Record<string, unknown>;
  const texts = ['title', 'slug', 'excerpt', 'imageUrl', 'author', 'createdAt', 'updatedAt'] as const;
  if (!texts.every((k) => isString(a[k])) || typeof a.isPublished !== 'boolean') return null;
  if (a.publishedAt !== null && !isString(a.publishedAt)) return null;
  const translations: ArticleIndexEntry['translations'] = {};
  const stored = (a.translations ?? {}) as Record<string, unknown>;
  if (typeof stored !== 'object') return null;
  for (const lang of LANGS) {
    const t = stored[lang] as Record<string, unknown> | undefined;
    if (t === undefined || lang === DEFAULT_LANG) continue;
    if (!t || !isString(t.title) || !isString(t.slug) || !isString(t.excerpt)) return null;
    translations[lang] = { title: t.title, slug: t.slug, excerpt: t.excerpt };
  }
  return {
    id: record.id,
    title: a.title as string,
    slug: a.slug as string,
    excerpt: a.excerpt as string,
    imageUrl: a.imageUrl as string,
    author: a.author as string,
    category: ARTICLE_CATEGORIES.find((c) => c === a.category) ?? null,
    isPublished: a.isPublished,
    publishedAt: a.publishedAt,
    createdAt: a.createdAt as string,
    updatedAt: a.updatedAt as string,
    translations,
  };
}

type Dated = Pick<Article, 'id' | 'publishedAt' | 'createdAt'>;

export const newestFirst = (a: Dated, b: Dated) =>
  (b.publishedAt ?? b.createdAt).localeCompare(a.publishedAt ?? a.createdAt) || b.id - a.id;

/**
 * The public feed view, derived at write time: every scheduled (future)
 * article plus the newest PUBLIC_NEWS_LIMIT already live, with their full
 * text. Whatever is public at any later read time is in it, so reads only
 * filter by the clock. Chosen from the index entries; an article already in
 * the stored feed at the same `updatedAt` (which strictly increases with every
 * save) is kept from it, so a save loads only the records that changed or newly
 * entered the feed (usually one).
 */
async function publicFeed(items: ArticleIndexEntry[], context: ViewContext<Article>): Promise<Article[]> {
  const now = Date.now();
  const published = items.filter((a) => a.isPublished).sort(newestFirst);
  const scheduled = published.filter((a) => a.publishedAt && Date.parse(a.publishedAt) > now);
  const live = published
    .filter((a) => !(a.publishedAt && Date.parse(a.publishedAt) > now))
    .slice(0, PUBLIC_NEWS_LIMIT);
  const wanted = [...scheduled, ...live];
  const previous = new Map(
    (Array.isArray(context.previous) ? context.previous : [])
      .filter((a): a is Article => isRecordLike(a))
      .map((a) => [a.id, a]),
  );
  const kept = (e: ArticleIndexEntry) => {
    const p = previous.get(e.id);
    return p?.updatedAt === e.updatedAt ? p : undefined;
  };
  const loaded = new Map(
    (await context.load(wanted.filter((e) => !kept(e)).map((e) => e.id))).map((a) => [a.id, a]),
  );
  return wanted.flatMap((e) => {
    const a = kept(e) ?? loaded.get(e.id);
    return a ? [a] : [];
  });
}

export const ARTICLES_LAYOUT: CollectionLayout<Article, ArticleIndexEntry> = {
  store: 'articles',
  counter: 'articles',
  summarize: articleIndexEntry,
  indexVersion: ARTICLE_INDEX_VERSION,
  views: { public: publicFeed },
};

/**
 * An index entry as a list shows it in `lang`: exactly `summarize(toPublicArticle(article, lang))`
 * of the whole article (the projection leaves out what the entry does not hold: the text).
 */
export function toPublicArticleSummary(entry: ArticleIndexEntry, lang: Lang = DEFAULT_LANG): ArticleSummary {
  return summarize(toPublicArticle(entry as unknown as Article, lang));
}

const reader = new CollectionReader<Article, ArticleIndexEntry>(ARTICLES_LAYOUT);

/**
 * GET /api/news (`?lang=es`): one blob read (the feed view), whatever the
 * number of articles. Public projection in `lang`: each article's version in
 * that language where it has one, else the English (`lang` on each says which).
 * A view written before translations existed has none: read as English.
 */
export async function newsFeed(lang: Lang = DEFAULT_LANG, now = new Date()): Promise<PublicArticle[]> {
  const feed = await reader.view<Article[]>('public');
  return feed
    .filter((a) => isArticlePublic(a, now))
    .sort(newestFirst)
    .slice(0, PUBLIC_NEWS_LIMIT)
    .map((a) => toPublicArticle(a, lang));
}
