import { useCallback } from 'react';
import type { Milestone, MilestoneUpdate } from '../../lib/schemas/progress.ts';
import { ADMIN_MILESTONES, send, useRevalidate, PUBLIC_PROGRESS } from './shared.ts';

export const updateMilestone = (id: number, input: MilestoneUpdate) =>
  send<{ milestone: Milestone }>('PUT', `${ADMIN_MILESTONES}/${id}`, input);

export function useUpdateMilestone() {
  const revalidate = useRevalidate();
  return useCallback(
    async (id: number, input: MilestoneUpdate) => {
      const { milestone } = await updateMilestone(id, input);
      await revalidate(ADMIN_MILESTONES, PUBLIC_PROGRESS);
      return milestone;
    },
    [revalidate],
  );
}
