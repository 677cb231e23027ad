import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import * as shiftsFn from '../../netlify/functions/admin-event-shifts.mts';
import type { ShiftGapDay } from '../../src/lib/schemas/overview.ts';
import type { ShiftSlot } from '../../src/lib/schemas/shifts.ts';
import { overview } from '../../src/lib/server/overview/overview.ts';
import { rebuildShiftDays } from '../../src/lib/server/overview/rebuild.ts';
import { recordSlotFill, SHIFT_DAY_PREFIX, shiftDayKey } from '../../src/lib/server/activity/shift-gaps.ts';
import { store } from '../../src/lib/server/activity/counts.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { useCountingStores } from '../helpers/counting-store.ts';
import { localProviders, valuesOf } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { shiftSlot } from '../helpers/shifts.ts';
import { cancel, cancelLinkIn, person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * The next seven days' shift gaps on the Overview (docs/decisions/180-overview.md). The clock is an explicit
 * moment with its UTC offset: 23:30 on 3 January in the campaign's zone (America/Chicago, -06:00), already
 * 4 January in UTC, so "the next seven days" are 3 to 9 January, written here by hand.
 */
const NOW = new Date('2031-01-03T23:30:00-06:00');
const WEEK = [
  '2031-01-03',
  '2031-01-04',
  '2031-01-05',
  '2031-01-06',
  '2031-01-07',
  '2031-01-08',
  '2031-01-09',
];

const slot = (id: string, date: string, capacity: number, start = '09:00') =>
  shiftSlot(id, capacity, { date, start, end: '23:59' });

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
});
afterAll(() => blobs.stop());

/** The running test gets a store of its own: no other test's slots are in its week. */
async function ownStore(): Promise<void> {
  const own = await startBlobs();
  onTestFinished(async () => {
    await own.stop();
    blobs.use();
    setStoreFactory(null);
  });
}

async function putSlots(eventId: number, slots: ShiftSlot[], cookie: string) {
  const res = await call(shiftsFn, `/api/admin/events/${eventId}/shifts`, {
    method: 'PUT',
    json: { slots },
    cookie,
  });
  expect(res.status).toBe(200);
}

const signUp = async (eventId: number, slots: string[], over: Record<string, unknown> = {}) => {
  const p = person(over);
  expect((await rsvpTo(eventId, { ...p, slots })).status).toBe(201);
  return p;
};

/** The figures without the slots' titles: day -> [needed, filled, "event/slot filled of needed" of each gap]. */
const shape = (days: ShiftGapDay[]) =>
  days.map((d) => [
    d.day,
    d.needed,
    d.filled,
    d.gaps.map((g) => `${g.eventId}/${g.slotId} ${g.filled} of ${g.needed}`),
  ]);

describe('the next seven days of shifts', () => {
  it('counts places needed and filled per campaign day, as the slots and rosters change, and a rebuild equals it', async () => {
    await ownStore();
    const { cookie } = await signedIn('admin');
    const event = await rsvpEventFixture(null, { title: 'Early vote canvass' });
    const other = await rsvpEventFixture(null, { title: 'Phone bank' });
    await putSlots(
      event.id,
      [
        slot('yesterday', '2031-01-02', 5),
        slot('today', '2031-01-03', 3),
        slot('utc-day', '2031-01-04', 1),
        slot('last', '2031-01-09', 2),
        slot('next-week', '2031-01-10', 4),
      ],
      cookie,
    );
    await putSlots(other.id, [slot('calls', '2031-01-03', 2, '18:00')], cookie);

    await signUp(event.id, ['today', 'utc-day']);
    await signUp(event.id, ['today']);
    await signUp(event.id, ['utc-day']); // waitlisted: one place
    await signUp(other.id, ['calls']);
    await signUp(other.id, ['calls']);

    const e = event.id;
    expect(shape((await overview('7', NOW)).shifts)).toEqual([
      ['2031-01-03', 5, 4, [`${e}/today 2 of 3`]], // the other event's two calls places, both filled
      ['2031-01-04', 1, 1, []],
      ['2031-01-05', 0, 0, []],
      ['2031-01-06', 0, 0, []],
      ['2031-01-07', 0, 0, []],
      ['2031-01-08', 0, 0, []],
      ['2031-01-09', 2, 0, [`${e}/last 0 of 2`]],
    ]);
    expect(shape((await overview('7', NOW)).shifts).map((d) => d[0])).toEqual(WEEK);

    // Staff move the last slot out of the week, and give today's slot a place more.
    await putSlots(
      e,
      [
        slot('yesterday', '2031-01-02', 5),
        slot('today', '2031-01-03', 4),
        slot('utc-day', '2031-01-04', 1),
        slot('last', '2031-01-10', 2),
        slot('next-week', '2031-01-10', 4),
      ],
      cookie,
    );
    const after = shape((await overview('7', NOW)).shifts);
    expect(after[0]).toEqual(['2031-01-03', 6, 4, [`${e}/today 2 of 4`]]);
    expect(after[6]).toEqual(['2031-01-09', 0, 0, []]);

    // Rebuilt from the slots and rosters (npm run reindex): the same figures.
    const maintained = (await overview('7', NOW)).shifts;
    for await (const page of store().keys(SHIFT_DAY_PREFIX)) for (const k of page) await store().delete(k);
    expect(shape((await overview('7', NOW)).shifts)[0]).toEqual(['2031-01-03', 0, 0, []]);
    await rebuildShiftDays(NOW);
    expect((await overview('7', NOW)).shifts).toEqual(maintained);
  });

  it('a cancellation frees a place and the gap shows; a new sign-up fills it again', async () => {
    await ownStore();
    const { cookie } = await signedIn('admin');
    const event = await rsvpEventFixture(null, { title: 'Poll greeters' });
    await putSlots(event.id, [slot('door', '2031-01-05', 1)], cookie);
    const first = await signUp(event.id, ['door']);
    const gapOf = async () => shape((await overview('7', NOW)).shifts)[2];
    expect(await gapOf()).toEqual(['2031-01-05', 1, 1, []]);
    const mails = await valuesOf<{ to: string; text: string }>('outbox', 'email/');
    const mail = mails.find((m) => m.to === first.email)!;
    expect((await cancel(cancelLinkIn(mail.text))).status).toBe(200);
    expect(await gapOf()).toEqual(['2031-01-05', 1, 0, [`${event.id}/door 0 of 1`]]);
    await signUp(event.id, ['door']);
    expect(await gapOf()).toEqual(['2031-01-05', 1, 1, []]);
  });

  it('a fold that finishes late does not put back an older count', async () => {
    await ownStore();
    const event = await rsvpEventFixture(null, { title: 'Lit drop' });
    const s = slot('block', '2031-01-06', 3);
    await recordSlotFill(event.id, s, 2, '2031-01-03T12:00:01.000Z');
    await recordSlotFill(event.id, s, 1, '2031-01-03T12:00:00.000Z');
    expect(shape((await overview('7', NOW)).shifts)[3]).toEqual([
      '2031-01-06',
      3,
      2,
      [`${event.id}/block 2 of 3`],
    ]);
  });
});

describe('what the shift gaps cost', () => {
  it('the same store calls at 1,000 and 100,000 records', async () => {
    const calls: number[] = [];
    for (const n of [1_000, 100_000]) {
      const stores = useCountingStores();
      try {
        const rsvps = stores.store('rsvps');
        for (let i = 0; i < n; i++) await rsvps.put(`shift/1/p${i}`, { id: `p${i}` });
        for (let i = 0; i < n / 1_000; i++)
          await rsvps.put(`shifts/${i + 1}`, { eventId: i + 1, slots: [], updatedAt: null, updatedBy: null });
        for (const d of WEEK)
          await stores.store('overview').put(shiftDayKey(d), {
            day: d,
            slots: Object.fromEntries(
              Array.from({ length: 20 }, (_, i) => [
                `1/s${i}`,
                {
                  eventId: 1,
                  slotId: `s${i}`,
                  start: '09:00',
                  end: '12:00',
                  label: '',
                  needed: n,
                  filled: 1,
                  v: '',
                },
              ]),
            ),
          });
        const { calls: c } = await stores.cost(() => overview('7', NOW));
        calls.push(c);
      } finally {
        setStoreFactory(null);
        blobs.use();
      }
    }
    expect(calls[1]).toBe(calls[0]);
    // The Overview's own reads (at most 30) and the seven days of shifts.
    expect(calls[0]).toBeLessThanOrEqual(37);
  });
});
