import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { Metric, Milestone, VolunteerGoal } from '../../lib/schemas/progress.ts';
import { ADMIN_GOALS, ADMIN_METRICS, ADMIN_MILESTONES } from './shared.ts';

export const useMetrics = () => useSWR<{ metrics: Metric[] }, Error>(ADMIN_METRICS, queryFetcher);
export const useGoals = () => useSWR<{ goals: VolunteerGoal[] }, Error>(ADMIN_GOALS, queryFetcher);
export const useMilestones = () => useSWR<{ milestones: Milestone[] }, Error>(ADMIN_MILESTONES, queryFetcher);
