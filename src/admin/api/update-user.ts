import { useCallback } from 'react';
import type { PublicUser, UserUpdate } from '../../lib/schemas/user.ts';
import { ADMIN_USERS, send, useRevalidate } from './shared.ts';

/** The payload leaves out a blank password (see forms/user-form.ts). */
export const updateUser = (id: number, input: UserUpdate) =>
  send<{ user: PublicUser }>('PUT', `${ADMIN_USERS}/${id}`, input);

export function useUpdateUser() {
  const revalidate = useRevalidate();
  return useCallback(
    async (id: number, input: UserUpdate) => {
      const { user } = await updateUser(id, input);
      await revalidate(ADMIN_USERS);
      return user;
    },
    [revalidate],
  );
}
