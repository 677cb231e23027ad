import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { PRIORITIES, VolunteerGoalUpdateSchema } from '../../lib/schemas/progress.ts';
import { useUpdateGoal } from '../api/update-goal.ts';
import { Dialog } from '../components/Dialog.tsx';
import { SelectField, TextArea, TextField } from '../components/Field.tsx';
import { goalPayload, type GoalForm } from '../forms/progress-form.ts';
import { failureDescription, zodFieldErrors } from '../forms/errors.ts';

const PRIORITY_OPTIONS = PRIORITIES.map((p) => ({ value: p, label: p[0]!.toUpperCase() + p.slice(1) }));

export function GoalModal({ initial, onClose }: { initial: GoalForm; onClose: () => void }) {
  const [f, setF] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = useUpdateGoal();
  const set = <K extends keyof GoalForm>(k: K, v: GoalForm[K]) => setF((prev) => ({ ...prev, [k]: v }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    // aria-disabled, not disabled, while saving: the button keeps focus.
    if (busy) return;
    const payload = goalPayload(f);
    const parsed = VolunteerGoalUpdateSchema.safeParse(payload);
    if (!parsed.success) {
      const fieldErrors = zodFieldErrors(parsed.error);
      setErrors(fieldErrors);
      toast.error('Failed to update goal', { description: Object.values(fieldErrors)[0] });
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      await update(f.id, payload);
      toast.success('Goal updated successfully!');
      onClose();
    } catch (err) {
      toast.error('Failed to update goal', { description: failureDescription(err, 'Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title="Edit Volunteer Goal"
      footer={
        <>
          <button type="button" className="btn btn--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="goal-form" className="btn btn--primary" aria-disabled={busy}>
            {busy ? 'Saving...' : 'Update Goal'}
          </button>
        </>
      }
    >
      <form id="goal-form" onSubmit={(e) => void onSubmit(e)} noValidate className="form-grid">
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
      </form>
    </Dialog>
  );
}
