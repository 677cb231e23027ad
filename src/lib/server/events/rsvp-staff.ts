import { StoredRsvpSchema, type RsvpRow, type RsvpStaffView, type StoredRsvp } from '../../schemas/rsvp.ts';
import { events } from '../content/events.ts';
import { readAllBounded } from '../forms/inbox.ts';
import { HttpError } from '../errors.ts';
import { kv } from '../store.ts';
import { getRoster, rsvpPrefix } from './rsvp.ts';
import { counts, waitlistPosition } from './roster.ts';

/**
 * The staff view of one event's RSVPs: the roster (one read) joined with the
 * people's records (one read each, 16 at a time; an event has hundreds, not
 * millions). Going first in arrival order, then the waitlist in its order,
 * then cancellations.
 */
const ORDER = { going: 0, waitlisted: 1, cancelled: 2 } as const;

export async function rsvpRows(eventId: number) {
  const event = await events.get(eventId);
  if (!event) throw new HttpError(404, 'Event not found');
  const roster = await getRoster(eventId);
  const people = new Map<string, StoredRsvp>();
  for (const raw of await readAllBounded(kv('rsvps'), rsvpPrefix(eventId))) {
    const p = StoredRsvpSchema.safeParse(raw);
    if (p.success) people.set(p.data.id, p.data);
  }
  const rows: RsvpRow[] = [];
  for (const e of roster.entries) {
    const r = people.get(e.id);
    if (!r) continue;
    rows.push({
      id: r.id,
      name: r.name,
      email: r.email,
      phone: r.phone,
      guests: r.guests,
      status: e.status,
      position: waitlistPosition(roster.entries, e.id),
      createdAt: e.at,
      checkedInAt: r.checkedInAt,
      smsReminder: r.smsReminder,
    });
  }
  rows.sort((a, b) => ORDER[a.status] - ORDER[b.status]);
  return { event, roster, rows };
}

export async function rsvpStaffView(eventId: number, page: number, pageSize: number): Promise<RsvpStaffView> {
  const { event, roster, rows } = await rsvpRows(eventId);
  const start = (page - 1) * pageSize;
  return {
    event: { id: event.id, title: event.title, eventDate: event.eventDate, startTime: event.startTime },
    capacity: event.maxAttendees,
    ...counts(roster.entries),
    checkedIn: rows.filter((r) => r.status === 'going' && r.checkedInAt).length,
    items: rows.slice(start, start + pageSize),
    total: rows.length,
    page,
    pageSize,
  };
}

export async function rsvpCsv(
  eventId: number,
): Promise<{ filename: string; columns: string[]; rows: string[][]; event: { id: number; title: string } }> {
  const { event, rows } = await rsvpRows(eventId);
  return {
    // For the export's audit entry (docs/decisions/073-audit-anchors.md).
    event: { id: event.id, title: event.title },
    filename: `rsvps-${event.id}-${event.eventDate}.csv`,
    columns: [
      'name',
      'email',
      'phone',
      'guests',
      'status',
      'waitlist_position',
      'rsvp_at',
      'checked_in_at',
      'sms_reminder',
    ],
    rows: rows.map((r) => [
      r.name,
      r.email,
      r.phone ?? '',
      String(r.guests),
      r.status,
      r.position === null ? '' : String(r.position),
      r.createdAt,
      r.checkedInAt ?? '',
      r.smsReminder ? 'yes' : 'no',
    ]),
  };
}
