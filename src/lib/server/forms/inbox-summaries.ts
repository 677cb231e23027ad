import type { InboxKindName } from '../../inbox-routes.ts';
import { LANG_NAMES_FOR_STAFF } from '../../lang-names.ts';
import type { Lang } from '../../lang.ts';
import type { ReachStatus } from '../../schemas/reach-status.ts';
import { campaignDayStart, nextCampaignDay } from '../../campaign-time.ts';
import { contactSubjectLabels } from '../../../content/contact.ts';
import {
  StoredContactSchema,
  StoredSubscriberSchema,
  StoredTextSignupSchema,
  StoredVolunteerSchema,
} from '../../schemas/inbox.ts';
import { suppressionsAmong } from '../messaging/suppressions.ts';
import { compact, type CompactionRun } from '../storage/summary-index/compaction.ts';
import { searchText } from '../storage/summary-index/encoding.ts';
import type { SummarySpec } from '../storage/summary-index/spec.ts';
import { readIndex, reindex, type IndexView, type Matches } from '../storage/summary-index/view.ts';
import {
  INBOX_INDEX,
  summarize,
  type InboxSummaries,
  type InboxSummary,
  type VolunteerSummary,
} from './inbox-summary-shapes.ts';

export type { InboxSummaries, InboxSummary };

/**
 * The Inbox's four lists as summary indexes (docs/decisions/100-summary-indexes.md): what
 * each list keeps of a record (the fields its rows show, its search covers and audiences
 * are chosen by), how it sorts and which records it lists. The records stay the source of
 * truth: the CSV exports read them, and every index can be rebuilt from them.
 *
 * The summary/query API other features use (the broadcasts' audiences) is
 * `inboxSummaries(kind, filter)` below.
 */

interface InboxSpec<S extends InboxSummary> extends SummarySpec<S> {
  /**
   * The fields the shared filters read (absent: the filter matches nothing of this list). Each is one of the
   * spec's `columns`, with `lang` and `createdAt`, so the filters are answered from the chunks' columns
   * (tests/api/inbox-search.test.ts holds every filter to reading those only).
   */
  facets(s: S): { city?: string; zip?: string; sourcePage?: string | null };
  /**
   * Whether the person may still be messaged, and since when (docs/decisions/136-one-suppression-state-shown-everywhere.md);
   * absent: the list keeps no status (contact messages). The status reads only the spec's `columns` (the
   * filter is answered from them); `at` may read any field.
   */
  reach?(s: S): { status: ReachStatus; at: string | null };
}

/** A summary's email status: its suppression (copied from the ledger), else subscribed since `since`. */
const emailReach = (
  s: { suppressed: ReachStatus | null; suppressedAt: string | null },
  since: string | null,
): { status: ReachStatus; at: string | null } =>
  s.suppressed ? { status: s.suppressed, at: s.suppressedAt } : { status: 'subscribed', at: since };

/** The later of two ISO stamps (a suppression moves a summary's version on). */
const later = (a: string, b: string | null) => (b && b > a ? b : a);

/**
 * The rebuild's completion of a batch of email-list summaries: each address's suppression from the ledger (one
 * listing of it per batch, one read per suppressed address), so `npm run reindex` shows what the senders read.
 */
const withSuppressions =
  <S extends { key: string; suppressed: unknown; suppressedAt: unknown }>(hashOf: (s: S) => string) =>
  async (rows: S[]): Promise<S[]> => {
    const found = await suppressionsAmong(rows.map(hashOf));
    return rows.map((s) => {
      const x = found.get(hashOf(s));
      return x ? { ...s, suppressed: x.reason, suppressedAt: x.at } : s;
    });
  };

const fromSchema =
  <R, S>(
    schema: { safeParse(v: unknown): { success: true; data: R } | { success: false } },
    project: (r: R, key: string) => S,
  ) =>
  (raw: unknown, key: string): S | null => {
    const p = schema.safeParse(raw);
    return p.success ? project(p.data, key) : null;
  };

const volunteerFields = [
  'key',
  'firstName',
  'lastName',
  'email',
  'phone',
  'city',
  'state',
  'zip',
  'interests',
  'lang',
  'createdAt',
  'suppressed',
  'suppressedAt',
] as const satisfies readonly Exclude<keyof VolunteerSummary, 'id'>[];

/** The id after a record's prefix (`message/<id>`, `person/<id>`, `subscriber/<id>`). */
const idAfter = (prefix: string) => (key: string) => key.slice(prefix.length);

export const INBOX_SPECS: { [K in InboxKindName]: InboxSpec<InboxSummaries[K]> } = {
  volunteers: {
    name: 'volunteers',
    ...INBOX_INDEX.volunteers,
    recordPrefix: 'volunteer/',
    fields: volunteerFields,
    // volunteer/<sha256 of email>/<sha256 of details>: the id is both cut to 32 (submissions.ts).
    idOf: (key) => {
      const [, email = '', details = ''] = key.split('/');
      return `${email.slice(0, 32)}-${details.slice(0, 32)}`;
    },
    fromRecord: fromSchema(StoredVolunteerSchema, summarize.volunteers),
    at: (s) => s.createdAt,
    // A volunteer submission never changes; only the address's suppression moves its summary on.
    v: (s) => later(s.createdAt, s.suppressedAt),
    listed: () => true,
    countKey: (s) => s.email.toLowerCase(),
    searched: (s) =>
      [
        s.firstName,
        s.lastName,
        s.email,
        s.phone,
        s.city,
        s.state,
        s.zip,
        ...s.interests,
        LANG_NAMES_FOR_STAFF[s.lang],
      ].join(' '),
    columns: ['lang', 'createdAt', 'city', 'zip', 'suppressed'],
    facets: (s) => ({ city: s.city, zip: s.zip }),
    reach: (s) => emailReach(s, s.createdAt),
    // volunteer/<sha256 of email>/<details>
    enrich: withSuppressions((s) => s.key.split('/')[1] ?? ''),
  },
  contacts: {
    name: 'contacts',
    ...INBOX_INDEX.contacts,
    recordPrefix: 'message/',
    fields: ['key', 'name', 'email', 'phone', 'subject', 'message', 'messageCut', 'lang', 'createdAt'],
    idOf: idAfter('message/'),
    fromRecord: fromSchema(StoredContactSchema, summarize.contacts),
    at: (s) => s.createdAt,
    v: (s) => s.createdAt,
    listed: () => true,
    countKey: (s) => s.email.toLowerCase(),
    searched: (s) =>
      [
        s.name,
        s.email,
        s.phone ?? '',
        contactSubjectLabels[s.subject],
        s.subject,
        s.message,
        LANG_NAMES_FOR_STAFF[s.lang],
      ].join(' '),
    columns: ['lang', 'createdAt'],
    facets: () => ({}),
  },
  'text-signups': {
    name: 'text sign-ups',
    ...INBOX_INDEX['text-signups'],
    recordPrefix: 'person/',
    idOf: idAfter('person/'),
    fields: [
      'key',
      'firstName',
      'phone',
      'email',
      'smsStatus',
      'consentAt',
      'consentVersion',
      'optedOutAt',
      'lang',
      'sourcePage',
      'createdAt',
      'updatedAt',
    ],
    fromRecord: fromSchema(StoredTextSignupSchema, summarize['text-signups']),
    at: (s) => s.createdAt,
    v: (s) => s.updatedAt,
    listed: () => true,
    searched: (s) =>
      [
        s.firstName,
        s.phone ?? '',
        s.email ?? '',
        s.smsStatus,
        s.sourcePage ?? '',
        LANG_NAMES_FOR_STAFF[s.lang],
      ].join(' '),
    columns: ['lang', 'createdAt', 'sourcePage', 'smsStatus'],
    facets: (s) => ({ sourcePage: s.sourcePage }),
    // The text list's own state is the opt-out ledger the text guard reads (text-list.ts): STOP and 21610 alike.
    reach: (s) =>
      s.smsStatus === 'opted_out'
        ? { status: 'stopped', at: s.optedOutAt }
        : { status: 'subscribed', at: s.consentAt ?? s.createdAt },
  },
  'email-subscribers': {
    name: 'newsletter subscribers',
    ...INBOX_INDEX['email-subscribers'],
    recordPrefix: 'subscriber/',
    idOf: idAfter('subscriber/'),
    fields: [
      'key',
      'email',
      'sourcePage',
      'consentVersion',
      'lang',
      'createdAt',
      'status',
      'confirmedAt',
      'suppressed',
      'suppressedAt',
    ],
    fromRecord: fromSchema(StoredSubscriberSchema, summarize['email-subscribers']),
    at: (s) => s.createdAt,
    // pending -> subscribed, then a suppression, are the changes a subscriber's summary sees. The confirmation
    // time after a space: a suppression read beside a confirmation (the same stamp) loses to the confirmed one.
    v: (s) => `${later(s.confirmedAt ?? s.createdAt, s.suppressedAt)} ${s.confirmedAt ?? ''}`,
    // Double opt-in: an address nobody has confirmed is not a subscriber (docs/decisions/079-newsletter-double-opt-in.md).
    listed: (s) => s.status === 'subscribed',
    searched: (s) => [s.email, s.sourcePage ?? '', LANG_NAMES_FOR_STAFF[s.lang]].join(' '),
    columns: ['lang', 'createdAt', 'sourcePage', 'suppressed'],
    facets: (s) => ({ sourcePage: s.sourcePage }),
    reach: (s) => emailReach(s, s.confirmedAt ?? s.createdAt),
    // subscriber/<sha256 of email>: the id is the address hash (subscribers.ts)
    enrich: withSuppressions((s) => s.id),
  },
};

const specOf = <K extends InboxKindName>(kind: K) =>
  INBOX_SPECS[kind] as unknown as InboxSpec<InboxSummaries[K]>;

// ---------------------------------------------------------------------------
// Filters and the query API

/**
 * Which summaries a query wants. Every field is optional and they combine (AND).
 * `from`/`to` are campaign calendar days (YYYY-MM-DD, inclusive) of the sign-up
 * (createdAt), read in the campaign's time zone.
 */
export interface InboxFilter<S = InboxSummary> {
  /** Case-insensitive substring of the list's searched text (name, email, phone, city, ZIP, interests, language, source page). */
  q?: string;
  lang?: Lang;
  /** Case-insensitive, whole city name (volunteers). */
  city?: string;
  /** ZIP or its start ("701": every ZIP beginning so) (volunteers). */
  zip?: string;
  /** The site path the form was on (text sign-ups, newsletter subscribers), exactly. */
  sourcePage?: string;
  from?: string;
  to?: string;
  /** Whether the person may still be messaged (a list without a status matches nothing). */
  status?: ReachStatus;
  /** Any further condition on the kind's summary (e.g. text sign-ups still subscribed). */
  where?: (s: S) => boolean;
}

/** A predicate for a filter (a list without the filtered field matches nothing). */
export function matcher<K extends InboxKindName>(
  kind: K,
  filter: InboxFilter<InboxSummaries[K]>,
): (s: InboxSummaries[K]) => boolean {
  const spec = specOf(kind);
  const needle = needleOf(filter);
  const city = filter.city?.trim().toLowerCase();
  const zip = filter.zip?.trim();
  const from = filter.from ? campaignDayStart(filter.from) : null;
  const to = filter.to ? campaignDayStart(nextCampaignDay(filter.to)) : null;
  return (s) => {
    if (filter.lang && s.lang !== filter.lang) return false;
    if (from && s.createdAt < from) return false;
    if (to && s.createdAt >= to) return false;
    if (city !== undefined || zip !== undefined || filter.sourcePage !== undefined) {
      const f = spec.facets(s);
      if (city !== undefined && f.city?.toLowerCase() !== city) return false;
      if (zip !== undefined && !f.zip?.startsWith(zip)) return false;
      if (filter.sourcePage !== undefined && f.sourcePage !== filter.sourcePage) return false;
    }
    if (filter.status !== undefined && spec.reach?.(s).status !== filter.status) return false;
    if (needle && !searchText(spec, s).includes(needle)) return false;
    return filter.where ? filter.where(s) : true;
  };
}

/** What `q` searches for: lowercased, trimmed ('' when it searches nothing). */
const needleOf = ({ q }: { q?: string }) => q?.trim().toLowerCase() ?? '';

/** The filter without its search (null when that filters nothing, as `matcher` reads it). */
function restOf<S>({ q: _q, ...rest }: InboxFilter<S>): InboxFilter<S> | null {
  const { lang, city, zip, sourcePage, from, to, where, status } = rest;
  return lang ||
    city !== undefined ||
    zip !== undefined ||
    sourcePage !== undefined ||
    from ||
    to ||
    where ||
    status !== undefined
    ? rest
    : null;
}

const hasFilter = <S>(f: InboxFilter<S>) => Boolean(needleOf(f) || restOf(f));

/**
 * The listed summaries matching `filter` within one view of the index, newest first, as a count and a way to
 * decode some of them. A search (`q`) scans the chunks' searched texts and the other filters read the chunks'
 * columns (docs/decisions/128-search-by-text-columns.md): only what is shown is decoded. A `where` needs the
 * summaries themselves: those a search found, or every one without a search.
 */
async function selected<K extends InboxKindName>(
  view: IndexView<InboxSummaries[K]>,
  kind: K,
  filter: InboxFilter<InboxSummaries[K]>,
): Promise<Matches<InboxSummaries[K]>> {
  const needle = needleOf(filter);
  const rest = restOf(filter);
  if (!rest?.where) return view.select({ needle, test: rest ? matcher(kind, rest) : null });
  const rows = needle
    ? (await view.select({ needle })).slice(0, Number.POSITIVE_INFINITY).filter(matcher(kind, rest))
    : (await view.all()).filter(matcher(kind, filter));
  return { total: rows.length, slice: (offset, size) => rows.slice(offset, offset + size) };
}

/**
 * The listed summaries of an Inbox list that match `filter`, newest first: what the
 * broadcasts choose audiences from (text sign-ups still subscribed, newsletter
 * subscribers, volunteers; by language, city or ZIP, source page, sign-up dates).
 * Reads the list's index once (a bounded number of store calls: the manifest, the
 * outstanding segments and every chunk), never the records.
 */
export async function* inboxSummaries<K extends InboxKindName>(
  kind: K,
  filter: InboxFilter<InboxSummaries[K]> = {},
): AsyncIterable<InboxSummaries[K]> {
  const spec = specOf(kind);
  const rows = await readIndex(spec, async (view) => {
    const found = await selected(view, kind, filter);
    return found.slice(0, found.total);
  });
  yield* rows;
}

/** How many listed summaries match `filter` (no filter: the list's total, from the manifest). */
export async function countInbox<K extends InboxKindName>(
  kind: K,
  filter: InboxFilter<InboxSummaries[K]> = {},
): Promise<number> {
  const spec = specOf(kind);
  if (!hasFilter(filter)) return readIndex(spec, (view) => view.total);
  return readIndex(spec, async (view) => (await selected(view, kind, filter)).total);
}

/**
 * One page of a list (listed summaries matching `filter`, newest first) with the total,
 * and for lists that count by email, how many listed records each email on the page has.
 * Unfiltered, it reads only the chunks the page comes from.
 */
export async function inboxSummaryPage<K extends InboxKindName>(
  kind: K,
  filter: InboxFilter<InboxSummaries[K]>,
  offset: number,
  size: number,
): Promise<{ rows: InboxSummaries[K][]; total: number; countOf: (s: InboxSummaries[K]) => number }> {
  const spec = specOf(kind);
  return readIndex(spec, async (view) => {
    let rows: InboxSummaries[K][];
    let total: number;
    // The per-email counts are read beside the chunks (one round trip, not two).
    const counting = view.counts();
    counting.catch(() => undefined); // awaited below; a failure is raised there
    if (hasFilter(filter)) {
      const matched = await selected(view, kind, filter);
      total = matched.total;
      rows = matched.slice(offset, size);
    } else {
      total = view.total;
      rows = await view.page(offset, size);
    }
    const counted = await counting;
    const countOf = (s: InboxSummaries[K]) => (spec.countKey ? counted(spec.countKey(s)) : 0);
    return { rows, total, countOf };
  });
}

/** Rebuilds a list's index from its records (npm run reindex); the listed count. */
export function reindexInbox(kind: InboxKindName): Promise<number> {
  return reindex(specOf(kind));
}

/**
 * One compaction run over every Inbox list (the scheduled summary-compaction): each list's
 * outstanding segments folded in, or its lost index rebuilt a step further, until `deadline`.
 */
export async function compactInbox(deadline: number): Promise<Record<InboxKindName, CompactionRun>> {
  const out = {} as Record<InboxKindName, CompactionRun>;
  for (const kind of Object.keys(INBOX_SPECS) as InboxKindName[])
    out[kind] = await compact(specOf(kind), { deadline });
  return out;
}
