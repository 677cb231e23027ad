import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { Page } from '../../lib/schemas/paging.ts';
import type { CampaignEvent } from '../../lib/schemas/event.ts';
import { ADMIN_EVENTS, listKey } from './shared.ts';

export type EventsPage = Page<'events', CampaignEvent>;

export const EVENTS_PAGE_SIZE = 20;

export function useEvents(page: number, pageSize = EVENTS_PAGE_SIZE) {
  return useSWR<EventsPage, Error>(listKey(ADMIN_EVENTS, { page, pageSize }), queryFetcher);
}
