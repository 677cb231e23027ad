import { useCallback } from 'react';
import type { CampaignEvent, EventInput } from '../../lib/schemas/event.ts';
import { ADMIN_EVENTS, send, useRevalidate, PUBLIC_EVENTS } from './shared.ts';

export const createEvent = (input: EventInput) => send<{ event: CampaignEvent }>('POST', ADMIN_EVENTS, input);

export function useCreateEvent() {
  const revalidate = useRevalidate();
  return useCallback(
    async (input: EventInput) => {
      const { event } = await createEvent(input);
      await revalidate(ADMIN_EVENTS, PUBLIC_EVENTS);
      return event;
    },
    [revalidate],
  );
}
