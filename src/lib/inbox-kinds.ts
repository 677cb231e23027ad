import { z } from './schemas/zod.ts';
import { LANG_NAMES_FOR_STAFF } from './lang-names.ts';
import {
  StoredContactSchema,
  StoredSubscriberSchema,
  StoredTextSignupSchema,
  StoredVolunteerSchema,
  type StoredContact,
} from './schemas/inbox.ts';
import {
  EMAIL_REACH_STATUSES,
  ReachStatusSchema,
  TEXT_REACH_STATUSES,
  type ReachStatus,
} from './schemas/reach-status.ts';

/**
 * The staff Inbox's kinds, each defined once (docs/decisions/155-inbox-and-staff-lists.md): its API route, its label,
 * where its records live, what its summary keeps (the summary types are picked from the stored record's schema
 * by the field list, never written out again), its filters and statuses, its table columns and its CSV
 * columns with their cells. Neutral (zod, schemas, lang names): the dashboard (src/admin) reads the same
 * definition as the server (src/lib/server/inbox/), which adds the I/O.
 *
 * The routes: the admin client fetches them, the Inbox function answers them, and the function's `config.path`
 * (which Netlify reads from the source as a literal, so it cannot be built from this object) is held equal to
 * them by tests/unit/inbox-routes.test.ts (docs/decisions/155-inbox-and-staff-lists.md).
 */

/** A CSV column: its header, and whether it holds a time (formatted for spreadsheets: exports/csv.ts). */
export interface InboxCsvColumn {
  name: string;
  time?: true;
}

/** A person's reach status on a list, and since when (docs/decisions/155-inbox-and-staff-lists.md). */
export interface Reach {
  status: ReachStatus;
  at: string | null;
}

/** Words a CSV cell or a search shows that are campaign copy (src/content): handed in by the server. */
export interface InboxCopy {
  contactSubjects: Record<StoredContact['subject'], string>;
}

/** A CSV column and the cell it holds for a record (`reach`: the record's status, for lists that keep one). */
interface CsvCell<R> {
  column: string | InboxCsvColumn;
  cell: (r: R, reach: Reach | null, copy: InboxCopy) => string;
}

/** The renderers the dashboard's table has (src/admin/tabs/InboxTab.tsx), named by what they show. */
export type InboxCellName =
  | 'fullName'
  | 'name'
  | 'firstName'
  | 'emailWithCount'
  | 'email'
  | 'phone'
  | 'place'
  | 'interests'
  | 'subject'
  | 'message'
  | 'language'
  | 'createdAt'
  | 'reachStatus'
  | 'smsConsent'
  | 'sourcePage'
  | 'consentVersion'
  | 'confirmedAt';

const time = (name: string): InboxCsvColumn => ({ name, time: true });

/** The fields every summary has beside its picked ones: the record's id and its key in the store. */
const KEYED = { id: z.string(), key: z.string() };
/**
 * The address's email suppression, copied from the ledger the senders read (people/suppressions.ts) when it is
 * recorded and by a rebuild (docs/decisions/155-inbox-and-staff-lists.md); null: none.
 */
const SUPPRESSION = {
  suppressed: ReachStatusSchema.exclude(['subscribed', 'stopped']).nullable(),
  suppressedAt: z.string().nullable(),
};

/** `{ a: true, b: true }` of a field list: the mask a schema's `pick` takes. */
const mask = <const F extends readonly string[]>(fields: F) =>
  Object.fromEntries(fields.map((f) => [f, true])) as Record<F[number], true>;

/** The status columns every list of people a campaign messages ends with (decision 136). */
const statusCells = <R>(): CsvCell<R>[] => [
  { column: 'status', cell: (_r, reach) => reach?.status ?? '' },
  { column: time('status_at'), cell: (_r, reach) => reach?.at ?? '' },
];

/** The later of two ISO stamps (a suppression moves a summary's version on). */
const later = (a: string, b: string | null) => (b && b > a ? b : a);

/** A summary's email status: its suppression (copied from the ledger), else subscribed since `since`. */
const emailReach = (
  s: { suppressed: ReachStatus | null; suppressedAt: string | null },
  since: string | null,
): Reach =>
  s.suppressed ? { status: s.suppressed, at: s.suppressedAt } : { status: 'subscribed', at: since };

// ---------------------------------------------------------------------------
// Volunteer sign-ups

/** What a volunteer's summary keeps, in the order the index's rows store them (a change bumps `indexVersion`). */
const VOLUNTEER_SUMMARY = [
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
] as const;
export const VolunteerSummarySchema = StoredVolunteerSchema.extend({ ...KEYED, ...SUPPRESSION }).pick(
  mask(['id', ...VOLUNTEER_SUMMARY]),
);
export type VolunteerSummary = z.infer<typeof VolunteerSummarySchema>;
type Volunteer = z.infer<typeof StoredVolunteerSchema>;

const volunteers = {
  route: '/api/admin/volunteers',
  label: 'Volunteer sign-ups',
  /** The list's name in messages ("The volunteers list is being re-indexed"). */
  listName: 'volunteers',
  store: 'volunteers',
  recordPrefix: 'volunteer/',
  record: StoredVolunteerSchema,
  summary: VolunteerSummarySchema,
  derived: undefined,
  listed: undefined,
  summaryFields: VOLUNTEER_SUMMARY,
  // volunteer/<sha256 of email>/<sha256 of details>: the id is both cut to 32 (submissions.ts).
  idOf: (key: string) => {
    const [, email = '', details = ''] = key.split('/');
    return `${email.slice(0, 32)}-${details.slice(0, 32)}`;
  },
  /** The summary's version stamp: a submission never changes; only the address's suppression moves it on. */
  stamp: (s: VolunteerSummary) => later(s.createdAt, s.suppressedAt),
  /** The address hash the suppression ledger is keyed by: volunteer/<sha256 of email>/<details>. */
  emailHashOf: (s: VolunteerSummary) => s.key.split('/')[1] ?? '',
  /** 2: the suppression as a column, for the status filter (136). */
  indexVersion: 2,
  /** Fields also stored column by column, for the filters (docs/decisions/155-inbox-and-staff-lists.md). */
  indexColumns: ['lang', 'createdAt', 'city', 'zip', 'suppressed'],
  statuses: EMAIL_REACH_STATUSES,
  /** What the shared filters read besides q, lang, status and dates (absent: that filter matches nothing here). */
  facets: (s: VolunteerSummary) => ({ city: s.city, zip: s.zip }),
  reach: (s: VolunteerSummary): Reach => emailReach(s, s.createdAt),
  searched: (s: VolunteerSummary) =>
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
  /** Every submission is its own record: the Inbox counts those from the same email. */
  countsByEmail: true,
  table: [
    { header: 'Name', cell: 'fullName' },
    { header: 'Email', cell: 'emailWithCount' },
    { header: 'Phone', cell: 'phone' },
    { header: 'City', cell: 'place' },
    { header: 'Interests', cell: 'interests' },
    { header: 'Language', cell: 'language' },
    { header: 'Received', cell: 'createdAt' },
    { header: 'Email status', cell: 'reachStatus' },
  ],
  csv: {
    filename: 'volunteers',
    cells: [
      { column: 'first_name', cell: (r) => r.firstName },
      { column: 'last_name', cell: (r) => r.lastName },
      { column: 'email', cell: (r) => r.email },
      { column: 'phone', cell: (r) => r.phone },
      { column: 'address1', cell: (r) => r.address1 },
      { column: 'address2', cell: (r) => r.address2 },
      { column: 'city', cell: (r) => r.city },
      { column: 'state', cell: (r) => r.state },
      { column: 'zip', cell: (r) => r.zip },
      { column: 'interests', cell: (r) => r.interests.join('; ') },
      { column: 'language', cell: (r) => r.lang },
      { column: time('created_at'), cell: (r) => r.createdAt },
      { column: time('updated_at'), cell: (r) => r.updatedAt },
      { column: 'email_status', cell: (r) => r.emailStatus },
      ...statusCells<Volunteer>(),
    ] satisfies CsvCell<Volunteer>[],
  },
} as const;

// ---------------------------------------------------------------------------
// Contact messages

/** Messages are kept up to this many characters (the page reads the record of a longer one). */
export const SUMMARY_MESSAGE_MAX = 1000;

const CONTACT_SUMMARY = [
  'key',
  'name',
  'email',
  'phone',
  'subject',
  /** The message, cut at SUMMARY_MESSAGE_MAX characters. */
  'message',
  'messageCut',
  'lang',
  'createdAt',
] as const;
export const ContactSummarySchema = StoredContactSchema.extend({
  ...KEYED,
  phone: z.string().nullable(),
  messageCut: z.boolean(),
}).pick(mask(['id', ...CONTACT_SUMMARY]));
export type ContactSummary = z.infer<typeof ContactSummarySchema>;
type Contact = z.infer<typeof StoredContactSchema>;

const contacts = {
  route: '/api/admin/contacts',
  label: 'Contact messages',
  listName: 'contacts',
  store: 'contacts',
  recordPrefix: 'message/',
  record: StoredContactSchema,
  summary: ContactSummarySchema,
  listed: undefined,
  summaryFields: CONTACT_SUMMARY,
  idOf: undefined,
  stamp: (s: ContactSummary) => s.createdAt,
  emailHashOf: undefined,
  /** The fields a summary keeps other than as stored: the message cut at SUMMARY_MESSAGE_MAX. */
  derived: (r: Contact) => ({
    message: r.message.slice(0, SUMMARY_MESSAGE_MAX),
    messageCut: r.message.length > SUMMARY_MESSAGE_MAX,
  }),
  indexVersion: 1,
  indexColumns: ['lang', 'createdAt'],
  statuses: [],
  facets: (_s: ContactSummary) => ({}),
  reach: undefined,
  searched: (s: ContactSummary, copy: InboxCopy) =>
    [
      s.name,
      s.email,
      s.phone ?? '',
      copy.contactSubjects[s.subject],
      s.subject,
      s.message,
      LANG_NAMES_FOR_STAFF[s.lang],
    ].join(' '),
  countsByEmail: true,
  table: [
    { header: 'Name', cell: 'name' },
    { header: 'Email', cell: 'emailWithCount' },
    { header: 'Phone', cell: 'phone' },
    { header: 'Subject', cell: 'subject' },
    { header: 'Message', cell: 'message' },
    { header: 'Language', cell: 'language' },
    { header: 'Received', cell: 'createdAt' },
  ],
  csv: {
    filename: 'contacts',
    cells: [
      { column: 'name', cell: (r) => r.name },
      { column: 'email', cell: (r) => r.email },
      { column: 'phone', cell: (r) => r.phone ?? '' },
      { column: 'subject', cell: (r, _reach, copy) => copy.contactSubjects[r.subject] },
      { column: 'message', cell: (r) => r.message },
      { column: 'language', cell: (r) => r.lang },
      { column: time('created_at'), cell: (r) => r.createdAt },
      { column: 'email_status', cell: (r) => r.emailStatus },
    ] satisfies CsvCell<Contact>[],
  },
} as const;

// ---------------------------------------------------------------------------
// Text sign-ups

const TEXT_SIGNUP_SUMMARY = [
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
  /** Every change of the record moves it on (laterStamp): the summary's version. */
  'updatedAt',
] as const;
export const TextSignupSummarySchema = StoredTextSignupSchema.extend(KEYED).pick(
  mask(['id', ...TEXT_SIGNUP_SUMMARY]),
);
export type TextSignupSummary = z.infer<typeof TextSignupSummarySchema>;
type TextSignup = z.infer<typeof StoredTextSignupSchema>;

const textSignups = {
  route: '/api/admin/text-signups',
  label: 'Text sign-ups',
  listName: 'text sign-ups',
  store: 'signups',
  recordPrefix: 'person/',
  record: StoredTextSignupSchema,
  summary: TextSignupSummarySchema,
  derived: undefined,
  listed: undefined,
  summaryFields: TEXT_SIGNUP_SUMMARY,
  idOf: undefined,
  stamp: (s: TextSignupSummary) => s.updatedAt,
  emailHashOf: undefined,
  /** 2: the text status as a column, for the status filter (136). */
  indexVersion: 2,
  indexColumns: ['lang', 'createdAt', 'sourcePage', 'smsStatus'],
  statuses: TEXT_REACH_STATUSES,
  facets: (s: TextSignupSummary) => ({ sourcePage: s.sourcePage }),
  /** The text list's own state is the opt-out ledger the text guard reads (text-list.ts): STOP and 21610 alike. */
  reach: (s: TextSignupSummary): Reach =>
    s.smsStatus === 'opted_out'
      ? { status: 'stopped', at: s.optedOutAt }
      : { status: 'subscribed', at: s.consentAt ?? s.createdAt },
  searched: (s: TextSignupSummary) =>
    [
      s.firstName,
      s.phone ?? '',
      s.email ?? '',
      s.smsStatus,
      s.sourcePage ?? '',
      LANG_NAMES_FOR_STAFF[s.lang],
    ].join(' '),
  countsByEmail: false,
  table: [
    { header: 'First name', cell: 'firstName' },
    { header: 'Phone', cell: 'phone' },
    { header: 'Email', cell: 'email' },
    { header: 'SMS consent', cell: 'smsConsent' },
    { header: 'Language', cell: 'language' },
    { header: 'Signed up', cell: 'createdAt' },
  ],
  csv: {
    filename: 'text-signups',
    cells: [
      { column: 'first_name', cell: (r) => r.firstName },
      { column: 'phone', cell: (r) => r.phone ?? '' },
      { column: 'email', cell: (r) => r.email ?? '' },
      { column: 'sms_opt_in', cell: (r) => (r.smsStatus === 'subscribed' ? 'yes' : 'no') },
      { column: time('consent_at'), cell: (r) => r.consentAt ?? '' },
      { column: 'consent_version', cell: (r) => r.consentVersion ?? '' },
      { column: 'language', cell: (r) => r.lang },
      { column: time('opted_out_at'), cell: (r) => r.optedOutAt ?? '' },
      { column: 'source_page', cell: (r) => r.sourcePage ?? '' },
      { column: time('created_at'), cell: (r) => r.createdAt },
      { column: 'confirmation_status', cell: (r) => r.confirmation?.status ?? '' },
      ...statusCells<TextSignup>(),
    ] satisfies CsvCell<TextSignup>[],
  },
} as const;

// ---------------------------------------------------------------------------
// Newsletter subscribers

const SUBSCRIBER_SUMMARY = [
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
] as const;
export const SubscriberSummarySchema = StoredSubscriberSchema.extend({ ...KEYED, ...SUPPRESSION }).pick(
  mask(['id', ...SUBSCRIBER_SUMMARY]),
);
export type SubscriberSummary = z.infer<typeof SubscriberSummarySchema>;
type Subscriber = z.infer<typeof StoredSubscriberSchema>;

const emailSubscribers = {
  route: '/api/admin/email-subscribers',
  label: 'Newsletter subscribers',
  listName: 'newsletter subscribers',
  store: 'subscribers',
  recordPrefix: 'subscriber/',
  record: StoredSubscriberSchema,
  summary: SubscriberSummarySchema,
  derived: undefined,
  summaryFields: SUBSCRIBER_SUMMARY,
  idOf: undefined,
  // pending -> subscribed, then a suppression, are the changes a subscriber's summary sees. The confirmation
  // time after a space: a suppression read beside a confirmation (the same stamp) loses to the confirmed one.
  stamp: (s: SubscriberSummary) =>
    `${later(s.confirmedAt ?? s.createdAt, s.suppressedAt)} ${s.confirmedAt ?? ''}`,
  /** subscriber/<sha256 of email>: the id is the address hash (subscribers.ts). */
  emailHashOf: (s: SubscriberSummary) => s.id,
  indexVersion: 2,
  indexColumns: ['lang', 'createdAt', 'sourcePage', 'suppressed'],
  statuses: EMAIL_REACH_STATUSES,
  facets: (s: SubscriberSummary) => ({ sourcePage: s.sourcePage }),
  reach: (s: SubscriberSummary): Reach => emailReach(s, s.confirmedAt ?? s.createdAt),
  searched: (s: SubscriberSummary) => [s.email, s.sourcePage ?? '', LANG_NAMES_FOR_STAFF[s.lang]].join(' '),
  countsByEmail: false,
  /**
   * Double opt-in: an address nobody has confirmed is not a subscriber, so it is neither listed nor exported
   * (docs/decisions/167-email-and-newsletter.md). Reads the record and its summary alike.
   */
  listed: (r: Pick<Subscriber, 'status'>) => r.status === 'subscribed',
  table: [
    { header: 'Email', cell: 'email' },
    { header: 'Page', cell: 'sourcePage' },
    { header: 'Consent', cell: 'consentVersion' },
    { header: 'Subscribed', cell: 'createdAt' },
    // Only confirmed addresses are listed (double opt-in); older ones were kept before it.
    { header: 'Confirmed', cell: 'confirmedAt' },
    { header: 'Status', cell: 'reachStatus' },
  ],
  csv: {
    filename: 'email-subscribers',
    cells: [
      { column: 'email', cell: (r) => r.email },
      { column: time('subscribed_at'), cell: (r) => r.createdAt },
      { column: 'source_page', cell: (r) => r.sourcePage ?? '' },
      { column: 'consent_version', cell: (r) => r.consentVersion },
      { column: 'consent_text', cell: (r) => r.consentText },
      { column: time('confirmed_at'), cell: (r) => r.confirmedAt ?? '' },
      ...statusCells<Subscriber>(),
    ] satisfies CsvCell<Subscriber>[],
  },
} as const;

// ---------------------------------------------------------------------------
// The kinds, in tab order, and what derives from them

export const INBOX_KINDS = {
  volunteers,
  contacts,
  'text-signups': textSignups,
  'email-subscribers': emailSubscribers,
} as const;

export type InboxKindName = keyof typeof INBOX_KINDS;
export type InboxKind<K extends InboxKindName = InboxKindName> = (typeof INBOX_KINDS)[K];

/** Every kind's name, in tab order. */
export const INBOX_KIND_NAMES = Object.keys(INBOX_KINDS) as InboxKindName[];

/** Each kind's stored record and its summary, by kind (types only: both are picked from the schemas above). */
export type InboxRecords = { [K in InboxKindName]: z.output<InboxKind<K>['record']> };
export type InboxSummaries = { [K in InboxKindName]: z.output<InboxKind<K>['summary']> };
export type InboxSummary = InboxSummaries[InboxKindName];

/** Each kind's API path. */
export const INBOX_ROUTES = Object.fromEntries(INBOX_KIND_NAMES.map((k) => [k, INBOX_KINDS[k].route])) as {
  [K in InboxKindName]: InboxKind<K>['route'];
};

/** The Inbox list a request path names, if any (a trailing slash is ignored). */
export function inboxKindOf(pathname: string): InboxKindName | null {
  const path = pathname.replace(/\/$/, '');
  return INBOX_KIND_NAMES.find((k) => INBOX_ROUTES[k] === path) ?? null;
}

/** Whether a string names an Inbox list. */
export function isInboxKind(value: string): value is InboxKindName {
  return Object.hasOwn(INBOX_KINDS, value);
}
