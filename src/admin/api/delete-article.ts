import { useCallback } from 'react';
import { ADMIN_NEWS, send, useRevalidate, PUBLIC_NEWS } from './shared.ts';

export const deleteArticle = (id: number) => send<{ success: true }>('DELETE', `${ADMIN_NEWS}/${id}`);

export function useDeleteArticle() {
  const revalidate = useRevalidate();
  return useCallback(
    async (id: number) => {
      await deleteArticle(id);
      await revalidate(ADMIN_NEWS, PUBLIC_NEWS);
    },
    [revalidate],
  );
}
