import type { ReachStatus } from '../../schemas/reach-status.ts';
import { hashed, key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';

/**
 * The email suppression ledger (docs/decisions/167-email-and-newsletter.md): one blob per address hash,
 * `suppressed/<sha256>` in the `subscribers` store, never removed by a form. The bulk email guard reads it at
 * dispatch (messaging/email-guard.ts), a broadcast's count leaves its addresses out (broadcasts/audiences.ts), and the
 * Inbox and its CSVs show it (docs/decisions/155-inbox-and-staff-lists.md). An address's consent to email, so in
 * people/, the floor below inbox/ and messaging/: both read the one ledger and neither imports the other back
 * (docs/decisions/153-storage.md, "The folders form a DAG").
 */

/** Each reason is also the status the Inbox shows (src/lib/schemas/reach-status.ts). */
export const SUPPRESSION_REASONS = [
  'unsubscribed',
  'bounced',
  'spam_reported',
] as const satisfies readonly ReachStatus[];
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

export interface Suppression {
  reason: SuppressionReason;
  at: string;
  /** What recorded it: 'page', 'one_click', 'sendgrid'. */
  via: string;
}

const PREFIX = 'suppressed';
export const suppressionKey = (addressHash: string) => key(PREFIX, addressHash);

const isSuppression = (v: unknown): v is Suppression =>
  typeof v === 'object' &&
  v !== null &&
  (SUPPRESSION_REASONS as readonly string[]).includes((v as Suppression).reason) &&
  typeof (v as Suppression).at === 'string';

/** An address hash's suppression (the store reads strongly consistent: an unsubscribe a moment ago is seen). */
export async function suppressionByHash(addressHash: string): Promise<Suppression | null> {
  const r = await kv('subscribers').get<unknown>(suppressionKey(addressHash));
  return r && isSuppression(r.value) ? r.value : null;
}

/** The address's suppression, read strongly consistent (an unsubscribe a moment ago is seen). */
export const suppressionOf = (address: string) => suppressionByHash(hashed(address));

/** Every suppressed address hash: one listing of the ledger (a page per 1,000 suppressions), nothing read. */
export async function suppressedHashes(): Promise<Set<string>> {
  const out = new Set<string>();
  for await (const page of kv('subscribers').keys(`${PREFIX}/`))
    for (const k of page) out.add(k.slice(PREFIX.length + 1));
  return out;
}

/** The suppressions of those of `hashes` the ledger holds: one listing, then one read per suppressed one. */
export async function suppressionsAmong(hashes: Iterable<string>): Promise<Map<string, Suppression>> {
  const listed = await suppressedHashes();
  const wanted = [...new Set(hashes)].filter((h) => listed.has(h));
  const found = await Promise.all(wanted.map(async (h) => [h, await suppressionByHash(h)] as const));
  return new Map(found.filter((e): e is readonly [string, Suppression] => e[1] !== null));
}
