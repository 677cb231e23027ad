import { DEFAULT_LANG, isLang, type Lang } from '../../lang.ts';
import { AUDIENCE_KINDS, type AudienceKind } from '../../schemas/broadcast-rules.ts';
import type { Audience, BroadcastChannel } from '../../schemas/broadcasts.ts';
import { StoredRsvpSchema } from '../../schemas/rsvp.ts';
import { rsvpPrefix } from '../events/rsvp.ts';
import { recipientZones, zoneBucket } from '../texting/quiet-hours.ts';
import { suppressedHashes } from '../people/suppressions.ts';
import { INBOX_SPECS, inboxSummaries, type InboxSummaries } from '../inbox/summaries.ts';
import { hashed } from '../storage/keys.ts';
import type { StoreName } from '../storage/kv.ts';
import { kv } from '../storage/stores.ts';
import type { SummarySpec } from '../storage/summary-index/spec.ts';
import { parsePlan } from '../vote-plans/record.ts';
import { filterTest } from '../people/filters.ts';
import { summarizePerson, type Person as PersonRecord } from '../people/person.ts';
import { selectPeople } from '../people/staff.ts';
import { nearestFirst } from '../people/zip-distance.ts';

/**
 * Who a broadcast goes to (docs/decisions/152-broadcasts.md). THE ONE MODULE that reads the
 * lists for broadcasts, only ever inside the delivery job (engine.ts), never in a request: each source
 * yields people a page of up to 1,000 records at a time, the page's records read 50 at a time. A whole
 * list is paged by its listing; a filtered audience of an Inbox list by the keys its summary index
 * matches (docs/decisions/152-broadcasts.md).
 */

/** A person as every list describes them, before the audience's filters. */
export interface Person {
  phone: string | null;
  email: string | null;
  firstName: string;
  lang: Lang;
  city: string | null;
  zip: string | null;
  /** The page (with any refcode) the person signed up on. */
  source: string | null;
  /** When they joined the list (ISO). */
  joinedAt: string | null;
}

/** One queued recipient. */
export interface Recipient {
  /** sha256 of the number or address: the delivery's key within the broadcast, and what makes a duplicate. */
  k: string;
  to: string;
  firstName: string;
  lang: Lang;
  /** Texts: the recipient's zone bucket (quiet-hours.ts); emails: 'any'. */
  bucket: string;
}

interface Source {
  store: StoreName;
  prefix: (a: Audience) => string;
  /** The person a record describes, or null when the record is not on the list (opted out, pending, cancelled). */
  person: (raw: unknown, a: Audience, key: string) => Person | null;
  /**
   * The keys of the records that may be in a filtered audience, from the list's summary index, in key
   * order: a filtered count reads the index's chunks and those records, not the whole list
   * (docs/decisions/152-broadcasts.md).
   */
  candidates?: (a: Audience) => Promise<string[]>;
}

type IndexedKind = 'volunteers' | 'text-signups' | 'email-subscribers';

/**
 * A source that is an Inbox list: the person is read from the record's summary (the same fields the
 * index keeps), so the index and the records choose by one definition.
 */
function inboxSource<K extends IndexedKind>(
  kind: K,
  personOf: (s: InboxSummaries[K]) => Person | null,
): Source {
  const spec = INBOX_SPECS[kind] as unknown as SummarySpec<InboxSummaries[K]> & { recordPrefix: string };
  const inAudience = (s: InboxSummaries[K], a: Audience) => {
    const p = personOf(s);
    return p !== null && matches(p, a);
  };
  return {
    store: spec.store,
    prefix: () => spec.recordPrefix,
    person: (raw, _a, key) => {
      const s = spec.fromRecord(raw, key);
      return s ? personOf(s) : null;
    },
    candidates: async (a) => {
      const keys: string[] = [];
      for await (const s of inboxSummaries(kind, { where: (s) => inAudience(s, a) })) keys.push(s.key);
      return keys.sort();
    },
  };
}

/**
 * People (docs/decisions/149-people.md, "Audiences from people"): the candidates are the people the People filters
 * select in the People summary index; each person record is read and checked again (the record is the truth: the
 * filter, merged away, and its consent on the channel: a revoked channel has no address here, so the count leaves
 * it out; the guard still checks every send at dispatch). One recipient per person: their first number or address.
 */
const PEOPLE: Source = {
  store: 'people',
  prefix: () => 'person/',
  person: (raw, a) => {
    const p = raw as PersonRecord;
    if (!p || typeof p.id !== 'string' || !Array.isArray(p.emails) || p.mergedInto) return null;
    const test = filterTest(a.people ?? {});
    if (test && !test(summarizePerson(p))) return null;
    return {
      phone: p.consent.text?.state === 'revoked' ? null : (p.phones[0] ?? null),
      email: p.consent.email?.state === 'revoked' ? null : (p.emails[0] ?? null),
      firstName: p.names[0]?.split(/\s+/)[0] ?? '',
      lang: isLang(p.lang) ? p.lang : DEFAULT_LANG,
      city: p.city,
      zip: p.zip,
      source: null,
      joinedAt: p.createdAt,
    };
  },
  // In key order; for a recruiting audience (`near`, a gap's site ZIP) nearest first, unknown ZIPs last, ties in key
  // order (docs/decisions/181-shifts.md): the summaries already hold each person's ZIP, so no record is read for it.
  candidates: async (a) =>
    (
      await nearestFirst(
        a.near,
        (await selectPeople(a.people ?? {})).sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0)),
        (s) => s.zip || null,
      )
    ).map((s) => s.key),
};

const SOURCES: Record<Exclude<Audience['kind'], 'plan_to_vote' | 'people'>, Source> = {
  text_subscribers: inboxSource('text-signups', (s) =>
    s.smsStatus !== 'subscribed'
      ? null
      : {
          phone: s.phone,
          email: null,
          firstName: s.firstName,
          lang: s.lang,
          city: null,
          zip: null,
          source: s.sourcePage,
          joinedAt: s.consentAt ?? s.createdAt,
        },
  ),
  newsletter_subscribers: inboxSource('email-subscribers', (s) =>
    s.status !== 'subscribed'
      ? null
      : {
          phone: null,
          email: s.email,
          firstName: '',
          lang: s.lang,
          city: null,
          zip: null,
          source: s.sourcePage,
          joinedAt: s.confirmedAt ?? s.createdAt,
        },
  ),
  volunteers: inboxSource('volunteers', (v) => ({
    phone: v.phone || null,
    email: v.email,
    firstName: v.firstName,
    lang: v.lang,
    city: v.city,
    zip: v.zip || null,
    source: null,
    joinedAt: v.createdAt,
  })),
  event_attendees: {
    store: 'rsvps',
    prefix: (a) => rsvpPrefix(a.eventId ?? 0),
    person: (raw, a) => {
      const p = StoredRsvpSchema.safeParse(raw);
      if (!p.success) return null;
      const r = p.data;
      const wanted = a.attendeeStatuses?.length ? a.attendeeStatuses : ['going'];
      const ok =
        (wanted.includes('going') && r.status === 'going') ||
        (wanted.includes('waitlisted') && r.status === 'waitlisted') ||
        (wanted.includes('checked_in') && r.checkedInAt !== null && r.status !== 'cancelled');
      if (!ok) return null;
      return {
        phone: r.phone,
        email: r.email,
        firstName: r.name.split(/\s+/)[0] ?? '',
        lang: r.lang,
        city: null,
        zip: null,
        source: null,
        joinedAt: r.createdAt,
      };
    },
  },
};

/**
 * Voters with a plan to vote (docs/decisions/158-plan-to-vote.md): every plan of the election (the primary's and a
 * runoff's, so a runoff's get-out-the-vote reaches the primary's planners too) whose maker has not said "I voted" or
 * asked to stop. Texts only: the plan's email consent promised at most two reminder emails, so a broadcast email
 * would break it (the draft is refused, staff.ts); and a text still needs the text list's consent at dispatch
 * (the guard), so a planner who only agreed to plan reminders is `skipped_no_consent`.
 */
const PLAN_TO_VOTE: Source = {
  store: 'vote-plans',
  prefix: () => 'plan/',
  person: (raw) => {
    const plan = parsePlan(raw);
    if (!plan || plan.votedAt || plan.stoppedAt || !plan.phone) return null;
    return {
      phone: plan.phone,
      email: null,
      firstName: plan.name.split(/\s+/)[0] ?? '',
      lang: plan.lang,
      city: null,
      zip: null,
      source: null,
      joinedAt: plan.createdAt,
    };
  },
};

/** The audiences staff can choose now (the composer's list). */
export const availableAudiences = (): AudienceKind[] => [...AUDIENCE_KINDS];

/** The channels an audience can be sent on (plans to vote: texts only, see PLAN_TO_VOTE). */
export const audienceChannels = (kind: AudienceKind): BroadcastChannel[] =>
  kind === 'plan_to_vote' ? ['text'] : ['text', 'email'];

const sourceOf = (a: Audience): Source =>
  a.kind === 'plan_to_vote' ? PLAN_TO_VOTE : a.kind === 'people' ? PEOPLE : SOURCES[a.kind];

const norm = (s: string | null) => (s ?? '').trim().toLowerCase();

/** Whether a person passes the audience's filters (pure; every filter that is set must hold). */
export function matches(p: Person, a: Audience): boolean {
  if (a.lang && p.lang !== a.lang) return false;
  if (a.place) {
    const place = norm(a.place);
    const zip5 = norm(p.zip).slice(0, 5);
    if (norm(p.city) !== place && zip5 !== place) return false;
  }
  if (a.source && !norm(p.source).includes(norm(a.source))) return false;
  const joined = p.joinedAt?.slice(0, 10) ?? null;
  if (a.signedUpFrom && (!joined || joined < a.signedUpFrom)) return false;
  if (a.signedUpTo && (!joined || joined > a.signedUpTo)) return false;
  return true;
}

/** The recipient a person is on a channel, or null (no number for a text, no address for an email). */
export function recipientOf(p: Person, channel: BroadcastChannel): Recipient | null {
  const lang = isLang(p.lang) ? p.lang : DEFAULT_LANG;
  if (channel === 'text') {
    if (!p.phone) return null;
    return {
      k: hashed(p.phone),
      to: p.phone,
      firstName: p.firstName,
      lang,
      bucket: zoneBucket(recipientZones(p.phone)),
    };
  }
  if (!p.email) return null;
  return { k: hashed(p.email), to: p.email, firstName: p.firstName, lang, bucket: 'any' };
}

/** Records read at once while resolving a page. */
const READ_CONCURRENCY = 50;

/** Records listed in a page: a source listing's page, or as many of a filtered audience's candidates. */
const PAGE_KEYS = 1000;

/** Whether an audience is narrower than its whole list (then its candidates come from the index). */
const filtered = (a: Audience) =>
  a.kind === 'people' || Boolean(a.lang || a.place || a.source || a.signedUpFrom || a.signedUpTo);

function* inPages(keys: string[]): Iterable<string[]> {
  for (let i = 0; i < keys.length; i += PAGE_KEYS) yield keys.slice(i, i + PAGE_KEYS);
}

/**
 * The audience's recipients, one page of up to 1,000 records at a time, from page `startPage` on (the
 * pages before it are skipped unread). A whole list's pages are its listing's; a filtered audience of an
 * Inbox list pages through the keys its summary index matches (`candidates`), so its cost grows with the
 * audience, not the list. Every record is read and checked again (the record is the truth).
 * Recipients are de-duplicated within a page; across pages the queue's claims find duplicates. An email's
 * audience leaves out the addresses the suppression ledger holds (one listing of it per call), so the count is
 * the number that will be tried (docs/decisions/155-inbox-and-staff-lists.md); the guard still
 * checks each address at dispatch, for a suppression recorded after the count.
 */
export async function* audiencePages(
  b: { channel: BroadcastChannel; audience: Audience },
  startPage: number,
): AsyncGenerator<{ page: number; recipients: Recipient[] }> {
  const source = sourceOf(b.audience);
  const store = kv(source.store);
  const pages =
    source.candidates && filtered(b.audience)
      ? inPages(await source.candidates(b.audience))
      : store.keys(source.prefix(b.audience));
  const suppressed = b.channel === 'email' ? await suppressedHashes() : new Set<string>();
  let page = 0;
  for await (const keys of pages) {
    if (page < startPage) {
      page += 1;
      continue;
    }
    const recipients = new Map<string, Recipient>();
    for (let i = 0; i < keys.length; i += READ_CONCURRENCY) {
      const batch = keys.slice(i, i + READ_CONCURRENCY);
      const values = await Promise.all(batch.map((k) => store.get(k)));
      for (const [j, v] of values.entries()) {
        const person = v ? source.person(v.value, b.audience, batch[j]!) : null;
        if (!person || !matches(person, b.audience)) continue;
        const r = recipientOf(person, b.channel);
        if (r && !recipients.has(r.k) && !suppressed.has(r.k)) recipients.set(r.k, r);
      }
    }
    yield { page, recipients: [...recipients.values()] };
    page += 1;
  }
}
