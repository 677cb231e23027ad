import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventInputSchema } from '../../src/lib/schemas/event.ts';
import { SequenceConfigSchema } from '../../src/lib/schemas/shift-sequence.ts';
import { createEvent } from '../../src/lib/server/content/events.ts';
import { StoredRsvpSchema } from '../../src/lib/schemas/rsvp.ts';
import { rosterKey, rsvpKey } from '../../src/lib/server/events/rsvp.ts';
import { runShiftSequence, setSequenceConfig } from '../../src/lib/server/events/shift-sequence.ts';
import { setShifts, shiftRecordKey, slotRosterKey } from '../../src/lib/server/events/shifts.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { useCountingStores, type CountingStores } from '../helpers/counting-store.ts';
import { localProviders, setEnv } from '../helpers/forms.ts';
import { rsvpEventFixture } from '../helpers/rsvp.ts';

/*
 * Store calls per person of the shifts' sequence (docs/decisions/181-shifts.md, "Store calls per message"): a
 * person's due messages (the day before: a text and an email) are claimed on their sequence record in one
 * compare-and-set and their outcomes recorded in one, so the record costs at most 4 calls per person however many
 * messages are due (it was 5 per message, 7 for the first). On the atomic in-memory store, counting the calls on
 * the sequence records only.
 */

let stores: CountingStores;
beforeAll(() => {
  localProviders();
  stores = useCountingStores();
});
afterAll(() => setStoreFactory(null));

/** An event with one slot on `date` (12:00-15:00) and `n` people going, every third without texts. */
async function slotWithPeople(date: string, n: number, tag: string) {
  const event = await createEvent(
    EventInputSchema.parse({
      title: 'Cover the polls',
      location: 'Every site',
      eventDate: date,
      startTime: '06:00',
      endTime: '20:00',
      eventType: 'community_event',
      isPublic: true,
      registrationRequired: true,
      registrationUrl: '',
      maxAttendees: null,
    }),
  );
  const slot = {
    id: 'site-1200',
    date,
    start: '12:00',
    end: '15:00',
    capacity: 100,
    siteId: null,
    label: 'Site',
  };
  await setShifts(event.id, [slot], 'test');
  const at = new Date('2026-10-01T10:00:00-05:00').toISOString();
  const entries = [];
  for (let i = 0; i < n; i++) {
    const email = `${tag}${i}@example.org`;
    const id = hashed(email);
    const phone = i % 3 === 2 ? null : `+1504${tag === 'calls' ? '248' : '249'}${String(1000 + i)}`;
    await kv('rsvps').put(shiftRecordKey(event.id, id), {
      id,
      eventId: event.id,
      name: `Volunteer ${i}`,
      email,
      phone,
      lang: i % 2 ? 'es' : 'en',
      smsReminder: phone !== null,
      slots: [slot.id],
      promoted: {},
      createdAt: at,
      updatedAt: at,
      ip: null,
    });
    entries.push({ id, seats: 1, status: 'going', at, promotedAt: null, cancelledAt: null });
  }
  await kv('rsvps').put(slotRosterKey(event.id, slot.id), { eventId: event.id, entries });
}

/**
 * An event without slots on `date` (18:00-19:30) and `n` RSVPs going, every third without texts; its sequence's
 * steps turned on by staff when `on`.
 */
async function plainEventWithPeople(date: string, n: number, tag: string, on: boolean) {
  const event = await rsvpEventFixture(null, { title: 'Town hall', location: 'Library', eventDate: date });

  if (on) await setSequenceConfig(event.id, SequenceConfigSchema.parse({}));
  const at = new Date('2026-10-01T10:00:00-05:00').toISOString();
  const entries = [];
  for (let i = 0; i < n; i++) {
    const email = `${tag}${i}@example.org`;
    const id = hashed(email);
    const phone = i % 3 === 2 ? null : `+15042${tag.length}7${String(1000 + i)}`;
    await kv('rsvps').put(
      rsvpKey(event.id, id),
      StoredRsvpSchema.parse({
        id,
        eventId: event.id,
        name: `Guest ${i}`,
        email,
        phone,
        guests: 0,
        smsReminder: phone !== null,
        lang: i % 2 ? 'es' : 'en',
        status: 'going',
        statusEmailAt: null,
        createdAt: at,
        updatedAt: at,
        cancelledAt: null,
        checkedInAt: null,
        checkedInBy: null,
        confirmation: null,
        promotion: null,
        reminderEmail: null,
        reminderSms: null,
        ip: null,
        userAgent: null,
      }),
    );
    entries.push({ id, seats: 1, status: 'going', at, promotedAt: null, cancelledAt: null });
  }
  await kv('rsvps').put(rosterKey(event.id), { eventId: event.id, entries });
  return event.id;
}

describe("the sequence's store calls", () => {
  it('the day before, each person costs their sequence record at most 4 calls for a text and an email, and each gets both once', async () => {
    await slotWithPeople('2026-10-06', 12, 'calls');
    stores.reset();
    const run = await runShiftSequence(new Date('2026-10-05T11:01:00-05:00'));
    expect(run).toMatchObject({ texts: 8, emails: 12, skipped: 0, later: 0, cut: false });
    const records = [...stores.byKey()].filter(([k]) => k.startsWith('rsvps shift-seq/'));
    expect(records).toHaveLength(12);
    expect(Math.max(...records.map(([, n]) => n))).toBeLessThanOrEqual(4);

    // A second run finds everyone done: no record is read again (the progress list says so).
    stores.reset();
    expect(await runShiftSequence(new Date('2026-10-05T11:06:00-05:00'))).toMatchObject({
      texts: 0,
      emails: 0,
    });
    expect([...stores.byKey().keys()].filter((k) => k.startsWith('rsvps shift-seq/'))).toEqual([]);
  });

  it("once the run's minute of the send rate is spent, the run's later texts wait unclaimed: the rate is asked once more, not once per person", async () => {
    setEnv({ BROADCAST_RATE_PER_MINUTE: '2' });
    try {
      await slotWithPeople('2026-10-20', 48, 'paced');
      stores.reset();
      const run = await runShiftSequence(new Date('2026-10-19T11:01:00-05:00'));
      // Every email goes; the texts that found the minute spent wait for a later run.
      expect(run.emails).toBe(48);
      expect(run.texts).toBeLessThanOrEqual(2);
      expect(run.texts + run.later).toBe(32);
      const rateCalls = [...stores.byKey()]
        .filter(([k]) => k.startsWith('broadcasts rate/'))
        .reduce((n, [, c]) => n + c, 0);
      // Each text sent: a read and a write of the minute's budget; refused: a read each, for the people already
      // under way when the first refusal came (8 at a time), not for the 32 who have texts.
      expect(rateCalls).toBeLessThanOrEqual(2 * run.texts + 8);
    } finally {
      setEnv({ BROADCAST_RATE_PER_MINUTE: undefined });
    }
  });

  it('events without slots: the run reads the events index once, two documents per event of the four days, and for an event whose steps are on its roster and progress; each RSVP costs their sequence record at most 4 calls, and nothing once done', async () => {
    const on = await plainEventWithPeople('2026-10-27', 9, 'plainon', true);
    const off = await plainEventWithPeople('2026-10-27', 9, 'plainoff', false);
    const today = await plainEventWithPeople('2026-10-26', 3, 'plainday', false);
    // Outside the four days: the run reads nothing of it.
    await plainEventWithPeople('2026-10-30', 3, 'plainlater', true);
    stores.reset();
    const run = await runShiftSequence(new Date('2026-10-26T11:01:00-05:00'));
    // Only the event whose steps staff turned on: 9 emails, 6 texts.
    expect(run).toMatchObject({ slots: 1, texts: 6, emails: 9, skipped: 0, later: 0, cut: false });
    const records = [...stores.byKey()].filter(([k]) => k.startsWith('rsvps shift-seq/'));
    expect(records).toHaveLength(9);
    expect(Math.max(...records.map(([, n]) => n))).toBeLessThanOrEqual(4);

    // Everyone done: the day index (4 days) and the events' index, the three events' slots and settings, the one
    // due slot's roster and progress, each once; no person's record, nothing of any other event.
    stores.reset();
    expect(await runShiftSequence(new Date('2026-10-26T11:06:00-05:00'))).toMatchObject({
      slots: 1,
      texts: 0,
      emails: 0,
    });
    const days = ['2026-10-24', '2026-10-25', '2026-10-26', '2026-10-27'];
    expect(Object.fromEntries(stores.byKey())).toEqual(
      Object.fromEntries(
        [
          ...days.map((d) => `rsvps shift-day/${d}`),
          'events index',
          ...[on, off, today].flatMap((id) => [`rsvps shifts/${id}`, `rsvps shift-sequence/${id}`]),
          `rsvps roster/${on}`,
          `rsvps shift-seq-progress/${on}/event`,
        ].map((k) => [k, 1]),
      ),
    );
  });
});
