import useSWR from 'swr';
import { useCallback } from 'react';
import { queryFetcher } from '../../lib/client/api.ts';
import type { HistoryKind, TrashSummary } from '../../lib/schemas/history.ts';
import type { Page } from '../../lib/schemas/paging.ts';
import {
  ADMIN_EVENTS,
  ADMIN_NEWS,
  PUBLIC_EVENTS,
  PUBLIC_NEWS,
  listKey,
  send,
  useRevalidate,
} from './shared.ts';

export const ADMIN_TRASH = '/api/admin/trash';

export const TRASH_PAGE_SIZE = 50;

/** GET /api/admin/trash (editors and admins): a page of the deleted articles and events still restorable. */
export function useTrash(page = 1) {
  return useSWR<Page<'items', TrashSummary>, Error>(
    listKey(ADMIN_TRASH, { page, pageSize: TRASH_PAGE_SIZE }),
    queryFetcher,
  );
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
