import { toast } from 'sonner';
import { PRIORITIES, VolunteerGoalUpdateSchema } from '../../lib/schemas/progress.ts';
import { useUpdateGoal } from '../api/update-goal.ts';
import { FormDialog } from '../components/FormDialog.tsx';
import { SelectField, TextArea, TextField } from '../components/Field.tsx';
import { goalPayload, type GoalForm } from '../forms/progress-form.ts';
import { failureDescription } from '../forms/errors.ts';
import { useFormState, useSubmit } from '../forms/use-form.ts';

const PRIORITY_OPTIONS = PRIORITIES.map((p) => ({ value: p, label: p[0]!.toUpperCase() + p.slice(1) }));

export function GoalModal({ initial, onClose }: { initial: GoalForm; onClose: () => void }) {
  const { values: f, set, errors, setErrors, validate } = useFormState(initial);
  const update = useUpdateGoal();
  const { busy, onSubmit } = useSubmit({
    check: () => validate(VolunteerGoalUpdateSchema, goalPayload(f), 'Failed to update goal'),
    save: () => update(f.id, goalPayload(f)),
    success: 'Goal updated successfully!',
    // Only the toast: a 400's field map is not shown on this form.
    onError: (err) =>
      toast.error('Failed to update goal', { description: failureDescription(err, 'Please try again.') }),
    onClose,
    setErrors,
  });

  return (
    <FormDialog
      id="goal-form"
      title="Edit Volunteer Goal"
      submitLabel="Update Goal"
      busy={busy}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <TextArea
        id="goal-description"
        label="Description"
        rows={2}
        value={f.description}
        error={errors.description}
        onChange={(e) => set('description', e.target.value)}
        className="span-2"
        data-autofocus
      />
      <TextField
        id="goal-current"
        label="Current count"
        type="number"
        inputMode="numeric"
        value={f.currentCount}
        onChange={(e) => set('currentCount', e.target.value)}
      />
      <TextField
        id="goal-target"
        label="Target count"
        type="number"
        inputMode="numeric"
        value={f.targetCount}
        onChange={(e) => set('targetCount', e.target.value)}
      />
      <TextField
        id="goal-deadline"
        label="Deadline"
        type="date"
        required
        value={f.deadline}
        error={errors.deadline}
        onChange={(e) => set('deadline', e.target.value)}
      />
      <SelectField
        id="goal-priority"
        label="Priority"
        options={PRIORITY_OPTIONS}
        value={f.priority}
        onChange={(e) => set('priority', e.target.value as GoalForm['priority'])}
      />
    </FormDialog>
  );
}
