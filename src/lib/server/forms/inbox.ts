import type { InboxKindName } from '../../inbox-routes.ts';
import type { z } from 'zod';
import { isLang, LANGS, type Lang } from '../../lang.ts';
import { campaignToday } from '../../campaign-time.ts';
import { contactSubjectLabels } from '../../../content/contact.ts';
import {
  StoredContactSchema,
  StoredSubscriberSchema,
  StoredTextSignupSchema,
  StoredVolunteerSchema,
} from '../../schemas/inbox.ts';
import type { Page, PageQuery } from '../../schemas/paging.ts';
import { REACH_STATUSES, ReachStatusSchema, type ReachStatus } from '../../schemas/reach-status.ts';
import { HttpError } from '../errors.ts';
import type { ExportColumn, ExportSource } from '../exports/source.ts';
import { pageQuery } from '../pagination.ts';
import type { KV, StoreName } from '../storage/kv.ts';
import { kv } from '../storage/stores.ts';
import {
  INBOX_SPECS,
  inboxSummaries,
  inboxSummaryPage,
  type InboxFilter,
  type InboxSummary,
} from './inbox-summaries.ts';

export { csvCell, toCsv } from '../exports/csv.ts';

/**
 * The staff inbox: volunteer sign-ups, contact messages, text sign-ups and newsletter
 * subscribers, newest first, searchable, paginated and exportable as CSV. Lists, pages
 * and searches read the lists' summary indexes (docs/decisions/100-summary-indexes.md),
 * so a page costs a bounded number of store calls whatever the store holds; the CSV
 * exports read the records themselves (the source of truth), through the one export
 * mechanism (docs/decisions/101-exports-of-any-size.md).
 */

interface InboxList<S extends z.ZodType> {
  store: StoreName;
  schema: S;
  filename: string;
  columns: (string | ExportColumn)[];
  /** A record's cells; `reach`: its status and date, from its summary (lists that keep one). */
  row: (r: z.output<S>, reach: Reach | null) => string[];
  /** Which records staff see and export (default: all). */
  listed?: (r: z.output<S>) => boolean;
}

const time = (name: string): ExportColumn => ({ name, time: true });

interface Reach {
  status: ReachStatus;
  at: string | null;
}

/**
 * The status columns every list of people a campaign messages ends with (docs/decisions/136-one-suppression-state-shown-everywhere.md):
 * `subscribed`, `unsubscribed`, `bounced`, `spam_reported` or `stopped`, and since when, so a file mailed or
 * texted from another tool leaves out who left.
 */
const STATUS_COLUMNS = ['status', time('status_at')];
const statusCells = (reach: Reach | null) => [reach?.status ?? '', reach?.at ?? ''];

const volunteers: InboxList<typeof StoredVolunteerSchema> = {
  store: 'volunteers',
  schema: StoredVolunteerSchema,
  filename: 'volunteers',
  columns: [
    'first_name',
    'last_name',
    'email',
    'phone',
    'address1',
    'address2',
    'city',
    'state',
    'zip',
    'interests',
    'language',
    time('created_at'),
    time('updated_at'),
    'email_status',
    ...STATUS_COLUMNS,
  ],
  row: (r, reach) => [
    r.firstName,
    r.lastName,
    r.email,
    r.phone,
    r.address1,
    r.address2,
    r.city,
    r.state,
    r.zip,
    r.interests.join('; '),
    r.lang,
    r.createdAt,
    r.updatedAt,
    r.emailStatus,
    ...statusCells(reach),
  ],
};

const contacts: InboxList<typeof StoredContactSchema> = {
  store: 'contacts',
  schema: StoredContactSchema,
  filename: 'contacts',
  columns: ['name', 'email', 'phone', 'subject', 'message', 'language', time('created_at'), 'email_status'],
  row: (r) => [
    r.name,
    r.email,
    r.phone ?? '',
    contactSubjectLabels[r.subject],
    r.message,
    r.lang,
    r.createdAt,
    r.emailStatus,
  ],
};

const textSignups: InboxList<typeof StoredTextSignupSchema> = {
  store: 'signups',
  schema: StoredTextSignupSchema,
  filename: 'text-signups',
  columns: [
    'first_name',
    'phone',
    'email',
    'sms_opt_in',
    time('consent_at'),
    'consent_version',
    'language',
    time('opted_out_at'),
    'source_page',
    time('created_at'),
    'confirmation_status',
    ...STATUS_COLUMNS,
  ],
  row: (r, reach) => [
    r.firstName,
    r.phone ?? '',
    r.email ?? '',
    r.smsStatus === 'subscribed' ? 'yes' : 'no',
    r.consentAt ?? '',
    r.consentVersion ?? '',
    r.lang,
    r.optedOutAt ?? '',
    r.sourcePage ?? '',
    r.createdAt,
    r.confirmation?.status ?? '',
    ...statusCells(reach),
  ],
};

const emailSubscribers: InboxList<typeof StoredSubscriberSchema> = {
  store: 'subscribers',
  schema: StoredSubscriberSchema,
  filename: 'email-subscribers',
  columns: [
    'email',
    time('subscribed_at'),
    'source_page',
    'consent_version',
    'consent_text',
    time('confirmed_at'),
    ...STATUS_COLUMNS,
  ],
  row: (r, reach) => [
    r.email,
    r.createdAt,
    r.sourcePage ?? '',
    r.consentVersion,
    r.consentText,
    r.confirmedAt ?? '',
    ...statusCells(reach),
  ],
  // Double opt-in: an address nobody has confirmed is not a subscriber, so it is neither
  // listed nor exported (docs/decisions/079-newsletter-double-opt-in.md).
  listed: (r) => r.status === 'subscribed',
};

export const INBOX_LISTS = {
  volunteers,
  contacts,
  'text-signups': textSignups,
  'email-subscribers': emailSubscribers,
} as const satisfies Record<InboxKindName, unknown>;

/** Reads every JSON value under a prefix, at most `concurrency` reads in flight. */
export async function readAllBounded(store: KV, prefix: string, concurrency = 16): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const page of store.keys(prefix)) {
    const values: unknown[] = new Array(page.length);
    let next = 0;
    const worker = async () => {
      while (next < page.length) {
        const i = next++;
        const r = await store.get(page[i] as string);
        values[i] = r?.value;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, page.length) }, worker));
    for (const v of values) if (v !== undefined) out.push(v);
  }
  return out;
}

export interface InboxQuery extends PageQuery {
  /** Case-insensitive filter over each summary's searched text. */
  q: string;
  /** Only records sent in this language. */
  lang?: Lang;
  /** Only people of this status (docs/decisions/136-one-suppression-state-shown-everywhere.md). */
  status?: ReachStatus;
}

/** A `status` parameter: one of REACH_STATUSES, or a 400 naming them. */
export function parseReachStatus(raw: string | null | undefined): ReachStatus | undefined {
  if (!raw) return undefined;
  const p = ReachStatusSchema.safeParse(raw);
  if (!p.success) throw new HttpError(400, `status must be one of ${REACH_STATUSES.join(', ')}`);
  return p.data;
}

/** `?page`, `?pageSize` (the shared paging rules: 400 when malformed), `?q`, `?lang` and `?status`. */
export function parseInboxQuery(url: URL): InboxQuery {
  const lang = url.searchParams.get('lang') || undefined;
  if (lang !== undefined && !isLang(lang))
    throw new HttpError(400, `lang must be one of ${LANGS.join(', ')}`);
  const status = parseReachStatus(url.searchParams.get('status'));
  return {
    ...pageQuery(url),
    q: (url.searchParams.get('q') ?? '').trim().slice(0, 200),
    ...(lang ? { lang } : {}),
    ...(status ? { status } : {}),
  };
}

type InboxFilterQuery = Pick<InboxQuery, 'q' | 'lang' | 'status'>;

/** The filter an Inbox query asks for. */
export const inboxFilter = (query: InboxFilterQuery): Pick<InboxFilter, 'q' | 'lang' | 'status'> => ({
  q: query.q,
  ...(query.lang ? { lang: query.lang } : {}),
  ...(query.status ? { status: query.status } : {}),
});

/** A summary's status and its date, for lists that keep one. */
const reachOf = (name: InboxKindName, s: InboxSummary): Reach | null =>
  (INBOX_SPECS[name].reach as ((s: InboxSummary) => Reach) | undefined)?.(s) ?? null;

/**
 * A row of the Inbox as the dashboard reads it: the summary's fields (the store key, cut flag and raw
 * suppression are internal) and, for lists of people the campaign messages, `reachStatus` and `reachStatusAt`
 * (a subscriber's own `status` is its double opt-in state).
 */
function itemOf(name: InboxKindName, s: InboxSummary): Record<string, unknown> {
  const { key: _key, ...item } = s as InboxSummary & { messageCut?: boolean };
  const internal = item as { messageCut?: unknown; suppressed?: unknown; suppressedAt?: unknown };
  delete internal.messageCut;
  delete internal.suppressed;
  delete internal.suppressedAt;
  const reach = reachOf(name, s);
  return reach ? { ...item, reachStatus: reach.status, reachStatusAt: reach.at } : item;
}

/**
 * One page of a kind, from its summary index. Volunteer and contact items carry
 * `submissionsFromEmail`: every submission is its own record (a form never overwrites a
 * stored person), so staff see how many an email has sent; searching the email lists
 * them all. A contact message longer than its summary keeps is read from its record.
 */
export async function inboxPage(name: InboxKindName, query: InboxQuery): Promise<Page<'items', unknown>> {
  const offset = (query.page - 1) * query.pageSize;
  const { rows, total, countOf } = await inboxSummaryPage(name, inboxFilter(query), offset, query.pageSize);
  const store = kv(INBOX_SPECS[name].store);
  const items = await Promise.all(
    (rows as InboxSummary[]).map(async (s) => {
      const item = itemOf(name, s);
      if ('messageCut' in s && s.messageCut) {
        const full = StoredContactSchema.safeParse((await store.get(s.key))?.value);
        if (full.success) item.message = full.data.message;
      }
      if (name === 'volunteers' || name === 'contacts') item.submissionsFromEmail = Math.max(1, countOf(s));
      return item;
    }),
  );
  return { items, total, page: query.page, pageSize: query.pageSize };
}

/** Records read at once by an export. */
const EXPORT_READS = 32;

/**
 * An Inbox list as an export source: the summaries matching the filter choose the rows
 * and their order (one read of the index), and each row is its record, read
 * EXPORT_READS at a time (the source of truth: every column, as stored). A record that no
 * longer fits its schema, or is gone, is skipped and logged.
 */
export async function inboxExportSource(
  name: InboxKindName,
  filter: InboxFilterQuery,
  now = new Date(),
): Promise<ExportSource> {
  const list = INBOX_LISTS[name] as unknown as InboxList<z.ZodType<unknown>>;
  const chosen: InboxSummary[] = [];
  for await (const s of inboxSummaries(name, inboxFilter(filter))) chosen.push(s);
  const store = kv(list.store);
  return {
    filename: `${list.filename}-${campaignToday(now)}.csv`,
    columns: list.columns,
    total: chosen.length,
    async *rows() {
      for (let i = 0; i < chosen.length; i += EXPORT_READS) {
        const batch = chosen.slice(i, i + EXPORT_READS);
        const records = await Promise.all(batch.map((s) => store.get<unknown>(s.key)));
        for (const [j, r] of records.entries()) {
          const p = list.schema.safeParse(r?.value);
          if (!p.success) {
            console.error(`[inbox] export skipped a ${name} record that is gone or does not fit its schema`);
            continue;
          }
          if (list.listed?.(p.data) ?? true) yield list.row(p.data, reachOf(name, batch[j]!));
        }
      }
    },
  };
}
