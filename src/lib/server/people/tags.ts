import { randomBytes } from 'node:crypto';
import { TagSchema } from '../../schemas/people-filter.ts';
import { HttpError } from '../errors.ts';
import { key } from '../storage/keys.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { lookupKey, normalEmail, normalPhone, personKey } from './keys.ts';
import type { Lookup } from './link.ts';
import { addTimeline, getPerson, MAX_EVENTS, notePerson, people, retries, type Person } from './person.ts';

/**
 * Staff tags and private notes on a person, and attendance (docs/decisions/149-people.md, "Tags, notes and
 * filters"). A tag is a short lowercase word kept on the person (and in the People summary index, so a filter reads
 * only the index). A note is staff-only text kept under `note/<person id>/<time>-<random>`, created once, never in a
 * summary index, an export or any public answer; returned as JSON text, never markup.
 */

export { TagSchema };
export const MAX_TAGS = 30;
export const NOTE_MAX = 4000;

export const noteKeyPrefix = (personId: string) => `${key('note', personId)}/`;

async function setPerson(id: string, change: (p: Person) => Person | null): Promise<Person> {
  const again = retries();
  for (let attempt = 0; await again(attempt); attempt++) {
    const cur = await getPerson(id);
    if (!cur) throw new HttpError(404, 'Person not found');
    const changed = change(cur.value);
    if (changed === null) return cur.value;
    const next = { ...changed, rev: cur.value.rev + 1 };
    if (await people().replace(personKey(id), next, cur.etag)) {
      await notePerson(next);
      return next;
    }
  }
  throw new HttpError(409, 'This person was changed by someone else. Reload and try again.');
}

/** Adds and removes tags; the tags after the change. */
export async function changeTags(
  id: string,
  add: readonly string[],
  remove: readonly string[],
  now = new Date(),
): Promise<string[]> {
  const p = await setPerson(id, (p) => {
    const before = p.tags ?? [];
    const tags = [...before.filter((t) => !remove.includes(t))];
    for (const t of add) if (!tags.includes(t) && !remove.includes(t)) tags.push(t);
    if (tags.length > MAX_TAGS) throw new HttpError(400, `A person has at most ${MAX_TAGS} tags`);
    if (tags.length === before.length && tags.every((t, i) => t === before[i])) return null;
    return { ...p, tags, updatedAt: now.toISOString() > p.updatedAt ? now.toISOString() : p.updatedAt };
  });
  return p.tags ?? [];
}

export interface Note {
  id: string;
  at: string;
  /** The staff member's username. */
  by: string;
  text: string;
}

export async function addNote(personId: string, text: string, by: string, now = new Date()): Promise<Note> {
  if (!(await getPerson(personId))) throw new HttpError(404, 'Person not found');
  const at = now.toISOString();
  const id = `${noteKeyPrefix(personId)}${at}-${randomBytes(6).toString('hex')}`;
  const note = { at, by, text };
  await people().create(id, note);
  return { id: id.slice(id.lastIndexOf('/') + 1), ...note };
}

/** A person's notes, newest first (a listing and a read per note). */
export async function notesOf(personId: string): Promise<Note[]> {
  const keys: string[] = [];
  for await (const page of people().keys(noteKeyPrefix(personId))) keys.push(...page);
  keys.sort().reverse();
  const read = await mapLimit(keys, 16, async (k) => {
    const r = await people().get<Omit<Note, 'id'>>(k);
    return r ? { id: k.slice(k.lastIndexOf('/') + 1), ...r.value } : null;
  });
  return read.filter((n) => n !== null);
}

/**
 * A check-in (or its undo) at an event, on the person the RSVP's email (or phone) leads to: the "attended" filter
 * and a timeline entry. A fixed number of calls: a lookup, the person, its compare-and-set, the timeline, the
 * segment. Never throws (the check-in is stored: a failure is logged).
 */
export async function noteAttendance(
  rsvp: { email?: string | null; phone?: string | null },
  eventId: number,
  checkedInAt: string | null,
  now = new Date(),
): Promise<void> {
  try {
    const e = normalEmail(rsvp.email);
    const ph = normalPhone(rsvp.phone);
    const found = e
      ? await people().get<Lookup>(lookupKey('email', e))
      : ph
        ? await people().get<Lookup>(lookupKey('phone', ph))
        : null;
    let id = found?.value.id;
    if (!id) return;
    const cur = await getPerson(id);
    if (cur?.value.mergedInto) id = cur.value.mergedInto;
    await setPerson(id, (p) => {
      const had = p.attended ?? [];
      const attended = checkedInAt
        ? had.includes(eventId)
          ? had
          : [...had, eventId].slice(-MAX_EVENTS)
        : had.filter((x) => x !== eventId);
      return attended === had ? null : { ...p, attended };
    });
    await addTimeline(id, {
      at: checkedInAt ?? now.toISOString(),
      source: 'rsvp',
      store: null,
      key: null,
      detail: { eventId, checkIn: checkedInAt ? 'in' : 'out' },
    });
  } catch (err) {
    console.error('[people] could not note a check-in', err);
  }
}
