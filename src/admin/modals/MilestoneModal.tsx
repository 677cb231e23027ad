import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { useUpdateMilestone } from '../api/update-milestone.ts';
import { Dialog } from '../components/Dialog.tsx';
import { TextArea, TextField } from '../components/Field.tsx';
import { milestonePayload, type MilestoneForm } from '../forms/progress-form.ts';
import { failureDescription } from '../forms/errors.ts';

export function MilestoneModal({ initial, onClose }: { initial: MilestoneForm; onClose: () => void }) {
  const [f, setF] = useState(initial);
  const [busy, setBusy] = useState(false);
  const update = useUpdateMilestone();
  const set = <K extends keyof MilestoneForm>(k: K, v: MilestoneForm[K]) =>
    setF((prev) => ({ ...prev, [k]: v }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    // aria-disabled, not disabled, while saving: the button keeps focus.
    if (busy) return;
    setBusy(true);
    try {
      await update(f.id, milestonePayload(f));
      toast.success('Milestone updated successfully!');
      onClose();
    } catch (err) {
      toast.error('Failed to update milestone', {
        description: failureDescription(err, 'Please try again.'),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title="Edit Milestone"
      footer={
        <>
          <button type="button" className="btn btn--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="milestone-form" className="btn btn--primary" aria-disabled={busy}>
            {busy ? 'Saving...' : 'Update Milestone'}
          </button>
        </>
      }
    >
      <form id="milestone-form" onSubmit={(e) => void onSubmit(e)} noValidate className="form-grid">
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
      </form>
    </Dialog>
  );
}
