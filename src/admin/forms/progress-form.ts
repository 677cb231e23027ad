import { intOr } from '../../lib/schemas/fields.ts';
import type {
  Metric,
  MetricUpdate,
  Milestone,
  MilestoneUpdate,
  VolunteerGoal,
  VolunteerGoalUpdate,
} from '../../lib/schemas/progress.ts';

/** Spec section 5: integer fields parse as integers, falling back to 0. */
export function int0(text: string): number {
  return intOr(text, 0);
}

export interface MetricForm {
  id: number;
  label: string;
  sublabel: string;
  currentValue: string;
  targetValue: string;
  description: string;
  trend: string;
  isPublic: boolean;
}
export const metricForm = (m: Metric): MetricForm => ({
  id: m.id,
  label: m.label,
  sublabel: m.sublabel,
  currentValue: String(m.currentValue),
  targetValue: String(m.targetValue),
  description: m.description,
  trend: m.trend,
  isPublic: m.isPublic,
});
export const metricPayload = (f: MetricForm): MetricUpdate => ({
  currentValue: int0(f.currentValue),
  targetValue: int0(f.targetValue),
  label: f.label.trim(),
  sublabel: f.sublabel.trim(),
  description: f.description.trim(),
  trend: f.trend.trim(),
  isPublic: f.isPublic,
});

export interface GoalForm {
  id: number;
  description: string;
  currentCount: string;
  targetCount: string;
  deadline: string;
  priority: VolunteerGoal['priority'];
}
export const goalForm = (g: VolunteerGoal): GoalForm => ({
  id: g.id,
  description: g.description,
  currentCount: String(g.currentCount),
  targetCount: String(g.targetCount),
  deadline: g.deadline,
  priority: g.priority,
});
export const goalPayload = (f: GoalForm): VolunteerGoalUpdate => ({
  currentCount: int0(f.currentCount),
  targetCount: int0(f.targetCount),
  deadline: f.deadline,
  description: f.description.trim(),
  priority: f.priority,
});

export interface MilestoneForm {
  id: number;
  label: string;
  description: string;
  currentCount: string;
  /** Optional: empty means no target. */
  targetCount: string;
  isPublic: boolean;
}
export const milestoneForm = (m: Milestone): MilestoneForm => ({
  id: m.id,
  label: m.label,
  description: m.description,
  currentCount: String(m.currentCount),
  targetCount: m.targetCount === null ? '' : String(m.targetCount),
  isPublic: m.isPublic,
});
export const milestonePayload = (f: MilestoneForm): MilestoneUpdate => ({
  currentCount: int0(f.currentCount),
  targetCount: f.targetCount.trim() === '' ? null : int0(f.targetCount),
  label: f.label.trim(),
  description: f.description.trim(),
  isPublic: f.isPublic,
});
