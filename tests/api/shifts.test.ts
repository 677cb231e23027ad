import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as shiftsFn from '../../netlify/functions/admin-event-shifts.mts';
import * as planFn from '../../netlify/functions/admin-shift-plan.mts';
import * as rsvpFn from '../../netlify/functions/event-rsvp.mts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import type { RsvpResult } from '../../src/lib/schemas/rsvp.ts';
import type { ShiftSlot } from '../../src/lib/schemas/shifts.ts';
import { setElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import { getShifts, getSlotRoster, notifyPromoted } from '../../src/lib/server/events/shifts.ts';
import { events } from '../../src/lib/server/content/events.ts';
import type { PlanRow } from '../../src/lib/server/events/shift-plan.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { useLocalBlobs } from '../helpers/blobs.ts';
import { uniqueIp, valuesOf } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { shiftSlot } from '../helpers/shifts.ts';
import { useLatencyStores } from '../helpers/latency-kv.ts';
import { cancel, cancelLinkIn, person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * Volunteer shifts (docs/decisions/181-shifts.md): slots with their own capacity and waitlist, signed up for
 * through the event's RSVP form, a rush that refuses no one and overbooks no slot, a cancellation that promotes
 * the first on that slot's waitlist and tells them once, check-in with undo, and the staffing plan from the
 * election calendar.
 */

interface Mail {
  to: string;
  subject: string;
  text: string;
}

useLocalBlobs();

async function eventWithSlots(slots: ShiftSlot[], cookie: string) {
  const event = await rsvpEventFixture(null, { title: 'Canvass Saturday' });
  const res = await call(shiftsFn, `/api/admin/events/${event.id}/shifts`, {
    method: 'PUT',
    json: { slots },
    cookie,
  });
  expect(res.status).toBe(200);
  return event;
}

const tally = (statuses: number[]) =>
  Object.entries(statuses.reduce<Record<number, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {}))
    .map(([s, n]) => `${n} x ${s}`)
    .join(', ');

describe('shifts: the rush (atomic in-memory store with latency)', () => {
  beforeAll(() => {
    useLatencyStores();
  });
  afterAll(() => setStoreFactory(null));

  it('3 slots of 10 places, 200 sign-ups at once: all 201, exactly 30 on a shift, the rest waitlisted in arrival order; a cancellation promotes the first on that slot and tells them once', async () => {
    const admin = await signedIn('admin');
    const event = await eventWithSlots(
      [
        shiftSlot('a', 10),
        shiftSlot('b', 10, { start: '12:00', end: '15:00' }),
        shiftSlot('c', 10, { start: '15:00', end: '18:00' }),
      ],
      admin.cookie,
    );
    const ids = ['a', 'b', 'c'];
    const rush = Array.from({ length: 200 }, (_, i) => ({ p: person(), slot: ids[i % 3]! }));
    const res = await Promise.all(rush.map(({ p, slot: s }) => rsvpTo(event.id, { ...p, slots: [s] })));
    expect(tally(res.map((r) => r.status))).toBe('200 x 201');
    const answers = (await Promise.all(res.map((r) => r.json()))) as RsvpResult[];
    expect(answers.filter((a) => a.status === 'going')).toHaveLength(30);

    for (const s of ids) {
      const roster = await getSlotRoster(event.id, s);
      const mine = rush.filter((r) => r.slot === s);
      // One place each, no slot over its capacity.
      expect(roster.entries).toHaveLength(mine.length);
      expect(new Set(roster.entries.map((e) => e.id)).size).toBe(mine.length);
      expect(roster.entries.filter((e) => e.status === 'going')).toHaveLength(10);
      // Served in the order they joined the queue (time, then id): the first 10 hold the places.
      const byArrival = [...roster.entries].sort(
        (x, y) => x.at.localeCompare(y.at) || x.id.localeCompare(y.id),
      );
      expect(roster.entries.map((e) => e.id)).toEqual(byArrival.map((e) => e.id));
      expect(roster.entries.slice(0, 10).every((e) => e.status === 'going')).toBe(true);
      // Each answer agrees with the slot's roster; waitlist places 1..n.
      const waiting = mine
        .map(({ p }) => answers[rush.findIndex((r) => r.p === p)]!)
        .filter((a) => a.status === 'waitlisted');
      expect(waiting.map((a) => a.slots![0]!.position).sort((x, y) => x! - y!)).toEqual(
        Array.from({ length: mine.length - 10 }, (_, i) => i + 1),
      );
    }

    // One sign-up email each.
    const mails = await valuesOf<Mail>('outbox', 'email/');
    for (const { p } of rush) expect(mails.filter((m) => m.to === p.email)).toHaveLength(1);

    // A person on slot b cancels (twice: the link is used again): the first on b's waitlist moves up, emailed once;
    // a and c do not move.
    const [aBefore, bBefore, cBefore] = await Promise.all([
      getSlotRoster(event.id, 'a'),
      getSlotRoster(event.id, 'b'),
      getSlotRoster(event.id, 'c'),
    ]);
    const leaving = bBefore.entries.find((e) => e.status === 'going')!;
    const first = bBefore.entries.find((e) => e.status === 'waitlisted')!;
    const leaver = rush.find((r) => hashed(r.p.email) === leaving.id)!.p;
    const link = cancelLinkIn(mails.find((m) => m.to === leaver.email)!.text);
    const cancelled = await Promise.all([cancel(link), cancel(link)]);
    expect(tally(cancelled.map((r) => r.status))).toBe('2 x 200');
    expect((await cancel(link)).status).toBe(200);
    const bAfter = await getSlotRoster(event.id, 'b');
    expect(bAfter.entries.find((e) => e.id === leaving.id)?.status).toBe('cancelled');
    expect(bAfter.entries.find((e) => e.id === first.id)?.status).toBe('going');
    expect(bAfter.entries.filter((e) => e.status === 'going')).toHaveLength(10);
    expect(await getSlotRoster(event.id, 'a')).toEqual(aBefore);
    expect(await getSlotRoster(event.id, 'c')).toEqual(cBefore);
    const firstEmail = rush.find((r) => hashed(r.p.email) === first.id)!.p.email;
    const promoted = (await valuesOf<Mail>('outbox', 'email/')).filter(
      (m) => m.to === firstEmail && /place opened up/i.test(m.subject),
    );
    expect(promoted).toHaveLength(1);
    expect(promoted[0]!.text).toContain('Shift b');
    // A fold that runs again over the same promotion (a folder that stopped after writing the roster) tells no one
    // twice: the promotion is claimed on the person's record first.
    const stored = (await events.get(event.id))!;
    const slotB = (await getShifts(event.id)).slots.find((s) => s.id === 'b')!;
    await notifyPromoted(stored, slotB, bAfter.entries, [first.id]);
    expect(
      (await valuesOf<Mail>('outbox', 'email/')).filter(
        (m) => m.to === firstEmail && /place opened up/i.test(m.subject),
      ),
    ).toHaveLength(1);
    // Nobody else was told they moved up.
    const allPromotions = (await valuesOf<Mail>('outbox', 'email/')).filter((m) =>
      /place opened up/i.test(m.subject),
    );
    expect(allPromotions).toHaveLength(1);
  }, 180_000);
});

describe('shifts (local Blobs server)', () => {
  it('one sign-up for two slots: a full slot says so and waitlists, the other places; Spanish email; an unknown slot is a 400', async () => {
    const admin = await signedIn('admin');
    const event = await eventWithSlots(
      [shiftSlot('early', 1), shiftSlot('late', 5, { start: '13:00', end: '16:00' })],
      admin.cookie,
    );
    const first = person();
    expect((await rsvpTo(event.id, { ...first, slots: ['early'] })).status).toBe(201);
    const avail = (await (await call(rsvpFn, `/api/events/${event.id}/rsvp`)).json()) as {
      slots: { id: string; seatsLeft: number }[];
    };
    expect(avail.slots.map((s) => [s.id, s.seatsLeft])).toEqual([
      ['early', 0],
      ['late', 5],
    ]);
    const p = person({ lang: 'es' });
    const res = await rsvpTo(event.id, { ...p, slots: ['early', 'late'] });
    expect(res.status).toBe(201);
    const body = (await res.json()) as RsvpResult;
    expect(body.status).toBe('going');
    expect(body.slots).toEqual([
      { id: 'early', status: 'waitlisted', position: 1 },
      { id: 'late', status: 'going', position: null },
    ]);
    const mails = (await valuesOf<Mail>('outbox', 'email/')).filter((m) => m.to === p.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Sus turnos: Canvass Saturday');
    expect(mails[0]!.text).toContain('lista de espera (número 1)');
    const bad = await rsvpTo(event.id, { ...person(), slots: ['nope'] });
    expect(bad.status).toBe(400);
    const none = await rsvpTo(event.id, { ...person(), slots: [] });
    expect(none.status).toBe(400);
  });

  it('a sign-up posted without JavaScript (two checkboxes) is a 303 to the outcome page', async () => {
    const admin = await signedIn('admin');
    const event = await eventWithSlots(
      [shiftSlot('x', 3), shiftSlot('y', 3, { start: '13:00', end: '16:00' })],
      admin.cookie,
    );
    const p = person();
    const form = new URLSearchParams({
      name: p.name,
      email: p.email,
      phone: '',
      guests: '0',
      captchaResponse: p.captchaResponse,
      lang: 'en',
    });
    form.append('slots', 'x');
    form.append('slots', 'y');
    const res = await call(rsvpFn, `/api/events/${event.id}/rsvp`, {
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      ip: uniqueIp(),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/forms/rsvp/sent');
    for (const s of ['x', 'y'])
      expect((await getSlotRoster(event.id, s)).entries.map((e) => e.id)).toEqual([hashed(p.email)]);
  });

  it('check-in per slot with undo; only a person on the slot; viewers cannot', async () => {
    const [admin, viewer] = [await signedIn('admin'), await signedIn('viewer')];
    const event = await eventWithSlots([shiftSlot('door', 2)], admin.cookie);
    const p = person();
    await rsvpTo(event.id, { ...p, slots: ['door'] });
    const path = `/api/admin/events/${event.id}/shifts/door`;
    const id = hashed(p.email);
    const put = (cookie: string, checkedIn: boolean, who = id) =>
      call(shiftsFn, path, { method: 'PUT', json: { person: who, checkedIn }, cookie });
    expect((await put(viewer.cookie, true)).status).toBe(403);
    expect((await put(admin.cookie, true)).status).toBe(200);
    const view = async () =>
      (
        (await (await call(shiftsFn, path, { cookie: viewer.cookie })).json()) as {
          people: { id: string; checkedInAt: string | null }[];
        }
      ).people;
    expect((await view())[0]!.checkedInAt).not.toBeNull();
    expect((await put(admin.cookie, false)).status).toBe(200);
    expect((await view())[0]!.checkedInAt).toBeNull();
    expect((await put(admin.cookie, true, 'f'.repeat(64))).status).toBe(404);
    // The slot's CSV, through the export mechanism (a registered, audited export).
    await put(admin.cookie, true);
    const csv = await call(shiftsFn, `${path}?format=csv`, { cookie: viewer.cookie });
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('Name,Email,Phone,Status,Waitlist place,Checked in');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(p.email);
    expect(lines[1]).toMatch(/,going,,\d{4}-/);
  });

  it('a slot with people cannot be removed (400); an event without slots is RSVPed as before', async () => {
    const admin = await signedIn('admin');
    const event = await eventWithSlots([shiftSlot('keep', 2)], admin.cookie);
    await rsvpTo(event.id, { ...person(), slots: ['keep'] });
    const res = await call(shiftsFn, `/api/admin/events/${event.id}/shifts`, {
      method: 'PUT',
      json: { slots: [] },
      cookie: admin.cookie,
    });
    expect(res.status).toBe(400);
    const plain = await rsvpEventFixture(5);
    const r = (await (await rsvpTo(plain.id, person())).json()) as RsvpResult;
    expect(r.status).toBe('going');
    expect(r.slots).toBeUndefined();
  });

  it('the staffing plan: 4 sites x 7 early-voting days and Election Day become the expected slots; a second run adds none', async () => {
    const [admin, viewer] = [await signedIn('admin'), await signedIn('viewer')];
    await setElectionCalendar(defaultElectionCalendar, 'test');
    const event = await rsvpEventFixture(null, { title: 'Cover the polls' });
    const plan = (json: unknown, cookie = admin.cookie) =>
      call(planFn, '/api/admin/shift-plan', { json, cookie });
    expect((await plan({ eventId: event.id, shiftMinutes: 180, needed: 2 }, viewer.cookie)).status).toBe(403);
    const first = await plan({ eventId: event.id, shiftMinutes: 180, needed: 2 });
    expect(first.status).toBe(201);
    // Early voting 8:30-18:00 in 3 hours: 8:30, 11:30, 14:30 and a last one 17:30-18:00; Election Day 7:00-20:00:
    // 7, 10, 13, 16 and 19:00-20:00.
    const early = [
      ['08:30', '11:30'],
      ['11:30', '14:30'],
      ['14:30', '17:30'],
      ['17:30', '18:00'],
    ];
    const days = [
      '2025-09-27',
      '2025-09-29',
      '2025-09-30',
      '2025-10-01',
      '2025-10-02',
      '2025-10-03',
      '2025-10-04',
    ];
    const sites = ['city-hall', 'algiers-courthouse', 'chef-menteur', 'lake-vista'];
    const expected = [
      ...days.flatMap((d) => sites.flatMap((s) => early.map(([a, b]) => `${s} ${d} ${a}-${b}`))),
      ...[
        ['07:00', '10:00'],
        ['10:00', '13:00'],
        ['13:00', '16:00'],
        ['16:00', '19:00'],
        ['19:00', '20:00'],
      ].map(([a, b]) => `election-day 2025-10-11 ${a}-${b}`),
    ];
    const stored = (await getShifts(event.id)).slots;
    const seen = stored.map((s) => `${s.siteId ?? 'election-day'} ${s.date} ${s.start}-${s.end}`);
    expect(seen.sort()).toEqual([...expected].sort());
    expect(stored).toHaveLength(4 * 7 * 4 + 5);
    expect(await first.json()).toEqual({ planned: 117, added: 117, total: 117 });

    const again = await plan({ eventId: event.id, shiftMinutes: 180, needed: 2 });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ planned: 117, added: 0, total: 117 });
    expect((await getShifts(event.id)).slots).toEqual(stored);

    // The plan view: each place and day filled / needed, gaps counted.
    const firstSlot = stored.find((s) => s.siteId === 'city-hall' && s.date === '2025-09-27')!;
    const signup = await rsvpTo(event.id, { ...person(), slots: [firstSlot.id] });
    expect(signup.status).toBe(201);
    const view = (await (
      await call(planFn, `/api/admin/shift-plan?event=${event.id}`, { cookie: viewer.cookie })
    ).json()) as {
      rows: PlanRow[];
    };
    expect(view.rows).toHaveLength(4 * 7 + 1);
    const row = view.rows.find((r) => r.place === 'city-hall' && r.date === '2025-09-27')!;
    expect(row).toMatchObject({ filled: 1, needed: 8, gaps: 4 });
    // Election Day's row is the polls (the grid names it so); a site's row is not.
    expect(row.polls).toBe(false);
    expect(view.rows.filter((r) => r.polls).map((r) => r.date)).toEqual(['2025-10-11']);
    expect((await plan({ eventId: event.id, shiftMinutes: 5 })).status).toBe(400);
    expect((await plan({ eventId: 999_999, shiftMinutes: 180 })).status).toBe(404);
  });
});
