import useSWR from 'swr';
import { useCallback } from 'react';
import { queryFetcher } from '../../lib/client/api.ts';
import type { HistoryKind, TrashSummary } from '../../lib/schemas/history.ts';
import { ADMIN_EVENTS, ADMIN_NEWS, PUBLIC_EVENTS, PUBLIC_NEWS, send, useRevalidate } from './shared.ts';

export const ADMIN_TRASH = '/api/admin/trash';

/** GET /api/admin/trash (editors and admins): deleted articles and events still restorable. */
export function useTrash() {
  return useSWR<{ items: TrashSummary[] }, Error>(ADMIN_TRASH, queryFetcher);
}

export function useRestoreFromTrash() {
  const revalidate = useRevalidate();
  return useCallback(
    async (kind: HistoryKind, id: number) => {
      await send('POST', `${ADMIN_TRASH}/${kind}/${id}/restore`);
      await revalidate(
        ADMIN_TRASH,
        ...(kind === 'article' ? [ADMIN_NEWS, PUBLIC_NEWS] : [ADMIN_EVENTS, PUBLIC_EVENTS]),
      );
    },
    [revalidate],
  );
}
