import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as votePlanFn from '../../netlify/functions/vote-plan.mts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import type { ElectionCalendar } from '../../src/lib/election-stage.ts';
import type { StoredBroadcast } from '../../src/lib/schemas/broadcasts.ts';
import { StoredVotePlanSchema } from '../../src/lib/schemas/vote-plan.ts';
import { setElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { runReminders } from '../../src/lib/server/events/reminders.ts';
import {
  reserveTextToNumber,
  smsBudgetToday,
  TEXT_SIGNUP_LIMITS,
} from '../../src/lib/server/texting/text-limits.ts';
import { TEXT_REFUSALS } from '../../src/lib/server/texting/text-guard.ts';
import { runPlanReminders } from '../../src/lib/server/vote-plans/reminders.ts';
import type { StoredTextSignup } from '../../src/lib/schemas/inbox.ts';
import { runBroadcasts } from '../../src/lib/server/broadcasts/engine.ts';
import { broadcastView } from '../../src/lib/server/broadcasts/staff.ts';
import { resumesInWords } from '../../src/admin/tabs/BroadcastsTab.tsx';
import {
  createBroadcast,
  emptyRun,
  getBroadcast,
  updateBroadcast,
} from '../../src/lib/server/broadcasts/repo.ts';
import { hashed, key } from '../../src/lib/server/storage/keys.ts';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { readAll } from '../../src/lib/server/storage/listing.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { Pacer, spendRateNow } from '../../src/lib/server/texting/pacing.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { FakeClock, Killed, textSubscriber, useKillableStores } from '../helpers/broadcasts.ts';
import { DST_2026 } from '../helpers/election.ts';
import { localProviders, setEnv, uniqueIp, valuesOf } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';

/*
 * The sending guarantees, each proven by a test that fails when the line that keeps it is weakened
 * (docs/decisions/152-broadcasts.md, 115-quiet-hours-in-the-recipients-zone.md,
 * 111-plan-reminders.md): exactly once across workers killed while sending,
 * quiet hours in the recipient's zone (never the campaign's), plan-to-vote reminders under the daily caps,
 * and a per-minute send rate that never carries a minute's unused allowance into the next.
 * Every fake clock here is written with an explicit UTC offset.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
});
afterAll(async () => {
  setStoreFactory(null);
  localProviders();
  await blobs.stop();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  setStoreFactory(null);
  setEnv({ BROADCAST_RATE_PER_MINUTE: undefined, SMS_DAILY_CAP: undefined, SMS_SEND_WINDOW: undefined });
});

/** Area codes of every US zone the campaign texts: Eastern, Central, Mountain, Arizona, Pacific, Hawaii. */
const AREAS = ['212', '504', '312', '303', '602', '415', '808'] as const;

function subscriberNo(phone: string, n: number): StoredTextSignup {
  return textSubscriber(phone, '2025-06-01T07:00:00-05:00', {
    firstName: n % 5 === 0 ? '' : `P${n}`,
    lang: n % 4 === 0 ? 'es' : 'en',
  });
}

/** `count` subscribers on the text list, spread over AREAS; their numbers. */
async function textSubscribers(count: number, areas: readonly string[] = AREAS): Promise<string[]> {
  const phones = Array.from(
    { length: count },
    (_, n) => `+1${areas[n % areas.length]}${2_000_000 + Math.floor(n / areas.length)}`,
  );
  for (let i = 0; i < phones.length; i += 500)
    await Promise.all(
      phones
        .slice(i, i + 500)
        .map((p, j) => kv('signups').put(key('person', hashed(p)), subscriberNo(p, i + j))),
    );
  return phones;
}

async function textBroadcast(): Promise<StoredBroadcast> {
  const now = '2025-07-01T05:00:00-05:00';
  return createBroadcast({
    name: 'GOTV',
    channel: 'text',
    audience: { kind: 'text_subscribers' },
    text: {
      body: 'Hi {firstName}, polls are open until 8.',
      bodyEs: 'Hola {firstName}, las urnas cierran a las 8.',
      firstNameFallback: 'friend',
    },
    status: 'preparing',
    scheduledAt: null,
    createdBy: 'admin',
    createdAt: now,
    updatedAt: now,
    updatedBy: 'admin',
    approvedBy: null,
    approvedAt: null,
    run: emptyRun(1),
  });
}

/** Every text the local provider (the outbox) took, by number. */
async function textsPerNumber(): Promise<Map<string, number>> {
  const per = new Map<string, number>();
  for (const m of await readAll<{ to: string }>(kv('outbox'), 'sms/'))
    per.set(m.to, (per.get(m.to) ?? 0) + 1);
  return per;
}

/** A small linear congruential generator: the same seed, the same kill points. */
function prng(seed: number): () => number {
  let s = seed % 2 ** 31;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('exactly once: a worker killed while sending a 10,000-recipient text broadcast', () => {
  it('every number gets exactly one text', async () => {
    // SENDING_KILL_SEED=<seed> replays a run; every failure names its seed.
    const seed = Number(process.env.SENDING_KILL_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const random = prng(seed);
    const why = (what: string) => `${what} (SENDING_KILL_SEED=${seed})`;
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    // The outbox is the provider: a dead worker does not take back what it already handed over.
    const killable = useKillableStores(['outbox']);
    setEnv({ BROADCAST_RATE_PER_MINUTE: '100000', SMS_SEND_WINDOW: undefined });
    // 15:00 in New York, 14:00 New Orleans, 12:00 Phoenix and Los Angeles, 9:00 Honolulu: open everywhere.
    const clock = new FakeClock('2025-07-01T15:00:00-04:00');
    const N = 10_000;
    const phones = await killable.run(() => textSubscribers(N));
    const b = await killable.run(() => textBroadcast());
    const run = () => killable.run(() => runBroadcasts({ clock, deadline: clock.now() + 25_000 }));
    // Prepared without kills (the existing test kills the preparing), then sent.
    for (let i = 0; i < 20 && (await killable.run(() => getBroadcast(b.id)))?.status !== 'ready'; i += 1)
      await run();
    await killable.run(() => updateBroadcast(b.id, (x) => ({ ...x, status: 'sending' })));

    let kills = 0;
    /** Deliveries a killed worker had claimed and not recorded: the ones exactly-once is about. */
    let orphaned = 0;
    for (let round = 0; round < 200; round += 1) {
      const cur = await killable.run(() => getBroadcast(b.id));
      if (cur?.status === 'completed') break;
      // A point within the next couple of hundred deliveries (each is about ten store calls), so all twenty
      // kills land while sending whatever a delivery costs.
      if (kills < 20) killable.arm(1 + Math.floor(random() * 2000));
      try {
        await run();
        killable.disarm();
      } catch (err) {
        if (!(err instanceof Killed)) throw err;
        kills += 1;
        killable.restart();
        const claims = await killable.run(() =>
          readAll<{ state: string }>(kv('broadcasts'), `delivery/${b.id}/`),
        );
        orphaned += claims.filter((c) => c.state === 'claimed').length;
        // A new process, once the dead one's leases and claims have run out.
        clock.advance(91_000);
        continue;
      }
      clock.advance(60_000);
    }
    const final = await killable.run(() => getBroadcast(b.id));
    expect(kills, why('kills')).toBe(20);
    expect(orphaned, why('kills that left a claimed, unrecorded delivery')).toBeGreaterThan(0);
    expect(final?.status, why('status')).toBe('completed');
    const per = await killable.run(() => textsPerNumber());
    const twice = [...per].filter(([, n]) => n > 1);
    expect(twice.length, why(`numbers texted more than once, e.g. ${twice.slice(0, 3).join(' ')}`)).toBe(0);
    expect(new Set(per.keys()), why('numbers texted')).toEqual(new Set(phones));
    expect(final?.run.counts.sent, why('sent count')).toBe(N);
  }, 120_000);
});

/**
 * Every store an atomic in-memory KV; the local provider (the outbox) notes each text's number and the fake
 * clock's time when it took it.
 */
function useProviderOnClock(clock: FakeClock): { to: string; at: number }[] {
  const sent: { to: string; at: number }[] = [];
  const stores = new Map<StoreName, KV>();
  setStoreFactory((name) => {
    let s = stores.get(name);
    if (s) return s;
    const inner = new MemoryKV();
    s =
      name === 'outbox'
        ? Object.assign(Object.create(inner) as KV, {
            put: async (k: string, v: unknown) => {
              if (k.startsWith('sms/')) sent.push({ to: (v as { to: string }).to, at: clock.now() });
              return inner.put(k, v);
            },
          })
        : inner;
    stores.set(name, s);
    return s;
  });
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
  return sent;
}

/** Prepares a text broadcast on `clock` and sets it sending. */
async function preparedAndSending(clock: FakeClock): Promise<StoredBroadcast> {
  const b = await textBroadcast();
  for (let i = 0; i < 10 && (await getBroadcast(b.id))?.status !== 'ready'; i += 1)
    await runBroadcasts({ clock, deadline: clock.now() + 25_000 });
  const sending = await updateBroadcast(b.id, (x) => ({ ...x, status: 'sending' }));
  expect(sending?.status).toBe('sending');
  return sending!;
}

describe('quiet hours are the recipient’s, never the campaign’s (broadcast engine and guard)', () => {
  /** Which numbers got a text by each run: one broadcast, runs at the given instants. */
  async function whoAt(instants: string[], phones: string[]): Promise<Map<string, string>> {
    const clock = new FakeClock(instants[0]!);
    const sent = useProviderOnClock(clock);
    setEnv({ BROADCAST_RATE_PER_MINUTE: '1000' });
    for (const [n, p] of phones.entries())
      await kv('signups').put(key('person', hashed(p)), subscriberNo(p, n + 1));
    const b = await preparedAndSending(clock);
    const first = new Map<string, string>();
    for (const at of instants) {
      clock.ms = Date.parse(at);
      await runBroadcasts({ clock, deadline: clock.now() + 25_000 });
      for (const m of sent) if (!first.has(m.to)) first.set(m.to, at);
    }
    expect((await getBroadcast(b.id))?.run.counts.sent).toBe(first.size);
    return first;
  }
  const one = (area: string) => `+1${area}5550142`;

  it('morning (July, daylight time): each zone starts at 9:00 its own time; New York before New Orleans opens', async () => {
    const phones = AREAS.map(one);
    const first = await whoAt(
      [
        '2025-07-01T08:30:00-05:00', // 9:30 New York; 8:30 New Orleans (the campaign): closed there
        '2025-07-01T09:30:00-05:00', // New Orleans and Chicago open; 8:30 Denver
        '2025-07-01T10:30:00-05:00', // 9:30 Denver; 8:30 Phoenix (no daylight saving) and Los Angeles
        '2025-07-01T11:30:00-05:00', // 9:30 Phoenix and Los Angeles; 6:30 Honolulu
        '2025-07-01T14:30:00-05:00', // 9:30 Honolulu
      ],
      phones,
    );
    expect(Object.fromEntries([...first].map(([p, at]) => [p.slice(2, 5), at]))).toEqual({
      '212': '2025-07-01T08:30:00-05:00',
      '504': '2025-07-01T09:30:00-05:00',
      '312': '2025-07-01T09:30:00-05:00',
      '303': '2025-07-01T10:30:00-05:00',
      '602': '2025-07-01T11:30:00-05:00',
      '415': '2025-07-01T11:30:00-05:00',
      '808': '2025-07-01T14:30:00-05:00',
    });
  });

  it('evening (November, standard time): the West is texted after New Orleans has closed; New York is not', async () => {
    const phones = AREAS.map(one);
    const first = await whoAt(
      [
        '2026-11-05T20:30:00-06:00', // closed in New Orleans, Chicago (20:30) and New York (21:30)
        '2026-11-05T21:30:00-06:00', // 20:30 Denver and Phoenix: closed; 19:30 Los Angeles; 17:30 Honolulu
      ],
      phones,
    );
    expect(Object.fromEntries([...first].map(([p, at]) => [p.slice(2, 5), at]))).toEqual({
      '303': '2026-11-05T20:30:00-06:00',
      '602': '2026-11-05T20:30:00-06:00',
      '415': '2026-11-05T20:30:00-06:00',
      '808': '2026-11-05T20:30:00-06:00',
    });
  });
});

describe('quiet hours say when sending resumes', () => {
  it('the view names the first window to open, in the recipients’ zone, and the dashboard says it in both zones', async () => {
    // 7:30 in Los Angeles and Phoenix (no daylight saving), 9:30 Chicago, 10:30 New York: the West waits.
    const clock = new FakeClock('2025-07-01T07:30:00-07:00');
    useProviderOnClock(clock);
    setEnv({ BROADCAST_RATE_PER_MINUTE: '1000' });
    const phones = ['212', '312', '602', '415'].map((a) => `+1${a}5550177`);
    for (const [n, p] of phones.entries())
      await kv('signups').put(key('person', hashed(p)), subscriberNo(p, n + 1));
    const b = await preparedAndSending(clock);
    await runBroadcasts({ clock, deadline: clock.now() + 25_000 });
    const v = await broadcastView(b.id, clock.now());
    expect(v.progress.waiting).toBe(2);
    // 9:00 Pacific daylight time and 9:00 in Phoenix (MST) are the same instant: 16:00 UTC.
    expect(v.progress.resumes?.at).toBe(new Date('2025-07-01T09:00:00-07:00').toISOString());
    expect(['America/Los_Angeles', 'America/Phoenix']).toContain(v.progress.resumes?.zone);
    expect(resumesInWords({ at: v.progress.resumes!.at, zone: 'America/Los_Angeles' })).toBe(
      'sending resumes at 9:00 AM Pacific Daylight Time (11:00 AM in New Orleans), Tue, Jul 1',
    );
    // Once every window is open, nothing waits and nothing is announced.
    clock.ms = Date.parse('2025-07-01T09:05:00-07:00');
    await runBroadcasts({ clock, deadline: clock.now() + 25_000 });
    const after = await broadcastView(b.id, clock.now());
    expect(after.progress).toMatchObject({ waiting: 0, resumes: null });
  });
});

describe('the per-minute send rate, across minute boundaries', () => {
  it('the Pacer drops what it took of a minute when the minute turns (another sender has the next one)', async () => {
    const clock = new FakeClock('2026-03-09T10:59:59.500-05:00');
    useProviderOnClock(clock);
    const pacer = new Pacer(clock, 100);
    // At 10:59:59.5 the pacer takes 100 units of 10:59 and spends 10.
    expect(await pacer.take(10, 100, clock.now() + 120_000)).toBe(true);
    clock.advance(1_000);
    // 11:00: a reminder job spends the whole of 11:00's budget.
    expect(await spendRateNow(100, clock.now(), 100)).toBe(true);
    // The 90 units left of 10:59 are not 11:00's: nothing more can go before 11:01.
    expect(await pacer.take(10, 10, clock.now() + 30_000)).toBe(false);
    expect(await pacer.take(10, 10, clock.now() + 120_000)).toBe(true);
    expect(clock.now()).toBe(Date.parse('2026-03-09T11:01:00-05:00'));
  });

  it('the guard’s spend: a minute gets its rate and no more, whatever the minute before left unused', async () => {
    const clock = new FakeClock('2026-03-09T10:59:59.500-05:00');
    useProviderOnClock(clock);
    expect(await spendRateNow(30, clock.now(), 100)).toBe(true);
    expect(await spendRateNow(71, clock.now(), 100)).toBe(false);
    clock.advance(1_000);
    expect(await spendRateNow(100, clock.now(), 100)).toBe(true);
    expect(await spendRateNow(1, clock.now(), 100)).toBe(false);
  });

  it('an engine run from :59.5 into the next minutes never sends more than the rate in any minute', async () => {
    const RATE = 100;
    // 11:59:59.5 in New Orleans: open in every zone used here.
    const clock = new FakeClock('2026-03-09T11:59:59.500-05:00');
    const sent = useProviderOnClock(clock);
    setEnv({ BROADCAST_RATE_PER_MINUTE: String(RATE) });
    // 480 recipients, 160 in each of three zones (one chunk each), all in English: one segment each.
    const phones = Array.from({ length: 480 }, (_, n) => `+1${['212', '504', '415'][n % 3]}${2_100_000 + n}`);
    for (const p of phones)
      await kv('signups').put(key('person', hashed(p)), { ...subscriberNo(p, 1), lang: 'en' });
    const b = await preparedAndSending(clock);
    for (let run = 0; run < 20 && (await getBroadcast(b.id))?.status !== 'completed'; run += 1) {
      // Each run starts half a second before a minute turns; batches of 40 (40 units) leave 20 of 100 unused.
      clock.ms = (Math.floor(clock.now() / 60_000) + 1) * 60_000 - 500;
      await runBroadcasts({ clock, deadline: clock.now() + 25_000, lanes: 1, batch: 40 });
    }
    expect((await getBroadcast(b.id))?.status).toBe('completed');
    const perMinute = new Map<number, number>();
    for (const m of sent)
      perMinute.set(Math.floor(m.at / 60_000), (perMinute.get(Math.floor(m.at / 60_000)) ?? 0) + 1);
    expect(sent).toHaveLength(480);
    expect(perMinute.size).toBeGreaterThan(4);
    expect(Math.max(...perMinute.values())).toBeLessThanOrEqual(RATE);
  });
});

// ---------------------------------------------------------------------------
// Plan-to-vote and RSVP reminders: the guard alone decides (no engine around them)

const calendar: ElectionCalendar = {
  sites: defaultElectionCalendar.sites,
  mode: 'none',
  runoff: null,
  primary: DST_2026,
};

/** DST_2026 with Election Day moved to `electionDay` and one more early-voting day. */
function calendarWith(electionDay: string, earlyDay: string, resultsDate: string): ElectionCalendar {
  const cal = structuredClone(calendar);
  cal.primary.electionDay.date = electionDay;
  cal.primary.resultsDate = resultsDate;
  cal.primary.earlyVoting.push({ date: earlyDay, open: '08:30', close: '18:00', sites: ['city-hall'] });
  return cal;
}

/** Date (only) reads `iso`, an instant written with its UTC offset. */
function clockAt(iso: string): Date {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
  return new Date(iso);
}

/** A voter's plan with text reminders to `phone`, through the public endpoint. */
async function pledge(phone: string, day: string, name = `Voter ${phone.slice(-7)}`): Promise<void> {
  const res = await call(votePlanFn, '/api/vote-plan', {
    json: { captcha: TURNSTILE_TEST_TOKEN, day, method: 'in-person', name, phone, smsConsent: true },
    ip: uniqueIp(),
  });
  expect(res.status).toBe(201);
}

/** The outbox's texts so far (their keys). */
async function outboxKeys(): Promise<Set<string>> {
  const seen = new Set<string>();
  for await (const page of kv('outbox').keys('sms/')) for (const k of page) seen.add(k);
  return seen;
}
/** The texts to `phones` the outbox took after `seen` (keys carry the faked clock: order is not relied on). */
async function textsSince(seen: Set<string>, phones: readonly string[]): Promise<{ to: string }[]> {
  const out: { to: string }[] = [];
  for (const k of await outboxKeys()) {
    if (seen.has(k)) continue;
    const t = (await kv('outbox').get<{ to: string }>(k))?.value;
    if (t && phones.includes(t.to)) out.push(t);
  }
  return out;
}
const area = (phone: string) => phone.slice(2, 5);

describe('plan-to-vote reminders keep quiet hours in each voter’s zone, and count against the caps', () => {
  it('Election Day morning: each voter is texted from 9:00 their own time, not the campaign’s', async () => {
    await setElectionCalendar(calendar, 'test');
    clockAt('2026-10-20T10:00:00-05:00');
    const phones = AREAS.map((a) => `+1${a}5550151`);
    for (const p of phones) await pledge(p, '2026-11-03');
    // The eve, 17:00 in New Orleans (standard time since Sunday): 13:00 in Honolulu, open everywhere.
    let before = await outboxKeys();
    expect(await runPlanReminders(new Date('2026-11-02T17:00:00-06:00'))).toMatchObject({ texts: 7 });
    expect((await textsSince(before, phones)).map((t) => t.to).sort()).toEqual([...phones].sort());

    // The morning reminder falls due at 9:00 in New Orleans; the job runs every half hour.
    before = await outboxKeys();
    const first = new Map<string, string>();
    for (const at of [
      '2026-11-03T09:00:00-06:00', // 10:00 New York, 9:00 New Orleans and Chicago; 8:00 Denver, Phoenix
      '2026-11-03T09:30:00-06:00',
      '2026-11-03T10:00:00-06:00', // 9:00 Denver and Phoenix (the same hour in winter); 8:00 Los Angeles
      '2026-11-03T10:30:00-06:00',
      '2026-11-03T11:00:00-06:00', // 9:00 Los Angeles; 7:00 Honolulu
      '2026-11-03T11:30:00-06:00',
      '2026-11-03T12:00:00-06:00',
      '2026-11-03T12:30:00-06:00',
      '2026-11-03T13:00:00-06:00', // 9:00 Honolulu
    ]) {
      await runPlanReminders(clockAt(at));
      for (const t of await textsSince(before, phones)) if (!first.has(area(t.to))) first.set(area(t.to), at);
    }
    expect(Object.fromEntries(first)).toEqual({
      '212': '2026-11-03T09:00:00-06:00',
      '504': '2026-11-03T09:00:00-06:00',
      '312': '2026-11-03T09:00:00-06:00',
      '303': '2026-11-03T10:00:00-06:00',
      '602': '2026-11-03T10:00:00-06:00',
      '415': '2026-11-03T11:00:00-06:00',
      '808': '2026-11-03T13:00:00-06:00',
    });
    expect(await textsSince(before, phones)).toHaveLength(7);
  });

  it('a plan made at 20:30 in New Orleans: the West is texted at once, the East waits and lapses', async () => {
    await setElectionCalendar(calendarWith('2026-11-10', '2026-11-07', '2026-11-11'), 'test');
    const now = clockAt('2026-11-06T20:30:00-06:00');
    const phones = AREAS.map((a) => `+1${a}5550152`);
    for (const p of phones) await pledge(p, '2026-11-07');
    const before = await outboxKeys();
    // 21:30 New York, 20:30 New Orleans and Chicago: closed. 19:30 Denver and Phoenix, 18:30 Los Angeles, 16:30 Honolulu.
    expect(await runPlanReminders(now)).toMatchObject({ texts: 4, held: 3 });
    expect((await textsSince(before, phones)).map((t) => area(t.to)).sort()).toEqual(
      ['303', '415', '602', '808'].sort(),
    );
    // After midnight in New Orleans the eve reminder has lapsed: the East never gets a night text.
    expect(await runPlanReminders(new Date('2026-11-07T00:15:00-06:00'))).toMatchObject({ texts: 0 });
    expect(await textsSince(before, phones)).toHaveLength(4);
  });

  it('plan reminder texts count against the site’s daily cap (SMS_DAILY_CAP)', async () => {
    await setElectionCalendar(calendarWith('2026-11-17', '2026-11-14', '2026-11-18'), 'test');
    clockAt('2026-11-12T10:00:00-06:00');
    const phones = ['212', '415', '808'].map((a) => `+1${a}5550153`);
    for (const p of phones) await pledge(p, '2026-11-14');
    setEnv({ SMS_DAILY_CAP: '2' });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const at = clockAt('2026-11-13T17:00:00-06:00');
    const before = await outboxKeys();
    expect(await runPlanReminders(at)).toMatchObject({ texts: 2, skipped: 1 });
    expect(await textsSince(before, phones)).toHaveLength(2);
    expect((await smsBudgetToday(at.getTime())).used).toBe(2);
    const plans = (await valuesOf('vote-plans', 'plan/')).map((p) => StoredVotePlanSchema.parse(p));
    const skipped = plans.filter((p) => phones.includes(p.phone ?? '') && p.eveSms?.status === 'skipped');
    expect(skipped.map((p) => p.eveSms?.error)).toEqual([TEXT_REFUSALS.daily_cap]);
    expect(errors.mock.calls.some((c) => String(c[0]).startsWith('[ALERT] sms-daily-cap'))).toBe(true);
  });

  it('plan reminder texts count against each number’s texts a day', async () => {
    await setElectionCalendar(calendarWith('2026-11-24', '2026-11-21', '2026-11-25'), 'test');
    clockAt('2026-11-19T10:00:00-06:00');
    const [full, fresh] = ['+14155550154', '+13035550154'];
    for (const p of [full, fresh]) await pledge(p, '2026-11-21');
    const at = clockAt('2026-11-20T17:00:00-06:00');
    // The first number had every text it may get today already (other reminders, a confirmation).
    for (let i = 0; i < TEXT_SIGNUP_LIMITS.textsPerNumber.max; i += 1)
      expect(await reserveTextToNumber(full, false, at.getTime())).toBe(true);
    const before = await outboxKeys();
    expect(await runPlanReminders(at)).toMatchObject({ texts: 1, skipped: 1 });
    expect((await textsSince(before, [full, fresh])).map((t) => t.to)).toEqual([fresh]);
    const plans = (await valuesOf('vote-plans', 'plan/')).map((p) => StoredVotePlanSchema.parse(p));
    expect(plans.find((p) => p.phone === full)?.eveSms).toMatchObject({
      status: 'skipped',
      error: TEXT_REFUSALS.number_limit,
    });
  });

  it('three runs at once text each voter once (the claim on the plan is taken by one run only)', async () => {
    await setElectionCalendar(calendarWith('2026-12-01', '2026-11-28', '2026-12-02'), 'test');
    clockAt('2026-11-26T10:00:00-06:00');
    const phones = ['212', '504', '303', '415'].map((a) => `+1${a}5550155`);
    for (const p of phones) await pledge(p, '2026-11-28');
    const at = new Date('2026-11-27T17:00:00-06:00');
    const before = await outboxKeys();
    const runs = await Promise.all([0, 1, 2].map(() => runPlanReminders(at)));
    expect(runs.reduce((n, r) => n + r.texts, 0)).toBe(phones.length);
    expect((await textsSince(before, phones)).map((t) => t.to).sort()).toEqual([...phones].sort());
  });
});

describe('RSVP reminders keep quiet hours in each guest’s zone', () => {
  it('the day before (July): from 9:00 each guest’s own time, and not after 20:00 in New York', async () => {
    clockAt('2027-07-01T12:00:00-05:00');
    const event = await rsvpEventFixture(null);
    expect(event.eventDate).toBe('2027-07-08');
    const phones = ['212', '504', '602', '415', '808'].map((a) => `+1${a}5550156`);
    for (const phone of phones)
      expect((await rsvpTo(event.id, person({ smsReminder: true, phone }))).status).toBe(201);
    const before = await outboxKeys();
    const first = new Map<string, string>();
    for (const at of [
      '2027-07-07T09:00:00-05:00', // 10:00 New York, 9:00 New Orleans; 7:00 Phoenix and Los Angeles, 4:00 Honolulu
      '2027-07-07T11:00:00-05:00', // 9:00 Phoenix and Los Angeles; 6:00 Honolulu
      '2027-07-07T14:00:00-05:00', // 9:00 Honolulu
    ]) {
      await runReminders(clockAt(at));
      for (const t of await textsSince(before, phones)) if (!first.has(area(t.to))) first.set(area(t.to), at);
    }
    expect(Object.fromEntries(first)).toEqual({
      '212': '2027-07-07T09:00:00-05:00',
      '504': '2027-07-07T09:00:00-05:00',
      '602': '2027-07-07T11:00:00-05:00',
      '415': '2027-07-07T11:00:00-05:00',
      '808': '2027-07-07T14:00:00-05:00',
    });

    // Another event's reminders first run at 19:30 in New Orleans: 20:30 in New York is too late there.
    clockAt('2027-07-02T12:00:00-05:00');
    const late = await rsvpEventFixture(null, { title: 'Evening canvass' });
    const evening = ['+12125550157', '+15045550157', '+18085550157'];
    for (const phone of evening)
      expect((await rsvpTo(late.id, person({ smsReminder: true, phone }))).status).toBe(201);
    const since = await outboxKeys();
    await runReminders(clockAt('2027-07-08T19:30:00-05:00'));
    expect((await textsSince(since, evening)).map((t) => area(t.to)).sort()).toEqual(['504', '808']);
  });
});
