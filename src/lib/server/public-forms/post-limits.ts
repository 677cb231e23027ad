import type { PublicFormId } from '../../schemas/public-forms.ts';
import { reserveClientAttempts, type Limit } from '../auth/rate-limit.ts';

/**
 * Posts one IP may send per hour to each public form that has no limit of its
 * own (the text sign-up has TEXT_SIGNUP_LIMITS in text-limits.ts). The captcha
 * stops plain scripts; these bound a solving service or a person looping the
 * form by hand. Keyed by the platform's client IP (`clientIp(context)`, never
 * X-Forwarded-For), one document per IP with a counter per form, reserved with
 * one compare-and-set write before the captcha is verified or anything is
 * stored (rate-limit.ts, "reserve before the work"); past it, 429 with
 * Retry-After, on the JSON path and the no-JavaScript form post alike (the
 * latter as its refused page). Values and why: docs/decisions/159-public-forms.md.
 */
export const FORM_POST_LIMITS = {
  /** A family RSVPing one by one, to several events, with retries, from one home; a campus or office NAT. */
  rsvp: { max: 40, windowSeconds: 60 * 60 },
  /** A volunteer table at a rally signing people up on one tablet or one Wi-Fi. */
  volunteer: { max: 40, windowSeconds: 60 * 60 },
  /** Messages to the campaign: even a busy office rarely sends more than a handful an hour. */
  contact: { max: 20, windowSeconds: 60 * 60 },
  /** The blog's newsletter box (POST /api/email-subscribers). */
  newsletter: { max: 30, windowSeconds: 60 * 60 },
  /** Plans to vote (docs/decisions/158-plan-to-vote.md): a family or a canvass tablet, like the volunteer form. */
  'vote-plan': { max: 40, windowSeconds: 60 * 60 },
} as const satisfies Partial<Record<PublicFormId, Limit>>;

export type LimitedForm = keyof typeof FORM_POST_LIMITS;

const minutes = (s: number) => `${Math.ceil(s / 60)} minute${s > 60 ? 's' : ''}`;
/** The 429's message (English, like every server message). */
export const TOO_MANY_POSTS = (s: number) =>
  `Too many submissions from this connection. Please try again in ${minutes(s)}.`;

/** Counts one post of `form` from `ip`, or throws 429 with Retry-After (nothing written). */
export async function reserveFormPost(form: LimitedForm, ip: string, now = Date.now()): Promise<void> {
  await reserveClientAttempts(
    'form-post-ip',
    ip,
    [{ name: form, limit: FORM_POST_LIMITS[form], take: true }],
    {
      now,
      message: TOO_MANY_POSTS,
    },
  );
}
