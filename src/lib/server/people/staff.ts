import { userMay } from '../auth/session.ts';
import type { StoredUser } from '../auth/users.ts';
import type { SummarySpec } from '../storage/summary-index/spec.ts';
import { readIndex } from '../storage/summary-index/view.ts';
import { compact, type CompactionRun } from '../storage/summary-index/compaction.ts';
import { campaignToday } from '../../campaign-time.ts';
import { HttpError } from '../errors.ts';
import { rowsFrom, type ExportSource } from '../export-source.ts';
import type { ShiftAttendanceCounts } from '../../schemas/shifts.ts';
import type { PeoplePage, PersonRow } from '../../schemas/people-views.ts';
import { filterTest, type PeopleFilter } from './filters.ts';
import { notesOf, type Note } from './tags.ts';
import {
  getPerson,
  PEOPLE_INDEX_VERSION,
  summarizePerson,
  timelineOf,
  type Person,
  type PersonSummary,
  type TimelineEntry,
} from './person.ts';

/**
 * What staff see of people (docs/decisions/149-people.md): the list and search from the People summary index (a
 * bounded number of blobs whatever the store holds: docs/decisions/155-inbox-and-staff-lists.md), a person with their
 * timeline. Editors and admins see contact details; viewers see names, places and states, never an email, a phone or
 * what a form said.
 */

export const PEOPLE_SPEC: SummarySpec<PersonSummary> = {
  name: 'People',
  store: 'people',
  recordPrefix: 'person/',
  version: PEOPLE_INDEX_VERSION,
  fields: [
    'key',
    'name',
    'emails',
    'phones',
    'zip',
    'city',
    'lang',
    'sources',
    'emailState',
    'textState',
    'mergedInto',
    'createdAt',
    'updatedAt',
    'rev',
    'tags',
    'events',
    'attended',
  ],
  idOf: (k) => k.slice('person/'.length),
  fromRecord: (raw) => {
    const p = raw as Person;
    return p && typeof p.id === 'string' && Array.isArray(p.emails) ? summarizePerson(p) : null;
  },
  at: (s) => s.createdAt,
  v: (s) => s.rev,
  listed: (s) => s.mergedInto === '',
  searched: (s) => [s.name, s.emails, s.phones, s.city, s.zip].join(' '),
  columns: ['lang', 'sources', 'emailState', 'textState', 'zip', 'city', 'tags', 'events', 'attended'],
};

/**
 * The scheduled compaction of the People index (netlify/functions/summary-compaction.mts, every minute): folds the
 * segments people writes left and keeps the bundle of every chunk current, so a search or a filter reads one blob.
 */
export const compactPeople = (deadline: number): Promise<CompactionRun> => compact(PEOPLE_SPEC, { deadline });

/** Contact details are for editors and admins. */
export const seesContacts = (user: StoredUser) => userMay(user, 'edit_content');

function row(s: PersonSummary, contacts: boolean): PersonRow {
  return {
    id: s.id,
    name: s.name,
    emails: contacts ? s.emails.split(' ').filter(Boolean) : null,
    phones: contacts ? s.phones.split(' ').filter(Boolean) : null,
    zip: s.zip,
    city: s.city,
    lang: s.lang,
    sources: s.sources.split(' ').filter(Boolean),
    emailState: s.emailState,
    textState: s.textState,
    createdAt: s.createdAt,
    tags: s.tags.split(' ').filter(Boolean),
  };
}

export const PAGE_SIZE = 50;

/**
 * A page of people, newest first, optionally searched (name, email, phone, city, ZIP) and filtered (filters.ts:
 * source, tag, language, ZIP, consent per channel, has / has not). Reads the index only, never a person.
 */
export async function peoplePage(
  user: StoredUser,
  q: PeopleFilter & { search?: string; page?: number },
): Promise<PeoplePage> {
  const contacts = seesContacts(user);
  const page = q.page ?? 1;
  const needle = (q.search ?? q.q)?.trim().toLowerCase() ?? '';
  // A viewer may not find a person by an address they cannot see.
  if (needle && !contacts && (needle.includes('@') || needle.replace(/\D/g, '').length >= 7))
    throw new HttpError(403, 'Viewers can search by name, city or ZIP only');
  const test = filterTest(q);
  return readIndex(PEOPLE_SPEC, async (view) => {
    const offset = (page - 1) * PAGE_SIZE;
    if (!needle && !test) {
      const rows = await view.page(offset, PAGE_SIZE);
      return { items: rows.map((s) => row(s, contacts)), total: view.total, page, pageSize: PAGE_SIZE };
    }
    const found = await view.select({ needle, test });
    return {
      items: found.slice(offset, PAGE_SIZE).map((s) => row(s, contacts)),
      total: found.total,
      page,
      pageSize: PAGE_SIZE,
    };
  });
}

/** Every person a filter selects, newest first (exports and audiences: the index only). */
export async function selectPeople(f: PeopleFilter): Promise<PersonSummary[]> {
  const needle = f.q?.trim().toLowerCase() ?? '';
  return readIndex(
    PEOPLE_SPEC,
    async (view) => {
      const found = await view.select({ needle, test: filterTest(f) });
      return found.slice(0, found.total);
    },
    { readOnly: true },
  );
}

export interface PersonView {
  person: PersonRow & {
    names: string[];
    mergedInto: string | null;
    merged: string[];
    /** RSVP'd and attended event ids. */
    events: number[];
    attended: number[];
    /** Their shifts: signed up, confirmed, attended, no-show, and the "call, don't text" flag. */
    shifts: ShiftAttendanceCounts;
  };
  /** Private notes, newest first: editors and admins only (null for viewers). Plain text, never markup. */
  notes: Note[] | null;
  timeline: (Omit<TimelineEntry, 'key' | 'store'> & { personId: string; link: string | null })[];
}

/**
 * A person and their timeline (their own and that of the people merged into them). Their shifts come from
 * `shiftsOf` (events/shift-attendance.ts `attendanceForEmails`, given by the handler: people/ sits below events/,
 * docs/decisions/153-storage.md).
 */
export async function personView(
  user: StoredUser,
  id: string,
  shiftsOf: (emails: string[]) => Promise<ShiftAttendanceCounts>,
): Promise<PersonView> {
  if (!/^[a-f0-9]{32}$/.test(id)) throw new HttpError(404, 'Person not found');
  const r = await getPerson(id);
  if (!r) throw new HttpError(404, 'Person not found');
  const p = r.value;
  const contacts = seesContacts(user);
  const [timeline, notes, shifts] = await Promise.all([
    timelineOf(p),
    contacts ? notesOf(p.id) : null,
    shiftsOf(p.emails),
  ]);
  return {
    person: {
      ...row(summarizePerson(p), contacts),
      names: p.names,
      mergedInto: p.mergedInto,
      merged: p.merged,
      events: p.events ?? [],
      attended: p.attended ?? [],
      shifts,
    },
    notes,
    timeline: timeline.map((e) => ({
      at: e.at,
      source: e.source,
      personId: e.personId,
      detail: contacts ? e.detail : { ...e.detail, wording: null, ref: null },
      link: contacts && e.store && e.key ? `${e.store}:${e.key}` : null,
    })),
  };
}

/** The People CSV's columns: consent per channel in its own column ('granted', 'revoked' or 'none'). */
export const PEOPLE_EXPORT_COLUMNS = [
  'id',
  'name',
  'emails',
  'phones',
  'zip',
  'city',
  'lang',
  'sources',
  'tags',
  'email_consent',
  'text_consent',
  { name: 'created_at', time: true },
] as const;

/**
 * The People CSV (docs/decisions/156-exports.md): the people a filter selects, newest first, from the summary index
 * (no person read). Notes are never in it. Registered as `people` in exports/registry.ts (editors and admins).
 */
export async function peopleExportSource(f: PeopleFilter, now = new Date()): Promise<ExportSource> {
  const chosen = await selectPeople(f);
  return {
    filename: `people-${campaignToday(now)}.csv`,
    columns: PEOPLE_EXPORT_COLUMNS,
    total: chosen.length,
    rows: rowsFrom(
      chosen.map((s) => [
        s.id,
        s.name,
        s.emails,
        s.phones,
        s.zip,
        s.city,
        s.lang,
        s.sources,
        s.tags,
        s.emailState || 'none',
        s.textState || 'none',
        s.createdAt,
      ]),
    ),
  };
}
