import type { Delivery } from '../../schemas/rsvp.ts';
import { UNCHANGED, upsert } from '../storage/compare-and-set.ts';
import type { KV } from '../storage/kv.ts';

/*
 * Claiming a scheduled message on its record before sending it (docs/decisions/151-texting.md, "Idempotency
 * stays with the caller"): a delivery field goes null -> sending under compare-and-set, so of two overlapping,
 * retried or duplicated runs only one sends; a run killed mid-send leaves the claim ("sending") and the message is
 * never retried (better one missed than two sent). Shared by the RSVP reminders (src/lib/server/events/reminders.ts)
 * and the plan-to-vote reminders (src/lib/server/vote-plans/reminders.ts). A broadcast's messages are claimed by the
 * broadcast's own mechanism instead (src/lib/server/broadcasts/exactly-once.ts: a claim per recipient plus a
 * provider lookup, since a broadcast text carries a delivery key the provider knows; a reminder has none).
 */

/** A record with delivery fields, and how to read it back from the store. */
export interface DeliveryRecord<T, F extends string> {
  store: KV;
  key: string;
  parse: (raw: unknown) => T | null;
  field: F;
}

type WithDeliveries<F extends string> = Record<F, Delivery | null> & { updatedAt: string };

/** Claims a delivery (null -> sending) under CAS; the record as claimed, or null when taken or done. */
export async function claimDelivery<T extends WithDeliveries<F>, F extends string>(
  rec: DeliveryRecord<T, F>,
  at: string,
): Promise<T | null> {
  let claimed: T | null = null;
  await upsert<unknown>(rec.store, rec.key, (raw) => {
    claimed = null;
    const cur = raw ? rec.parse(raw) : null;
    if (!cur || cur[rec.field] !== null) return UNCHANGED;
    const next = { ...cur, [rec.field]: { status: 'sending', at, error: null }, updatedAt: at } as T;
    claimed = next;
    return next;
  });
  return claimed;
}

/** Records how a claimed delivery ended (a failure to record is logged: the send stands). */
export async function finishDelivery<T extends WithDeliveries<F>, F extends string>(
  rec: DeliveryRecord<T, F>,
  d: Delivery,
): Promise<void> {
  await upsert<unknown>(rec.store, rec.key, (raw) => {
    const cur = raw ? rec.parse(raw) : null;
    if (!cur) return UNCHANGED;
    return { ...cur, [rec.field]: d, updatedAt: d.at };
  }).catch((e: unknown) => console.error(`[deliveries] could not record ${rec.field}`, e));
}

/** Gives a claim back (sending -> null) so a later run can take it: only the claim made `at`. */
export async function releaseDelivery<T extends WithDeliveries<F>, F extends string>(
  rec: DeliveryRecord<T, F>,
  at: string,
): Promise<void> {
  await upsert<unknown>(rec.store, rec.key, (raw) => {
    const cur = raw ? rec.parse(raw) : null;
    const d = cur ? cur[rec.field] : null;
    if (!cur || d?.status !== 'sending' || d.at !== at) return UNCHANGED;
    return { ...cur, [rec.field]: null };
  }).catch((e: unknown) => console.error(`[deliveries] could not release ${rec.field}`, e));
}

/** A failure as recorded for staff (no provider body: the error's name and message, capped). */
export const deliveryFailure = (err: unknown) =>
  (err instanceof Error ? `${err.name}: ${err.message}` : 'failed').slice(0, 300);
