import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { Page } from '../../lib/schemas/paging.ts';
import type { Article } from '../../lib/schemas/article.ts';
import { ADMIN_NEWS, listKey } from './shared.ts';

export type ArticlesPage = Page<'articles', Article>;

export const ARTICLES_PAGE_SIZE = 20;

export function useArticles(page: number, pageSize = ARTICLES_PAGE_SIZE) {
  return useSWR<ArticlesPage, Error>(listKey(ADMIN_NEWS, { page, pageSize }), queryFetcher);
}
