import useSWR from 'swr';
import { useCallback } from 'react';
import { queryFetcher } from '../../lib/client/api.ts';
import type { AudienceKind } from '../../lib/schemas/broadcast-rules.ts';
import type { BroadcastInput } from '../../lib/schemas/broadcasts.ts';
import type {
  BroadcastActionName as Action,
  BroadcastListItem as IndexItem,
  BroadcastView,
  TestResult,
} from '../../lib/schemas/broadcast-views.ts';
import type { Lang } from '../../lib/lang.ts';
import { send, useRevalidate } from './shared.ts';

/** Broadcasts (docs/decisions/121-broadcast-staff-actions.md): editors and admins. */
export const ADMIN_BROADCASTS = '/api/admin/broadcasts';
export const broadcastPath = (id: number) => `${ADMIN_BROADCASTS}/${id}`;

export type { Action, BroadcastInput, BroadcastView, IndexItem, TestResult };

export function useBroadcasts() {
  return useSWR<{ items: IndexItem[]; audiences: AudienceKind[] }, Error>(ADMIN_BROADCASTS, queryFetcher);
}

/**
 * One broadcast with its progress. While the job is counting or sending, it is read again every
 * few seconds (the one polled view of the dashboard: docs/decisions/123-broadcasts-tab.md).
 */
export function useBroadcast(id: number | null) {
  return useSWR<BroadcastView, Error>(id === null ? null : broadcastPath(id), queryFetcher, {
    refreshInterval: (data) => (data && ['preparing', 'sending'].includes(data.broadcast.status) ? 3000 : 0),
  });
}

export function useBroadcastActions() {
  const revalidate = useRevalidate();
  return {
    create: useCallback(
      async (input: BroadcastInput) => {
        const res = await send<{ broadcast: { id: number } }>('POST', ADMIN_BROADCASTS, input);
        await revalidate(ADMIN_BROADCASTS);
        return res.broadcast.id;
      },
      [revalidate],
    ),
    update: useCallback(
      async (id: number, input: BroadcastInput) => {
        await send<BroadcastView>('PUT', broadcastPath(id), input);
        await revalidate(ADMIN_BROADCASTS, broadcastPath(id));
      },
      [revalidate],
    ),
    act: useCallback(
      async (id: number, action: Action, at?: string) => {
        await send<BroadcastView>('POST', `${broadcastPath(id)}/${action}`, at ? { at } : undefined);
        await revalidate(ADMIN_BROADCASTS, broadcastPath(id));
      },
      [revalidate],
    ),
    /** A test to the sender's own address or verified phone (the server picks it: nothing to type). */
    test: useCallback(
      (id: number, lang: Lang) => send<TestResult>('POST', `${broadcastPath(id)}/test`, { lang }),
      [],
    ),
  };
}
