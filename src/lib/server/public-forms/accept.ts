import type { Context } from '@netlify/functions';
import type { z } from 'zod';
import type { ClosableForm } from '../../election-stage.ts';
import { CAPTCHA_REQUIRED, PUBLIC_FORMS } from '../../schemas/public-forms.ts';
import { verifyCaptcha } from '../adapters/captcha.ts';
import { assertFormOpen } from '../election/open-forms.ts';
import { HttpError } from '../errors.ts';
import { assertPhoneAllowed } from '../texting/phone-policy.ts';
import { reserveTextFromIp } from '../texting/text-limits.ts';
import type { RequestMeta } from '../texting/text-signups.ts';
import { allowMethods, clientIp, readInput, requireSameOrigin } from '../http.ts';
import { browserFormPost } from '../form-post.ts';
import { reserveFormPost, type LimitedForm } from './post-limits.ts';
import { requireFormProviders, type FormProviders } from './providers.ts';
import { creditInvite } from '../supporters/invites.ts';
import { countedWithInvite } from '../activity/counts.ts';
import { refcodeOfPost } from './refcode.ts';

/**
 * The one way a public form is accepted (docs/decisions/159-public-forms.md, "One order for every public
 * form"). Every public form that stores what a visitor typed (volunteer, contact, text sign-up, newsletter box,
 * RSVP, plan to vote) is declared as a `PublicFormSteps` and goes through `acceptPublicForm`, which runs the same
 * steps in the same order, on the JSON path and the browser form post (no JavaScript) alike; the first step that
 * refuses is the answer, and nothing of the form is stored before step 10:
 *
 *  1. method: POST only (405);
 *  2. origin: the CSRF check, positive same-origin proof for a form post (403);
 *  3. providers: the form's email/text/captcha providers are configured in production (503);
 *  4. size and parse: JSON or urlencoded, the body capped at `maxBytes` (413), then the form's schema (400), which
 *     includes the captcha token being there at all (400 'Please complete the CAPTCHA'; a text sign-up posted
 *     without JavaScript has none and is held to its no-script budget instead);
 *  5. open: a form the post-election mode closes is refused once it has (410);
 *  6. phone: the number's country and type (400), before anything is counted or a token spent: a typo is a typo;
 *  7. per-address limit: this client IP's posts of this form, and its texts when the post asks for one (429
 *     with Retry-After), counted before the captcha so a flood of refused captchas is not free;
 *  8. captcha: the form's token verified (400 / 503); a text sign-up posted without JavaScript has none, and took
 *     a slot of its no-script budget at step 7 instead;
 *  9. shared limits: the form's budgets a bot must not spend for a stranger (the text sign-up's per-number and
 *     site-wide counts), after the captcha;
 * 10. store, then confirm: the form's own module stores the record first and then sends its email or text, so a
 *     failed confirmation never loses a record (docs/decisions/159-public-forms.md);
 * 11. answer: the form's JSON; `handle()` (http.ts) turns it, or any refusal above, into the 303 of a browser
 *     form post (form-post.ts).
 *
 * tests/api/public-form-steps.test.ts holds all six forms to this order.
 */

/**
 * The public forms accepted here (their ids in the registry, src/lib/schemas/public-forms.ts): the forms of
 * FORM_POST_LIMITS, and the text sign-up, which has limits of its own.
 */
export type AcceptedForm = LimitedForm | 'text-signup';

/** One request to a public form, once its body has parsed: what every later step is given. */
export interface Submission<I> {
  input: I;
  /** The platform's client IP (never a client-sent header). */
  ip: string;
  meta: RequestMeta;
  context: Context;
}

/** A form's counters of its own instead of FORM_POST_LIMITS (the text sign-up's: docs/decisions/151-texting.md). */
export interface OwnLimits {
  /** Step 7: this client IP's counts. */
  perAddress(): Promise<void>;
  /** Step 9: the budgets taken only once the captcha passed. */
  afterCaptcha(): Promise<void>;
}

/** What is particular to one public form; the steps and their order are acceptPublicForm's. */
export type PublicFormSteps<S extends z.ZodType, R> = FormParts<S, R> &
  (
    | { id: LimitedForm; ownLimits?: never }
    | {
        id: Exclude<AcceptedForm, LimitedForm>;
        /** The form's own counters (steps 7 and 9) instead of FORM_POST_LIMITS; reads only when called. */
        ownLimits: (sub: Submission<z.output<S>>) => Promise<OwnLimits>;
      }
  );

interface FormParts<S extends z.ZodType, R> {
  schema: S;
  /** The body cap (413 past it). */
  maxBytes: number;
  providers: FormProviders;
  /** Closed by the post-election mode (docs/decisions/157-election-calendar.md). */
  closes?: ClosableForm;
  /** Whether the post asks for a text (an RSVP's reminder, a plan's): it takes a slot of the IP's texts an hour. */
  asksForText?: (input: z.output<S>) => boolean;
  /** A browser form post without a token skips the captcha (the text sign-up's no-script budget). */
  noScriptBudget?: boolean;
  /** Step 10: store, then confirm. */
  store: (sub: Submission<z.output<S>>) => Promise<R>;
  /** Step 11: the JSON answer. */
  answer: (result: R, sub: Submission<z.output<S>>) => Response;
}

/** The field a step reads from the parsed input, when the form has it as a string. */
function stringField(input: unknown, name: string | undefined): string | undefined {
  if (!name || !input || typeof input !== 'object') return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The phone field every public form that takes a phone names `phone`. */
const PHONE_FIELD = 'phone';

/** The handler of a public form: every step above, in order. */
export function acceptPublicForm<S extends z.ZodType, R>(
  form: PublicFormSteps<S, R>,
): (req: Request, context: Context) => Promise<Response> {
  const captchaField: string | undefined = (PUBLIC_FORMS[form.id] as { captchaField?: string }).captchaField;
  return async (req, context) => {
    allowMethods(req, 'POST'); // 1
    requireSameOrigin(req); // 2
    requireFormProviders(form.providers); // 3
    const input = await readInput(req, form.id, form.schema, form.maxBytes); // 4
    const formPost = browserFormPost(req) !== null;
    const token = stringField(input, captchaField);
    if (!token && !(form.noScriptBudget && formPost)) throw new HttpError(400, CAPTCHA_REQUIRED); // 4, the token
    if (form.closes) await assertFormOpen(form.closes); // 5
    const phone = stringField(input, PHONE_FIELD);
    assertPhoneAllowed(phone); // 6
    const ip = clientIp(context);
    const meta: RequestMeta = {
      ip,
      userAgent: req.headers.get('user-agent'),
      formPost,
    };
    const sub: Submission<z.output<S>> = { input, ip, meta, context };
    // 7
    let own: OwnLimits | null = null;
    if (form.ownLimits) {
      own = await form.ownLimits(sub);
      await own.perAddress();
    } else {
      await reserveFormPost(form.id, ip);
      if (phone && form.asksForText?.(input)) await reserveTextFromIp(ip);
    }
    // 8
    if (token) await verifyCaptcha(token, ip);
    await own?.afterCaptcha(); // 9
    const result = await countedWithInvite(
      () => form.store(sub), // 10
      // A sign-up through a supporter's invite link, credited once (docs/decisions/182-supporter-page.md), and
      // counted as the Overview's "invite link" source when this post credited it (docs/decisions/180-overview.md).
      () => creditInvite(req, form.id, input),
      // A campaign link's refcode, counted as the sign-up's source when no invite credited it.
      refcodeOfPost(req, input),
    );
    return form.answer(result, sub); // 11
  };
}
