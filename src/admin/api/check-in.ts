import { useCallback } from 'react';
import { rsvpsPath } from './get-rsvps.ts';
import { send, useRevalidate } from './shared.ts';

/** Checks a person in at the door (or undoes it), then refreshes the event's list. */
export function useCheckIn(eventId: number) {
  const revalidate = useRevalidate();
  return useCallback(
    async (rsvpId: string, checkedIn: boolean) => {
      const r = await send<{ id: string; checkedInAt: string | null }>(
        'PUT',
        `${rsvpsPath(eventId)}/${rsvpId}`,
        { checkedIn },
      );
      await revalidate(rsvpsPath(eventId));
      return r;
    },
    [eventId, revalidate],
  );
}
