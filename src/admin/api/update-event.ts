import { useCallback } from 'react';
import type { CampaignEvent, EventInput } from '../../lib/schemas/event.ts';
import { ADMIN_EVENTS, send, useRevalidate, PUBLIC_EVENTS } from './shared.ts';

export const updateEvent = (id: number, input: EventInput) =>
  send<{ event: CampaignEvent }>('PUT', `${ADMIN_EVENTS}/${id}`, input);

export function useUpdateEvent() {
  const revalidate = useRevalidate();
  return useCallback(
    async (id: number, input: EventInput) => {
      const { event } = await updateEvent(id, input);
      await revalidate(ADMIN_EVENTS, PUBLIC_EVENTS);
      return event;
    },
    [revalidate],
  );
}
