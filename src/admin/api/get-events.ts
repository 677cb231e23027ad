import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { CampaignEvent } from '../../lib/schemas/event.ts';
import { ADMIN_EVENTS, listKey, type Paged } from './shared.ts';

export interface EventsPage extends Paged {
  events: CampaignEvent[];
}

export const EVENTS_PAGE_SIZE = 20;

export function useEvents(page: number, pageSize = EVENTS_PAGE_SIZE) {
  return useSWR<EventsPage, Error>(listKey(ADMIN_EVENTS, { page, pageSize }), queryFetcher);
}
