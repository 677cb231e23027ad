import { describe, expect, it } from 'vitest';
import * as shiftsFn from '../../netlify/functions/admin-event-shifts.mts';
import * as peopleFn from '../../netlify/functions/admin-people.mts';
import type { ShiftAttendanceCounts } from '../../src/lib/schemas/shifts.ts';
import { auditPage } from '../../src/lib/server/audit/audit.ts';
import { collectRows } from '../../src/lib/server/export-source.ts';
import { exportKind } from '../../src/lib/server/exports/registry.ts';
import {
  getAttendance,
  isNoShowFlagged,
  recordAttendance,
  recordConfirmed,
} from '../../src/lib/server/events/shift-attendance.ts';
import { link } from '../../src/lib/server/people/link.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { useLocalBlobs } from '../helpers/blobs.ts';
import {} from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { shiftSlot } from '../helpers/shifts.ts';
import { person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * Attendance per volunteer (docs/decisions/181-shifts.md, "Attendance"): sign-ups, confirmations, a check-in (and
 * its undo) and a staff no-show recorded once per slot; two no-shows in a row, in the order of the shifts, flag
 * the volunteer "call, don't text" on the roster, the person page, the People CSV and for the texts.
 */

useLocalBlobs();

const SLOTS = [
  shiftSlot('s1', 5, { date: '2031-01-04' }),
  shiftSlot('s2', 5, { date: '2031-01-05' }),
  shiftSlot('s3', 5, { date: '2031-01-06' }),
];

async function threeShifts(slots = SLOTS) {
  const [admin, viewer] = [await signedIn('admin'), await signedIn('viewer')];
  const event = await rsvpEventFixture(null, { title: 'Early Vote Cover' });
  const put = await call(shiftsFn, `/api/admin/events/${event.id}/shifts`, {
    method: 'PUT',
    json: { slots },
    cookie: admin.cookie,
  });
  expect(put.status).toBe(200);
  return { admin, viewer, event };
}

interface RosterPerson {
  id: string;
  attendance: 'attended' | 'absent' | null;
  callDontText: boolean;
}

describe('attendance per volunteer', () => {
  it('check-in records attended (its undo withdraws it), a staff no-show is audited; two in a row flag the volunteer on the roster, the person page and the People CSV', async () => {
    const { admin, viewer, event } = await threeShifts();
    const p = person();
    const id = hashed(p.email);
    // One sign-up for three shifts, sent twice: three signed up.
    expect((await rsvpTo(event.id, { ...p, slots: ['s1', 's2', 's3'] })).status).toBe(201);
    expect((await rsvpTo(event.id, { ...p, slots: ['s1', 's2', 's3'] })).status).toBe(201);
    const linked = await link({
      source: 'rsvp',
      store: 'rsvps',
      key: `shift/${event.id}/${id}`,
      email: p.email,
      name: p.name,
      at: new Date(),
    });
    const personId = 'personId' in linked ? linked.personId : '';

    const put = (slotId: string, json: unknown, cookie = admin.cookie) =>
      call(shiftsFn, `/api/admin/events/${event.id}/shifts/${slotId}`, { method: 'PUT', json, cookie });
    const roster = async (slotId: string) =>
      (
        (await (
          await call(shiftsFn, `/api/admin/events/${event.id}/shifts/${slotId}`, { cookie: viewer.cookie })
        ).json()) as { people: RosterPerson[] }
      ).people.find((x) => x.id === id)!;

    expect((await put('s1', { person: id, checkedIn: true })).status).toBe(200);
    expect((await roster('s1')).attendance).toBe('attended');
    expect((await put('s1', { person: id, checkedIn: false })).status).toBe(200);
    expect((await roster('s1')).attendance).toBeNull();
    expect((await put('s1', { person: id, checkedIn: true })).status).toBe(200);
    // The volunteer's own answer does not undo a staff check-in.
    await recordAttendance(event.id, 's1', id, 'absent', 'volunteer');
    expect((await roster('s1')).attendance).toBe('attended');

    expect((await put('s2', { person: id, noShow: true }, viewer.cookie)).status).toBe(403);
    expect((await put('s2', { person: 'f'.repeat(64), noShow: true })).status).toBe(404);
    expect((await put('s2', { person: id, noShow: true })).status).toBe(200);
    expect(await isNoShowFlagged(id)).toBe(false);
    const second = await put('s3', { person: id, noShow: true });
    expect(await second.json()).toEqual({ noShow: true, callDontText: true });
    expect(await isNoShowFlagged(id)).toBe(true);
    expect((await roster('s3')).callDontText).toBe(true);
    // Recorded again: nothing counts twice.
    await recordAttendance(event.id, 's3', id, 'absent', 'staff');
    await recordConfirmed(event.id, 's1', id);
    await recordConfirmed(event.id, 's1', id);

    const view = (await (
      await call(peopleFn, `/api/admin/people/${personId}`, { cookie: viewer.cookie })
    ).json()) as { person: { shifts: ShiftAttendanceCounts } };
    expect(view.person.shifts).toEqual({
      signedUp: 3,
      confirmed: 1,
      attended: 1,
      noShow: 2,
      callDontText: true,
    });

    const source = await exportKind('people').open({ q: p.email }, new Date());
    const rows = await collectRows(source);
    const header = source.columns.map((c) => (typeof c === 'string' ? c : c.name));
    const row = rows.find((r) => r[0] === personId)!;
    expect(row.slice(header.indexOf('shifts_signed_up'))).toEqual(['3', '1', '1', '2', 'yes']);

    const audits = await auditPage({ page: 1, pageSize: 100, format: 'json', kind: 'shift.no_show' });
    expect(audits.entries.filter((e) => e.target?.id === event.id)).toHaveLength(2);

    // An undone no-show clears the flag.
    expect((await put('s3', { person: id, noShow: false })).status).toBe(200);
    expect(await isNoShowFlagged(id)).toBe(false);
  });

  it('"in a row" follows the order of the shifts, not the order things were recorded', async () => {
    const { event } = await threeShifts();
    const id = hashed(person().email);
    await recordAttendance(event.id, 's2', id, 'attended', 'volunteer');
    await recordAttendance(event.id, 's3', id, 'absent', 'volunteer');
    await recordAttendance(event.id, 's1', id, 'absent', 'volunteer');
    expect(await isNoShowFlagged(id)).toBe(false);
    expect(Object.keys((await getAttendance(id)).outcomes)).toHaveLength(3);
    // The shift after the last is missed too: two in a row.
    const later = await threeShifts([shiftSlot('s4', 5, { date: '2031-01-07' })]);
    await recordAttendance(later.event.id, 's4', id, 'absent', 'volunteer');
    expect(await isNoShowFlagged(id)).toBe(true);
  });
});
