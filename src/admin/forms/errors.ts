import type { z } from '../../lib/schemas/zod.ts';
import { ApiError, messageOf } from '../../lib/client/api.ts';

/** Shown when a save answers 409: someone else changed the record after the form was opened. */
export const CONFLICT_MESSAGE =
  'Someone else changed this record after you opened it. Your changes are still in the form: copy what you need, close it and open the record again to load the latest version.';

export function isConflict(err: unknown): boolean {
  return err instanceof ApiError && err.status === 409;
}

/** Toast description for a failed write: the conflict note, the server's message, or the fallback. */
export function failureDescription(err: unknown, fallback: string): string {
  return isConflict(err) ? CONFLICT_MESSAGE : messageOf(err, fallback);
}

/** Per-field messages from a failed parse of a shared schema (first message per field). */
export function zodFieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    if (key && !out[key]) out[key] = issue.message;
  }
  return out;
}

/** The field map of a 400 answer. */
export function serverFieldErrors(err: unknown): Record<string, string> {
  return err instanceof ApiError && err.status === 400 ? err.fields : {};
}

/** '' and null become undefined, so `nonEmpty(x) ?? fallback` falls back on blank text too. */
export function nonEmpty(text: string | null | undefined): string | undefined {
  if (!text) return undefined;
  return text;
}
