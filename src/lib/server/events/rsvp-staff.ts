import {
  StoredRsvpSchema,
  type RosterEntry,
  type RosterPerson,
  type RsvpRow,
  type RsvpStaffView,
} from '../../schemas/rsvp.ts';
import { events } from '../content/events.ts';
import type { ExportColumn, ExportSource } from '../export-source.ts';
import { HttpError } from '../errors.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { kv } from '../storage/stores.ts';
import { getCheckIns, getRoster, rsvpKey } from './rsvp.ts';
import { counts } from './roster.ts';

/**
 * The staff view of one event's RSVPs (docs/decisions/155-inbox-and-staff-lists.md): the roster (one read:
 * every place, in order, with what staff see of each person) and the check-ins (one read), whatever the
 * number of RSVPs. Going first in arrival order, then the waitlist in its order, then cancellations.
 * Places taken before the roster kept people's details are completed from their records, only for the
 * rows a page shows (and only such rows: the roster keeps details of every place since).
 */
const ORDER = { going: 0, waitlisted: 1, cancelled: 2 } as const;

/** Rows read per window of the CSV (each a read only for places older than the details in the roster). */
const CSV_WINDOW = 500;

interface Listing {
  event: { id: number; title: string; eventDate: string; startTime: string; maxAttendees: number | null };
  entries: RosterEntry[];
  /** The places in staff order, with their waitlist place. */
  ordered: { entry: RosterEntry; position: number | null }[];
  checkIns: Record<string, { at: string }>;
  /** The people's own "how did it go" answers (the confirm-and-remind follow-up). */
  reported: Record<string, { outcome: 'attended' | 'absent' }>;
}

async function listing(eventId: number): Promise<Listing> {
  const event = await events.get(eventId);
  if (!event) throw new HttpError(404, 'Event not found');
  const [roster, checkIns] = await Promise.all([getRoster(eventId), getCheckIns(eventId)]);
  // Waitlist places in one pass (the roster's order is the waitlist's order).
  let place = 0;
  const ordered = roster.entries
    .map((entry) => ({ entry, position: entry.status === 'waitlisted' ? ++place : null }))
    .sort((a, b) => ORDER[a.entry.status] - ORDER[b.entry.status]);
  return { event, entries: roster.entries, ordered, checkIns: checkIns.people, reported: checkIns.reported };
}

/** The details of places whose roster entry has none (taken before it kept them): from their records. */
async function people(eventId: number, entries: RosterEntry[]): Promise<Map<string, RosterPerson | null>> {
  const missing = entries.filter((e) => !e.person);
  const found = await mapLimit(missing, 16, async (e) => {
    const r = await kv('rsvps').get<unknown>(rsvpKey(eventId, e.id));
    const p = r ? StoredRsvpSchema.safeParse(r.value) : null;
    return p?.success ? p.data : null;
  });
  return new Map(missing.map((e, i) => [e.id, found[i] ?? null]));
}

function rows(l: Listing, page: Listing['ordered'], details: Map<string, RosterPerson | null>): RsvpRow[] {
  const out: RsvpRow[] = [];
  for (const { entry, position } of page) {
    const p = entry.person ?? details.get(entry.id);
    if (!p) continue;
    out.push({
      id: entry.id,
      name: p.name,
      email: p.email,
      phone: p.phone,
      guests: entry.seats - 1,
      status: entry.status,
      position,
      createdAt: entry.at,
      checkedInAt: l.checkIns[entry.id]?.at ?? null,
      smsReminder: p.smsReminder,
      reported: l.checkIns[entry.id] ? null : (l.reported[entry.id]?.outcome ?? null),
    });
  }
  return out;
}

/** Whether a place matches a search (name, email or phone; any case). */
const matches = (needle: string, p: RosterPerson | undefined) =>
  !needle || (!!p && `${p.name} ${p.email} ${p.phone ?? ''}`.toLowerCase().includes(needle));

export async function rsvpStaffView(
  eventId: number,
  page: number,
  pageSize: number,
  q = '',
): Promise<RsvpStaffView> {
  const l = await listing(eventId);
  const needle = q.trim().toLowerCase();
  // A search also reads older places' records (those without details in the roster) to match them.
  const legacy = needle ? await people(eventId, l.entries) : new Map<string, RosterPerson | null>();
  const found = l.ordered.filter(({ entry }) =>
    matches(needle, entry.person ?? legacy.get(entry.id) ?? undefined),
  );
  const start = (page - 1) * pageSize;
  const shown = found.slice(start, start + pageSize);
  const details = needle
    ? legacy
    : await people(
        eventId,
        shown.map((r) => r.entry),
      );
  const going = new Set(l.entries.filter((e) => e.status === 'going').map((e) => e.id));
  return {
    event: {
      id: l.event.id,
      title: l.event.title,
      eventDate: l.event.eventDate,
      startTime: l.event.startTime,
    },
    capacity: l.event.maxAttendees,
    ...counts(l.entries),
    checkedIn: Object.keys(l.checkIns).filter((id) => going.has(id)).length,
    items: rows(l, shown, details),
    total: found.length,
    page,
    pageSize,
  };
}

export const RSVP_CSV_COLUMNS: readonly (string | ExportColumn)[] = [
  'name',
  'email',
  'phone',
  'guests',
  'status',
  'waitlist_position',
  { name: 'rsvp_at', time: true },
  { name: 'checked_in_at', time: true },
  'sms_reminder',
  'reported_attendance',
];

/**
 * The attendee list as CSV rows, in the staff order, CSV_WINDOW places at a time
 * (docs/decisions/155-inbox-and-staff-lists.md). `event` is for the export's audit entry.
 */
export async function rsvpExportSource(
  eventId: number,
): Promise<ExportSource & { event: { id: number; title: string } }> {
  const l = await listing(eventId);
  return {
    event: { id: l.event.id, title: l.event.title },
    filename: `rsvps-${l.event.id}-${l.event.eventDate}.csv`,
    columns: RSVP_CSV_COLUMNS,
    total: l.ordered.length,
    async *rows() {
      for (let start = 0; start < l.ordered.length; start += CSV_WINDOW) {
        const window = l.ordered.slice(start, start + CSV_WINDOW);
        for (const r of rows(
          l,
          window,
          await people(
            eventId,
            window.map((w) => w.entry),
          ),
        ))
          yield [
            r.name,
            r.email,
            r.phone ?? '',
            String(r.guests),
            r.status,
            r.position === null ? '' : String(r.position),
            r.createdAt,
            r.checkedInAt ?? '',
            r.smsReminder ? 'yes' : 'no',
            r.reported ?? '',
          ];
      }
    },
  };
}
