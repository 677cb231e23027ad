import type { z } from 'zod';
import {
  MetricSchema,
  MilestoneSchema,
  VolunteerGoalSchema,
  type Metric,
  type MetricUpdateSchema,
  type Milestone,
  type MilestoneUpdateSchema,
  PublicProgressResponseSchema,
  type PublicProgress,
  type VolunteerGoal,
  type VolunteerGoalUpdateSchema,
} from '../../schemas/progress.ts';
import { weeklyGoals } from '../../../content/volunteer.ts';
import { HttpError } from '../errors.ts';
import { laterStamp } from './articles.ts';
import { Collection } from './collection.ts';
import { campaignToday } from './events.ts';

/**
 * Metrics, weekly volunteer goals and milestones: fixed records, updated only
 * (PUT :id). They always exist: production starts with these defaults at zero;
 * the local seed gives them realistic figures.
 */
const EPOCH = new Date(0).toISOString();

/** The Sunday ending the campaign week that contains `now` (YYYY-MM-DD). */
export function endOfWeek(now = new Date()): string {
  const today = new Date(`${campaignToday(now)}T12:00:00Z`);
  const daysToSunday = (7 - today.getUTCDay()) % 7;
  return new Date(today.getTime() + daysToSunday * 86_400_000).toISOString().slice(0, 10);
}

export function defaultMetrics(): Metric[] {
  const m = (
    id: number,
    label: string,
    sublabel: string,
    targetValue: number,
    description: string,
  ): Metric => ({
    id,
    currentValue: 0,
    targetValue,
    label,
    sublabel,
    description,
    trend: '',
    isPublic: false,
    updatedAt: EPOCH,
  });
  return [
    m(
      1,
      'Volunteers',
      'Neighbors signed up',
      1000,
      'People who have signed up to knock doors, make calls and staff events.',
    ),
    m(
      2,
      'Doors Knocked',
      'Conversations at the door',
      50000,
      'Doors our volunteers have knocked across the city.',
    ),
    m(
      3,
      'Individual Donors',
      'Grassroots contributions',
      2500,
      'People who have given to the campaign, most of them under $100.',
    ),
    m(
      4,
      'Neighborhoods Reached',
      'Of 72 neighborhoods',
      72,
      'New Orleans neighborhoods where we have held a meeting or canvass.',
    ),
  ];
}

/** Spec section 9: weekly goals of 15 recruits, 500 voter contacts, 3 events staffed, 200 volunteer hours. */
export function defaultGoals(now = new Date()): VolunteerGoal[] {
  const deadline = endOfWeek(now);
  const g = (
    id: number,
    targetCount: number,
    description: string,
    priority: VolunteerGoal['priority'],
  ): VolunteerGoal => ({
    id,
    currentCount: 0,
    targetCount,
    deadline,
    description,
    priority,
    updatedAt: EPOCH,
  });
  // The spec's figures are campaign copy (src/content/volunteer.ts); the first two matter most.
  return weeklyGoals.map((goal, i) => g(i + 1, goal.target, goal.label, i < 2 ? 'high' : 'medium'));
}

export function defaultMilestones(): Milestone[] {
  const m = (id: number, targetCount: number | null, label: string, description: string): Milestone => ({
    id,
    currentCount: 0,
    targetCount,
    label,
    description,
    isPublic: false,
    updatedAt: EPOCH,
  });
  return [
    m(1, null, 'Supporters', 'People who have signed up for campaign updates.'),
    m(2, 20, 'Town Halls Held', 'Open community meetings, at least one in every council district.'),
    m(3, 10000, 'Petition Signatures', 'Signatures for the one-term pledge and ethics reform.'),
  ];
}

export const metrics = new Collection<Metric>({
  store: 'progress',
  namespace: 'metric',
  counter: 'metrics',
  schema: MetricSchema,
  defaults: defaultMetrics,
});
export const goals = new Collection<VolunteerGoal>({
  store: 'progress',
  namespace: 'goal',
  counter: 'volunteer-goals',
  schema: VolunteerGoalSchema,
  defaults: () => defaultGoals(),
});
export const milestones = new Collection<Milestone>({
  store: 'progress',
  namespace: 'milestone',
  counter: 'milestones',
  schema: MilestoneSchema,
  defaults: defaultMilestones,
});

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

export async function listMetrics(): Promise<Metric[]> {
  return (await metrics.list()).sort(byId);
}
export async function listGoals(): Promise<VolunteerGoal[]> {
  return (await goals.list()).sort(byId);
}
export async function listMilestones(): Promise<Milestone[]> {
  return (await milestones.list()).sort(byId);
}

/**
 * What voters see (GET /api/campaign-metrics and the volunteer page): every
 * weekly goal, and the metrics and milestones staff marked public, in the
 * public projection. Three index reads.
 */
export async function campaignProgress(): Promise<PublicProgress> {
  const [m, g, s] = await Promise.all([listMetrics(), listGoals(), listMilestones()]);
  return PublicProgressResponseSchema.parse({
    metrics: m.filter((x) => x.isPublic),
    goals: g,
    milestones: s.filter((x) => x.isPublic),
  });
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
