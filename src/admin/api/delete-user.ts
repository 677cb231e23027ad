import { useCallback } from 'react';
import { ADMIN_USERS, send, useRevalidate } from './shared.ts';

export const deleteUser = (id: number) => send<{ success: true }>('DELETE', `${ADMIN_USERS}/${id}`);

export function useDeleteUser() {
  const revalidate = useRevalidate();
  return useCallback(
    async (id: number) => {
      await deleteUser(id);
      await revalidate(ADMIN_USERS);
    },
    [revalidate],
  );
}
