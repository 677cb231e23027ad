import { z } from './zod.ts';
import { FIELD_MESSAGES } from './public-forms.ts';

/**
 * Reusable field schemas, composed per form so the browser and the server give
 * the same messages. Imports only zod: this folder is shared by islands, the
 * admin app and the functions.
 */

/**
 * Control characters are refused in every text field (docs/decisions/151-texting.md): NUL and the
 * rest of C0, DEL and C1. A field that allows several lines (a message body,
 * a description) still accepts tab, line feed and carriage return; a one-line
 * field (a name, a title) accepts none of them.
 */
export const CONTROL_CHARACTERS_MESSAGE = 'Contains characters that are not allowed';
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const ONE_LINE = /^[^\u0000-\u001f\u007f-\u009f]*$/;
// eslint-disable-next-line no-control-regex -- as above, minus tab, line feed and carriage return
const MULTI_LINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;

export interface TextOptions {
  /** Allow tab and line breaks (message bodies, descriptions). Default: one line. */
  multiline?: boolean;
}

/** True when `value` has no control character the field refuses. */
export function hasNoControlCharacters(value: string, options: TextOptions = {}): boolean {
  return (options.multiline ? MULTI_LINE : ONE_LINE).test(value);
}

/** A trimmed string with no refused control characters. */
export const cleanString = (options: TextOptions = {}) =>
  z
    .string()
    .trim()
    .regex(options.multiline ? MULTI_LINE : ONE_LINE, CONTROL_CHARACTERS_MESSAGE);

/** Trimmed text with a length cap; empty is allowed unless `min` says otherwise. */
export const text = (max: number, options: TextOptions = {}) =>
  cleanString(options).max(max, `Must be at most ${max} characters`);

/** Trimmed, required text. */
export const requiredText = (max: number, message = 'This field is required', options: TextOptions = {}) =>
  cleanString(options).min(1, message).max(max, `Must be at most ${max} characters`);

/** Email, trimmed and lowercased so one person is one record. */
export const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'Email is too long')
  .pipe(z.email('Please enter a valid email address'));

/** Optional email: '' or missing becomes undefined. */
export const optionalEmail = z
  .union([z.literal(''), email])
  .optional()
  .transform((v) => (v ? v : undefined));

/**
 * US-first phone normalisation to E.164. Ten digits get +1; eleven starting
 * with 1 get +; anything already starting with + keeps its digits. Returns
 * null when the input cannot be a phone number.
 */
export function toE164(input: string): string | null {
  const trimmed = input.trim();
  if (!hasNoControlCharacters(trimmed)) return null;
  const digits = trimmed.replace(/[^\d]/g, '');
  let e164: string | null = null;
  if (trimmed.startsWith('+')) e164 = digits.length >= 8 && digits.length <= 15 ? `+${digits}` : null;
  else if (digits.length === 10) e164 = `+1${digits}`;
  else if (digits.length === 11 && digits.startsWith('1')) e164 = `+${digits}`;
  // No country code starts with 0 (+0000000000 is not a number); a North American
  // number is +1 NXX NXX XXXX, its area code and exchange never starting with 0 or 1.
  if (!e164 || e164.startsWith('+0')) return null;
  if (e164.startsWith('+1') && !/^\+1[2-9]\d{2}[2-9]\d{6}$/.test(e164)) return null;
  return e164;
}

/** Phone as typed by a person; transformed to E.164. */
export const phone = z
  .string()
  .trim()
  .max(32, 'Phone number is too long')
  .transform((v, ctx) => {
    const e164 = toE164(v);
    if (!e164) {
      ctx.addIssue({ code: 'custom', message: FIELD_MESSAGES.phone });
      return z.NEVER;
    }
    return e164;
  });

/** Passwords are used exactly as typed: no trimming. Max bounds the hashing work. */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 256;
export const password = z
  .string()
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

/** Positive integer record id in a path. */
export const idParam = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** Integer parsing of the admin number fields: anything unparsable falls back to 0 (spec section 5). */
export function intOr(value: unknown, fallback: number): number {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' ? Number.parseInt(value, 10) : Number.NaN;
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
}

/** http(s) URL, or empty. */
export const optionalUrl = z
  .union([z.literal(''), z.url({ protocol: /^https?$/, error: 'Must be an http or https URL' }).max(2048)])
  .optional()
  .transform((v) => v ?? '');

/** ISO date (YYYY-MM-DD). */
export const isoDate = z.iso.date('Use the format YYYY-MM-DD');

/** 24-hour time (HH:MM). */
export const time24 = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use the format HH:MM');
