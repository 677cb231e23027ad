import type { ActivityKind } from '../../schemas/overview.ts';
import { countActivity } from '../activity/counts.ts';
import { randomBytes } from 'node:crypto';
import { DEFAULT_LANG, type Lang } from '../../lang.ts';
import {
  ConsentEventSchema,
  StoredTextSignupSchema,
  type ConsentEvent,
  type StoredTextSignup,
} from '../../schemas/inbox.ts';
import { laterStamp } from '../content/stamps.ts';
import { upsert } from '../storage/compare-and-set.ts';
import { hashed, key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { noteSummary, summarize } from '../inbox/summary-shapes.ts';
import { recordConsentFor } from '../people/consent.ts';

/**
 * The text list's current state per person (store `signups`, `person/<id>`,
 * id = sha256 of the E.164 phone): who is subscribed and who opted out; and its
 * append-only consent log (`consent/<id>/<iso time>-<random>`). Its own module
 * so that the text guard (src/lib/server/texting/text-guard.ts) and the
 * sign-up (text-signups.ts, which sends through the guard) can both use it
 * without an import cycle. See docs/decisions/151-texting.md.
 */

export const personKey = (id: string) => key('person', id);

/** The person's record, read strongly consistent (a STOP recorded a moment ago is seen). */
export async function getPerson(id: string): Promise<StoredTextSignup | null> {
  const r = await kv('signups').get<unknown>(personKey(id));
  if (!r) return null;
  const p = StoredTextSignupSchema.safeParse(r.value);
  return p.success ? p.data : null;
}

/** A consent log entry with every optional field empty. */
export function emptyEvent(personId: string, type: ConsentEvent['type'], at: string): ConsentEvent {
  return {
    type,
    at,
    personId,
    phone: null,
    email: null,
    firstName: null,
    consentText: null,
    consentVersion: null,
    consentTextSha256: null,
    lang: DEFAULT_LANG,
    sourcePage: null,
    ip: null,
    userAgent: null,
    messageId: null,
    inboundMessageSid: null,
    inboundBody: null,
    error: null,
    refKey: null,
  };
}

/** The consent events that move the text list (a web opt-in is counted where it creates its person). */
const LIST_MOVES: Partial<Record<ConsentEvent['type'], ActivityKind>> = {
  start: 'text.optin',
  stop: 'text.optout',
  carrier_opt_out: 'text.carrier_optout',
};

/** Appends one consent log entry (a new, time-ordered key; never rewritten). Returns its key. */
export async function appendConsentEvent(event: ConsentEvent): Promise<string> {
  const parsed = ConsentEventSchema.parse(event);
  for (let i = 0; i < 3; i++) {
    const k = key('consent', parsed.personId, `${parsed.at}-${randomBytes(6).toString('hex')}`);
    if (await kv('signups').create(k, parsed)) {
      const kind = LIST_MOVES[parsed.type];
      if (kind) await countActivity({ kind, id: `${parsed.personId}-${parsed.at}`, at: parsed.at });
      return k;
    }
  }
  throw new Error('Could not allocate a consent log key');
}

/**
 * Records a number as opted out (an inbound STOP, or the carrier's own opt-out
 * answered to a send: Twilio 21610). A number not on the list gets a stub
 * record, so a later web sign-up for it is refused too.
 */
export async function markOptedOut(phone: string, at: string, lang: Lang): Promise<void> {
  const id = hashed(phone);
  const next = await upsert<unknown>(kv('signups'), personKey(id), (raw) => {
    const cur = raw ? StoredTextSignupSchema.parse(raw) : null;
    const stub: StoredTextSignup = {
      id,
      firstName: '',
      phone,
      email: null,
      smsStatus: 'opted_out',
      consentAt: null,
      consentVersion: null,
      lang,
      optedOutAt: at,
      sourcePage: null,
      createdAt: at,
      updatedAt: at,
      confirmation: null,
    };
    return cur
      ? { ...cur, smsStatus: 'opted_out', optedOutAt: at, updatedAt: laterStamp(new Date(at), cur.updatedAt) }
      : stub;
  });
  // The STOP shows in the Inbox (docs/decisions/155-inbox-and-staff-lists.md).
  await noteSummary('text-signups', summarize['text-signups'](next as StoredTextSignup, personKey(id)));
  // The person's one text state: every sending path to every phone of theirs (docs/decisions/149-people.md).
  await recordConsentFor('text', phone, { action: 'revoke', via: 'text_opt_out', at: new Date(at) });
}
