import type { InboxKindName } from '../../inbox-routes.ts';
import type { z } from 'zod';
import { LANG_NAMES_FOR_STAFF } from '../../lang-names.ts';
import { contactSubjectLabels } from '../../../content/contact.ts';
import {
  StoredContactSchema,
  StoredSubscriberSchema,
  StoredTextSignupSchema,
  StoredVolunteerSchema,
} from '../../schemas/inbox.ts';
import type { Page, PageQuery } from '../../schemas/paging.ts';
import { pageOf, pageQuery } from '../pagination.ts';
import { kv, type KV, type StoreName } from '../store.ts';

/**
 * The staff inbox: volunteer sign-ups, contact messages and text sign-ups,
 * newest first, filterable, paginated and exportable as CSV. Every record is
 * read (with bounded concurrency) and parsed: fine for thousands of records;
 * a campaign with far more would keep a maintained index instead.
 */

interface InboxList<S extends z.ZodType> {
  store: StoreName;
  prefix: string;
  schema: S;
  filename: string;
  /** Text searched by ?q=. */
  haystack: (r: z.output<S>) => string;
  columns: string[];
  row: (r: z.output<S>) => string[];
  /** Which records staff see and export (default: all). */
  listed?: (r: z.output<S>) => boolean;
}

const volunteers: InboxList<typeof StoredVolunteerSchema> = {
  store: 'volunteers',
  prefix: 'volunteer/',
  schema: StoredVolunteerSchema,
  filename: 'volunteers',
  haystack: (r) =>
    [
      r.firstName,
      r.lastName,
      r.email,
      r.phone,
      r.address1,
      r.address2,
      r.city,
      r.state,
      r.zip,
      ...r.interests,
      LANG_NAMES_FOR_STAFF[r.lang],
    ].join(' '),
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
    'created_at',
    'updated_at',
    'email_status',
  ],
  row: (r) => [
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
  ],
};

const contacts: InboxList<typeof StoredContactSchema> = {
  store: 'contacts',
  prefix: 'message/',
  schema: StoredContactSchema,
  filename: 'contacts',
  haystack: (r) =>
    [
      r.name,
      r.email,
      r.phone ?? '',
      contactSubjectLabels[r.subject],
      r.subject,
      r.message,
      LANG_NAMES_FOR_STAFF[r.lang],
    ].join(' '),
  columns: ['name', 'email', 'phone', 'subject', 'message', 'language', 'created_at', 'email_status'],
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
  prefix: 'person/',
  schema: StoredTextSignupSchema,
  filename: 'text-signups',
  haystack: (r) =>
    [
      r.firstName,
      r.phone ?? '',
      r.email ?? '',
      r.smsStatus,
      r.sourcePage ?? '',
      LANG_NAMES_FOR_STAFF[r.lang],
    ].join(' '),
  columns: [
    'first_name',
    'phone',
    'email',
    'sms_opt_in',
    'consent_at',
    'consent_version',
    'language',
    'opted_out_at',
    'source_page',
    'created_at',
    'confirmation_status',
  ],
  row: (r) => [
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
  ],
};

const emailSubscribers: InboxList<typeof StoredSubscriberSchema> = {
  store: 'subscribers',
  prefix: 'subscriber/',
  schema: StoredSubscriberSchema,
  filename: 'email-subscribers',
  haystack: (r) => [r.email, r.sourcePage ?? ''].join(' '),
  columns: ['email', 'subscribed_at', 'source_page', 'consent_version', 'consent_text', 'confirmed_at'],
  row: (r) => [
    r.email,
    r.createdAt,
    r.sourcePage ?? '',
    r.consentVersion,
    r.consentText,
    r.confirmedAt ?? '',
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
  /** Case-insensitive filter over each record's searchable text. */
  q: string;
}

/** `?page`, `?pageSize` (the shared paging rules: 400 when malformed) and `?q`. */
export function parseInboxQuery(url: URL): InboxQuery {
  return { ...pageQuery(url), q: (url.searchParams.get('q') ?? '').trim().slice(0, 200) };
}

/** Every valid record of a kind, newest first, filtered by q (case-insensitive). */
export async function listInbox(name: InboxKindName, q = ''): Promise<unknown[]> {
  const kind = INBOX_LISTS[name] as InboxList<z.ZodType<{ createdAt: string }>>;
  const raw = await readAllBounded(kv(kind.store), kind.prefix);
  const records: { createdAt: string }[] = [];
  for (const r of raw) {
    const p = kind.schema.safeParse(r);
    if (!p.success) console.error(`[inbox] skipped a ${name} record that does not fit its schema`);
    else if (kind.listed?.(p.data) ?? true) records.push(p.data);
  }
  const sorted = records.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  return filterInbox(name, sorted, q);
}

function filterInbox(name: InboxKindName, records: unknown[], q: string): unknown[] {
  const kind = INBOX_LISTS[name] as InboxList<z.ZodType<unknown>>;
  const needle = q.toLowerCase();
  return needle ? records.filter((r) => kind.haystack(r).toLowerCase().includes(needle)) : records;
}

/**
 * One page of a kind. Volunteer and contact items carry `submissionsFromEmail`:
 * every submission is its own record (a form never overwrites a stored person),
 * so staff see how many an email has sent; searching the email lists them all.
 */
export async function inboxPage(name: InboxKindName, query: InboxQuery): Promise<Page<'items', unknown>> {
  const everything = await listInbox(name);
  const perEmail = new Map<string, number>();
  if (name !== 'text-signups') {
    for (const r of everything as { email: string }[])
      perEmail.set(r.email, (perEmail.get(r.email) ?? 0) + 1);
  }
  const page = pageOf('items', filterInbox(name, everything, query.q), query);
  if (name === 'text-signups') return page;
  return {
    ...page,
    items: page.items.map((r) => ({
      ...(r as object),
      submissionsFromEmail: perEmail.get((r as { email: string }).email) ?? 1,
    })),
  };
}

/**
 * One CSV cell: a value a spreadsheet would run as a formula (= + - @, tab,
 * CR) gets a leading quote (OWASP CSV injection). A strict E.164 phone number
 * ('+' then digits only) is left as is: it cannot be a formula, and voter-contact
 * tools import it. Then RFC 4180 quoting.
 */
export function csvCell(value: string): string {
  let v = value;
  if (/^[=+\-@\t\r]/.test(v) && !/^\+\d{8,15}$/.test(v)) v = `'${v}`;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function toCsv(columns: string[], rows: string[][]): string {
  return [columns, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export async function inboxCsv(
  name: InboxKindName,
  q: string,
  now = new Date(),
): Promise<{ filename: string; body: string }> {
  const kind = INBOX_LISTS[name] as unknown as InboxList<z.ZodType<unknown>>;
  const rows = (await listInbox(name, q)).map((r) => kind.row(r));
  return {
    filename: `${kind.filename}-${now.toISOString().slice(0, 10)}.csv`,
    body: toCsv(kind.columns, rows),
  };
}
