import type { Outcome, StoredBroadcast } from '../../schemas/broadcasts.ts';
import { bstore, deliveryKey } from './repo.ts';

/*
 * A broadcast's exactly-once claim (docs/decisions/152-broadcasts.md, "Exactly once"): the one
 * mechanism by which a message of a broadcast goes out once, whatever runs overlap, retry or die.
 *
 * 1. Before anything is sent, the delivery is claimed: `delivery/<broadcast>/<recipient>` in the broadcasts
 *    store, created if new (`claimDelivery`). A claim of another position (another chunk or generation) is a
 *    duplicate recipient; a finished claim answers for itself.
 * 2. A claim left `claimed` by a worker that stopped before recording the result is a message whose fate is
 *    unknown. Within a lease's time its worker may still be sending, so it waits; after that it is resumed
 *    (`resumeSince`): for a text the guard asks the provider (src/lib/server/adapters/sms.ts findSentSms, by the
 *    delivery key: Twilio's message list, the outbox locally) and sends only if it did not take it. An email left
 *    so is not sent again (at most once: SendGrid has no lookup; its Event Webhook reports it if it went).
 * 3. The result is recorded on the claim (`finishDelivery`); a text refused for quiet hours gives the claim back
 *    (`releaseDelivery`) so the chunk waits for its window.
 * An unreachable provider (SmsUnreachableError) keeps the claim: the next attempt asks the provider first.
 *
 * The reminders (RSVP and plan-to-vote) keep a claim on their own record instead
 * (src/lib/server/messaging/delivery-claims.ts): one message per record field, at most once, with no provider
 * lookup, since a reminder has no delivery key the provider knows.
 */

export interface DeliveryClaim {
  gen: number;
  chunk: string;
  i: number;
  /** When the claim was made (a resumed claim keeps the first time, which bounds the provider lookup). */
  at: number;
  state: 'claimed' | 'done';
  outcome?: Outcome;
  id?: string;
}

/** What claiming a delivery found. */
export type ClaimAnswer =
  /** Claimed now: send. `resumeSince`: a stopped worker's claim, taken over; ask the provider first. */
  | { claimed: DeliveryClaim; resumeSince?: Date }
  /** Already finished (by this position): its recorded result stands. */
  | { done: { outcome: Outcome; id?: string } }
  /** Another position holds this recipient: a duplicate. */
  | 'duplicate'
  /** Held by a worker that may still be sending, or unreadable now: try again later. */
  | 'busy';

/** Claims the delivery of recipient `k` at position (chunk, i) of broadcast `b`'s current run. */
export async function claimDelivery(
  b: Pick<StoredBroadcast, 'id' | 'run'>,
  k: string,
  chunk: string,
  i: number,
  now: number,
  leaseMs: number,
): Promise<ClaimAnswer> {
  const dk = deliveryKey(b.id, k);
  const claim: DeliveryClaim = { gen: b.run.gen, chunk, i, at: now, state: 'claimed' };
  if (await bstore().create(dk, claim)) return { claimed: claim };
  const cur = (await bstore().get<DeliveryClaim>(dk))?.value;
  if (!cur) return 'busy';
  if (cur.gen !== claim.gen || cur.chunk !== chunk || cur.i !== i) return 'duplicate';
  if (cur.state === 'done')
    return { done: { outcome: cur.outcome ?? 'sent', ...(cur.id ? { id: cur.id } : {}) } };
  // Claimed within a lease's time: its worker may still be sending. Only an abandoned claim is resumed.
  if (now - cur.at < leaseMs) return 'busy';
  return { claimed: { ...claim, at: cur.at }, resumeSince: new Date(cur.at) };
}

/** Records how a claimed delivery ended. */
export async function finishDelivery(
  broadcastId: number,
  k: string,
  claim: DeliveryClaim,
  result: { outcome: Outcome; id?: string },
): Promise<void> {
  await bstore().put(deliveryKey(broadcastId, k), {
    ...claim,
    state: 'done',
    outcome: result.outcome,
    ...(result.id ? { id: result.id } : {}),
  } satisfies DeliveryClaim);
}

/** Gives a claim back (nothing was sent), so a later run delivers it. */
export async function releaseDelivery(broadcastId: number, k: string): Promise<void> {
  await bstore().delete(deliveryKey(broadcastId, k));
}
