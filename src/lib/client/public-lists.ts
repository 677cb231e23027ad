import type { PublicArticle } from '../schemas/article.ts';

/** What a card shows: the article without its full content (keeps the page's HTML small). */
export type ArticleSummary = Omit<PublicArticle, 'content'>;

/** Spec section 9: public lists refresh every 30 s; no refetch on focus (section 7). */
export const PUBLIC_LIST_SWR = {
  refreshInterval: 30_000,
  revalidateOnFocus: false,
  shouldRetryOnError: false,
} as const;

/**
 * SWR options for a list the server already rendered into the page: no fetch
 * on mount (the HTML is current to within the CDN window), only the 30 s
 * refresh. Without initial data, the first fetch happens on mount.
 */
export function withInitialData<T>(initial: T | null | undefined) {
  return initial
    ? { ...PUBLIC_LIST_SWR, fallbackData: initial, revalidateOnMount: false, revalidateIfStale: false }
    : PUBLIC_LIST_SWR;
}

/** Spec section 9: the blog shows at most 3 upcoming events. */
export const MAX_BLOG_EVENTS = 3;

export function summarize(article: PublicArticle): ArticleSummary {
  const { content: _content, ...rest } = article;
  return rest;
}
