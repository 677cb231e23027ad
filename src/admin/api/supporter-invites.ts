import useSWR, { useSWRConfig } from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import { send } from './shared.ts';

/**
 * Supporters' invite links for staff (docs/decisions/182-supporter-page.md): a person's current code and its counts
 * (netlify/functions/admin-people-invite.mts; revoke: editors, admins) and the recruits leaderboard
 * (netlify/functions/admin-recruits.mts; showing it on /my: admins).
 */
export const ADMIN_RECRUITS = '/api/admin/recruits';
const invitePath = (id: string) => `/api/admin/people/${id}/invite`;

export interface PersonInvite {
  invite: { code: string; createdAt: string; revokedAt: string | null; revokedBy: string | null } | null;
  counts: { total: number } & Record<string, number>;
}
export interface Recruits {
  leaders: { personId: string; name: string; count: number }[];
  settings: { showOnMy: boolean; updatedAt: string | null; updatedBy: string | null };
}

export function usePersonInvite(id: string) {
  const { mutate } = useSWRConfig();
  const swr = useSWR<PersonInvite, Error>(invitePath(id), queryFetcher);
  const revoke = async () => {
    await send<PersonInvite>('POST', `${invitePath(id)}/revoke`);
    await Promise.all([mutate(invitePath(id)), mutate(ADMIN_RECRUITS)]);
  };
  return { ...swr, revoke };
}

export function useRecruits() {
  const swr = useSWR<Recruits, Error>(ADMIN_RECRUITS, queryFetcher);
  const setShowOnMy = async (showOnMy: boolean) => {
    await send('PUT', ADMIN_RECRUITS, { showOnMy });
    await swr.mutate();
  };
  return { ...swr, setShowOnMy };
}
