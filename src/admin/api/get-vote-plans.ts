import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { VotePlanPage } from '../../lib/schemas/vote-plan.ts';

/** Plans to vote, newest first (admin, editor: docs/decisions/158-plan-to-vote.md). */
export const ADMIN_VOTE_PLANS = '/api/admin/vote-plans';

export function useVotePlans(round: 'primary' | 'runoff', page: number) {
  return useSWR<VotePlanPage, Error>(`${ADMIN_VOTE_PLANS}?round=${round}&page=${page}`, queryFetcher);
}
