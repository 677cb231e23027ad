import { useCallback } from 'react';
import { ADMIN_EVENTS, send, useRevalidate, PUBLIC_EVENTS } from './shared.ts';

export const deleteEvent = (id: number) => send<{ success: true }>('DELETE', `${ADMIN_EVENTS}/${id}`);

export function useDeleteEvent() {
  const revalidate = useRevalidate();
  return useCallback(
    async (id: number) => {
      await deleteEvent(id);
      await revalidate(ADMIN_EVENTS, PUBLIC_EVENTS);
    },
    [revalidate],
  );
}
