import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as votePlanFn from '../../netlify/functions/vote-plan.mts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import type { ElectionCalendar } from '../../src/lib/election-stage.ts';
import { StoredVotePlanSchema, type StoredVotePlan } from '../../src/lib/schemas/vote-plan.ts';
import { setElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { loadPlanPage } from '../../src/lib/server/public/plan-page.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { planForLink } from '../../src/lib/server/vote-plans/record.ts';
import { BATCH, runPlanReminders } from '../../src/lib/server/vote-plans/reminders.ts';
import { VOTE_PLAN_MESSAGES } from '../../src/lib/vote-plan.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { useCountingStores } from '../helpers/counting-store.ts';
import { DST_2026 } from '../helpers/election.ts';
import { localProviders, uniqueIp, valuesOf } from '../helpers/forms.ts';
import { call, ORIGIN } from '../helpers/http.ts';

/*
 * A plan belongs to its voter (docs/decisions/158-plan-to-vote.md; the outside attack's finding): a pledge that names a
 * phone (or email) that already has a plan changes nothing of it, texts nobody, and is answered exactly like a
 * new pledge; the plan changes, and a stop is undone, only from the plan's own link. Real handlers, the local
 * Blobs server and the outbox. Clocks are written with their UTC offset (the calendar's days straddle the end of
 * daylight saving time on November 1, 2026: -05:00 before, -06:00 after, in the campaign's zone); the voters'
 * numbers are in six US zones.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
});
afterAll(() => blobs.stop());
beforeEach(async () => {
  vi.useRealTimers();
  await setElectionCalendar(calendar, 'test');
});
afterEach(() => vi.useRealTimers());

/** Early voting Saturday Oct 31 and Monday Nov 2, Election Day Tuesday Nov 3, 2026. */
const calendar: ElectionCalendar = {
  sites: defaultElectionCalendar.sites,
  mode: 'none',
  runoff: null,
  primary: DST_2026,
};

/** The clock the handlers read (only Date is faked). */
const clockAt = (iso: string) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
};

/** One number per US zone (area codes in src/lib/server/texting/nanp-zones.ts); 555-01xx is fictional. */
const ZONES = {
  eastern: '404',
  central: '312',
  mountain: '303',
  arizona: '602',
  pacific: '415',
  hawaii: '808',
} as const;
type Zone = keyof typeof ZONES;
let seq = 10;
/** A fresh fictional number in a zone, as typed and as stored (E.164). */
const numberIn = (zone: Zone) => {
  seq += 1;
  const line = `555-01${String(seq).padStart(2, '0')}`;
  return { typed: `${ZONES[zone]}-${line}`, e164: `+1${ZONES[zone]}${line.replace('-', '')}` };
};

const pledge = (body: Record<string, unknown>, ip = uniqueIp()) =>
  call(votePlanFn, '/api/vote-plan', { json: { captcha: TURNSTILE_TEST_TOKEN, ...body }, ip });
const voterPlan = (phone: string, over: Record<string, unknown> = {}) => ({
  day: '2026-11-02',
  method: 'in-person',
  name: 'Rosa Parker',
  phone,
  smsConsent: true,
  ...over,
});
/** What a stranger types with the voter's number: another name, day, email, both consents. */
const strangerPlan = (phone: string) => ({
  day: '2026-11-03',
  method: 'in-person',
  name: 'Mallory Stranger',
  phone,
  email: 'mallory@example.org',
  smsConsent: true,
  emailConsent: true,
  timeOfDay: 'evening',
  bringing: 'Nobody',
});
const update = (id: string, action: string, more: Record<string, unknown> = {}) =>
  call(votePlanFn, '/api/vote-plan/update', { json: { id, action, ...more } });

/** Any ISO time (when a stop or "I voted" was recorded). */
const AN_ISO_TIME: unknown = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const linkOf = (next: string) => new URL(next, ORIGIN).searchParams.get('id')!;
async function answer(res: Response) {
  return { status: res.status, body: (await res.json()) as { message: string; next: string } };
}
/** An answer with the parts that must differ between any two pledges (the random link) blanked. */
const shapeOf = (a: { status: number; body: Record<string, unknown> }) => ({
  status: a.status,
  keys: Object.keys(a.body).sort(),
  message: a.body.message,
  next: String(a.body.next).replace(/id=[A-Za-z0-9_-]{22}$/, 'id=<link>'),
});

const planOf = async (e164: string): Promise<StoredVotePlan> =>
  (await valuesOf('vote-plans', 'plan/'))
    .map((p) => StoredVotePlanSchema.parse(p))
    .find((p) => p.phone === e164)!;
const textsTo = async (e164: string) =>
  (await valuesOf<{ to: string; body: string }>('outbox', 'sms/')).filter((t) => t.to === e164);
async function page(linkId: string, lang: 'en' | 'es' = 'en') {
  const response = { headers: new Headers(), status: undefined as number | undefined };
  const data = await loadPlanPage(response, new URLSearchParams({ id: linkId }), lang);
  return { status: response.status ?? 200, data };
}
/** A page's data with its own link blanked (the one part two pages must not share). */
const pageShape = (p: Awaited<ReturnType<typeof page>>, linkId: string): unknown =>
  JSON.parse(JSON.stringify(p).replaceAll(linkId, '<link>'));

/** Runs the reminders job at `iso` until the due head is drained (a run takes at most BATCH keys). */
async function remindersAt(iso: string) {
  clockAt(iso);
  while ((await runPlanReminders(new Date(iso))).due >= BATCH);
}

describe('a pledge for a number that already has a plan (the outside reproduction, six zones)', () => {
  it('changes nothing of the plan, kills no link, resumes no stop, texts nobody, and answers like a new pledge', async () => {
    clockAt('2026-10-20T10:00:00-05:00');
    const zones = Object.keys(ZONES) as Zone[];
    const voters = zones.map((zone) => ({ zone, phone: numberIn(zone), control: numberIn(zone) }));

    // Each voter pledges (texts) and then says "Stop my reminders" from their own link.
    const links = new Map<string, string>();
    for (const v of voters) {
      const made = await answer(await pledge(voterPlan(v.phone.typed)));
      expect(made.status).toBe(201);
      links.set(v.zone, linkOf(made.body.next));
      const stop = await update(links.get(v.zone)!, 'stop');
      expect(await stop.json()).toMatchObject({ status: 'stopped' });
    }
    const before = new Map(
      await Promise.all(voters.map(async (v) => [v.zone, await planOf(v.phone.e164)] as const)),
    );

    clockAt('2026-10-22T19:30:00-05:00');
    for (const v of voters) {
      // A stranger pledges with the voter's number; the same moment, someone pledges with a number nobody used.
      const stranger = await answer(await pledge(strangerPlan(v.phone.typed)));
      const newcomer = await answer(await pledge(strangerPlan(v.control.typed)));
      expect(shapeOf(stranger)).toEqual(shapeOf(newcomer));
      expect(stranger).toMatchObject({ status: 201, body: { message: VOTE_PLAN_MESSAGES.saved } });
      expect(linkOf(stranger.body.next)).not.toBe(links.get(v.zone));

      // The page each lands on: what they typed, never the voter's plan, in the same shape as a new plan's.
      const seen = await page(linkOf(stranger.body.next));
      const fresh = await page(linkOf(newcomer.body.next));
      expect(pageShape(seen, linkOf(stranger.body.next))).toEqual(
        pageShape(fresh, linkOf(newcomer.body.next)),
      );
      expect(seen).toMatchObject({
        status: 200,
        data: { state: 'ok', plan: { name: 'Mallory Stranger', stoppedAt: null } },
      });

      // The voter's plan: unchanged to the letter (day, name, consents, link, the stop); their link still works.
      expect(await planOf(v.phone.e164)).toEqual(before.get(v.zone));
      expect(await planForLink(links.get(v.zone)!)).toMatchObject({
        name: 'Rosa Parker',
        day: '2026-11-02',
        email: null,
        emailConsent: null,
      });
      expect((await page(links.get(v.zone)!)).data).toMatchObject({
        state: 'ok',
        plan: { stoppedAt: AN_ISO_TIME },
      });
    }

    // The reminders job through the eve of Monday, Election Day eve and morning: nothing to any voter's number
    // (stopped), while each newcomer in the same zones gets their texts (so the job does send in every zone).
    for (const when of [
      '2026-11-01T17:00:00-06:00',
      '2026-11-02T17:00:00-06:00',
      '2026-11-03T09:00:00-06:00',
      '2026-11-03T11:00:00-06:00',
      '2026-11-03T13:00:00-06:00',
      '2026-11-03T15:00:00-06:00',
    ])
      await remindersAt(when);
    for (const v of voters) {
      expect(await textsTo(v.phone.e164)).toEqual([]);
      expect((await textsTo(v.control.e164)).length).toBeGreaterThan(0);
      expect(await planOf(v.phone.e164)).toMatchObject({
        stoppedAt: before.get(v.zone)!.stoppedAt,
        eveSms: { status: 'skipped', error: 'Reminders stopped' },
      });
    }
    // The link the voter had is still the one that opens the plan.
    const central = voters.find((v) => v.zone === 'central')!;
    expect((await planForLink(links.get('central')!))?.phone).toBe(central.phone.e164);
  });

  it('answers a known and an unknown number the same, JSON and form post, English and Spanish', async () => {
    clockAt('2026-10-23T12:00:00-05:00');
    const known = numberIn('arizona');
    const unknown = numberIn('arizona');
    expect((await pledge(voterPlan(known.typed, { lang: 'es' }))).status).toBe(201);
    for (const lang of ['en', 'es'] as const) {
      const a = await answer(await pledge({ ...strangerPlan(known.typed), lang }));
      const b = await answer(await pledge({ ...strangerPlan(numberIn('hawaii').typed), lang }));
      expect(shapeOf(a)).toEqual(shapeOf(b));
      const form = (phone: string) =>
        call(votePlanFn, '/api/vote-plan', {
          body: new URLSearchParams({
            day: '2026-11-02',
            method: 'in-person',
            name: 'Luis Ortega',
            phone,
            smsConsent: 'true',
            captcha: TURNSTILE_TEST_TOKEN,
            lang,
          }),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          ip: uniqueIp(),
        });
      const [p, q] = [await form(known.typed), await form(unknown.typed)];
      expect(p.status).toBe(303);
      expect(q.status).toBe(303);
      const where = (r: Response) => r.headers.get('location')!.replace(/id=[A-Za-z0-9_-]{22}$/, 'id=<link>');
      expect(where(p)).toBe(where(q));
      expect(where(p)).toBe(lang === 'es' ? '/es/vote/plan?id=<link>' : '/vote/plan?id=<link>');
      const [pl, ql] = [linkOf(p.headers.get('location')!), linkOf(q.headers.get('location')!)];
      expect(pageShape(await page(pl, lang), pl)).toEqual(pageShape(await page(ql, lang), ql));
    }
    // The first plan is still the one the voter made (Spanish, Monday).
    expect(await planOf(known.e164)).toMatchObject({ lang: 'es', name: 'Rosa Parker', email: null });
  });

  it('holds a pledge for an email that already has a plan the same way', async () => {
    clockAt('2026-10-23T15:00:00-05:00');
    const email = { day: '2026-10-31', method: 'mail', name: 'Dee Moss', email: 'dee.moss@example.org' };
    const first = await answer(await pledge({ ...email, emailConsent: true }));
    const before = await planForLink(linkOf(first.body.next));
    const again = await answer(await pledge({ ...email, name: 'Mallory Stranger', day: '2026-11-02' }));
    const other = await answer(
      await pledge({ ...email, email: 'someone.new@example.org', day: '2026-11-02' }),
    );
    expect(shapeOf(again)).toEqual(shapeOf(other));
    expect(await planForLink(linkOf(first.body.next))).toEqual(before);
    expect(await planForLink(linkOf(again.body.next))).toMatchObject({ name: 'Mallory Stranger' });
  });

  it('the held pledge’s own buttons answer as a plan’s do and change only the pledge', async () => {
    clockAt('2026-10-24T09:00:00-05:00');
    const voter = numberIn('mountain');
    await pledge(voterPlan(voter.typed));
    const plan = await planOf(voter.e164);
    const held = linkOf((await answer(await pledge(strangerPlan(voter.typed)))).body.next);
    const control = linkOf((await answer(await pledge(strangerPlan(numberIn('mountain').typed)))).body.next);
    for (const action of ['stop', 'voted'] as const) {
      const [h, c] = [await update(held, action), await update(control, action)];
      expect(h.status).toBe(c.status);
      expect(await h.json()).toEqual(await c.json());
    }
    expect((await page(held)).data).toMatchObject({
      plan: { stoppedAt: AN_ISO_TIME, votedAt: AN_ISO_TIME },
    });
    expect(await planOf(voter.e164)).toEqual(plan);
  });
});

describe('only the plan’s own link changes it', () => {
  it('"Stop my reminders" holds until the voter resumes it from their link; the reminders then go', async () => {
    clockAt('2026-10-25T10:00:00-05:00');
    const voter = numberIn('eastern');
    const link = linkOf(
      (await answer(await pledge(voterPlan(voter.typed, { day: '2026-11-03' })))).body.next,
    );
    await update(link, 'stop');
    // Pledges with the number (the voter's own, again, or anyone's) never resume it.
    await pledge(voterPlan(voter.typed));
    await pledge(strangerPlan(voter.typed));
    expect(await planOf(voter.e164)).toMatchObject({ stoppedAt: AN_ISO_TIME });
    // The eve of Election Day comes while stopped: skipped, its queue key done.
    await remindersAt('2026-11-02T17:00:00-06:00');
    expect(await textsTo(voter.e164)).toEqual([]);
    expect(await planOf(voter.e164)).toMatchObject({
      eveSms: { status: 'skipped', error: 'Reminders stopped' },
    });

    // At 18:00 the voter resumes from their link (a plain form post, no JavaScript, in Spanish).
    clockAt('2026-11-02T18:00:00-06:00');
    const resumed = await call(votePlanFn, '/api/vote-plan/update', {
      body: new URLSearchParams({ id: link, action: 'resume', lang: 'es' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(resumed.status).toBe(303);
    expect(resumed.headers.get('location')).toBe('/es/forms/vote-plan-update/resumed');
    expect(await planOf(voter.e164)).toMatchObject({ stoppedAt: null, eveSms: null });
    expect((await page(link)).data).toMatchObject({ plan: { stoppedAt: null } });
    // The eve reminder is due again until midnight (19:00 in Atlanta); Election Day morning's (10:00), once each.
    await remindersAt('2026-11-02T18:00:00-06:00');
    await remindersAt('2026-11-02T18:15:00-06:00');
    await remindersAt('2026-11-03T09:00:00-06:00');
    await remindersAt('2026-11-03T09:15:00-06:00');
    const texts = (await textsTo(voter.e164)).map((t) => t.body);
    expect(texts).toHaveLength(2);
    expect(texts.filter((t) => t.includes('tomorrow'))).toHaveLength(1);
    expect(texts.filter((t) => t.includes('Today is Election Day'))).toHaveLength(1);
  });

  it('"Change my plan" from the link: a new day, the stop kept, the link kept; a bad day is refused', async () => {
    clockAt('2026-10-26T10:00:00-05:00');
    const voter = numberIn('pacific');
    const link = linkOf((await answer(await pledge(voterPlan(voter.typed)))).body.next);
    await update(link, 'stop');
    const changed = await update(link, 'change', {
      day: '2026-11-03',
      method: 'in-person',
      timeOfDay: 'morning',
    });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({
      status: 'changed',
      message: VOTE_PLAN_MESSAGES.changed,
      next: `/vote/plan?id=${link}`,
    });
    expect(await planOf(voter.e164)).toMatchObject({
      day: '2026-11-03',
      timeOfDay: 'morning',
      linkId: link,
      stoppedAt: AN_ISO_TIME,
    });
    // Without JavaScript, the change form lands back on the plan's page (in Spanish).
    const posted = await call(votePlanFn, '/api/vote-plan/update', {
      body: new URLSearchParams({
        id: link,
        action: 'change',
        day: '2026-10-31',
        method: 'mail',
        lang: 'es',
      }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(`/es/vote/plan?id=${link}`);
    expect(await planOf(voter.e164)).toMatchObject({ day: '2026-10-31', method: 'mail' });
    // A day that cannot be chosen: 400 on the day field; a change without a day: 400.
    const late = await update(link, 'change', { day: '2026-11-03', method: 'mail' });
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ fields: { day: VOTE_PLAN_MESSAGES.dayMail } });
    expect((await update(link, 'change', { method: 'mail' })).status).toBe(400);
    // The plan page offers the change form with the days open now.
    expect((await page(link)).data).toMatchObject({
      change: { days: [{ date: '2026-10-31' }, { date: '2026-11-02' }, { date: '2026-11-03' }] },
    });
  });
});

describe('the same store work either way (timing)', () => {
  it('a pledge for a known number costs a new one’s store calls but for the new plan’s marker and reminder keys', async () => {
    const stores = useCountingStores();
    try {
      await setElectionCalendar(calendar, 'test');
      clockAt('2026-10-27T10:00:00-05:00');
      const known = numberIn('hawaii');
      await pledge(voterPlan(known.typed));
      // The plan's own work: the person's link is the same call in both branches, and costs what any form's does
      // for the addresses given (a new person, a person found, a queued pair: docs/decisions/149-people.md).
      const cost = async (phone: string) =>
        (await stores.cost(async () => expect((await pledge(strangerPlan(phone))).status).toBe(201))).calls -
        stores.calls('people') -
        // A new plan is counted for the Overview with its marker (docs/decisions/180-overview.md); a held one is not.
        stores.calls('overview');
      const dueKeys = async () => {
        let n = 0;
        for await (const keys of stores.store('vote-plans').keys('due/')) n += keys.length;
        return n;
      };
      const queuedBefore = await dueKeys();
      const fresh = await cost(numberIn('hawaii').typed);
      const queued = (await dueKeys()) - queuedBefore;
      expect(queued).toBe(2); // the eve and Election Day morning reminders of the new plan
      const held = await cost(known.typed);
      // A held pledge does a new plan's work (link, plan read, its record, the consent log) but for the new plan's
      // staff-list marker and reminder keys: no more, no less, so neither branch has slow work of its own.
      expect(held).toBe(fresh - 1 - queued);
    } finally {
      setStoreFactory(null);
    }
  });
});
