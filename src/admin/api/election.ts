import useSWR from 'swr';
import { useCallback } from 'react';
import { queryFetcher } from '../../lib/client/api.ts';
import type { ElectionCalendar } from '../../lib/election-stage.ts';
import { send, useRevalidate } from './shared.ts';

/** The election calendar (docs/decisions/157-election-calendar.md), admin only. */
export const ADMIN_ELECTION = '/api/admin/election';

export interface StoredElectionCalendar {
  calendar: ElectionCalendar;
  isDefault: boolean;
  updatedAt: string | null;
  updatedBy: string | null;
}

export function useElectionCalendar() {
  return useSWR<StoredElectionCalendar, Error>(ADMIN_ELECTION, queryFetcher);
}

/** PUT /api/admin/election: replaces the calendar (validated and audited by the server). */
export function useSaveElectionCalendar() {
  const revalidate = useRevalidate();
  return useCallback(
    async (calendar: ElectionCalendar) => {
      const res = await send<StoredElectionCalendar>('PUT', ADMIN_ELECTION, calendar);
      await revalidate(ADMIN_ELECTION);
      return res;
    },
    [revalidate],
  );
}

/** POST /api/admin/election/sites: the early-voting sites from a CSV file (docs/decisions/157-election-calendar.md). */
export function useImportSites() {
  const revalidate = useRevalidate();
  return useCallback(
    async (csv: string) => {
      const res = await send<StoredElectionCalendar>('POST', `${ADMIN_ELECTION}/sites`, { csv });
      await revalidate(ADMIN_ELECTION);
      return res;
    },
    [revalidate],
  );
}

/**
 * POST /api/admin/election/next: starts the next election on the given Election Day
 * (docs/decisions/157-election-calendar.md, "Starting the next election").
 */
export function useStartNextElection() {
  const revalidate = useRevalidate();
  return useCallback(
    async (electionDay: string) => {
      const res = await send<StoredElectionCalendar>('POST', `${ADMIN_ELECTION}/next`, { electionDay });
      await revalidate(ADMIN_ELECTION);
      return res;
    },
    [revalidate],
  );
}
