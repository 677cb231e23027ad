import { describe, expect, it } from 'vitest';
import * as shiftsFn from '../../netlify/functions/admin-event-shifts.mts';
import * as myAccount from '../../netlify/functions/my-account.mts';
import { SHIFT_COPY } from '../../src/content/shifts.ts';
import { fill } from '../../src/lib/fill.ts';
import { getSlotRoster } from '../../src/lib/server/events/shifts.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { myShifts } from '../../src/lib/server/supporters/shifts.ts';
import { useLocalBlobs } from '../helpers/blobs.ts';
import { valuesOf } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { shiftSlot } from '../helpers/shifts.ts';
import { person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import { my, supporterWithSession } from '../helpers/supporters.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * A supporter's shifts on their own page (docs/decisions/182-supporter-page.md, docs/decisions/181-shifts.md),
 * through the real handlers on a real local Blobs server: the page lists the supporter's upcoming slots, and
 * cancelling one from the page goes through the slot's roster like the emailed link, so the first on that slot's
 * waitlist moves up and is told once; nobody can cancel a slot that is not their own.
 */

interface Mail {
  to: string;
  subject: string;
}

useLocalBlobs();

const supporter = (first: string) => supporterWithSession(first, 'Shifter');

describe("a supporter's shifts on /my", () => {
  it('lists their upcoming slots; cancelling one promotes the first on its waitlist, told once; nobody cancels another', async () => {
    const admin = await signedIn('admin');
    const event = await rsvpEventFixture(null, { title: 'Phone bank weekend' });
    const put = await call(shiftsFn, `/api/admin/events/${event.id}/shifts`, {
      method: 'PUT',
      json: { slots: [shiftSlot('am', 1), shiftSlot('pm', 1, { start: '12:00', end: '15:00' })] },
      cookie: admin.cookie,
    });
    expect(put.status).toBe(200);

    const ana = await supporter('Ana');
    const ben = await supporter('Ben');
    const cy = await supporter('Cy');
    expect((await rsvpTo(event.id, { ...person({ email: ana.email }), slots: ['am', 'pm'] })).status).toBe(
      201,
    );
    expect((await rsvpTo(event.id, { ...person({ email: ben.email }), slots: ['am'] })).status).toBe(201);

    expect(await myShifts(await ana.person(), 'en')).toEqual([
      expect.objectContaining({ eventId: event.id, slotId: 'am', status: 'going', position: null }),
      expect.objectContaining({ eventId: event.id, slotId: 'pm', status: 'going', position: null }),
    ]);
    expect(await myShifts(await ben.person(), 'en')).toEqual([
      expect.objectContaining({ slotId: 'am', status: 'waitlisted', position: 1 }),
    ]);
    expect(await myShifts(await cy.person(), 'en')).toEqual([]);

    // Someone else's slot, and no session: refused, and nothing moves.
    expect((await my('cancel-shift', { event: event.id, slot: 'am' }, cy.cookie)).status).toBe(404);
    expect((await my('cancel-shift', { event: event.id, slot: 'am' })).status).toBe(401);
    expect((await my('cancel-shift', { event: event.id, slot: '../x' }, ana.cookie)).status).toBe(400);
    const before = await getSlotRoster(event.id, 'am');
    expect(before.entries.map((e) => [e.id, e.status])).toEqual([
      [hashed(ana.email), 'going'],
      [hashed(ben.email), 'waitlisted'],
    ]);

    // Ana cancels the morning from her page: Ben moves up in the same fold and is told once.
    expect((await my('cancel-shift', { event: event.id, slot: 'am' }, ana.cookie)).status).toBe(200);
    const after = await getSlotRoster(event.id, 'am');
    expect(after.entries.map((e) => [e.id, e.status])).toEqual([
      [hashed(ana.email), 'cancelled'],
      [hashed(ben.email), 'going'],
    ]);
    // A second press finds nothing of hers to cancel.
    expect((await my('cancel-shift', { event: event.id, slot: 'am' }, ana.cookie)).status).toBe(404);
    const promoted = fill(SHIFT_COPY.en.subjectPromoted, event.title);
    const mails = await valuesOf<Mail>('outbox', 'email/');
    expect(mails.filter((m) => m.to === ben.email && m.subject === promoted)).toHaveLength(1);
    expect(await myShifts(await ben.person(), 'en')).toEqual([
      expect.objectContaining({ slotId: 'am', status: 'going' }),
    ]);
    expect((await myShifts(await ana.person(), 'en')).map((s) => s.slotId)).toEqual(['pm']);
    // The afternoon is untouched.
    expect((await getSlotRoster(event.id, 'pm')).entries.map((e) => e.status)).toEqual(['going']);

    // Without JavaScript: a real form post, answered with a 303 back to the page in its language.
    const form = await call(myAccount, '/api/my/cancel-shift', {
      method: 'POST',
      body: new URLSearchParams({ event: String(event.id), slot: 'pm', lang: 'es' }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      cookie: ana.cookie,
    });
    expect([form.status, form.headers.get('location')]).toEqual([303, '/es/my?done=shift-cancelled']);
    expect(await myShifts(await ana.person(), 'es')).toEqual([]);
  });
});
