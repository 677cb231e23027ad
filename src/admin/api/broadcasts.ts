import useSWR from 'swr';
import { useCallback } from 'react';
import { queryFetcher } from '../../lib/client/api.ts';
import type { AudienceKind } from '../../lib/schemas/broadcast-rules.ts';
import type { BroadcastInput, BroadcastStatus } from '../../lib/schemas/broadcasts.ts';
import type {
  BroadcastActionName as Action,
  BroadcastListItem as IndexItem,
  BroadcastView,
  TestResult,
} from '../../lib/schemas/broadcast-views.ts';
import type { Lang } from '../../lib/lang.ts';
import { send, useRevalidate } from './shared.ts';

/** Broadcasts (docs/decisions/152-broadcasts.md): editors and admins. */
export const ADMIN_BROADCASTS = '/api/admin/broadcasts';
export const broadcastPath = (id: number) => `${ADMIN_BROADCASTS}/${id}`;

export type { Action, BroadcastInput, BroadcastView, IndexItem, TestResult };

export function useBroadcasts() {
  return useSWR<{ items: IndexItem[]; audiences: AudienceKind[] }, Error>(ADMIN_BROADCASTS, queryFetcher);
}

/**
 * How often one broadcast is read again, by status (the one polled view of the dashboard:
 * docs/decisions/152-broadcasts.md): its progress while the job counts or sends; and before it goes out
 * (a draft, awaiting approval or its time), so a broadcast an editor changes and prepares again shows changed
 * at once (121: approval is for one version).
 */
const REFRESH_MS: Partial<Record<BroadcastStatus, number>> = {
  draft: 5000,
  preparing: 3000,
  sending: 3000,
  ready: 5000,
  scheduled: 5000,
};

/** One broadcast with its progress, read again while its status is in REFRESH_MS. */
export function useBroadcast(id: number | null) {
  return useSWR<BroadcastView, Error>(id === null ? null : broadcastPath(id), queryFetcher, {
    refreshInterval: (data) => (data ? (REFRESH_MS[data.broadcast.status] ?? 0) : 0),
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
    /** An action; send and schedule name the version the admin reviewed (the view's `version`). */
    act: useCallback(
      async (id: number, action: Action, body?: { at?: string; version: string }) => {
        try {
          await send<BroadcastView>('POST', `${broadcastPath(id)}/${action}`, body);
        } finally {
          // Refused too (a 409: it changed, or another admin acted): show what it is now.
          await revalidate(ADMIN_BROADCASTS, broadcastPath(id));
        }
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
