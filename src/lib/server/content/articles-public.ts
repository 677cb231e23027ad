import { DEFAULT_LANG, type Lang } from '../../lang.ts';
import type { Article, PublicArticle } from '../../schemas/article.ts';
import { toPublicArticle } from '../../schemas/public-projections.ts';
import { isArticlePublic } from '../../schemas/article-rules.ts';
import { CollectionReader, type CollectionLayout } from './collection.ts';

/*
 * What GET /api/news needs, and nothing that loads zod or sanitize-html: the
 * articles collection's layout, its public feed view and the feed read. The
 * schema, the writes and the other reads are in articles.ts.
 */

/** GET /api/news answers with at most this many articles (newest first); rss/sitemap use publicArticles(). */
export const PUBLIC_NEWS_LIMIT = 50;

export const newestFirst = (a: Article, b: Article) =>
  (b.publishedAt ?? b.createdAt).localeCompare(a.publishedAt ?? a.createdAt) || b.id - a.id;

/**
 * The public feed view, derived at write time: every scheduled (future)
 * article plus the newest PUBLIC_NEWS_LIMIT already live. Whatever is public
 * at any later read time is in it, so reads only filter by the clock.
 */
function publicFeed(items: Article[]): Article[] {
  const now = Date.now();
  const published = items.filter((a) => a.isPublished).sort(newestFirst);
  const scheduled = published.filter((a) => a.publishedAt && Date.parse(a.publishedAt) > now);
  const live = published
    .filter((a) => !(a.publishedAt && Date.parse(a.publishedAt) > now))
    .slice(0, PUBLIC_NEWS_LIMIT);
  return [...scheduled, ...live];
}

export const ARTICLES_LAYOUT: CollectionLayout<Article> = {
  store: 'articles',
  counter: 'articles',
  views: { public: publicFeed },
};

const reader = new CollectionReader<Article>(ARTICLES_LAYOUT);

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
