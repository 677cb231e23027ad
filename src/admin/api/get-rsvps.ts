import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { RsvpStaffView } from '../../lib/schemas/rsvp.ts';
import { ADMIN_EVENTS, listKey } from './shared.ts';

export const RSVP_PAGE_SIZE = 200;
export const rsvpsPath = (eventId: number) => `${ADMIN_EVENTS}/${eventId}/rsvps`;

/** Going / waitlisted / capacity and the people of one event. */
export function useRsvps(eventId: number) {
  return useSWR<RsvpStaffView, Error>(
    listKey(rsvpsPath(eventId), { pageSize: RSVP_PAGE_SIZE }),
    queryFetcher,
  );
}

export const rsvpsCsvUrl = (eventId: number) => listKey(rsvpsPath(eventId), { format: 'csv' });
