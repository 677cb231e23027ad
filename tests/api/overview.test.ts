import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import * as overviewFn from '../../netlify/functions/admin-overview.mts';
import * as subscribers from '../../netlify/functions/email-subscribers.mts';
import * as inbound from '../../netlify/functions/sms-inbound.mts';
import * as textSignup from '../../netlify/functions/text-signup.mts';
import * as volunteers from '../../netlify/functions/volunteers-sendgrid.mts';
import { ACTIVITY_KINDS, type ActivityKind, type Overview } from '../../src/lib/schemas/overview.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import {
  dayKey,
  foldActivity,
  OP_PREFIX,
  opName,
  readMonth,
  store,
} from '../../src/lib/server/activity/counts.ts';
import { overview } from '../../src/lib/server/overview/overview.ts';
import { rebuildActivity } from '../../src/lib/server/overview/rebuild.ts';
import type { KV } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import { setCheckedIn } from '../../src/lib/server/events/rsvp.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { useCountingStores } from '../helpers/counting-store.ts';
import {
  keysOf,
  localProviders,
  messageSid,
  setEnv,
  signedInbound,
  TWILIO_TOKEN,
  uniqueIp,
  validSignup,
  validVolunteer,
} from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/**
 * The Overview's counts (docs/decisions/180-overview.md). The clock is faked with explicit UTC offsets around the
 * campaign's (America/Chicago) midnights and the end of daylight saving (2026-11-01, 2:00 CDT -> 1:00 CST); each
 * moment's campaign day is written here by hand, so the expected figures are an independent count.
 */
type Action = 'text' | 'volunteer' | 'newsletter' | 'stop';
const WEEK: { at: string; day: string; action: Action; page?: string }[] = [
  { at: '2026-10-28T08:00:00-05:00', day: '2026-10-28', action: 'volunteer' },
  { at: '2026-10-28T23:59:59-05:00', day: '2026-10-28', action: 'text', page: '/volunteer' },
  { at: '2026-10-29T00:00:00-05:00', day: '2026-10-29', action: 'text', page: '/es/volunteer' },
  { at: '2026-10-30T04:59:59Z', day: '2026-10-29', action: 'newsletter', page: '/blog' },
  { at: '2026-10-31T23:59:30-05:00', day: '2026-10-31', action: 'text', page: '/' },
  { at: '2026-11-01T00:00:30-05:00', day: '2026-11-01', action: 'volunteer' },
  // 1:30 happens twice on the night daylight saving ends: both are November 1.
  { at: '2026-11-01T01:30:00-05:00', day: '2026-11-01', action: 'stop' },
  { at: '2026-11-01T01:30:00-06:00', day: '2026-11-01', action: 'text', page: '/es' },
  { at: '2026-11-01T23:59:59-06:00', day: '2026-11-01', action: 'newsletter', page: '/es/blog' },
  { at: '2026-11-02T00:00:00-06:00', day: '2026-11-02', action: 'stop' },
  { at: '2026-11-02T05:59:59Z', day: '2026-11-01', action: 'volunteer' },
  { at: '2026-11-03T17:00:00-06:00', day: '2026-11-03', action: 'text', page: '/volunteer' },
];
const NOW = '2026-11-03T18:00:00-06:00';
const KIND_OF: Record<Action, ActivityKind[]> = {
  text: ['signup.text', 'text.optin'],
  volunteer: ['signup.volunteer'],
  newsletter: ['signup.newsletter'],
  stop: ['text.optout'],
};

/** Runs `work` with the clock (Date only) at `moment`. */
async function at<T>(moment: string, work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(moment));
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}

let blobs: Awaited<ReturnType<typeof startBlobs>>;
let cookie: string;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
  setEnv({ TWILIO_AUTH_TOKEN: TWILIO_TOKEN });
  // Signed in at the moment the Overview is read (a session from today would not have begun yet).
  cookie = await at(NOW, async () => (await signedIn('viewer')).cookie);
});
afterAll(() => blobs.stop());
afterEach(() => {
  vi.useRealTimers();
});

let seq = 0;
/** Does one action through the real public handlers at its moment; answers the status. */
async function act(a: (typeof WEEK)[number]): Promise<number> {
  seq += 1;
  const ip = uniqueIp();
  const phone = `+1504${2_100_000 + seq}`;
  return at(a.at, async () => {
    switch (a.action) {
      case 'text':
        return (
          await call(textSignup, '/api/newsletter', {
            json: validSignup({ phone, email: `t${seq}@example.com`, sourcePage: a.page }),
            ip,
          })
        ).status;
      case 'volunteer':
        return (
          await call(volunteers, '/api/volunteers-sendgrid', {
            json: validVolunteer({ email: `v${seq}@example.com`, phone }),
            ip,
          })
        ).status;
      case 'newsletter':
        return (
          await call(subscribers, '/api/email-subscribers', {
            json: { email: `n${seq}@example.com`, sourcePage: a.page, captcha: TURNSTILE_TEST_TOKEN },
            ip,
          })
        ).status;
      case 'stop': {
        const s = signedInbound({ MessageSid: messageSid(), From: phone, Body: 'STOP' });
        return (
          await call(inbound, '/api/sms/inbound', {
            method: 'POST',
            body: s.body,
            headers: s.headers,
            crossSite: true,
          })
        ).status;
      }
    }
  });
}

function expectedDays(): Map<string, Partial<Record<ActivityKind, number>>> {
  const out = new Map<string, Partial<Record<ActivityKind, number>>>();
  for (const a of WEEK) {
    const row = out.get(a.day) ?? {};
    for (const k of KIND_OF[a.action]) row[k] = (row[k] ?? 0) + 1;
    out.set(a.day, row);
  }
  return out;
}

async function getOverview(period = '7'): Promise<Overview> {
  const res = await at(NOW, () => call(overviewFn, `/api/admin/overview?period=${period}`, { cookie }));
  expect(res.status).toBe(200);
  return (await res.json()) as Overview;
}

function countsByDay(o: Overview): Map<string, Partial<Record<ActivityKind, number>>> {
  return new Map(
    o.days.map((d) => [
      d.day,
      Object.fromEntries(Object.entries(d.counts).filter(([, n]) => n > 0)) as Partial<
        Record<ActivityKind, number>
      >,
    ]),
  );
}

/** The running test gets a store of its own (and a viewer signed in there): nothing another test counted is in it. */
async function ownStore(): Promise<void> {
  const own = await startBlobs();
  const shared = cookie;
  cookie = await at(NOW, async () => (await signedIn('viewer')).cookie);
  onTestFinished(async () => {
    cookie = shared;
    await own.stop();
    blobs.use();
    setStoreFactory(null);
  });
}

describe('the Overview counts a week across midnight and the end of daylight saving', () => {
  it('gives the per-day counts written by hand, before the fold, after it, and after a rebuild from the records', async () => {
    // Its own store: nothing another test counted is in its week.
    await ownStore();
    for (const a of WEEK) expect([200, 201, 202]).toContain(await act(a));
    const want = expectedDays();
    const days = (o: Overview) =>
      new Map([...countsByDay(o)].filter(([, row]) => Object.keys(row).length > 0));

    // Before any fold: the waiting ops are counted from their names.
    const before = await getOverview();
    expect(before.from).toBe('2026-10-28');
    expect(before.to).toBe('2026-11-03');
    expect(before.days.map((d) => d.day)).toEqual([
      '2026-10-28',
      '2026-10-29',
      '2026-10-30',
      '2026-10-31',
      '2026-11-01',
      '2026-11-02',
      '2026-11-03',
    ]);
    expect(days(before)).toEqual(want);
    // "Since launch" reads the months (October and November here): the same figures.
    expect(days(await getOverview('launch'))).toEqual(want);

    // Folded: the same figures, and nothing left waiting.
    await foldActivity(new Date(NOW));
    expect(await keysOf('overview', OP_PREFIX)).toEqual([]);
    const after = await getOverview();
    expect(days(after)).toEqual(want);
    expect(after.behind).toBeNull();
    expect(days(await getOverview('launch'))).toEqual(want);
    expect(after.totals['signup.text']).toBe(WEEK.filter((a) => a.action === 'text').length);
    // Sources: the page each form was on, Spanish pages counted with their English twin.
    expect(after.sources).toContainEqual({ source: 'page:volunteer', kind: 'signup.text', count: 3 });
    expect(after.sources).toContainEqual({ source: 'page:home', kind: 'signup.text', count: 2 });
    expect(after.sources).toContainEqual({ source: 'page:blog', kind: 'signup.newsletter', count: 2 });

    // Rebuilt from the records: the rollups maintained on write, exactly.
    const stored = async () =>
      Object.fromEntries(
        await Promise.all(
          [...want.keys()].map(async (d) => {
            const doc = (await store().get<{ counts: unknown; sources: unknown }>(dayKey(d)))?.value;
            return [d, { counts: doc?.counts, sources: doc?.sources }] as const;
          }),
        ),
      );
    const months = async () =>
      Object.fromEntries(
        await Promise.all(
          ['2026-10', '2026-11'].map(async (m) => {
            const doc = (await readMonth(m)).days;
            return [m, Object.fromEntries(Object.entries(doc).map(([d, v]) => [d, v.counts]))] as const;
          }),
        ),
      );
    const maintained = await stored();
    const maintainedMonths = await months();
    // The months are lost (a deploy before they were kept, a damaged store): the rebuild writes them again.
    for (const m of ['2026-10', '2026-11']) await store().delete(`month/${m}`);
    await rebuildActivity();
    expect(await stored()).toEqual(maintained);
    expect(await months()).toEqual(maintainedMonths);
    expect(days(await getOverview())).toEqual(want);
    expect(days(await getOverview('launch'))).toEqual(want);
  });

  it('a repeated sign-up counts once; a bad period is a 400 that names the choices', async () => {
    const body = validSignup({ phone: '+15042199911', email: 'twice@example.com', sourcePage: '/volunteer' });
    const post = () =>
      at('2026-11-03T09:00:00-06:00', () =>
        call(textSignup, '/api/newsletter', { json: body, ip: uniqueIp() }),
      );
    expect((await post()).status).toBe(201);
    const once = (await getOverview()).totals['signup.text'];
    expect((await post()).status).toBeLessThan(300);
    await foldActivity(new Date(NOW));
    expect((await post()).status).toBeLessThan(300);
    expect((await getOverview()).totals['signup.text']).toBe(once);
    const bad = await at(NOW, () => call(overviewFn, '/api/admin/overview?period=365', { cookie }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'period must be 7, 30 or launch' });
  });
});

describe('events in the period', () => {
  it('each shows who is going, waiting and checked in, read from its roster and check-ins', async () => {
    await ownStore();
    // A 2-place event held on November 2 (created a week before, as staff do).
    const event = await rsvpEventFixture(2, {}, new Date('2026-10-26T12:00:00-05:00'));
    const guests = [person(), person(), person()];
    for (const g of guests)
      expect((await at('2026-10-28T12:00:00-05:00', () => rsvpTo(event.id, g))).status).toBe(201);
    await setCheckedIn(event.id, hashed(guests[0]!.email), true, 'door');
    const o = await getOverview();
    expect(o.events).toEqual([
      {
        id: event.id,
        title: 'Town Hall on Drainage',
        date: '2026-11-02',
        going: 2,
        waitlisted: 1,
        attended: 1,
        capacity: 2,
      },
    ]);
    // An event outside the period is not listed.
    expect((await overview('7', new Date('2026-12-01T12:00:00-06:00'))).events).toEqual([]);
  });
});

describe('the fold', () => {
  it('killed after writing a rollup and before deleting its ops, the next fold counts nothing twice', async () => {
    const mem = new MemoryKV();
    setStoreFactory(() => mem);
    try {
      const ops = Array.from({ length: 12 }, (_, i) =>
        opName({
          kind: 'signup.volunteer',
          id: `v${i}`,
          at: '2026-11-02T10:00:00-06:00',
          source: 'page:volunteer',
        }),
      );
      for (const o of ops) await mem.create(o, {});
      // A store that dies at the first delete: the rollup is written, its ops are not removed.
      const dying: KV = {
        get: (k) => mem.get(k),
        create: (k, v) => mem.create(k, v),
        replace: (k, v, e) => mem.replace(k, v, e),
        put: (k, v) => mem.put(k, v),
        putBytes: (k, d, m) => mem.putBytes(k, d, m),
        getBytes: (k) => mem.getBytes(k),
        delete: () => Promise.reject(new Error('killed')),
        keys: (p) => mem.keys(p),
      };
      setStoreFactory(() => dying);
      await expect(foldActivity()).rejects.toThrow('killed');
      setStoreFactory(() => mem);
      const half = (await mem.get<{ counts: Record<string, number> }>(dayKey('2026-11-02')))?.value;
      expect(half?.counts['signup.volunteer']).toBe(12);
      // Read while the ops are still listed: counted once, not twice.
      expect((await overview('7', new Date('2026-11-02T12:00:00-06:00'))).totals['signup.volunteer']).toBe(
        12,
      );
      await foldActivity();
      const whole = (await mem.get<{ counts: Record<string, number> }>(dayKey('2026-11-02')))?.value;
      expect(whole?.counts['signup.volunteer']).toBe(12);
      expect(await keysOf('overview', OP_PREFIX)).toEqual([]);
    } finally {
      setStoreFactory(null);
      blobs.use();
    }
  });

  it('says the rollups are behind when ops wait and the fold has not run for ten minutes', async () => {
    const mem = new MemoryKV();
    setStoreFactory(() => mem);
    try {
      await foldActivity(new Date('2026-11-02T08:00:00-06:00'));
      await mem.create(
        opName({ kind: 'signup.text', id: 'late', at: '2026-11-02T08:05:00-06:00', source: 'page:home' }),
        {},
      );
      const soon = await overview('7', new Date('2026-11-02T08:09:00-06:00'));
      expect(soon.behind).toBeNull();
      expect(soon.totals['signup.text']).toBe(1);
      const late = await overview('7', new Date('2026-11-02T08:10:01-06:00'));
      expect(late.behind).toEqual({ since: new Date('2026-11-02T08:00:00-06:00').toISOString() });
      expect(late.totals['signup.text']).toBe(1);
    } finally {
      setStoreFactory(null);
      blobs.use();
    }
  });
});

describe('what the Overview costs', () => {
  it('the same store calls at 1,000 and 100,000 supporters', async () => {
    const calls: number[] = [];
    for (const n of [1_000, 100_000]) {
      const stores = useCountingStores();
      try {
        const people = stores.store('signups');
        const vols = stores.store('volunteers');
        for (let i = 0; i < n; i++) {
          await people.put(`person/p${i}`, { id: `p${i}` });
          await vols.put(`volunteer/v${i}`, { id: `v${i}` });
        }
        for (const d of ['2026-10-28', '2026-10-30', '2026-11-01', '2026-11-03'])
          await stores.store('overview').put(dayKey(d), {
            day: d,
            counts: Object.fromEntries(ACTIVITY_KINDS.map((k) => [k, Math.floor(n / 7)])),
            sources: { 'signup.text': { 'page:home': Math.floor(n / 7) } },
            applied: [],
          });
        const { calls: c, value } = await stores.cost(() => overview('7', new Date(NOW)));
        expect(value.totals['signup.text']).toBe(4 * Math.floor(n / 7));
        calls.push(c);
      } finally {
        setStoreFactory(null);
        blobs.use();
      }
    }
    expect(calls[1]).toBe(calls[0]);
    // Seven days' rollups, the op listing and the fold's mark, the donation days, goals, milestones, broadcasts,
    // and the next seven days' shifts.
    expect(calls[0]).toBeLessThanOrEqual(37);
  });

  it('"since launch" reads the months: at most fourteen month reads and no day read, the same at 1,000 and 100,000', async () => {
    const calls: number[] = [];
    for (const n of [1_000, 100_000]) {
      const stores = useCountingStores();
      try {
        const people = stores.store('signups');
        for (let i = 0; i < n; i++) await people.put(`person/p${i}`, { id: `p${i}` });
        // A year of days, each with its day rollup and its copy in its month.
        const overviewStore = stores.store('overview');
        const months = new Map<string, Record<string, unknown>>();
        for (
          let t = Date.parse('2025-11-04T12:00:00Z');
          t <= Date.parse('2026-11-03T12:00:00Z');
          t += 86_400_000
        ) {
          const day = new Date(t).toISOString().slice(0, 10);
          const doc = { day, counts: { 'signup.text': 1 }, sources: {}, applied: [] };
          await overviewStore.put(dayKey(day), doc);
          months.set(day.slice(0, 7), { ...months.get(day.slice(0, 7)), [day]: doc });
        }
        for (const [month, days] of months) await overviewStore.put(`month/${month}`, { month, days });
        overviewStore.reset();
        const { calls: c, value } = await stores.cost(() => overview('launch', new Date(NOW)));
        expect(value.days).toHaveLength(365);
        expect(value.totals['signup.text']).toBe(365);
        const reads = overviewStore.reads;
        expect(reads.filter((k) => k.startsWith('day/'))).toEqual([]);
        expect(reads.filter((k) => k.startsWith('month/')).length).toBeLessThanOrEqual(14);
        calls.push(c);
      } finally {
        setStoreFactory(null);
        blobs.use();
      }
    }
    expect(calls[1]).toBe(calls[0]);
    expect(calls[0]).toBeLessThanOrEqual(45);
  });
});
