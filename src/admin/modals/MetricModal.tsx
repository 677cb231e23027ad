import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { useUpdateMetric } from '../api/update-metric.ts';
import { Dialog } from '../components/Dialog.tsx';
import { TextArea, TextField } from '../components/Field.tsx';
import { metricPayload, type MetricForm } from '../forms/progress-form.ts';
import { failureDescription } from '../forms/errors.ts';

export function MetricModal({ initial, onClose }: { initial: MetricForm; onClose: () => void }) {
  const [f, setF] = useState(initial);
  const [busy, setBusy] = useState(false);
  const update = useUpdateMetric();
  const set = <K extends keyof MetricForm>(k: K, v: MetricForm[K]) => setF((prev) => ({ ...prev, [k]: v }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    // aria-disabled, not disabled, while saving: the button keeps focus.
    if (busy) return;
    setBusy(true);
    try {
      await update(f.id, metricPayload(f));
      toast.success('Metric updated successfully!');
      onClose();
    } catch (err) {
      toast.error('Failed to update metric', { description: failureDescription(err, 'Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title="Edit Metric"
      footer={
        <>
          <button type="button" className="btn btn--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="metric-form" className="btn btn--primary" aria-disabled={busy}>
            {busy ? 'Saving...' : 'Update Metric'}
          </button>
        </>
      }
    >
      <form id="metric-form" onSubmit={(e) => void onSubmit(e)} noValidate className="form-grid">
        <TextField
          id="metric-label"
          label="Label"
          value={f.label}
          onChange={(e) => set('label', e.target.value)}
          data-autofocus
        />
        <TextField
          id="metric-sublabel"
          label="Sublabel"
          value={f.sublabel}
          onChange={(e) => set('sublabel', e.target.value)}
        />
        <TextField
          id="metric-current"
          label="Current value"
          type="number"
          inputMode="numeric"
          value={f.currentValue}
          onChange={(e) => set('currentValue', e.target.value)}
        />
        <TextField
          id="metric-target"
          label="Target value"
          type="number"
          inputMode="numeric"
          value={f.targetValue}
          onChange={(e) => set('targetValue', e.target.value)}
        />
        <TextField
          id="metric-trend"
          label="Trend"
          value={f.trend}
          hint="For example: +12% this week"
          onChange={(e) => set('trend', e.target.value)}
          className="span-2"
        />
        <TextArea
          id="metric-description"
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
