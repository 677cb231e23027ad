import { toast } from 'sonner';
import { useUpdateMilestone } from '../api/update-milestone.ts';
import { FormDialog } from '../components/FormDialog.tsx';
import { CheckboxField, TextArea, TextField } from '../components/Field.tsx';
import { milestonePayload, type MilestoneForm } from '../forms/progress-form.ts';
import { failureDescription } from '../forms/errors.ts';
import { useFormState, useSubmit } from '../forms/use-form.ts';

export function MilestoneModal({ initial, onClose }: { initial: MilestoneForm; onClose: () => void }) {
  const { values: f, set } = useFormState(initial);
  const update = useUpdateMilestone();
  const { busy, onSubmit } = useSubmit({
    save: () => update(f.id, milestonePayload(f)),
    success: 'Milestone updated successfully!',
    onError: (err) =>
      toast.error('Failed to update milestone', {
        description: failureDescription(err, 'Please try again.'),
      }),
    onClose,
  });

  return (
    <FormDialog
      id="milestone-form"
      title="Edit Milestone"
      submitLabel="Update Milestone"
      busy={busy}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <TextField
        id="milestone-label"
        label="Label"
        value={f.label}
        onChange={(e) => set('label', e.target.value)}
        className="span-2"
        data-autofocus
      />
      <TextField
        id="milestone-current"
        label="Current count"
        type="number"
        inputMode="numeric"
        value={f.currentCount}
        onChange={(e) => set('currentCount', e.target.value)}
      />
      <TextField
        id="milestone-target"
        label="Target count"
        type="number"
        inputMode="numeric"
        value={f.targetCount}
        hint="Optional."
        onChange={(e) => set('targetCount', e.target.value)}
      />
      <TextArea
        id="milestone-description"
        label="Description"
        rows={3}
        value={f.description}
        onChange={(e) => set('description', e.target.value)}
        className="span-2"
      />
      <CheckboxField
        id="milestone-public"
        label="Show on the public site"
        hint="The volunteer page shows it to voters."
        checked={f.isPublic}
        onChange={(e) => set('isPublic', e.target.checked)}
        className="span-2"
      />
    </FormDialog>
  );
}
