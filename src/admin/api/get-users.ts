import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { Page } from '../../lib/schemas/paging.ts';
import type { PublicUser } from '../../lib/schemas/user.ts';
import { ADMIN_USERS, listKey } from './shared.ts';

export type UsersPage = Page<'users', PublicUser>;

export const USERS_PAGE_SIZE = 25;

/** Admin only: callers render this only with the 'admin' permission. */
export function useUsers(page: number, pageSize = USERS_PAGE_SIZE) {
  return useSWR<UsersPage, Error>(listKey(ADMIN_USERS, { page, pageSize }), queryFetcher);
}
