import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { DonationSummary, StoredGoal } from '../../lib/schemas/donations.ts';
import { listKey } from './shared.ts';

export const ADMIN_DONATIONS = '/api/admin/donations';
export const ADMIN_DONATION_GOAL = '/api/admin/donations/goal';

/** Attribution totals for a range of campaign days (answered from the day aggregates). */
export function useDonationSummary(from: string, to: string) {
  return useSWR<DonationSummary, Error>(listKey(ADMIN_DONATIONS, { from, to }), queryFetcher);
}

export function useDonationGoal() {
  return useSWR<{ goal: StoredGoal | null }, Error>(ADMIN_DONATION_GOAL, queryFetcher);
}
