import {
  INBOX_KIND_NAMES,
  INBOX_KINDS,
  type InboxCopy,
  type InboxKindName,
  type Reach,
} from '../../inbox-kinds.ts';
import type { Lang } from '../../lang.ts';
import type { ReachStatus } from '../../schemas/reach-status.ts';
import { campaignDayStart, nextCampaignDay } from '../../campaign-time.ts';
import { contactSubjectLabels } from '../../../content/contact.ts';
import { suppressionsAmong } from '../people/suppressions.ts';
import { compact, type CompactionRun } from '../storage/summary-index/compaction.ts';
import { searchText } from '../storage/summary-index/encoding.ts';
import type { SummarySpec } from '../storage/summary-index/spec.ts';
import {
  readIndex,
  reindex,
  type IndexView,
  type Matches,
  type ReadOptions,
} from '../storage/summary-index/view.ts';
import { INBOX_INDEX, summarize, type InboxSummaries, type InboxSummary } from './summary-shapes.ts';

export type { InboxSummaries, InboxSummary };

/**
 * The Inbox's lists as summary indexes (docs/decisions/155-inbox-and-staff-lists.md), each built from its kind's one
 * definition (src/lib/inbox-kinds.ts: what a summary keeps, its searched text, its filters and status, its
 * version stamp): how it sorts and which records it lists. The records stay the source of truth: the CSV
 * exports read them, and every index can be rebuilt from them.
 *
 * The summary/query API other features use (the broadcasts' audiences) is
 * `inboxSummaries(kind, filter)` below.
 */

/** The campaign copy an Inbox search and CSV show (the contact form's subject labels). */
export const INBOX_COPY: InboxCopy = { contactSubjects: contactSubjectLabels };

interface InboxSpec<S extends InboxSummary> extends SummarySpec<S> {
  /**
   * The fields the shared filters read (absent: the filter matches nothing of this list). Each is one of the
   * spec's `columns`, with `lang` and `createdAt`, so the filters are answered from the chunks' columns
   * (tests/api/inbox-search.test.ts holds every filter to reading those only).
   */
  facets(s: S): { city?: string; zip?: string; sourcePage?: string | null };
  /**
   * Whether the person may still be messaged, and since when (docs/decisions/155-inbox-and-staff-lists.md);
   * absent: the list keeps no status (contact messages). The status reads only the spec's `columns` (the
   * filter is answered from them); `at` may read any field.
   */
  reach?(s: S): Reach;
}

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

/** The id after a record's prefix (`message/<id>`, `person/<id>`, `subscriber/<id>`). */
const idAfter = (prefix: string) => (key: string) => key.slice(prefix.length);

/** A kind's index spec, from its definition. */
function specFor<K extends InboxKindName>(kind: K): InboxSpec<InboxSummaries[K]> {
  type S = InboxSummaries[K];
  // One kind at a time: its functions take its own summary (the union of kinds is narrowed by K).
  const def = INBOX_KINDS[kind] as unknown as {
    listName: string;
    recordPrefix: string;
    record: { safeParse(v: unknown): { success: true; data: unknown } | { success: false } };
    summaryFields: readonly Exclude<keyof S & string, 'id'>[];
    indexColumns: readonly Exclude<keyof S & string, 'id'>[];
    idOf?: (key: string) => string;
    stamp: (s: S) => string;
    listed?: (s: S) => boolean;
    countsByEmail: boolean;
    searched: (s: S, copy: InboxCopy) => string;
    facets: (s: S) => { city?: string; zip?: string; sourcePage?: string | null };
    reach?: (s: S) => Reach;
    emailHashOf?: (s: S) => string;
  };
  const project = summarize[kind] as unknown as (r: unknown, key: string) => S;
  const { emailHashOf, reach, listed } = def;
  return {
    name: def.listName,
    ...INBOX_INDEX[kind],
    recordPrefix: def.recordPrefix,
    fields: def.summaryFields,
    idOf: def.idOf ?? idAfter(def.recordPrefix),
    fromRecord: (raw, key) => {
      const p = def.record.safeParse(raw);
      return p.success ? project(p.data, key) : null;
    },
    at: (s) => s.createdAt,
    v: def.stamp,
    listed: listed ?? (() => true),
    ...(def.countsByEmail ? { countKey: (s: S) => (s as { email: string }).email.toLowerCase() } : {}),
    searched: (s) => def.searched(s, INBOX_COPY),
    columns: def.indexColumns,
    facets: def.facets,
    ...(reach ? { reach } : {}),
    ...(emailHashOf
      ? {
          enrich: withSuppressions(
            emailHashOf as unknown as (s: {
              key: string;
              suppressed: unknown;
              suppressedAt: unknown;
            }) => string,
          ) as unknown as (rows: S[]) => Promise<S[]>,
        }
      : {}),
  };
}

export const INBOX_SPECS = Object.fromEntries(INBOX_KIND_NAMES.map((k) => [k, specFor(k)])) as {
  [K in InboxKindName]: InboxSpec<InboxSummaries[K]>;
};

/**
 * Every Inbox read (the staff pages and searches, the CSV exports, the broadcasts' audiences) writes nothing: no
 * fold of outstanding segments, no rebuild of a lost index (read from the records instead, in memory). The
 * index is kept by the writes (a segment each), folded and repaired by the scheduled compaction (every minute,
 * compactInbox) and rebuilt by `npm run reindex` (reindexInbox): docs/decisions/155-inbox-and-staff-lists.md.
 */
const READ_ONLY: ReadOptions = { readOnly: true };

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
 * columns (docs/decisions/155-inbox-and-staff-lists.md): only what is shown is decoded. A `where` needs the
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
  const rows = await readIndex(
    spec,
    async (view) => {
      const found = await selected(view, kind, filter);
      return found.slice(0, found.total);
    },
    READ_ONLY,
  );
  yield* rows;
}

/** How many listed summaries match `filter` (no filter: the list's total, from the manifest). */
export async function countInbox<K extends InboxKindName>(
  kind: K,
  filter: InboxFilter<InboxSummaries[K]> = {},
): Promise<number> {
  const spec = specOf(kind);
  if (!hasFilter(filter)) return readIndex(spec, (view) => view.total, READ_ONLY);
  return readIndex(spec, async (view) => (await selected(view, kind, filter)).total, READ_ONLY);
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
  return readIndex(
    spec,
    async (view) => {
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
    },
    READ_ONLY,
  );
}

/**
 * Reads a list's index as a repair path (`npm run seed`): unlike the Inbox's reads, a missing, damaged or outdated
 * index is rebuilt from the records and stored, and more than FOLD_AT outstanding segments are folded; a sound
 * index is left as it is. The listed count.
 */
export function repairInboxIndex(kind: InboxKindName): Promise<number> {
  return readIndex(specOf(kind), (view) => view.total);
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
  for (const kind of INBOX_KIND_NAMES) out[kind] = await compact(specOf(kind), { deadline });
  return out;
}
