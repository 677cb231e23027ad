import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import { PAGE_SIZE_MAX, type Page } from '../../lib/schemas/paging.ts';
import type { CampaignEvent } from '../../lib/schemas/event.ts';
import { ADMIN_EVENTS, listKey } from './shared.ts';

export type EventsPage = Page<'events', CampaignEvent>;

export const EVENTS_PAGE_SIZE = 20;

export function useEvents(page: number, pageSize = EVENTS_PAGE_SIZE) {
  return useSWR<EventsPage, Error>(listKey(ADMIN_EVENTS, { page, pageSize }), queryFetcher);
}

/**
 * The newest `limit` events, newest first (latest date and start first), for a picker (the People tab's event filter:
 * docs/decisions/149-people.md). The list is oldest first, so the newest are its last `limit`: the one or two pages
 * of that size they fall on, read once the first page gives the total. Nothing is read until `enabled`.
 */
export function useEventsNewestFirst(
  enabled: boolean,
  limit = PAGE_SIZE_MAX,
): { events: CampaignEvent[]; error: Error | undefined } {
  const key = (p: number) => listKey(ADMIN_EVENTS, { page: p, pageSize: limit });
  const first = useSWR<EventsPage, Error>(enabled ? key(1) : null, queryFetcher);
  const last = Math.ceil((first.data?.total ?? 0) / limit);
  const before = useSWR<EventsPage, Error>(last > 1 ? key(last - 1) : null, queryFetcher);
  const tail = useSWR<EventsPage, Error>(last > 1 ? key(last) : null, queryFetcher);
  const all =
    last > 1 ? [...(before.data?.events ?? []), ...(tail.data?.events ?? [])] : (first.data?.events ?? []);
  const events = [...all]
    .sort((a, b) => (b.eventDate + b.startTime).localeCompare(a.eventDate + a.startTime) || b.id - a.id)
    .slice(0, limit);
  return { events, error: first.error ?? before.error ?? tail.error };
}
