import type { InboxKindName } from '../../inbox-routes.ts';
import type { Lang } from '../../lang.ts';
import type {
  StoredContact,
  StoredSubscriber,
  StoredTextSignup,
  StoredVolunteer,
} from '../../schemas/inbox.ts';
import type { Suppression, SuppressionReason } from '../messaging/suppressions.ts';
import { appendSummary } from '../storage/summary-index/segments.ts';
import type { StoreName } from '../storage/kv.ts';

/**
 * What each Inbox list keeps of a record in its summary index
 * (docs/decisions/100-summary-indexes.md), and the one call every write path makes
 * after changing a record. Light on purpose (no zod, no compression): the public form
 * functions and the text guard import it.
 */

export interface VolunteerSummary {
  id: string;
  key: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  city: string;
  state: string;
  zip: string;
  interests: string[];
  lang: Lang;
  createdAt: string;
  /**
   * The address's email suppression, copied from the ledger the senders read (messaging/suppressions.ts) when it
   * is recorded and by a rebuild (docs/decisions/136-one-suppression-state-shown-everywhere.md); null: none.
   */
  suppressed: SuppressionReason | null;
  suppressedAt: string | null;
}

/** Messages are kept up to this many characters (the page reads the record of a longer one). */
export const SUMMARY_MESSAGE_MAX = 1000;

export interface ContactSummary {
  id: string;
  key: string;
  name: string;
  email: string;
  phone: string | null;
  subject: StoredContact['subject'];
  /** The message, cut at SUMMARY_MESSAGE_MAX characters. */
  message: string;
  messageCut: boolean;
  lang: Lang;
  createdAt: string;
}

export interface TextSignupSummary {
  id: string;
  key: string;
  firstName: string;
  phone: string | null;
  email: string | null;
  smsStatus: StoredTextSignup['smsStatus'];
  consentAt: string | null;
  consentVersion: string | null;
  optedOutAt: string | null;
  lang: Lang;
  sourcePage: string | null;
  createdAt: string;
  /** Every change of the record moves it on (laterStamp): the summary's version. */
  updatedAt: string;
}

export interface SubscriberSummary {
  id: string;
  key: string;
  email: string;
  sourcePage: string | null;
  consentVersion: string;
  lang: Lang;
  createdAt: string;
  status: StoredSubscriber['status'];
  confirmedAt: string | null;
  /**
   * The address's email suppression, copied from the ledger the senders read (messaging/suppressions.ts) when it
   * is recorded and by a rebuild (docs/decisions/136-one-suppression-state-shown-everywhere.md); null: none.
   */
  suppressed: SuppressionReason | null;
  suppressedAt: string | null;
}

export interface InboxSummaries {
  volunteers: VolunteerSummary;
  contacts: ContactSummary;
  'text-signups': TextSignupSummary;
  'email-subscribers': SubscriberSummary;
}
export type InboxSummary = InboxSummaries[InboxKindName];

const suppressionFields = (s: Suppression | null) => ({
  suppressed: s?.reason ?? null,
  suppressedAt: s?.at ?? null,
});

/**
 * Record -> summary, for the write paths (which hold the record they wrote) and the rebuild. The email lists
 * also take the address's suppression (the ledger's, read by the caller; the rebuild adds it per batch).
 */
export const summarize = {
  volunteers: (
    r: StoredVolunteer,
    key: string,
    suppression: Suppression | null = null,
  ): VolunteerSummary => ({
    id: r.id,
    key,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    phone: r.phone,
    city: r.city,
    state: r.state,
    zip: r.zip,
    interests: r.interests,
    lang: r.lang,
    createdAt: r.createdAt,
    ...suppressionFields(suppression),
  }),
  contacts: (r: StoredContact, key: string): ContactSummary => ({
    id: r.id,
    key,
    name: r.name,
    email: r.email,
    phone: r.phone ?? null,
    subject: r.subject,
    message: r.message.slice(0, SUMMARY_MESSAGE_MAX),
    messageCut: r.message.length > SUMMARY_MESSAGE_MAX,
    lang: r.lang,
    createdAt: r.createdAt,
  }),
  'text-signups': (r: StoredTextSignup, key: string): TextSignupSummary => ({
    id: r.id,
    key,
    firstName: r.firstName,
    phone: r.phone,
    email: r.email,
    smsStatus: r.smsStatus,
    consentAt: r.consentAt,
    consentVersion: r.consentVersion,
    optedOutAt: r.optedOutAt,
    lang: r.lang,
    sourcePage: r.sourcePage,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }),
  'email-subscribers': (
    r: StoredSubscriber,
    key: string,
    suppression: Suppression | null = null,
  ): SubscriberSummary => ({
    id: r.id,
    key,
    email: r.email,
    sourcePage: r.sourcePage,
    consentVersion: r.consentVersion,
    lang: r.lang,
    createdAt: r.createdAt,
    status: r.status,
    confirmedAt: r.confirmedAt,
    ...suppressionFields(suppression),
  }),
} as const;

/**
 * Where each list's index lives and its format version: a change to a summary's fields or
 * meaning bumps the version, and every stored index of the older version is rebuilt from
 * the records on first use.
 */
export const INBOX_INDEX = {
  // 2: the suppression (volunteers, subscribers) and the text status as columns, for the status filter (136).
  volunteers: { store: 'volunteers', version: 2 },
  contacts: { store: 'contacts', version: 1 },
  'text-signups': { store: 'signups', version: 2 },
  'email-subscribers': { store: 'subscribers', version: 2 },
} as const satisfies Record<InboxKindName, { store: StoreName; version: number }>;

/**
 * Records a record's new summary in its list's index (one created segment; see
 * segments.ts). Every write path that changes what a summary holds calls it after
 * writing the record.
 */
export function noteSummary<K extends InboxKindName>(kind: K, summary: InboxSummaries[K]): Promise<void> {
  return appendSummary(INBOX_INDEX[kind].store, INBOX_INDEX[kind].version, summary);
}
