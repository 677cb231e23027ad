import { describe, expect, it } from 'vitest';
import * as shiftsFn from '../../netlify/functions/admin-event-shifts.mts';
import * as rsvpFn from '../../netlify/functions/event-rsvp.mts';
import type { ShiftSlot } from '../../src/lib/schemas/shifts.ts';
import { auditPage } from '../../src/lib/server/audit/audit.ts';
import { events } from '../../src/lib/server/content/events.ts';
import { recordAttendance } from '../../src/lib/server/events/shift-attendance.ts';
import { isSlotCancelled, sendShiftNotices } from '../../src/lib/server/events/shift-notices.ts';
import { getShifts, setShifts, shiftsKey } from '../../src/lib/server/events/shifts.ts';
import { shiftCalendarResponse } from '../../src/lib/server/public/shift-calendar.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { useLocalBlobs } from '../helpers/blobs.ts';
import { uniquePhone, valuesOf } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { shiftSlot } from '../helpers/shifts.ts';
import { person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * Notices of a changed or cancelled shift (docs/decisions/181-shifts.md, "Notices"): everyone on the slot, going
 * and waitlisted, is told once in their language, whatever is retried; a text only to those who asked for texts
 * and are not flagged "call, don't text"; a cancelled slot is out of the offer and its people are told once.
 */

interface Mail {
  to: string;
  subject: string;
  text: string;
}

useLocalBlobs();

const mailsTo = async (email: string, subject: RegExp) =>
  (await valuesOf<Mail>('outbox', 'email/')).filter((m) => m.to === email && subject.test(m.subject));
const textsTo = async (phone: string) =>
  (await valuesOf<{ to: string; body: string }>('outbox', 'sms/')).filter((m) => m.to === phone);

async function setup(slots: ShiftSlot[]) {
  const admin = await signedIn('admin');
  const event = await rsvpEventFixture(null, { title: 'Poll Watch' });
  const put = (json: unknown) =>
    call(shiftsFn, `/api/admin/events/${event.id}/shifts`, { method: 'PUT', json, cookie: admin.cookie });
  expect((await put({ slots })).status).toBe(200);
  return { admin, event, put };
}

const CHANGED = /shift has changed|turno cambió/i;
const CANCELLED = /shift is cancelled|turno se canceló/i;

describe('shift notices', () => {
  it('a change of hours tells everyone on the slot (going and waitlisted) once, in their language; retries, a stopped pass finished and a capacity change tell no one twice', async () => {
    const { event, put } = await setup([
      shiftSlot('door', 1),
      shiftSlot('other', 5, { start: '13:00', end: '16:00' }),
    ]);
    const [going, waiting, elsewhere] = [person(), person({ lang: 'es' }), person()];
    expect((await rsvpTo(event.id, { ...going, slots: ['door'] })).status).toBe(201);
    expect((await rsvpTo(event.id, { ...waiting, slots: ['door'] })).status).toBe(201);
    expect((await rsvpTo(event.id, { ...elsewhere, slots: ['other'] })).status).toBe(201);

    const moved = [
      shiftSlot('door', 1, { start: '10:00' }),
      shiftSlot('other', 5, { start: '13:00', end: '16:00' }),
    ];
    const first = await put({ slots: moved });
    expect(first.status).toBe(200);
    // The same request again, twice at once, and once more.
    await Promise.all([put({ slots: moved }), put({ slots: moved })]);
    expect((await put({ slots: moved })).status).toBe(200);
    // A worker that stopped after telling everyone but before marking the slot told: the next save finishes the
    // pass, and the claims keep everyone from a second notice.
    await kv('rsvps').put(shiftsKey(event.id), {
      ...(await getShifts(event.id)),
      versions: { door: { v: 1, noticed: 0 }, other: { v: 0, noticed: 0 } },
    });
    expect((await put({ slots: moved })).status).toBe(200);
    expect((await getShifts(event.id)).versions.door).toEqual({ v: 1, noticed: 1 });

    const en = await mailsTo(going.email, CHANGED);
    const es = await mailsTo(waiting.email, CHANGED);
    expect(en).toHaveLength(1);
    expect(es).toHaveLength(1);
    expect(en[0]!.text).toContain('10:00 AM');
    expect(en[0]!.text).toContain(`/events/${event.id}/shifts/door.ics`);
    expect(es[0]!.subject).toBe('Su turno cambió: Poll Watch');
    expect(es[0]!.text).toContain(`/es/events/${event.id}/shifts/door.ics`);
    expect(await mailsTo(elsewhere.email, CHANGED)).toHaveLength(0);

    // A capacity change is not a change of time or place.
    await put({ slots: [shiftSlot('door', 3, { start: '10:00' }), moved[1]] });
    expect(await mailsTo(going.email, CHANGED)).toHaveLength(1);
    // A new place is a new version: told again, once.
    await put({ slots: [shiftSlot('door', 3, { start: '10:00', label: 'City Hall' }), moved[1]] });
    await put({ slots: [shiftSlot('door', 3, { start: '10:00', label: 'City Hall' }), moved[1]] });
    expect(await mailsTo(going.email, CHANGED)).toHaveLength(2);
    expect(await mailsTo(waiting.email, CHANGED)).toHaveLength(2);
  });

  it('a text to those who asked for texts, none to the rest nor to a volunteer flagged "call, don\'t text"', async () => {
    const { event } = await setup([shiftSlot('desk', 5)]);
    const [texts, flagged, plain] = [
      person({ phone: uniquePhone(), smsReminder: true }),
      person({ phone: uniquePhone(), smsReminder: true, lang: 'es' }),
      person({ phone: uniquePhone() }),
    ];
    for (const p of [texts, flagged, plain])
      expect((await rsvpTo(event.id, { ...p, slots: ['desk'] })).status).toBe(201);
    await recordAttendance(event.id, 'x1', hashed(flagged.email), 'absent', 'staff');
    await recordAttendance(event.id, 'x2', hashed(flagged.email), 'absent', 'staff');

    const stored = (await events.get(event.id))!;
    await setShifts(event.id, [shiftSlot('desk', 5, { end: '13:00' })], 'test');
    // Midday in New Orleans: inside the send window.
    const noon = new Date('2030-06-03T12:00:00-05:00');
    expect((await sendShiftNotices(stored, noon)).told).toBe(3);
    expect((await sendShiftNotices(stored, noon)).told).toBe(0);
    const sent = await textsTo(texts.phone);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toContain('Poll Watch: your shift has changed');
    expect(await textsTo(flagged.phone)).toHaveLength(0);
    expect(await textsTo(plain.phone)).toHaveLength(0);
    for (const p of [texts, flagged, plain]) expect(await mailsTo(p.email, CHANGED)).toHaveLength(1);
  });

  it('a slot with people is cancelled only explicitly (audited): it leaves the offer and everyone on it is told once', async () => {
    const { event, put } = await setup([
      shiftSlot('keep', 5),
      shiftSlot('drop', 1, { start: '13:00', end: '15:00' }),
    ]);
    const [a, b, c] = [person(), person({ lang: 'es' }), person()];
    await rsvpTo(event.id, { ...a, slots: ['drop'] });
    await rsvpTo(event.id, { ...b, slots: ['drop'] });
    await rsvpTo(event.id, { ...c, slots: ['keep'] });

    const removed = await put({ slots: [shiftSlot('keep', 5)] });
    expect(removed.status).toBe(400);
    expect(((await removed.json()) as { error: string }).error).toContain('"cancelled": true');

    const cancel = {
      slots: [
        shiftSlot('keep', 5),
        { ...shiftSlot('drop', 1, { start: '13:00', end: '15:00' }), cancelled: true },
      ],
    };
    expect((await put(cancel)).status).toBe(200);
    expect((await put(cancel)).status).toBe(200);
    expect((await put({ slots: [shiftSlot('keep', 5)] })).status).toBe(200);

    expect(await mailsTo(a.email, CANCELLED)).toHaveLength(1);
    expect(await mailsTo(b.email, CANCELLED)).toHaveLength(1);
    expect((await mailsTo(b.email, CANCELLED))[0]!.subject).toBe('Su turno se canceló: Poll Watch');
    expect(await mailsTo(c.email, CANCELLED)).toHaveLength(0);
    expect(await isSlotCancelled(event.id, 'drop')).toBe(true);
    expect(await isSlotCancelled(event.id, 'keep')).toBe(false);
    const offered = (await (await call(rsvpFn, `/api/events/${event.id}/rsvp`)).json()) as {
      slots: { id: string }[];
    };
    expect(offered.slots.map((s) => s.id)).toEqual(['keep']);
    expect((await rsvpTo(event.id, { ...person(), slots: ['drop'] })).status).toBe(400);

    const audits = await auditPage({ page: 1, pageSize: 100, format: 'json', kind: 'shift.cancel' });
    expect(audits.entries.filter((e) => e.target?.id === event.id)).toHaveLength(1);
  });

  it("a slot's calendar file: public, in the page's language, linked from the sign-up email; an unknown or private one is a 404", async () => {
    const { event } = await setup([
      shiftSlot('cal', 3, { start: '07:30', end: '10:00', label: 'Lobby; east door' }),
    ]);
    const p = person({ lang: 'es' });
    expect((await rsvpTo(event.id, { ...p, slots: ['cal'] })).status).toBe(201);
    const signup = (await mailsTo(p.email, /Sus turnos/))[0]!;
    expect(signup.text).toContain(`/es/events/${event.id}/shifts/cal.ics`);

    const site = new URL('https://example.org');
    const res = await shiftCalendarResponse(String(event.id), 'cal', 'es', site);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="shift-${event.id}-cal.ics"`);
    const ics = (await res.text()).replace(/\r\n /g, '');
    expect(ics).toContain('SUMMARY:Poll Watch (Lobby\\; east door)');
    expect(ics).toContain('DTSTART;TZID=America/Chicago:20310104T073000');
    expect(ics).toContain(`URL:https://example.org/es/events/${event.id}`);
    expect((await shiftCalendarResponse(String(event.id), 'nope', 'en', site)).status).toBe(404);
    expect((await shiftCalendarResponse(String(event.id), '../x', 'en', site)).status).toBe(404);
    const hidden = await rsvpEventFixture(null, { isPublic: false });
    await setShifts(hidden.id, [shiftSlot('cal', 3)], 'test');
    expect((await shiftCalendarResponse(String(hidden.id), 'cal', 'en', site)).status).toBe(404);
  });
});
