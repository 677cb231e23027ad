import { weeklyGoals } from '../../../content/volunteer.ts';
import type { Metric, Milestone, PublicProgress, VolunteerGoal } from '../../schemas/progress.ts';
import { PROGRESS_PROJECTION } from '../../schemas/public-projections.ts';
import { CollectionReader, type CollectionLayout } from '../storage/collection.ts';
import { campaignToday } from './events-public.ts';

/*
 * What GET /api/campaign-metrics needs, and nothing that loads zod: the three
 * collections' layouts, their defaults and the public read. The schemas and
 * the writes are in progress.ts.
 */

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

export const METRICS_LAYOUT: CollectionLayout<Metric> = {
  store: 'progress',
  namespace: 'metric',
  counter: 'metrics',
  defaults: defaultMetrics,
};
export const GOALS_LAYOUT: CollectionLayout<VolunteerGoal> = {
  store: 'progress',
  namespace: 'goal',
  counter: 'volunteer-goals',
  defaults: () => defaultGoals(),
};
export const MILESTONES_LAYOUT: CollectionLayout<Milestone> = {
  store: 'progress',
  namespace: 'milestone',
  counter: 'milestones',
  defaults: defaultMilestones,
};

export const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

const readers = {
  metrics: new CollectionReader<Metric>(METRICS_LAYOUT),
  goals: new CollectionReader<VolunteerGoal>(GOALS_LAYOUT),
  milestones: new CollectionReader<Milestone>(MILESTONES_LAYOUT),
};

/**
 * What voters see (GET /api/campaign-metrics and the volunteer page): every
 * weekly goal, and the metrics and milestones staff marked public, in the
 * public projection. Three index reads.
 */
export async function campaignProgress(): Promise<PublicProgress> {
  const [m, g, s] = await Promise.all([
    readers.metrics.list(),
    readers.goals.list(),
    readers.milestones.list(),
  ]);
  return PROGRESS_PROJECTION.parse({
    metrics: m.filter((x) => x.isPublic).sort(byId),
    goals: g.sort(byId),
    milestones: s.filter((x) => x.isPublic).sort(byId),
  });
}

/** Every volunteer goal and milestone, public or not, for staff (the Overview): two index reads. */
export async function staffProgress(): Promise<{ goals: VolunteerGoal[]; milestones: Milestone[] }> {
  const [g, s] = await Promise.all([readers.goals.list(), readers.milestones.list()]);
  return { goals: g.sort(byId), milestones: s.sort(byId) };
}
