import type { PublicArticle } from './schemas/article.ts';

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
 * on mount while that HTML is current, only the 30 s refresh. `renderedAt`
 * (when the server rendered the list, ISO 8601): an island that mounts once
 * the list is older than the refresh interval (the page came from the CDN's
 * copy, or the island hydrated late: on first use, or when the first refresh
 * came, `client:interaction={{ after }}` on /blog) fetches at once instead.
 * Without initial data, the first fetch happens on mount.
 */
export function withInitialData<T>(initial: T | null | undefined, renderedAt?: string) {
  if (!initial) return PUBLIC_LIST_SWR;
  const age = renderedAt ? Date.now() - Date.parse(renderedAt) : 0;
  return {
    ...PUBLIC_LIST_SWR,
    fallbackData: initial,
    revalidateOnMount: age >= PUBLIC_LIST_SWR.refreshInterval,
    revalidateIfStale: false,
  };
}

/** Spec section 9: the blog shows at most 3 upcoming events. */
export const MAX_BLOG_EVENTS = 3;

export function summarize(article: PublicArticle): ArticleSummary {
  const { content: _content, ...rest } = article;
  return rest;
}
