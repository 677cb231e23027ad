import { describe, expect, it } from 'vitest';
import * as shiftsFn from '../../netlify/functions/admin-event-shifts.mts';
import * as myAccount from '../../netlify/functions/my-account.mts';
import { SHIFT_COPY } from '../../src/content/shifts.ts';
import { SUPPORTER_COPY } from '../../src/content/supporter-page.ts';
import { fill } from '../../src/lib/fill.ts';
import type { ShiftSlot } from '../../src/lib/schemas/shifts.ts';
import { getSlotRoster } from '../../src/lib/server/events/shifts.ts';
import { useLocalBlobs } from '../helpers/blobs.ts';
import { valuesOf } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { shiftSlot } from '../helpers/shifts.ts';
import { person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import { my, supporterWithSession } from '../helpers/supporters.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * The supporter page's shifts (docs/decisions/182-supporter-page.md): the download holds the upcoming shifts, and
 * "switch slot" moves a shift to another slot of the same event as one action: the left slot's waitlist moves up as
 * a cancellation's does; a full target is refused with a 409 that offers its waitlist, and joining that waitlist
 * keeps the shift the supporter has.
 */

interface Mail {
  to: string;
  subject: string;
}

useLocalBlobs();

const slot = (id: string, capacity: number, start: string, end: string) =>
  shiftSlot(id, capacity, { date: '2031-02-08', start, end });

const supporter = (first: string) => supporterWithSession(first, 'Switcher');
const statuses = async (eventId: number, slotId: string) =>
  (await getSlotRoster(eventId, slotId)).entries.map((e) => [e.id, e.status]);

async function eventWithSlots(title: string, slots: ShiftSlot[]) {
  const admin = await signedIn('admin');
  const event = await rsvpEventFixture(null, { title });
  const put = await call(shiftsFn, `/api/admin/events/${event.id}/shifts`, {
    method: 'PUT',
    json: { slots },
    cookie: admin.cookie,
  });
  expect(put.status).toBe(200);
  return event;
}

describe('the supporter page: shifts in the download, and switching slot', () => {
  it('"download my data" lists the upcoming shifts, going and waitlisted', async () => {
    const event = await eventWithSlots('Canvass download', [
      slot('am', 1, '09:00', '12:00'),
      slot('pm', 1, '12:00', '15:00'),
    ]);
    const ana = await supporter('Ana');
    const ben = await supporter('Ben');
    expect((await rsvpTo(event.id, { ...person({ email: ana.email }), slots: ['am', 'pm'] })).status).toBe(
      201,
    );
    expect((await rsvpTo(event.id, { ...person({ email: ben.email }), slots: ['am'] })).status).toBe(201);
    const res = await call(myAccount, '/api/my/data', { method: 'GET', cookie: ana.cookie });
    expect(res.status).toBe(200);
    const data = (await res.json()) as { shifts: { eventId: number; slotId: string; status: string }[] };
    expect(data.shifts.map((s) => [s.eventId, s.slotId, s.status])).toEqual([
      [event.id, 'am', 'going'],
      [event.id, 'pm', 'going'],
    ]);
    const benData = (await (
      await call(myAccount, '/api/my/data', { method: 'GET', cookie: ben.cookie })
    ).json()) as {
      shifts: { slotId: string; status: string; position: number | null }[];
    };
    expect(benData.shifts).toEqual([
      expect.objectContaining({ slotId: 'am', status: 'waitlisted', position: 1 }),
    ]);
  });

  it("switching moves the shift in one action and promotes the left slot's waitlist; a full target is a 409 offering its waitlist", async () => {
    const event = await eventWithSlots('Phone bank switch', [
      slot('am', 1, '09:00', '12:00'),
      slot('pm', 1, '12:00', '15:00'),
      slot('eve', 2, '16:00', '19:00'),
    ]);
    const ana = await supporter('Ana');
    const ben = await supporter('Ben');
    const cy = await supporter('Cy');
    expect((await rsvpTo(event.id, { ...person({ email: ana.email }), slots: ['am'] })).status).toBe(201);
    expect((await rsvpTo(event.id, { ...person({ email: ben.email }), slots: ['am'] })).status).toBe(201);
    expect((await rsvpTo(event.id, { ...person({ email: cy.email }), slots: ['pm'] })).status).toBe(201);

    // Refused: no session, someone else's shift, a bad slot name, the same slot, a slot the event does not offer.
    const move = (to: string, extra: Record<string, unknown> = {}) => ({
      event: event.id,
      slot: 'am',
      to,
      ...extra,
    });
    expect((await my('switch-shift', move('eve'))).status).toBe(401);
    expect((await my('switch-shift', move('eve'), cy.cookie)).status).toBe(404);
    expect((await my('switch-shift', move('../x'), ana.cookie)).status).toBe(400);
    expect((await my('switch-shift', move('am'), ana.cookie)).status).toBe(400);
    expect((await my('switch-shift', move('nope'), ana.cookie)).status).toBe(404);

    // The afternoon is full: a clear 409 that offers its waitlist, and nothing moved.
    const full = await my('switch-shift', move('pm'), ana.cookie);
    expect(full.status).toBe(409);
    const body = (await full.json()) as Record<string, unknown>;
    expect(JSON.stringify(body)).toContain(SUPPORTER_COPY.en.switchFull);
    expect(await statuses(event.id, 'am')).toEqual([
      [ana.key, 'going'],
      [ben.key, 'waitlisted'],
    ]);
    expect(await statuses(event.id, 'pm')).toEqual([[cy.key, 'going']]);

    // To the evening: Ana goes there, the morning is cancelled and Ben moves up, told once.
    const ok = await my('switch-shift', move('eve'), ana.cookie);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual(expect.objectContaining({ status: 'going', kept: false }));
    expect(await statuses(event.id, 'eve')).toEqual([[ana.key, 'going']]);
    expect(await statuses(event.id, 'am')).toEqual([
      [ana.key, 'cancelled'],
      [ben.key, 'going'],
    ]);
    const promoted = fill(SHIFT_COPY.en.subjectPromoted, event.title);
    const mails = await valuesOf<Mail>('outbox', 'email/');
    expect(mails.filter((m) => m.to === ben.email && m.subject === promoted)).toHaveLength(1);
    // The same press again finds no morning shift of hers.
    expect((await my('switch-shift', move('eve'), ana.cookie)).status).toBe(404);

    // Asking for the full afternoon's waitlist: on its waitlist, and the evening is kept.
    const wait = await my(
      'switch-shift',
      { event: event.id, slot: 'eve', to: 'pm', waitlist: true },
      ana.cookie,
    );
    expect(wait.status).toBe(200);
    expect(await wait.json()).toEqual(
      expect.objectContaining({ status: 'waitlisted', position: 1, kept: true }),
    );
    expect(await statuses(event.id, 'pm')).toEqual([
      [cy.key, 'going'],
      [ana.key, 'waitlisted'],
    ]);
    expect(await statuses(event.id, 'eve')).toEqual([[ana.key, 'going']]);

    // Without JavaScript: a form post, answered with a 303 back to the page in its language.
    const form = await call(myAccount, '/api/my/switch-shift', {
      method: 'POST',
      body: new URLSearchParams({ event: String(event.id), slot: 'am', to: 'eve', lang: 'es' }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      cookie: ben.cookie,
    });
    expect([form.status, form.headers.get('location')]).toEqual([303, '/es/my?done=shift-switched']);
    expect(await statuses(event.id, 'eve')).toEqual([
      [ana.key, 'going'],
      [ben.key, 'going'],
    ]);
  });
});
