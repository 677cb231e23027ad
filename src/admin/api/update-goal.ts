import { useCallback } from 'react';
import type { VolunteerGoal, VolunteerGoalUpdate } from '../../lib/schemas/progress.ts';
import { ADMIN_GOALS, send, useRevalidate, PUBLIC_PROGRESS } from './shared.ts';

export const updateGoal = (id: number, input: VolunteerGoalUpdate) =>
  send<{ goal: VolunteerGoal }>('PUT', `${ADMIN_GOALS}/${id}`, input);

export function useUpdateGoal() {
  const revalidate = useRevalidate();
  return useCallback(
    async (id: number, input: VolunteerGoalUpdate) => {
      const { goal } = await updateGoal(id, input);
      await revalidate(ADMIN_GOALS, PUBLIC_PROGRESS);
      return goal;
    },
    [revalidate],
  );
}
