import {
  INBOX_KIND_NAMES,
  INBOX_KINDS,
  type InboxKindName,
  type InboxRecords,
  type InboxSummaries,
  type InboxSummary,
} from '../../inbox-kinds.ts';
import type { Suppression } from '../people/suppressions.ts';
import { appendSummary } from '../storage/summary-index/segments.ts';
import type { StoreName } from '../storage/kv.ts';

export { SUMMARY_MESSAGE_MAX } from '../../inbox-kinds.ts';
export type {
  ContactSummary,
  InboxSummaries,
  InboxSummary,
  SubscriberSummary,
  TextSignupSummary,
  VolunteerSummary,
} from '../../inbox-kinds.ts';

/**
 * What each Inbox list keeps of a record in its summary index (docs/decisions/155-inbox-and-staff-lists.md): the kind's
 * `summaryFields` (src/lib/inbox-kinds.ts) picked from the record, and the one call every write path makes after
 * changing a record. Light on purpose (no compression): the public form functions and the text guard import it.
 */

/**
 * Record -> summary, for the write paths (which hold the record they wrote) and the rebuild: the kind's summary
 * fields as stored (a missing one as null), its `derived` fields, and for the email lists the address's
 * suppression (the ledger's, read by the caller; the rebuild adds it per batch).
 */
function summaryOf<K extends InboxKindName>(
  kind: K,
  r: InboxRecords[K],
  key: string,
  suppression: Suppression | null,
): InboxSummaries[K] {
  const def = INBOX_KINDS[kind];
  const from: Record<string, unknown> = {
    ...r,
    key,
    suppressed: suppression?.reason ?? null,
    suppressedAt: suppression?.at ?? null,
    ...(def.derived as ((r: InboxRecords[K]) => object) | undefined)?.(r),
  };
  const out: Record<string, unknown> = { id: r.id };
  for (const f of def.summaryFields) out[f] = from[f] ?? null;
  return out as InboxSummaries[K];
}

type Summarize = {
  [K in InboxKindName]: (
    r: InboxRecords[K],
    key: string,
    suppression?: Suppression | null,
  ) => InboxSummaries[K];
};

/** `summarize[kind](record, key, suppression?)`: a record's summary (see summaryOf). */
export const summarize = Object.fromEntries(
  INBOX_KIND_NAMES.map((kind) => [
    kind,
    (r: InboxRecords[typeof kind], key: string, suppression: Suppression | null = null) =>
      summaryOf(kind, r, key, suppression),
  ]),
) as Summarize;

/**
 * Where each list's index lives and its format version: a change to a summary's fields or
 * meaning bumps the version, and every stored index of the older version is rebuilt from
 * the records.
 */
export const INBOX_INDEX = Object.fromEntries(
  INBOX_KIND_NAMES.map((kind) => [
    kind,
    { store: INBOX_KINDS[kind].store, version: INBOX_KINDS[kind].indexVersion },
  ]),
) as { [K in InboxKindName]: { store: StoreName & (typeof INBOX_KINDS)[K]['store']; version: number } };

/**
 * Records a record's new summary in its list's index (one created segment; see
 * segments.ts). Every write path that changes what a summary holds calls it after
 * writing the record.
 */
export function noteSummary<K extends InboxKindName>(kind: K, summary: InboxSummaries[K]): Promise<void> {
  return appendSummary(INBOX_INDEX[kind].store, INBOX_INDEX[kind].version, summary satisfies InboxSummary);
}
