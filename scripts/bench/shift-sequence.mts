/**
 * The shifts' confirm-and-remind sequence for 5,000 volunteers (docs/decisions/181-shifts.md, "The sequence").
 * Prints a markdown section for docs/benchmarks.md.
 *   npm exec -- node scripts/bench/shift-sequence.mts      (or BENCH_ONLY=shifts npm run bench)
 *   BENCH_STORE_MS=30 (default)                            the store's round trip in the second pass (0: skip it)
 *
 * One event with 50 slots of 100 places on one day, 5,000 volunteers going (four in five asked for texts), seeded
 * in an atomic in-memory store that counts every call. The worker runs as the schedule runs it: at the day-before
 * time, then every 5 minutes, each run with its own clock (the text guard spends the shared send rate of the
 * run's minute), until nothing is due. Under the configured send rate (BROADCAST_RATE_PER_MINUTE, as the
 * environment sets it: the default when unset), twice:
 *
 * 1. The store costs nothing: store calls per message, messages a second in process, and the send rate: the text
 *    segments sent in the busiest clock minute against the configured rate. The budget line fails (`overRate`)
 *    when they exceed it: sending faster than configured is the bug this catches.
 * 2. Each store call takes BENCH_STORE_MS (a Netlify round trip): how many messages a run gets through in its
 *    20 s, the runs and the minutes the step then spreads over, and the rate that reaches: below the configured
 *    one because of the store, which is reported, not failed.
 */
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { countSegments } from '../../src/lib/sms-segments.ts';

const VOLUNTEERS = 5_000;
const SLOTS = 50;
/** The scheduled function's interval (netlify/functions/shift-sequence.mts: every 5 minutes). */
const EVERY_MS = 5 * 60_000;

interface Pass {
  messages: number;
  runs: number;
  /** Wall time of all the runs (the gaps between runs are the schedule's, not waited for). */
  ms: number;
  calls: number;
  /** Messages per run, in order. */
  perRun: number[];
  /** Text segments the provider got in the busiest clock minute (each run has its own minute). */
  peakSegments: number;
  /** From the first run's start to the last run's end, schedule gaps included (minutes). */
  spanMinutes: number;
}

export async function benchShiftSequence(): Promise<{ markdown: string; overRate: boolean }> {
  const { setStoreFactory, kv } = await import('../../src/lib/server/storage/stores.ts');
  const storeMs = Number(process.env.BENCH_STORE_MS ?? 30);
  const counter = { calls: 0, delay: 0, segments: new Map<number, number>(), minute: 0 };
  const useFreshStores = () => {
    const stores = new Map<StoreName, KV>();
    setStoreFactory((name): KV => {
      let s = stores.get(name);
      if (!s) {
        const inner = new MemoryKV();
        s = new Proxy(inner, {
          get(target, prop, receiver) {
            const v = Reflect.get(target, prop, receiver) as unknown;
            if (typeof v !== 'function') return v;
            // A listing is an async generator: counted, not delayed (the sequence lists nothing).
            if (prop === 'keys')
              return (...args: unknown[]) => {
                counter.calls++;
                return (v as (...a: unknown[]) => unknown).apply(target, args);
              };
            return async (...args: unknown[]) => {
              counter.calls++;
              if (counter.delay) await new Promise((r) => setTimeout(r, counter.delay));
              // Every text the provider gets (the local outbox stands in for it), by the run's clock minute.
              if (name === 'outbox' && prop === 'put' && String(args[0]).startsWith('sms/')) {
                const n = countSegments(String((args[1] as { body?: string }).body ?? '')).segments;
                counter.segments.set(counter.minute, (counter.segments.get(counter.minute) ?? 0) + n);
              }
              return (v as (...a: unknown[]) => unknown).apply(target, args);
            };
          },
        });
        stores.set(name, s);
      }
      return s;
    });
  };
  const saved = Object.fromEntries(
    ['APP_ENV', 'SMS_DAILY_CAP', 'SENDGRID_API_KEY', 'TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'].map((k) => [
      k,
      process.env[k],
    ]),
  );
  process.env.APP_ENV = 'test';
  // The site-wide daily cap is another budget (strangers' texts); the send rate stays as configured.
  process.env.SMS_DAILY_CAP = '1000000';
  // The local outbox stands in for the providers (no SENDGRID_API_KEY, no Twilio).
  for (const k of ['SENDGRID_API_KEY', 'TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN']) delete process.env[k];
  try {
    const { createEvent } = await import('../../src/lib/server/content/events.ts');
    const { EventInputSchema } = await import('../../src/lib/schemas/event.ts');
    const { setShifts, shiftRecordKey, slotRosterKey } =
      await import('../../src/lib/server/events/shifts.ts');
    const { runShiftSequence } = await import('../../src/lib/server/events/shift-sequence.ts');
    const { broadcastRate } = await import('../../src/lib/server/texting/pacing.ts');
    const { hashed } = await import('../../src/lib/server/storage/keys.ts');
    const { campaignDayStart } = await import('../../src/lib/campaign-time.ts');
    const rate = broadcastRate();
    const date = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);

    /** Fresh stores with the event, its slots, 5,000 people and the rosters (the store costs nothing here). */
    async function seed() {
      counter.delay = 0;
      useFreshStores();
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
    }

    // The day before at 11:00, campaign time, as the campaign's clock reads it (the bench's clock, not a test's).
    const prev = new Date(Date.parse(`${date}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const due = Date.parse(campaignDayStart(prev)) + 11 * 3_600_000 + 60_000;

    /** The scheduled runs from the step's time until one finds nothing left to do. */
    async function pass(delay: number): Promise<Pass & { idle: number }> {
      await seed();
      counter.delay = delay;
      counter.calls = 0;
      counter.segments.clear();
      const perRun: number[] = [];
      let lastRunMs = 0;
      const t0 = performance.now();
      for (let k = 0; k < 200; k++) {
        const now = new Date(due + k * EVERY_MS);
        counter.minute = Math.floor(now.getTime() / 60_000);
        const r0 = performance.now();
        const run = await runShiftSequence(now);
        lastRunMs = performance.now() - r0;
        perRun.push(run.emails + run.texts + run.skipped);
        if (!run.cut && !run.later) break;
      }
      const ms = performance.now() - t0;
      const calls = counter.calls;
      counter.calls = 0;
      await runShiftSequence(new Date(due + perRun.length * EVERY_MS));
      return {
        messages: perRun.reduce((a, b) => a + b, 0),
        runs: perRun.length,
        ms,
        calls,
        perRun,
        peakSegments: Math.max(0, ...counter.segments.values()),
        spanMinutes: ((perRun.length - 1) * EVERY_MS + lastRunMs) / 60_000,
        idle: counter.calls,
      };
    }

    const free = await pass(0);
    const slow = storeMs > 0 ? await pass(storeMs) : null;
    const ratio = (n: number) => (n / rate).toFixed(2);
    const overRate = free.peakSegments > rate;
    const n = (x: number) => x.toLocaleString('en-US');
    const lines = [
      '## Shifts: the day-before step for 5,000 volunteers',
      '',
      `${n(VOLUNTEERS)} volunteers on ${SLOTS} slots of one day (four in five asked for texts), an in-memory store counting calls; the worker run as scheduled (every 5 minutes, each run with its own clock, so the text guard spends that minute's share of the send rate) from the day-before time until nothing is due (docs/decisions/181-shifts.md). Configured send rate (BROADCAST_RATE_PER_MINUTE${process.env.BROADCAST_RATE_PER_MINUTE ? '' : ', unset: the default'}): ${n(rate)} text segments a minute.`,
      '',
      `Command: \`flock /tmp/campaign-heavy.lock env BENCH_ONLY=shifts npm run bench\` (or \`npm exec -- node scripts/bench/shift-sequence.mts\`).`,
      '',
      '| Store call | Messages | Runs | Store calls per message | Messages a second (in process) | Segments in the busiest minute | Configured rate | Measured / configured | Spread (minutes) | Store calls of the next run |',
      '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
      ...[free, slow].flatMap((p, i) =>
        p
          ? [
              `| ${i ? `${storeMs} ms` : 'free'} | ${p.messages} | ${p.runs} | ${(p.calls / Math.max(1, p.messages)).toFixed(1)} | ${Math.round(p.messages / (p.ms / 1000))} | ${n(p.peakSegments)} | ${n(rate)} | ${ratio(p.peakSegments)} | ${p.spanMinutes.toFixed(1)} | ${p.idle} |`,
            ]
          : [],
      ),
      '',
      `Send rate budget (segments in any one minute <= the configured rate, the store costing nothing): ${overRate ? `**FAIL**: ${n(free.peakSegments)} > ${n(rate)}, sending faster than configured` : `**ok** (${n(free.peakSegments)} <= ${n(rate)})`}.`,
      ...(slow
        ? [
            '',
            `At ${storeMs} ms a store call a run gets through ${n(Math.max(...slow.perRun))} messages in its 20 s (runs: ${slow.perRun.join(', ')}), so the step spreads over ${slow.spanMinutes.toFixed(0)} minutes and its texts reach ${ratio(slow.peakSegments)} of the configured rate: slower because of the store, reported, not failed.`,
          ]
        : []),
      '',
    ];
    return { markdown: lines.join('\n'), overRate };
  } finally {
    setStoreFactory(null);
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { markdown, overRate } = await benchShiftSequence();
  console.log(markdown);
  process.exit(overRate ? 1 : 0);
}
