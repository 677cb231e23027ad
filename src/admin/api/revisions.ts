import useSWR from 'swr';
import { useCallback } from 'react';
import { queryFetcher } from '../../lib/client/api.ts';
import type { HistoryKind, Revision, RevisionSummary } from '../../lib/schemas/history.ts';
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

const BASE: Record<HistoryKind, string> = { article: ADMIN_NEWS, event: ADMIN_EVENTS };
const PUBLIC: Record<HistoryKind, string> = { article: PUBLIC_NEWS, event: PUBLIC_EVENTS };

export const revisionsPath = (kind: HistoryKind, id: number) => `${BASE[kind]}/${id}/revisions`;

export const REVISIONS_PAGE_SIZE = 50;

/** GET .../revisions: who, when, what changed, newest first, a page at a time. */
export function useRevisions(kind: HistoryKind, id: number, page = 1) {
  return useSWR<Page<'revisions', RevisionSummary>, Error>(
    listKey(revisionsPath(kind, id), { page, pageSize: REVISIONS_PAGE_SIZE }),
    queryFetcher,
  );
}

/** GET .../revisions/:n: one version with the whole record (for the diff). */
export function useRevision(kind: HistoryKind, id: number, n: number | null) {
  return useSWR<{ revision: Revision }, Error>(n ? `${revisionsPath(kind, id)}/${n}` : null, queryFetcher);
}

/** POST .../revisions/:n/restore: brings version n back as a new version. */
export function useRestoreRevision(kind: HistoryKind, id: number) {
  const revalidate = useRevalidate();
  return useCallback(
    async (n: number) => {
      const res = await send<{ revision: RevisionSummary }>(
        'POST',
        `${revisionsPath(kind, id)}/${n}/restore`,
      );
      await revalidate(BASE[kind], PUBLIC[kind], revisionsPath(kind, id));
      return res.revision;
    },
    [kind, id, revalidate],
  );
}
