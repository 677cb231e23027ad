import type { RosterEntry } from '../../schemas/rsvp.ts';

/**
 * Seat allocation for one event's roster, pure (the I/O is in rsvp.ts). The
 * entries are in arrival order: the order their compare-and-set writes
 * committed. A party (a person and their guests) takes 1 + guests seats and
 * is never split.
 *
 * Promotion policy: waitlisted parties are taken in order, and a party that
 * does not fit the free seats keeps its place while a later, smaller one that
 * fits goes ahead (docs/decisions/037-rsvp.md), so no seat stays empty while
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
