import { useCallback } from 'react';
import type { Article, ArticleInput } from '../../lib/schemas/article.ts';
import { ADMIN_NEWS, send, useRevalidate, PUBLIC_NEWS } from './shared.ts';

/** PUT with `expectedUpdatedAt`: a 409 means someone else saved first. */
export const updateArticle = (id: number, input: ArticleInput) =>
  send<{ article: Article }>('PUT', `${ADMIN_NEWS}/${id}`, input);

export function useUpdateArticle() {
  const revalidate = useRevalidate();
  return useCallback(
    async (id: number, input: ArticleInput) => {
      const { article } = await updateArticle(id, input);
      await revalidate(ADMIN_NEWS, PUBLIC_NEWS);
      return article;
    },
    [revalidate],
  );
}
