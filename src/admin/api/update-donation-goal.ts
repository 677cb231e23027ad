import { useCallback } from 'react';
import type { GoalInput, StoredGoal } from '../../lib/schemas/donations.ts';
import { ADMIN_DONATION_GOAL } from './get-donations.ts';
import { send, useRevalidate } from './shared.ts';

export const PUBLIC_DONATION_GOAL = '/api/donations/goal';

export function useUpdateDonationGoal() {
  const revalidate = useRevalidate();
  return useCallback(
    async (input: GoalInput) => {
      const { goal } = await send<{ goal: StoredGoal }>('PUT', ADMIN_DONATION_GOAL, input);
      await revalidate(ADMIN_DONATION_GOAL, PUBLIC_DONATION_GOAL);
      return goal;
    },
    [revalidate],
  );
}
