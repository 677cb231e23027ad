import { INBOX_KIND_NAMES, INBOX_KINDS, type InboxKindName, type Reach } from '../../inbox-kinds.ts';
import { isLang, LANGS, type Lang } from '../../lang.ts';
import { campaignToday } from '../../campaign-time.ts';
import { StoredContactSchema } from '../../schemas/inbox.ts';
import type { Page, PageQuery } from '../../schemas/paging.ts';
import { REACH_STATUSES, ReachStatusSchema, type ReachStatus } from '../../schemas/reach-status.ts';
import { HttpError } from '../errors.ts';
import type { ExportColumn, ExportSource } from '../export-source.ts';
import { pageQuery } from '../pagination.ts';
import type { KV, StoreName } from '../storage/kv.ts';
import { kv } from '../storage/stores.ts';
import {
  INBOX_COPY,
  INBOX_SPECS,
  inboxSummaries,
  inboxSummaryPage,
  type InboxFilter,
  type InboxSummary,
} from './summaries.ts';

/**
 * The staff inbox: volunteer sign-ups, contact messages, text sign-ups and newsletter
 * subscribers, newest first, searchable, paginated and exportable as CSV. Lists, pages
 * and searches read the lists' summary indexes (docs/decisions/155-inbox-and-staff-lists.md),
 * so a page costs a bounded number of store calls whatever the store holds; the CSV
 * exports read the records themselves (the source of truth), through the one export
 * mechanism (docs/decisions/156-exports.md). Each kind's columns and cells
 * are its definition's (src/lib/inbox-kinds.ts).
 */

interface InboxList {
  store: StoreName;
  schema: { safeParse(v: unknown): { success: true; data: unknown } | { success: false } };
  filename: string;
  columns: (string | ExportColumn)[];
  /** A record's cells; `reach`: its status and date, from its summary (lists that keep one). */
  row: (r: unknown, reach: Reach | null) => string[];
  /** Which records staff see and export (default: all). */
  listed?: (r: unknown) => boolean;
}

/** A kind's CSV, from its definition. */
function listOf(kind: InboxKindName): InboxList {
  const def = INBOX_KINDS[kind];
  const cells = def.csv.cells as readonly {
    column: string | ExportColumn;
    cell: (r: unknown, reach: Reach | null, copy: typeof INBOX_COPY) => string;
  }[];
  return {
    store: def.store,
    schema: def.record,
    filename: def.csv.filename,
    columns: cells.map((c) => c.column),
    row: (r, reach) => cells.map((c) => c.cell(r, reach, INBOX_COPY)),
    ...(def.listed ? { listed: def.listed as (r: unknown) => boolean } : {}),
  };
}

/** Each kind's CSV: its store, record schema, file name, columns and cells. */
export const INBOX_LISTS = Object.fromEntries(INBOX_KIND_NAMES.map((k) => [k, listOf(k)])) as Record<
  InboxKindName,
  InboxList
>;

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
  /** Only people of this status (docs/decisions/155-inbox-and-staff-lists.md). */
  status?: ReachStatus;
  /** Only sign-ups of these campaign days (inclusive): the Overview's links (docs/decisions/180-overview.md). */
  from?: string;
  to?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A `from`/`to` parameter: a campaign day (YYYY-MM-DD), or a 400 saying so. */
export function parseInboxDay(name: 'from' | 'to', raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  if (!DAY.test(raw) || Number.isNaN(Date.parse(`${raw}T12:00:00Z`)))
    throw new HttpError(400, `${name} must be a date (YYYY-MM-DD)`);
  return raw;
}

/** A `status` parameter: one of REACH_STATUSES, or a 400 naming them. */
export function parseReachStatus(raw: string | null | undefined): ReachStatus | undefined {
  if (!raw) return undefined;
  const p = ReachStatusSchema.safeParse(raw);
  if (!p.success) throw new HttpError(400, `status must be one of ${REACH_STATUSES.join(', ')}`);
  return p.data;
}

/** `?page`, `?pageSize` (the shared paging rules: 400 when malformed), `?q`, `?lang`, `?status`, `?from` and `?to`. */
export function parseInboxQuery(url: URL): InboxQuery {
  const lang = url.searchParams.get('lang') || undefined;
  if (lang !== undefined && !isLang(lang))
    throw new HttpError(400, `lang must be one of ${LANGS.join(', ')}`);
  const status = parseReachStatus(url.searchParams.get('status'));
  const from = parseInboxDay('from', url.searchParams.get('from'));
  const to = parseInboxDay('to', url.searchParams.get('to'));
  return {
    ...pageQuery(url),
    q: (url.searchParams.get('q') ?? '').trim().slice(0, 200),
    ...(lang ? { lang } : {}),
    ...(status ? { status } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}

type InboxFilterQuery = Pick<InboxQuery, 'q' | 'lang' | 'status' | 'from' | 'to'>;

/** The filter an Inbox query asks for. */
export const inboxFilter = (
  query: InboxFilterQuery,
): Pick<InboxFilter, 'q' | 'lang' | 'status' | 'from' | 'to'> => ({
  q: query.q,
  ...(query.lang ? { lang: query.lang } : {}),
  ...(query.status ? { status: query.status } : {}),
  ...(query.from ? { from: query.from } : {}),
  ...(query.to ? { to: query.to } : {}),
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
      if (INBOX_KINDS[name].countsByEmail) item.submissionsFromEmail = Math.max(1, countOf(s));
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
  const list = INBOX_LISTS[name];
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
