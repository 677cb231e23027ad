import { createHash, randomBytes } from 'node:crypto';
import type { Lang } from '../../lang.ts';
import { PERSON_SOURCES } from '../../schemas/people-filter.ts';
import { appendSummary } from '../storage/summary-index/segments.ts';
import { type KV, type StoreName } from '../storage/kv.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { kv } from '../storage/stores.ts';
import { budgets } from '../time-budgets.ts';
import { personKey, timelinePrefix } from './keys.ts';

/**
 * A person and their timeline (docs/decisions/149-people.md). The person is one compare-and-set record; the
 * timeline is one created key per event, never rewritten; the People list is a summary index of the persons.
 */

export const people = (): KV => kv('people');

export const CHANNELS = ['email', 'text'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface ChannelState {
  state: 'granted' | 'revoked';
  at: string;
  via: string;
}
export type ConsentStates = Partial<Record<Channel, ChannelState>>;

/** Where a timeline entry comes from: each form, a consent change, a donation. */
export const SOURCES = PERSON_SOURCES;
export type Source = (typeof SOURCES)[number];

/** At most this many names, emails and phones on one person (a flood adds no more). */
export const MAX_VALUES = 10;

export interface Person {
  id: string;
  names: string[];
  emails: string[];
  phones: string[];
  zip: string | null;
  city: string | null;
  lang: Lang | null;
  sources: Source[];
  /** The consent this person's own addresses recorded. */
  own: ConsentStates;
  /** What every sending path reads: the latest of `own` and of the people merged into this one. */
  consent: ConsentStates;
  mergedInto: string | null;
  merged: string[];
  createdAt: string;
  updatedAt: string;
  /** Moves on with every write: the summary index's version stamp. */
  rev: number;
  /** Staff tags (tags.ts); absent on records written before tags. */
  tags?: string[];
  /** The events this person RSVP'd to, and those they were checked in at (ids; absent before filters). */
  events?: number[];
  attended?: number[];
}

/** At most this many events kept on a person for the filters (the timeline keeps every one). */
export const MAX_EVENTS = 200;

export interface TimelineEntry {
  at: string;
  source: Source;
  /** The form record this entry links to (absent for a consent change without a record). */
  store: StoreName | null;
  key: string | null;
  /** Non-contact details: the event, the round, the channel and action, the consent wording, the refcode. */
  detail: Record<string, string | number | null>;
}

export const newPersonId = () => randomBytes(16).toString('hex');

/**
 * Compare-and-set rounds: a lost round waits a jittered, growing moment and tries again, within the store's CAS
 * budget (casRetryMs), so a rush on one person lets every writer through; false once the budget is spent.
 */
export function retries(): (round: number) => Promise<boolean> {
  const deadline = Date.now() + budgets().casRetryMs;
  return async (round) => {
    if (round === 0) return true;
    const ms = Math.min(150, 5 * 2 ** round) * (0.5 + Math.random());
    if (Date.now() + ms > deadline) return false;
    await new Promise((r) => setTimeout(r, ms));
    return true;
  };
}

export async function getPerson(id: string): Promise<{ value: Person; etag: string } | null> {
  return people().get<Person>(personKey(id));
}

/** The latest state of a channel among several. */
export function latest(...states: (ChannelState | undefined)[]): ChannelState | undefined {
  let out: ChannelState | undefined;
  for (const s of states) if (s && (!out || s.at >= out.at)) out = s;
  return out;
}

/** A person's effective consent: its own and that of each person merged into it. */
export function effective(own: ConsentStates, mergedOwn: ConsentStates[]): ConsentStates {
  const out: ConsentStates = {};
  for (const c of ['email', 'text'] as const) {
    const s = latest(own[c], ...mergedOwn.map((m) => m[c]));
    if (s) out[c] = s;
  }
  return out;
}

// ---------------------------------------------------------------------------
// Timeline

/**
 * Appends one entry: `timeline/<id>/<at>-<digest>`, the digest of what it links to (or of its details), created
 * onlyIfNew, so the same record linked twice (a retry, a replay) is one entry.
 */
export async function addTimeline(personId: string, entry: TimelineEntry): Promise<string> {
  const digest = createHash('sha256')
    .update(JSON.stringify([entry.source, entry.store, entry.key, entry.key ? null : entry.detail]))
    .digest('hex')
    .slice(0, 16);
  const k = `${timelinePrefix(personId)}${entry.at}-${digest}`;
  await people().create(k, entry);
  return k;
}

/** Every entry of one person's own timeline, oldest first (a listing and a read per entry). */
export async function ownTimeline(personId: string): Promise<(TimelineEntry & { id: string })[]> {
  const keys: string[] = [];
  for await (const page of people().keys(timelinePrefix(personId))) keys.push(...page);
  keys.sort();
  const read = await mapLimit(keys, 16, async (k) => {
    const r = await people().get<TimelineEntry>(k);
    return r ? { ...r.value, id: k } : null;
  });
  return read.filter((e) => e !== null);
}

/** A person's timeline: their own entries and those of the people merged into them, oldest first. */
export async function timelineOf(p: Person): Promise<(TimelineEntry & { id: string; personId: string })[]> {
  const parts = await Promise.all(
    [p.id, ...p.merged].map(async (id) => (await ownTimeline(id)).map((e) => ({ ...e, personId: id }))),
  );
  return parts
    .flat()
    .sort((a, b) => (a.id.slice(a.id.lastIndexOf('/')) < b.id.slice(b.id.lastIndexOf('/')) ? -1 : 1));
}

// ---------------------------------------------------------------------------
// The People list's summary index (docs/decisions/155-inbox-and-staff-lists.md)

export interface PersonSummary {
  id: string;
  key: string;
  name: string;
  emails: string;
  phones: string;
  zip: string;
  city: string;
  lang: string;
  sources: string;
  emailState: string;
  textState: string;
  mergedInto: string;
  createdAt: string;
  updatedAt: string;
  rev: string;
  /** Space-separated: staff tags, RSVP'd event ids, attended event ids (the filters' columns). */
  tags: string;
  events: string;
  attended: string;
}

/** 2: tags, events and attended added (the filters, docs/decisions/149-people.md). */
export const PEOPLE_INDEX_VERSION = 2;

export function summarizePerson(p: Person): PersonSummary {
  return {
    id: p.id,
    key: personKey(p.id),
    name: p.names[0] ?? '',
    emails: p.emails.join(' '),
    phones: p.phones.join(' '),
    zip: p.zip ?? '',
    city: p.city ?? '',
    lang: p.lang ?? '',
    sources: p.sources.join(' '),
    emailState: p.consent.email?.state ?? '',
    textState: p.consent.text?.state ?? '',
    mergedInto: p.mergedInto ?? '',
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    rev: String(p.rev).padStart(12, '0'),
    tags: (p.tags ?? []).join(' '),
    events: (p.events ?? []).join(' '),
    attended: (p.attended ?? []).join(' '),
  };
}

/** One segment per person write (created, never contended). */
export function notePerson(p: Person): Promise<void> {
  return appendSummary('people', PEOPLE_INDEX_VERSION, summarizePerson(p), new Date());
}
