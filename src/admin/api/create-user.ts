import { useCallback } from 'react';
import type { PublicUser, UserCreate } from '../../lib/schemas/user.ts';
import { ADMIN_USERS, send, useRevalidate } from './shared.ts';

export const createUser = (input: UserCreate) => send<{ user: PublicUser }>('POST', ADMIN_USERS, input);

export function useCreateUser() {
  const revalidate = useRevalidate();
  return useCallback(
    async (input: UserCreate) => {
      const { user } = await createUser(input);
      await revalidate(ADMIN_USERS);
      return user;
    },
    [revalidate],
  );
}
