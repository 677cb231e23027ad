import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { RsvpStaffView } from '../../lib/schemas/rsvp.ts';
import { ADMIN_EVENTS, listKey } from './shared.ts';

export const RSVP_PAGE_SIZE = 100;
export const rsvpsPath = (eventId: number) => `${ADMIN_EVENTS}/${eventId}/rsvps`;

/**
 * Going / waitlisted / capacity and a page of the people of one event, or of those whose name, email or
 * phone contains `q` (searched on the server: docs/decisions/155-inbox-and-staff-lists.md).
 */
export function useRsvps(eventId: number, page = 1, q = '') {
  return useSWR<RsvpStaffView, Error>(
    listKey(rsvpsPath(eventId), { page, pageSize: RSVP_PAGE_SIZE, q: q.trim() || undefined }),
    queryFetcher,
  );
}
