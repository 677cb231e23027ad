import type { Lang } from '../../lang.ts';
import type { StoreName } from '../storage/kv.ts';
import { ConflictError, BUSY_MESSAGE } from '../storage/compare-and-set.ts';
import {
  bridgeOf,
  lookupKey,
  nameKey,
  normalEmail,
  normalPhone,
  personKey,
  queueKey,
  type AddressKind,
} from './keys.ts';
import {
  addTimeline,
  MAX_EVENTS,
  MAX_VALUES,
  newPersonId,
  notePerson,
  people,
  retries,
  type Person,
  type Source,
} from './person.ts';

/**
 * Links a stored form record to its person (docs/decisions/149-people.md, "Matching rules"), in a fixed number of
 * store calls whatever the store holds: the two lookups (in parallel), at most one person read, one person write
 * (create, or compare-and-set), the lookups it claims (onlyIfNew), one timeline entry, one summary segment, and for
 * an ambiguous match one queue entry. A lost race re-reads and applies again.
 */

export interface LinkInput {
  source: Exclude<Source, 'consent' | 'donation'>;
  /** The form record (already stored). */
  store: StoreName;
  key: string;
  email?: string | null;
  phone?: string | null;
  name?: string | null;
  zip?: string | null;
  city?: string | null;
  lang?: Lang | null;
  /** The record's time. */
  at: Date;
  detail?: Record<string, string | number | null>;
  /** An import (a CSV) may not bring back a forgotten address; a person's own form may (a new person). */
  origin?: 'form' | 'import';
}

export interface Lookup {
  id?: string;
  /** "Forget me" left only this: the keyed hash in the key, the time here. */
  forgottenAt?: string;
}

export type LinkOutcome =
  | { outcome: 'created' | 'linked'; personId: string }
  | { outcome: 'queued'; personId: string; queuedWith: string }
  | { outcome: 'refused'; reason: 'forgotten' | 'no_address' };

const capped = <T>(list: T[], add: T | null): T[] =>
  add === null || list.includes(add) || list.length >= MAX_VALUES ? list : [...list, add];

/** The event an RSVP is for (the "RSVP'd to event X" filter). */
const eventOf = (input: LinkInput): number | null =>
  input.source === 'rsvp' && typeof input.detail?.eventId === 'number' ? input.detail.eventId : null;

const withEvent = (list: number[], e: number | null): number[] =>
  e === null || list.includes(e) ? list : [...list, e].slice(-MAX_EVENTS);

interface Normal {
  email: string | null;
  phone: string | null;
  name: string | null;
}

function freshPerson(id: string, n: Normal, input: LinkInput, at: string): Person {
  return {
    id,
    names: n.name ? [n.name] : [],
    emails: n.email ? [n.email] : [],
    phones: n.phone ? [n.phone] : [],
    zip: input.zip || null,
    city: input.city || null,
    lang: input.lang ?? null,
    sources: [input.source],
    events: eventOf(input) === null ? [] : [eventOf(input)!],
    own: {},
    consent: {},
    mergedInto: null,
    merged: [],
    createdAt: at,
    updatedAt: at,
    rev: 1,
  };
}

function joined(p: Person, n: Normal, input: LinkInput, at: string): Person {
  return {
    ...p,
    names: capped(p.names, n.name),
    emails: capped(p.emails, n.email),
    phones: capped(p.phones, n.phone),
    zip: p.zip ?? (input.zip || null),
    city: p.city ?? (input.city || null),
    lang: p.lang ?? input.lang ?? null,
    sources: capped(p.sources, input.source),
    events: withEvent(p.events ?? [], eventOf(input)),
    updatedAt: at > p.updatedAt ? at : p.updatedAt,
    rev: p.rev + 1,
  };
}

/**
 * Ambiguous: the address that matched leads to a person whose other address differs from the record's AND whose
 * name differs too (same email, different phone and name; or same phone, different email and name).
 */
export function ambiguous(p: Person, via: AddressKind, n: Normal): boolean {
  const other = via === 'email' ? n.phone : n.email;
  const theirs = via === 'email' ? p.phones : p.emails;
  if (!other || theirs.length === 0 || theirs.includes(other)) return false;
  if (!n.name || p.names.length === 0) return true;
  return !p.names.some((x) => nameKey(x) === nameKey(n.name));
}

/** Claims lookups for a person (onlyIfNew); false for any one another person already holds. */
async function claim(id: string, n: Normal, kinds: AddressKind[]): Promise<boolean[]> {
  return Promise.all(
    kinds.map(async (kind) => {
      const ok = await people().create(lookupKey(kind, kind === 'email' ? n.email! : n.phone!), { id });
      // The bridge from the email lists' sha256 keys (suppressions, the unsubscribe link) to the person.
      if (ok && kind === 'email') await people().put(bridgeOf(n.email!), { id });
      return ok;
    }),
  );
}

async function readLookup(kind: AddressKind, value: string | null) {
  return value ? people().get<Lookup>(lookupKey(kind, value)) : null;
}

/** Links one stored form record to its person; never throws (the record is stored: a failure is logged). */
export async function linkPerson(input: LinkInput): Promise<LinkOutcome | null> {
  try {
    return await link(input);
  } catch (err) {
    console.error(`[people] could not link a ${input.source} record`, err);
    return null;
  }
}

export async function link(input: LinkInput): Promise<LinkOutcome> {
  const n: Normal = {
    email: normalEmail(input.email),
    phone: normalPhone(input.phone),
    name: input.name?.trim() ? input.name.trim().slice(0, 200) : null,
  };
  if (!n.email && !n.phone) return { outcome: 'refused', reason: 'no_address' };
  const at = input.at.toISOString();
  const entry = {
    at,
    source: input.source,
    store: input.store,
    key: input.key,
    detail: input.detail ?? {},
  };
  const again = retries();
  for (let attempt = 0; await again(attempt); attempt++) {
    const [le, lp] = await Promise.all([readLookup('email', n.email), readLookup('phone', n.phone)]);
    if (input.origin === 'import' && (le?.value.forgottenAt || lp?.value.forgottenAt))
      return { outcome: 'refused', reason: 'forgotten' };
    const byEmail = le?.value.id ?? null;
    const byPhone = lp?.value.id ?? null;
    // A tombstone is replaced (compare-and-set) by the person's next sign-up: a new person, fresh consent.
    const free: AddressKind[] = [];
    if (n.email && !byEmail) free.push('email');
    if (n.phone && !byPhone) free.push('phone');

    if (!byEmail && !byPhone) {
      const id = newPersonId();
      const p = freshPerson(id, n, input, at);
      if (!(await people().create(personKey(id), p))) continue;
      // The email is claimed first, by every writer: until it is, no lookup leads to this person, so a writer
      // that loses it deletes a person nobody can have seen and matches again (the winner's person decides).
      const [first, second] = free;
      const reads = { email: le, phone: lp };
      if (!(await claimOrReplace(id, n, [first!], reads))[0]) {
        await people().delete(personKey(id));
        continue;
      }
      if (second && !(await claimOrReplace(id, n, [second], reads))[0]) {
        // The phone went to someone else meanwhile (their email differs): two people, never merged silently.
        const holder = (await people().get<Lookup>(lookupKey('phone', n.phone!)))?.value.id;
        const other = holder === id ? undefined : holder;
        if (other)
          await people().create(queueKey(other, id), {
            a: other,
            b: id,
            at,
            reason: 'email_and_phone_of_two_people',
          });
        await addTimeline(id, entry);
        await notePerson(p);
        return other
          ? { outcome: 'queued', personId: id, queuedWith: other }
          : { outcome: 'created', personId: id };
      }
      await addTimeline(id, entry);
      await notePerson(p);
      return { outcome: 'created', personId: id };
    }

    const via: AddressKind = byEmail ? 'email' : 'phone';
    const targetId = (byEmail ?? byPhone)!;
    const cur = await people().get<Person>(personKey(targetId));
    if (!cur) continue; // forgotten or merged away meanwhile: read the lookups again
    const twoPeople = byEmail !== null && byPhone !== null && byEmail !== byPhone;
    if (twoPeople || ambiguous(cur.value, via, n)) {
      // Never merged silently: a person of its own (claiming only what nobody holds), and the pair queued.
      const id = newPersonId();
      const p = freshPerson(id, n, input, at);
      if (!(await people().create(personKey(id), p))) continue;
      await claimOrReplace(id, n, free, { email: le, phone: lp });
      await people().create(queueKey(targetId, id), {
        a: targetId,
        b: id,
        at,
        reason: twoPeople ? 'email_and_phone_of_two_people' : `same_${via}_different_details`,
      });
      await addTimeline(id, entry);
      await notePerson(p);
      return { outcome: 'queued', personId: id, queuedWith: targetId };
    }
    const next = joined(cur.value, n, input, at);
    if (!(await people().replace(personKey(targetId), next, cur.etag))) continue;
    if (free.length) await claimOrReplace(targetId, n, free, { email: le, phone: lp });
    await addTimeline(targetId, entry);
    await notePerson(next);
    return { outcome: 'linked', personId: targetId };
  }
  throw new ConflictError(BUSY_MESSAGE, true);
}

/** Claims free lookups: created when new, or a tombstone replaced (compare-and-set) by a new person's. */
async function claimOrReplace(
  id: string,
  n: Normal,
  kinds: AddressKind[],
  read: Record<AddressKind, { value: Lookup; etag: string } | null>,
): Promise<boolean[]> {
  const fresh = kinds.filter((k) => !read[k]);
  const tombs = kinds.filter((k) => read[k]);
  const created = await claim(id, n, fresh);
  const replaced = await Promise.all(
    tombs.map(async (kind) => {
      const value = kind === 'email' ? n.email! : n.phone!;
      const ok = await people().replace(
        lookupKey(kind, value),
        { id, forgottenAt: read[kind]!.value.forgottenAt },
        read[kind]!.etag,
      );
      if (ok && kind === 'email') await people().put(bridgeOf(value), { id });
      return ok !== null;
    }),
  );
  return kinds.map((k) => (fresh.includes(k) ? created[fresh.indexOf(k)]! : replaced[tombs.indexOf(k)]!));
}
