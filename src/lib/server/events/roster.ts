import { RSVP_MESSAGES, type RosterEntry, type RosterPerson, type RsvpResult } from '../../schemas/rsvp.ts';

/**
 * Seat allocation for one event's roster, pure (the I/O is in rsvp.ts). The
 * entries are in arrival order: the order the folds took their ops in
 * (foldOps below; docs/decisions/153-storage.md). A party
 * (a person and their guests) takes 1 + guests seats and is never split.
 *
 * Promotion policy: waitlisted parties are taken in order, and a party that
 * does not fit the free seats keeps its place while a later, smaller one that
 * fits goes ahead (docs/decisions/150-rsvp.md), so no seat stays empty while
 * someone on the waitlist fits it.
 */

/** Seats held by going parties. */
export function seatsTaken(entries: readonly RosterEntry[]): number {
  return entries.reduce((n, e) => (e.status === 'going' ? n + e.seats : n), 0);
}

const fits = (entries: readonly RosterEntry[], seats: number, capacity: number | null) =>
  capacity === null || seatsTaken(entries) + seats <= capacity;

/** Moves waitlisted parties that fit to going (mutates); returns their ids in promotion order. */
export function promote(entries: RosterEntry[], capacity: number | null, at: string): string[] {
  const promoted: string[] = [];
  for (const e of entries) {
    if (e.status !== 'waitlisted' || !fits(entries, e.seats, capacity)) continue;
    e.status = 'going';
    e.promotedAt = at;
    promoted.push(e.id);
  }
  return promoted;
}

/**
 * Adds a party at the end of the roster (mutates): going if it fits once the
 * waitlist has been served, else waitlisted. Returns its status and any
 * parties promoted first (after the capacity was raised).
 */
export function place(
  entries: RosterEntry[],
  party: { id: string; seats: number; at: string },
  capacity: number | null,
): { status: 'going' | 'waitlisted'; promoted: string[] } {
  const promoted = promote(entries, capacity, party.at);
  const status = fits(entries, party.seats, capacity) ? 'going' : 'waitlisted';
  entries.push({ ...party, status, promotedAt: null, cancelledAt: null });
  return { status, promoted };
}

/** 1-based place on the waitlist, or null when not waitlisted. */
export function waitlistPosition(entries: readonly RosterEntry[], id: string): number | null {
  const waiting = entries.filter((e) => e.status === 'waitlisted');
  const i = waiting.findIndex((e) => e.id === id);
  return i < 0 ? null : i + 1;
}

export function counts(entries: readonly RosterEntry[]) {
  return {
    goingSeats: seatsTaken(entries),
    goingPeople: entries.filter((e) => e.status === 'going').length,
    waitlistedPeople: entries.filter((e) => e.status === 'waitlisted').length,
  };
}

export function answer(status: 'going' | 'waitlisted', position: number | null): RsvpResult {
  return { status, message: status === 'going' ? RSVP_MESSAGES.going : RSVP_MESSAGES.waitlisted, position };
}

/**
 * What a new RSVP of this size would be answered against these entries, as
 * if it came from an address not on the list (pure: works on a copy, the
 * person's own place stays where it is). A repeat is answered this, so the
 * answer does not say whether the email was already on the list
 * (docs/decisions/150-rsvp.md).
 */
export function answerAsNew(
  entries: readonly RosterEntry[],
  party: { seats: number; at: string },
  capacity: number | null,
): RsvpResult {
  const copy = entries.map((e) => ({ ...e }));
  const id = 'someone-new';
  const { status } = place(copy, { ...party, id }, capacity);
  return answer(status, waitlistPosition(copy, id));
}

/** A change to a roster, as an RSVP or a cancellation records it (docs/decisions/153-storage.md). */
export type RosterOp =
  | { kind: 'rsvp'; id: string; seats: number; at: string; person: RosterPerson }
  | { kind: 'cancel'; id: string; at: string };

/** What the fold answered an op. */
export type RosterOpResult =
  /** Placed by this op: its status and waitlist place once the whole fold is done. */
  | { kind: 'placed'; status: 'going' | 'waitlisted'; position: number | null }
  /** The email already held a place: the answer a new RSVP would get, and the person's real status. */
  | { kind: 'repeat'; answer: RsvpResult; status: 'going' | 'waitlisted'; position: number | null }
  | { kind: 'cancelled'; already: boolean };

/**
 * Applies ops to a roster in order (pure; mutates `entries`): the seat rule above, one op after the
 * other, exactly as if each had been its own compare-and-set. Idempotent: an op already in the roster
 * (a fold that stopped before writing its results) is answered from it. Returns each op's result, and
 * the people moved from the waitlist to going who did not ask in this fold (they are emailed).
 */
export function foldOps(
  entries: RosterEntry[],
  ops: readonly { key: string; op: RosterOp }[],
  capacity: number | null,
): { results: Map<string, RosterOpResult>; promoted: string[]; changed: boolean } {
  const results = new Map<string, RosterOpResult>();
  const promoted = new Set<string>();
  const placed = new Map<string, string>();
  let changed = false;
  const entryOf = (id: string) => entries.find((e) => e.id === id);
  for (const { key, op } of ops) {
    const cur = entryOf(op.id);
    if (op.kind === 'cancel') {
      if (cur && cur.status !== 'cancelled') {
        cur.status = 'cancelled';
        cur.cancelledAt = op.at;
        promoted.delete(op.id);
        for (const id of promote(entries, capacity, op.at)) promoted.add(id);
        changed = true;
      }
      // Cancelled by this very op (now, or by a fold that stopped before answering) is not "already".
      results.set(key, { kind: 'cancelled', already: cur?.cancelledAt !== op.at });
      continue;
    }
    if (cur?.at === op.at) {
      placed.set(key, op.id);
      continue;
    }
    if (cur && cur.status !== 'cancelled') {
      const status = cur.status;
      results.set(key, {
        kind: 'repeat',
        answer: answerAsNew(entries, op, capacity),
        status,
        position: waitlistPosition(entries, op.id),
      });
      continue;
    }
    // New, or back after a cancellation: a new place at the end of the line.
    if (cur) entries.splice(entries.indexOf(cur), 1);
    const { promoted: moved } = place(entries, { id: op.id, seats: op.seats, at: op.at }, capacity);
    entryOf(op.id)!.person = op.person;
    for (const id of moved) promoted.add(id);
    placed.set(key, op.id);
    changed = true;
  }
  // Placed ops are answered with where the whole fold left them.
  for (const [key, id] of placed) {
    const e = entryOf(id)!;
    promoted.delete(id);
    const status = e.status === 'cancelled' ? 'waitlisted' : e.status;
    results.set(key, { kind: 'placed', status, position: waitlistPosition(entries, id) });
  }
  return { results, promoted: [...promoted].filter((id) => entryOf(id)?.status === 'going'), changed };
}
