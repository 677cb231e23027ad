import { toast } from 'sonner';
import type { z } from '../../lib/schemas/zod.ts';
import { FormDialog } from '../components/FormDialog.tsx';
import { CheckboxField, SelectField, TextArea, TextField } from '../components/Field.tsx';
import { failureDescription } from '../forms/errors.ts';
import { useFormState, useSubmit } from '../forms/use-form.ts';

/** One field of a progress record's form: which value it edits and how it is shown. */
export interface ProgressField<F> {
  key: keyof F & string;
  /** The input's id is `${form id prefix}-${id}`. */
  id: string;
  label: string;
  kind: 'text' | 'number' | 'date' | 'textarea' | 'select' | 'checkbox';
  hint?: string;
  /** Spans both columns of the dialog. */
  wide?: boolean;
  rows?: number;
  required?: boolean;
  options?: readonly { value: string; label: string }[];
}

/** A progress record's dialog (metric, volunteer goal, milestone): its words, fields, payload and write. */
export interface ProgressModalSpec<F extends { id: number }, P> {
  /** Prefix of the dialog's and inputs' ids: "metric" gives "metric-form", "metric-label", ... */
  prefix: string;
  title: string;
  submitLabel: string;
  /** Spec section 8's success and failure toasts. */
  success: string;
  failure: string;
  fields: readonly ProgressField<F>[];
  payload: (f: F) => P;
  /** The shared schema checked before the write (fields marked and toasted on failure). */
  schema?: z.ZodType;
  useUpdate: () => (id: number, payload: P) => Promise<unknown>;
}

/** The one dialog the Progress tab's three record kinds share, driven by a field list. */
export function ProgressRecordModal<F extends { id: number }, P>({
  spec,
  initial,
  onClose,
}: {
  spec: ProgressModalSpec<F, P>;
  initial: F;
  onClose: () => void;
}) {
  const { values: f, set, errors, setErrors, validate } = useFormState(initial);
  const update = spec.useUpdate();
  const { busy, onSubmit } = useSubmit({
    check: spec.schema ? () => validate(spec.schema!, spec.payload(f), spec.failure) : undefined,
    save: () => update(f.id, spec.payload(f)),
    success: spec.success,
    // Only the toast: a 400's field map is not shown on these forms.
    onError: (err) =>
      toast.error(spec.failure, { description: failureDescription(err, 'Please try again.') }),
    onClose,
    setErrors,
  });

  return (
    <FormDialog
      id={`${spec.prefix}-form`}
      title={spec.title}
      submitLabel={spec.submitLabel}
      busy={busy}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {spec.fields.map((field, i) => {
        const id = `${spec.prefix}-${field.id}`;
        const common = {
          id,
          label: field.label,
          hint: field.hint,
          className: field.wide ? 'span-2' : undefined,
          ...(i === 0 ? { 'data-autofocus': true } : {}),
        };
        const value = f[field.key];
        const setValue = (v: unknown) => set(field.key, v as F[typeof field.key]);
        switch (field.kind) {
          case 'checkbox':
            return (
              <CheckboxField
                key={field.key}
                {...common}
                checked={Boolean(value)}
                onChange={(e) => setValue(e.target.checked)}
              />
            );
          case 'textarea':
            return (
              <TextArea
                key={field.key}
                {...common}
                rows={field.rows}
                value={String(value)}
                error={errors[field.key]}
                onChange={(e) => setValue(e.target.value)}
              />
            );
          case 'select':
            return (
              <SelectField
                key={field.key}
                {...common}
                options={field.options ?? []}
                value={String(value)}
                onChange={(e) => setValue(e.target.value)}
              />
            );
          default:
            return (
              <TextField
                key={field.key}
                {...common}
                type={field.kind}
                inputMode={field.kind === 'number' ? 'numeric' : undefined}
                required={field.required}
                value={String(value)}
                error={errors[field.key]}
                onChange={(e) => setValue(e.target.value)}
              />
            );
        }
      })}
    </FormDialog>
  );
}
