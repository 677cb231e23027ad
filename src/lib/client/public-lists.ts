import type { PublicArticle } from '../schemas/article.ts';

/** What a card shows: the article without its full content (keeps the page's HTML small). */
export type ArticleSummary = Omit<PublicArticle, 'content'>;

/** Spec section 9: public lists refresh every 30 s; no refetch on focus (section 7). */
export const PUBLIC_LIST_SWR = {
  refreshInterval: 30_000,
  revalidateOnFocus: false,
  shouldRetryOnError: false,
} as const;

/** Spec section 9: the blog shows at most 3 upcoming events. */
export const MAX_BLOG_EVENTS = 3;

export function summarize(article: PublicArticle): ArticleSummary {
  const { content: _content, ...rest } = article;
  return rest;
}
