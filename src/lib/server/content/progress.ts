import type { z } from 'zod';
import {
  MetricSchema,
  MilestoneSchema,
  VolunteerGoalSchema,
  type Metric,
  type MetricUpdateSchema,
  type Milestone,
  type MilestoneUpdateSchema,
  type VolunteerGoal,
  type VolunteerGoalUpdateSchema,
} from '../../schemas/progress.ts';
import { HttpError } from '../errors.ts';
import { laterStamp } from './stamps.ts';
import { Collection } from '../storage/collection.ts';
import { byId, GOALS_LAYOUT, METRICS_LAYOUT, MILESTONES_LAYOUT } from './progress-public.ts';

export {
  campaignProgress,
  defaultGoals,
  defaultMetrics,
  defaultMilestones,
  endOfWeek,
} from './progress-public.ts';

export const metrics = new Collection<Metric>({ ...METRICS_LAYOUT, schema: MetricSchema });
export const goals = new Collection<VolunteerGoal>({ ...GOALS_LAYOUT, schema: VolunteerGoalSchema });
export const milestones = new Collection<Milestone>({ ...MILESTONES_LAYOUT, schema: MilestoneSchema });

export async function listMetrics(): Promise<Metric[]> {
  return (await metrics.list()).sort(byId);
}
export async function listGoals(): Promise<VolunteerGoal[]> {
  return (await goals.list()).sort(byId);
}
export async function listMilestones(): Promise<Milestone[]> {
  return (await milestones.list()).sort(byId);
}

export async function updateMetric(
  id: number,
  input: z.output<typeof MetricUpdateSchema>,
  now = new Date(),
): Promise<Metric> {
  const after = await metrics.update(id, (cur) => ({
    ...cur,
    ...input,
    updatedAt: laterStamp(now, cur.updatedAt),
  }));
  if (!after) throw new HttpError(404, 'Metric not found');
  return after;
}

export async function updateGoal(
  id: number,
  input: z.output<typeof VolunteerGoalUpdateSchema>,
  now = new Date(),
): Promise<VolunteerGoal> {
  const after = await goals.update(id, (cur) => ({
    ...cur,
    ...input,
    updatedAt: laterStamp(now, cur.updatedAt),
  }));
  if (!after) throw new HttpError(404, 'Volunteer goal not found');
  return after;
}

export async function updateMilestone(
  id: number,
  input: z.output<typeof MilestoneUpdateSchema>,
  now = new Date(),
): Promise<Milestone> {
  const after = await milestones.update(id, (cur) => ({
    ...cur,
    ...input,
    updatedAt: laterStamp(now, cur.updatedAt),
  }));
  if (!after) throw new HttpError(404, 'Milestone not found');
  return after;
}
