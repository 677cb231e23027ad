import { useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import type { z } from '../../lib/schemas/zod.ts';
import { zodFieldErrors } from './errors.ts';

export type FieldErrors = Record<string, string>;

/**
 * A modal's form: its values with a typed per-field setter, and the per-field
 * error messages shown under the inputs.
 */
export function useFormState<T extends object>(initial: T) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = <K extends keyof T>(k: K, v: T[K]) => setValues((prev) => ({ ...prev, [k]: v }));

  /**
   * Checks a payload against its shared schema before saving. On failure it
   * marks the fields, toasts `failTitle` with the first message (or `fallback`)
   * and returns false.
   */
  function validate(schema: z.ZodType, payload: unknown, failTitle: string, fallback?: string): boolean {
    const parsed = schema.safeParse(payload);
    if (parsed.success) return true;
    const fieldErrors = zodFieldErrors(parsed.error);
    setErrors(fieldErrors);
    toast.error(failTitle, { description: Object.values(fieldErrors)[0] ?? fallback });
    return false;
  }

  return { values, set, setValues, errors, setErrors, validate };
}

export interface SubmitOptions {
  /** Runs first; false stops the save (the check has already said why). */
  check?: () => boolean;
  /** The write. */
  save: () => Promise<unknown>;
  /** Toast once the write succeeds; the dialog then closes. */
  success: string;
  /** Reports a failed write. The dialog stays open with the user's input (a 409 among others). */
  onError: (err: unknown) => void;
  onClose: () => void;
  /** Field errors to clear when a save starts. */
  setErrors?: (errors: FieldErrors) => void;
  /** Something else holds the submit back too, such as an image upload. */
  blocked?: boolean;
}

/**
 * The submit handler of a modal form and its busy flag. While busy the submit
 * button is aria-disabled, not disabled (see FormDialog), so a second submit
 * is ignored here rather than by the browser: the button keeps focus.
 */
export function useSubmit({
  check,
  save,
  success,
  onError,
  onClose,
  setErrors,
  blocked = false,
}: SubmitOptions) {
  const [busy, setBusy] = useState(false);

  async function submit() {
    if (busy || blocked) return;
    if (check && !check()) return;
    setBusy(true);
    setErrors?.({});
    try {
      await save();
      toast.success(success);
      onClose();
    } catch (err) {
      onError(err);
    } finally {
      setBusy(false);
    }
  }

  const onSubmit = (e: SyntheticEvent) => {
    e.preventDefault();
    void submit();
  };

  return { busy, onSubmit };
}
