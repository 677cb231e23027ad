import {
  PUBLIC_FORMS,
  formPageFor,
  outcomesOf,
  publicFormAt,
  refillValues,
  type FormInput,
  type PublicForm,
  type PublicFormId,
} from '../schemas/public-forms.ts';
import { key } from './storage/keys.ts';
import { kv } from './storage/stores.ts';
import { DEFAULT_LANG, isLang, type Lang } from '../lang.ts';
import { localizedPath } from '../lang-paths.ts';

/**
 * Browser form posts to the public form endpoints (docs/decisions/159-public-forms.md): a form submitted
 * without JavaScript, or before its island hydrated, arrives as
 * application/x-www-form-urlencoded. The endpoint parses it like JSON (same
 * schema, same CSRF check: http.ts `readInput`, `requireSameOrigin`), and
 * `handle()` turns whatever the endpoint answered into a 303 to an outcome
 * page in the site's layout, never a JSON body:
 *
 * - success: `/forms/<form>/<outcome>`, a static page with the spec's text
 *   (`outcome` is `sent`, or the `status` of the JSON answer when the form
 *   declares it, e.g. a text sign-up for a number that opted out);
 * - refused: `/forms/<form>?outcome=<id>`, an on-demand page that shows the
 *   message and the form refilled. What the person typed is never put in a URL:
 *   it waits in a short-lived record (store `forms`, random 128-bit id, read
 *   once, ignored after OUTCOME_TTL_MS), the way a session flash message would.
 *   Without a parsed body, or if that record cannot be written, the page gets
 *   only the status: `/forms/<form>?error=<status>`.
 */

const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;

/** Is this request body an HTML form post (urlencoded)? */
export function isFormBody(req: Request): boolean {
  return FORM_TYPE.test(req.headers.get('content-type') ?? '');
}

/** The public form a browser form post is for, or null for JSON and anything else. */
export function browserFormPost(req: Request): PublicFormId | null {
  if (req.method !== 'POST' || !isFormBody(req)) return null;
  return publicFormAt(new URL(req.url).pathname);
}

const refills = new WeakMap<Request, FormInput>();
/** The language of the page each post came from: its outcome page is in the same language (docs/decisions/166-spanish.md). */
const langs = new WeakMap<Request, Lang>();

/** Keeps what may be shown back if this post is refused (only the form's refill fields). */
export function rememberRefill(req: Request, id: PublicFormId, input: FormInput): void {
  refills.set(req, refillValues(id, input));
  if (isLang(input.lang)) langs.set(req, input.lang);
}

/** How long a refused post's values wait for their outcome page. */
export const OUTCOME_TTL_MS = 15 * 60_000;

export interface StoredOutcome {
  form: PublicFormId;
  status: number;
  message: string;
  fields: Record<string, string>;
  values: FormInput;
  /** The page to fill the form in again (an event's page for an RSVP); absent in older records. */
  back?: string;
  createdAt: string;
}

const outcomes = () => kv('forms');
const outcomeKey = (id: string) => key('outcome', id);
/** `<ms since epoch, 13 digits>-<128 random bits>`: unguessable, and its age is in its name. */
const OUTCOME_ID = /^(\d{13})-[a-f0-9]{32}$/;

async function saveOutcome(outcome: StoredOutcome, now = Date.now()): Promise<string> {
  // node:crypto on first use, as in storage/keys.ts: every function's request layer imports this module.
  const random = process.getBuiltinModule('node:crypto').randomBytes(16).toString('hex');
  const id = `${String(now).padStart(13, '0')}-${random}`;
  if (!(await outcomes().create(outcomeKey(id), outcome))) throw new Error('outcome id taken');
  await sweepOutcomes(now);
  return id;
}

/** Deletes abandoned outcomes (never viewed) older than the TTL; best effort, one listing page. */
export async function sweepOutcomes(now = Date.now()): Promise<number> {
  let removed = 0;
  try {
    for await (const page of outcomes().keys('outcome/')) {
      for (const k of page) {
        const at = Number(OUTCOME_ID.exec(k.slice('outcome/'.length))?.[1]);
        if (Number.isFinite(at) && now - at > OUTCOME_TTL_MS) {
          await outcomes().delete(k);
          removed++;
        }
      }
      break;
    }
  } catch (err) {
    console.error('[forms] could not sweep old outcomes', err);
  }
  return removed;
}

/**
 * The outcome of a refused post, once: it is deleted when read, and one older
 * than OUTCOME_TTL_MS (an abandoned one) is deleted without being shown.
 */
export async function takeOutcome(
  form: PublicFormId,
  id: string,
  now = Date.now(),
): Promise<StoredOutcome | null> {
  if (!OUTCOME_ID.test(id)) return null;
  const found = await outcomes().get<StoredOutcome>(outcomeKey(id));
  if (!found) return null;
  await outcomes().delete(outcomeKey(id));
  const o = found.value;
  const at = Number(OUTCOME_ID.exec(id)?.[1]);
  if (o.form !== form || !(now - at <= OUTCOME_TTL_MS)) return null;
  return o;
}

async function jsonOf(res: Response): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await res.clone().json();
    return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Where a browser form post that got `res` is sent (the Location of the 303), in the post's language. */
export async function formPostLocation(req: Request, id: PublicFormId, res: Response): Promise<string> {
  return localizedPath(await outcomePath(req, id, res), langs.get(req) ?? DEFAULT_LANG);
}

async function outcomePath(req: Request, id: PublicFormId, res: Response): Promise<string> {
  const body = await jsonOf(res);
  if (res.status >= 200 && res.status < 300) {
    const form: PublicForm = PUBLIC_FORMS[id];
    const next = typeof body.next === 'string' ? body.next : '';
    // A success with its own page (a plan to vote's): a site path only, never another origin.
    if (form.nextFromAnswer && /^\/(?![/\\])/.test(next)) return next;
    const outcome =
      typeof body.status === 'string' && outcomesOf(id).includes(body.status) ? body.status : 'sent';
    return `/forms/${id}/${outcome}`;
  }
  const values = refills.get(req);
  if (values) {
    try {
      const ref = await saveOutcome({
        form: id,
        status: res.status,
        message: typeof body.error === 'string' ? body.error.slice(0, 500) : '',
        fields: stringFields(body.fields),
        values,
        back: formPageFor(id, new URL(req.url).pathname),
        createdAt: new Date().toISOString(),
      });
      return `/forms/${id}?outcome=${ref}`;
    } catch (err) {
      console.error(`[forms] could not keep the outcome of a ${id} post`, err);
    }
  }
  return `/forms/${id}?error=${res.status}`;
}

function stringFields(fields: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fields || typeof fields !== 'object') return out;
  for (const [k, v] of Object.entries(fields))
    if (typeof v === 'string') out[k.slice(0, 60)] = v.slice(0, 300);
  return out;
}

export { PUBLIC_FORMS };
