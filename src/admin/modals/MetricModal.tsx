import { toast } from 'sonner';
import { useUpdateMetric } from '../api/update-metric.ts';
import { FormDialog } from '../components/FormDialog.tsx';
import { CheckboxField, TextArea, TextField } from '../components/Field.tsx';
import { metricPayload, type MetricForm } from '../forms/progress-form.ts';
import { failureDescription } from '../forms/errors.ts';
import { useFormState, useSubmit } from '../forms/use-form.ts';

export function MetricModal({ initial, onClose }: { initial: MetricForm; onClose: () => void }) {
  const { values: f, set } = useFormState(initial);
  const update = useUpdateMetric();
  const { busy, onSubmit } = useSubmit({
    save: () => update(f.id, metricPayload(f)),
    success: 'Metric updated successfully!',
    onError: (err) =>
      toast.error('Failed to update metric', { description: failureDescription(err, 'Please try again.') }),
    onClose,
  });

  return (
    <FormDialog
      id="metric-form"
      title="Edit Metric"
      submitLabel="Update Metric"
      busy={busy}
      onSubmit={onSubmit}
      onClose={onClose}
    >
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
      <CheckboxField
        id="metric-public"
        label="Show on the public site"
        hint="The volunteer page shows it to voters."
        checked={f.isPublic}
        onChange={(e) => set('isPublic', e.target.checked)}
        className="span-2"
      />
    </FormDialog>
  );
}
