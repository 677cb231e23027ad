/**
 * The shifts' confirm-and-remind sequence for 5,000 volunteers (docs/decisions/181-shifts.md, "The sequence").
 * Prints a markdown section for docs/benchmarks.md.
 *   npm exec -- node scripts/bench/shift-sequence.mts      (or BENCH_ONLY=shifts npm run bench)
 *
 * One event with 50 slots of 100 places on one day, 5,000 volunteers going (four in five asked for texts), seeded
 * in an atomic in-memory store that counts every call. The worker runs at the day-before time (a text and an
 * email to each) until nothing is due: the store calls per message, the messages a second in process (the store
 * costs nothing here: a real store's latency times the calls per message is what a run pays), the runs it took
 * (each stops starting messages after 20 s), and the calls of a run once everyone is done.
 */
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';

const VOLUNTEERS = 5_000;
const SLOTS = 50;

export async function benchShiftSequence(): Promise<string> {
  const { setStoreFactory, kv } = await import('../../src/lib/server/storage/stores.ts');
  const calls = { n: 0 };
  const stores = new Map<StoreName, KV>();
  setStoreFactory((name): KV => {
    let s = stores.get(name);
    if (!s) {
      const inner = new MemoryKV();
      s = new Proxy(inner, {
        get(target, prop, receiver) {
          const v = Reflect.get(target, prop, receiver) as unknown;
          if (typeof v !== 'function') return v;
          return (...args: unknown[]) => {
            calls.n++;
            return (v as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
      stores.set(name, s);
    }
    return s;
  });
  const saved = Object.fromEntries(
    [
      'APP_ENV',
      'BROADCAST_RATE_PER_MINUTE',
      'SMS_DAILY_CAP',
      'SENDGRID_API_KEY',
      'TWILIO_ACCOUNT_SID',
      'TWILIO_AUTH_TOKEN',
    ].map((k) => [k, process.env[k]]),
  );
  process.env.APP_ENV = 'test';
  process.env.BROADCAST_RATE_PER_MINUTE = '1000000';
  process.env.SMS_DAILY_CAP = '1000000';
  // The local outbox stands in for the providers (no SENDGRID_API_KEY, no Twilio).
  for (const k of ['SENDGRID_API_KEY', 'TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN']) delete process.env[k];
  try {
    const { createEvent } = await import('../../src/lib/server/content/events.ts');
    const { EventInputSchema } = await import('../../src/lib/schemas/event.ts');
    const { setShifts, shiftRecordKey, slotRosterKey } =
      await import('../../src/lib/server/events/shifts.ts');
    const { runShiftSequence } = await import('../../src/lib/server/events/shift-sequence.ts');
    const { hashed } = await import('../../src/lib/server/storage/keys.ts');

    const date = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
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
    const slots = Array.from({ length: SLOTS }, (_, i) => ({
      id: `site${i}-${date}-1200`,
      date,
      start: '12:00',
      end: '15:00',
      capacity: 100,
      siteId: null,
      label: `Site ${i}`,
    }));
    await setShifts(event.id, slots, 'bench');
    const at = new Date().toISOString();
    const areas = ['212', '504', '303', '415'];
    const rosters = new Map<string, unknown[]>(slots.map((s) => [s.id, []]));
    for (let i = 0; i < VOLUNTEERS; i++) {
      const email = `volunteer${i}@example.org`;
      const id = hashed(email);
      const slot = slots[i % SLOTS]!.id;
      const phone = i % 5 === 4 ? null : `+1${areas[i % 4]}248${String(i).padStart(4, '0')}`;
      await kv('rsvps').put(shiftRecordKey(event.id, id), {
        id,
        eventId: event.id,
        name: `Volunteer ${i}`,
        email,
        phone,
        lang: i % 2 ? 'es' : 'en',
        smsReminder: phone !== null,
        slots: [slot],
        promoted: {},
        createdAt: at,
        updatedAt: at,
        ip: null,
      });
      rosters.get(slot)!.push({ id, seats: 1, status: 'going', at, promotedAt: null, cancelledAt: null });
    }
    for (const [slot, entries] of rosters)
      await kv('rsvps').put(slotRosterKey(event.id, slot), { eventId: event.id, entries });

    // The day before at 11:00, campaign time, as the campaign's clock reads it (the bench's clock, not a test's).
    const prev = new Date(Date.parse(`${date}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const { campaignDayStart } = await import('../../src/lib/campaign-time.ts');
    const due = new Date(Date.parse(campaignDayStart(prev)) + 11 * 3_600_000 + 60_000);
    calls.n = 0;
    let runs = 0;
    let messages = 0;
    const t0 = performance.now();
    for (;;) {
      const run = await runShiftSequence(due);
      runs++;
      messages += run.emails + run.texts + run.skipped;
      if (!run.cut) break;
    }
    const ms = performance.now() - t0;
    const perMessage = calls.n / Math.max(1, messages);
    calls.n = 0;
    await runShiftSequence(new Date(due.getTime() + 5 * 60_000));
    const idle = calls.n;
    return [
      '## Shifts: the day-before step for 5,000 volunteers',
      '',
      `${VOLUNTEERS.toLocaleString('en-US')} volunteers on ${SLOTS} slots of one day (four in five asked for texts), an in-memory store counting calls; the worker at the day-before time until nothing is due (docs/decisions/181-shifts.md).`,
      '',
      '| Messages | Runs | Store calls per message | Messages a second (in process) | Store calls of the next run |',
      '| --: | --: | --: | --: | --: |',
      `| ${messages} | ${runs} | ${perMessage.toFixed(1)} | ${Math.round(messages / (ms / 1000))} | ${idle} |`,
      '',
    ].join('\n');
  } finally {
    setStoreFactory(null);
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchShiftSequence());
