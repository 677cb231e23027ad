import { CAPTCHA_REQUIRED, TEXT_SIGNUP_MESSAGES } from '../schemas/public-forms.ts';

/**
 * Client-side checks whose ORDER the spec fixes (sections 5 and 8). Pure, so
 * the order is unit-tested; the islands only show the result as a toast.
 * Imports nothing heavy: these run on pages with a tight JavaScript budget
 * (the messages come from the zod-free module the server schemas use too).
 */

/** A message for the person: a toast's title and description, or an alert's text. */
export interface Problem {
  title: string;
  description?: string;
}

/** Spec section 5, text sign-up: first name (trimmed), then consent. */
export const TEXT_SIGNUP_PROBLEMS = TEXT_SIGNUP_MESSAGES satisfies Record<string, Problem>;

/** The captcha message of every public form (equals CAPTCHA_REQUIRED in schemas/forms.ts; unit-tested). */
export const CAPTCHA_PROBLEM: Problem = { title: CAPTCHA_REQUIRED };

/** The messages of the text sign-up checks; a page in another language passes its own (docs/decisions/166-spanish.md). */
export interface TextSignupMessages {
  firstName: Problem;
  consent: Problem;
  captcha: Problem;
}

const ENGLISH_TEXT_SIGNUP: TextSignupMessages = { ...TEXT_SIGNUP_PROBLEMS, captcha: CAPTCHA_PROBLEM };

/** Then the bot check (docs/decisions/151-texting.md), when the form has one: `captcha` is its token, null until solved. */
export function textSignupProblem(
  values: {
    firstName: string;
    smsConsent: boolean;
    captcha?: string | null;
  },
  messages: TextSignupMessages = ENGLISH_TEXT_SIGNUP,
): Problem | null {
  if (!values.firstName.trim()) return messages.firstName;
  if (!values.smsConsent) return messages.consent;
  if (values.captcha !== undefined && !values.captcha) return messages.captcha;
  return null;
}

export const RESET_PASSWORD_MIN = 6;

/** Spec section 5, reset password: both fields, then length, then match. */
export function resetPasswordProblem(password: string, confirm: string): string | null {
  if (!password || !confirm) return 'Please fill in all fields';
  if (password.length < RESET_PASSWORD_MIN) return 'Password must be at least 6 characters';
  if (password !== confirm) return 'Passwords do not match';
  return null;
}

// The HTML living-standard email check (what <input type="email"> accepts), with a dot in the domain.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** Spec section 5, public forgot-password page. */
export function forgotPasswordProblem(email: string): string | null {
  const value = email.trim();
  if (!value || value.length > 254 || !EMAIL.test(value)) return 'Please enter a valid email address';
  return null;
}
