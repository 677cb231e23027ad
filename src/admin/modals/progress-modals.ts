import { PRIORITIES, VolunteerGoalUpdateSchema } from '../../lib/schemas/progress.ts';
import { useUpdateGoal } from '../api/update-goal.ts';
import { useUpdateMetric } from '../api/update-metric.ts';
import { useUpdateMilestone } from '../api/update-milestone.ts';
import {
  goalPayload,
  metricPayload,
  milestonePayload,
  type GoalForm,
  type MetricForm,
  type MilestoneForm,
} from '../forms/progress-form.ts';
import type { ProgressField, ProgressModalSpec } from './ProgressRecordModal.tsx';

/*
 * The three progress records' dialogs as data for ProgressRecordModal: their words (spec section 8's toasts), their
 * fields in order, the payload and the write.
 */

const PUBLIC_CHECKBOX = {
  id: 'public',
  label: 'Show on the public site',
  kind: 'checkbox',
  hint: 'The volunteer page shows it to voters.',
  wide: true,
} as const;

const count = <F>(key: keyof F & string, id: string, label: string, hint?: string): ProgressField<F> => ({
  key,
  id,
  label,
  kind: 'number',
  ...(hint ? { hint } : {}),
});

export const METRIC_MODAL: ProgressModalSpec<MetricForm, ReturnType<typeof metricPayload>> = {
  prefix: 'metric',
  title: 'Edit Metric',
  submitLabel: 'Update Metric',
  success: 'Metric updated successfully!',
  failure: 'Failed to update metric',
  fields: [
    { key: 'label', id: 'label', label: 'Label', kind: 'text' },
    { key: 'sublabel', id: 'sublabel', label: 'Sublabel', kind: 'text' },
    count('currentValue', 'current', 'Current value'),
    count('targetValue', 'target', 'Target value'),
    {
      key: 'trend',
      id: 'trend',
      label: 'Trend',
      kind: 'text',
      hint: 'For example: +12% this week',
      wide: true,
    },
    { key: 'description', id: 'description', label: 'Description', kind: 'textarea', rows: 3, wide: true },
    { key: 'isPublic', ...PUBLIC_CHECKBOX },
  ],
  payload: metricPayload,
  useUpdate: useUpdateMetric,
};

export const GOAL_MODAL: ProgressModalSpec<GoalForm, ReturnType<typeof goalPayload>> = {
  prefix: 'goal',
  title: 'Edit Volunteer Goal',
  submitLabel: 'Update Goal',
  success: 'Goal updated successfully!',
  failure: 'Failed to update goal',
  fields: [
    { key: 'description', id: 'description', label: 'Description', kind: 'textarea', rows: 2, wide: true },
    count('currentCount', 'current', 'Current count'),
    count('targetCount', 'target', 'Target count'),
    { key: 'deadline', id: 'deadline', label: 'Deadline', kind: 'date', required: true },
    {
      key: 'priority',
      id: 'priority',
      label: 'Priority',
      kind: 'select',
      options: PRIORITIES.map((p) => ({ value: p, label: p[0]!.toUpperCase() + p.slice(1) })),
    },
  ],
  payload: goalPayload,
  schema: VolunteerGoalUpdateSchema,
  useUpdate: useUpdateGoal,
};

export const MILESTONE_MODAL: ProgressModalSpec<MilestoneForm, ReturnType<typeof milestonePayload>> = {
  prefix: 'milestone',
  title: 'Edit Milestone',
  submitLabel: 'Update Milestone',
  success: 'Milestone updated successfully!',
  failure: 'Failed to update milestone',
  fields: [
    { key: 'label', id: 'label', label: 'Label', kind: 'text', wide: true },
    count('currentCount', 'current', 'Current count'),
    count('targetCount', 'target', 'Target count', 'Optional.'),
    { key: 'description', id: 'description', label: 'Description', kind: 'textarea', rows: 3, wide: true },
    { key: 'isPublic', ...PUBLIC_CHECKBOX },
  ],
  payload: milestonePayload,
  useUpdate: useUpdateMilestone,
};
