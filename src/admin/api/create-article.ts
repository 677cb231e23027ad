import { useCallback } from 'react';
import type { Article, ArticleInput } from '../../lib/schemas/article.ts';
import { ADMIN_NEWS, send, useRevalidate, PUBLIC_NEWS } from './shared.ts';

export const createArticle = (input: ArticleInput) => send<{ article: Article }>('POST', ADMIN_NEWS, input);

export function useCreateArticle() {
  const revalidate = useRevalidate();
  return useCallback(
    async (input: ArticleInput) => {
      const { article } = await createArticle(input);
      await revalidate(ADMIN_NEWS, PUBLIC_NEWS);
      return article;
    },
    [revalidate],
  );
}
