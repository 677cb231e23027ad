import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as adminVotePlans from '../../netlify/functions/admin-vote-plans.mts';
import * as remindersFn from '../../netlify/functions/vote-plan-reminders.mts';
import * as votePlanFn from '../../netlify/functions/vote-plan.mts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import { campaignWallClock } from '../../src/lib/campaign-time.ts';
import type { ElectionCalendar } from '../../src/lib/election-stage.ts';
import { StoredVotePlanSchema, type StoredVotePlan } from '../../src/lib/schemas/vote-plan.ts';
import { setElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import { applyInboundText } from '../../src/lib/server/texting/sms-webhook.ts';
import { loadPlanPage, planCalendarResponse } from '../../src/lib/server/public/plan-page.ts';
import { planForLink } from '../../src/lib/server/vote-plans/record.ts';
import { runPlanReminders } from '../../src/lib/server/vote-plans/reminders.ts';
import { broadcastRate, spendRateNow } from '../../src/lib/server/texting/pacing.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { VOTE_PLAN_MESSAGES } from '../../src/lib/vote-plan.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { localProviders, messageSid, uniqueIp, valuesOf } from '../helpers/forms.ts';
import { call, ORIGIN } from '../helpers/http.ts';
import { DST_2026 } from '../helpers/election.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * Make a plan to vote and its reminders, end to end in local mode (docs/decisions/158-plan-to-vote.md,
 * 111-plan-reminders.md): real handlers, the local Blobs server, the outbox, a fake clock (only Date is faked).
 * The calendar crosses the end of daylight saving time (Sunday, November 1, 2026): early voting Saturday
 * October 31 and Monday November 2 (no voting Sunday), Election Day Tuesday November 3.
 */

// A fresh store for each test: each makes the calendar and the plans it needs (no plan, reminder or
// calendar left by another test).
let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeEach(async () => {
  blobs = await startBlobs();
  localProviders();
});
afterEach(async () => {
  vi.useRealTimers();
  await blobs.stop();
});

/**
 * `hh:mm` on `date` in New Orleans, written with its UTC offset (never computed by the campaign clock under test):
 * daylight time (-05:00) until 2:00 on Sunday, November 1, 2026, standard time (-06:00) after.
 */
function chicago(date: string, time: string): Date {
  const offset = `${date}T${time}` < '2026-11-01T02:00' ? '-05:00' : '-06:00';
  return new Date(`${date}T${time}:00${offset}`);
}
const at = (date: string, time: string) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(chicago(date, time));
};

const sites = defaultElectionCalendar.sites;
const calendar: ElectionCalendar = { sites, mode: 'none', runoff: null, primary: DST_2026 };

/** The calendar with Election Day moved to `electionDay` (results the next day) and one more early-voting day. */
function calendarWith(electionDay: string, earlyDay: string): ElectionCalendar {
  const cal = structuredClone(calendar);
  cal.primary.electionDay.date = electionDay;
  cal.primary.resultsDate = new Date(Date.parse(`${electionDay}T12:00:00Z`) + 86_400_000)
    .toISOString()
    .slice(0, 10);
  cal.primary.earlyVoting.push({ date: earlyDay, open: '08:30', close: '18:00', sites: ['city-hall'] });
  return cal;
}

const post = (body: Record<string, unknown>, ip = uniqueIp()) =>
  call(votePlanFn, '/api/vote-plan', { json: { captcha: TURNSTILE_TEST_TOKEN, ...body }, ip });
const plan = (over: Record<string, unknown> = {}) => ({
  day: '2026-11-02',
  method: 'in-person',
  name: 'Rosa Parker',
  ...over,
});

async function plans(): Promise<StoredVotePlan[]> {
  return (await valuesOf('vote-plans', 'plan/')).map((p) => StoredVotePlanSchema.parse(p));
}
const byName = async (name: string) => (await plans()).find((p) => p.name === name)!;
const texts = async () => valuesOf<{ to: string; body: string }>('outbox', 'sms/');
const emails = async () => valuesOf<{ to: string; subject: string; text: string }>('outbox', 'email/');
const linkOf = (next: string) => new URL(next, ORIGIN).searchParams.get('id')!;

/**
 * On `calendar`, the two plans the first test makes: Rosa (text and email, in person on Monday, November 2) and
 * Luis (email, by mail on Saturday, October 31, in Spanish), on Tuesday, October 20.
 */
async function rosaAndLuis(): Promise<void> {
  await setElectionCalendar(calendar, 'test');
  at('2026-10-20', '10:00');
  const rosa = plan({
    phone: '504-555-0181',
    email: 'rosa@example.org',
    smsConsent: true,
    emailConsent: true,
  });
  expect((await post(rosa)).status).toBe(201);
  vi.setSystemTime(chicago('2026-10-20', '10:05'));
  const luis = { day: '2026-10-31', method: 'mail', name: 'Luis Ortega', email: 'luis@example.org' };
  expect((await post({ ...luis, emailConsent: true, lang: 'es' })).status).toBe(201);
}

describe('make a plan to vote', () => {
  it('stores a plan with its consents, answers its own page, and a form post lands there', async () => {
    await setElectionCalendar(calendar, 'test');
    at('2026-10-20', '10:00');
    const res = await post(
      plan({ phone: '504-555-0181', email: 'rosa@example.org', smsConsent: true, emailConsent: true }),
    );
    expect(res.status).toBe(201);
    const { next } = (await res.json()) as { next: string };
    expect(next).toMatch(/^\/vote\/plan\?id=[A-Za-z0-9_-]{22}$/);
    const stored = await byName('Rosa Parker');
    expect(stored).toMatchObject({
      round: 'primary',
      day: '2026-11-02',
      phone: '+15045550181',
    });
    expect(stored.smsConsent?.text).toContain('up to two text messages');
    expect(stored.emailConsent?.text).toContain('Email me a reminder');
    // The text consent is in the text list's append-only log too.
    const log = await valuesOf<{ type: string; refKey: string }>('signups', 'consent/');
    expect(log.some((e) => e.type === 'plan_reminder_opt_in' && e.refKey.startsWith('plan/primary/'))).toBe(
      true,
    );

    // Its page: the plan, places and hours; its calendar file.
    const response = { headers: new Headers(), status: undefined as number | undefined };
    const page = await loadPlanPage(response, new URL(next, ORIGIN).searchParams, 'en');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(page).toMatchObject({ state: 'ok', plan: { day: '2026-11-02', method: 'in-person' } });
    expect(page.state === 'ok' ? page.lines.where : page.state).toContain('City Hall, Room 1W24');
    const ics = await planCalendarResponse(new URL(next, ORIGIN).searchParams, new URL(ORIGIN));
    expect(ics.headers.get('content-type')).toContain('text/calendar');
    const body = await ics.text();
    expect(body).toContain('DTSTART;TZID=America/Chicago:20261102T083000');
    expect(body).toContain('DTEND;TZID=America/Chicago:20261102T180000');

    // Without JavaScript: a Spanish form post is sent to the Spanish plan page.
    vi.setSystemTime(chicago('2026-10-20', '10:05'));
    const form = new URLSearchParams({
      day: '2026-10-31',
      method: 'mail',
      name: 'Luis Ortega',
      email: 'luis@example.org',
      emailConsent: 'true',
      captcha: TURNSTILE_TEST_TOKEN,
      lang: 'es',
    });
    const posted = await call(votePlanFn, '/api/vote-plan', {
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      ip: uniqueIp(),
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toMatch(/^\/es\/vote\/plan\?id=[A-Za-z0-9_-]{22}$/);
    expect(await byName('Luis Ortega')).toMatchObject({ lang: 'es', method: 'mail', smsConsent: null });
  });

  it('refuses a day that cannot be chosen, a plan nobody could be reminded of, and a premium number', async () => {
    await setElectionCalendar(calendar, 'test');
    at('2026-10-31', '19:00'); // Saturday's early voting has closed
    const refused = async (body: Record<string, unknown>, field: string, message: string) => {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { fields: Record<string, string> }).fields[field]).toBe(message);
    };
    await refused(plan({ day: '2026-10-31', email: 'a@example.org' }), 'day', VOTE_PLAN_MESSAGES.dayPast);
    await refused(
      plan({ day: '2026-11-03', method: 'mail', email: 'a@example.org' }),
      'day',
      VOTE_PLAN_MESSAGES.dayMail,
    );
    await refused(plan({ day: '2026-12-01', email: 'a@example.org' }), 'day', VOTE_PLAN_MESSAGES.day);
    await refused(plan(), 'phone', VOTE_PLAN_MESSAGES.contact);
    await refused(
      plan({ email: 'a@example.org', smsConsent: true }),
      'phone',
      VOTE_PLAN_MESSAGES.phoneForSms,
    );
    expect((await post(plan({ phone: '+19005550123' }))).status).toBe(400);
    expect((await post(plan({ email: 'a@example.org', captcha: '' }))).status).toBe(400);
    expect(await plans()).toHaveLength(0);
  });

  it('a newer pledge from the same contact does not replace the plan; each link opens its own', async () => {
    // docs/decisions/158-plan-to-vote.md: a plan changes only from its own link (tests/api/vote-plan-ownership.test.ts).
    await setElectionCalendar(calendar, 'test');
    at('2026-10-21', '10:00');
    const first = (await (await post(plan({ name: 'Ann Lee', phone: '504-555-0182' }))).json()) as {
      next: string;
    };
    const second = (await (
      await post(plan({ name: 'Someone Else', phone: '504-555-0182', day: '2026-11-03' }))
    ).json()) as { next: string };
    expect(await planForLink(linkOf(first.next))).toMatchObject({ name: 'Ann Lee', day: '2026-11-02' });
    expect(await planForLink(linkOf(second.next))).toMatchObject({ name: 'Someone Else', day: '2026-11-03' });
    expect((await plans()).filter((p) => p.phone === '+15045550182')).toMatchObject([{ name: 'Ann Lee' }]);
    const update = await call(votePlanFn, '/api/vote-plan/update', {
      json: { id: linkOf(first.next), action: 'voted' },
    });
    expect(update.status).toBe(200);
  });

  it('closes once the polls have closed, on the server too (a stale page cannot post)', async () => {
    await setElectionCalendar(calendar, 'test');
    at('2026-11-03', '20:00');
    const res = await post(plan({ day: '2026-11-03', email: 'late@example.org' }));
    expect(res.status).toBe(410);
    expect(((await res.json()) as { error: string }).error).toBe(VOTE_PLAN_MESSAGES.closed);
  });

  it('staff (admin, editor) list plans newest first and export them, audited; a viewer may not', async () => {
    await rosaAndLuis();
    vi.setSystemTime(chicago('2026-10-21', '10:00'));
    expect((await post(plan({ name: 'Ann Lee', phone: '504-555-0182' }))).status).toBe(201);
    vi.useRealTimers();
    const editor = await signedIn('editor');
    const list = await call(adminVotePlans, '/api/admin/vote-plans', { cookie: editor.cookie });
    expect(list.status).toBe(200);
    const page = (await list.json()) as { items: { name: string; linkId?: string }[] };
    expect(page.items.map((p) => p.name)).toEqual(['Ann Lee', 'Luis Ortega', 'Rosa Parker']);
    expect(page.items[0]).not.toHaveProperty('linkId');
    const csv = await call(adminVotePlans, '/api/admin/vote-plans?format=csv', { cookie: editor.cookie });
    expect(csv.headers.get('content-disposition')).toMatch(/plans-to-vote-primary/);
    expect(await csv.text()).toContain('+15045550181');
    const viewer = await signedIn('viewer');
    expect((await call(adminVotePlans, '/api/admin/vote-plans', { cookie: viewer.cookie })).status).toBe(403);
    expect((await call(adminVotePlans, '/api/admin/vote-plans')).status).toBe(401);
  });
});

describe('plan reminders (fake clock, outbox)', () => {
  it('the right people, once each, inside the send window, nobody after STOP, across the DST change', async () => {
    await rosaAndLuis();
    at('2026-10-22', '10:00');
    // Rosa (text + email, Monday Nov 2) is already planned. Ben: text, Election Day. Cy: text, Monday, then STOP.
    // Dee: email, by mail on Saturday. Eve: no consent at all.
    await post(plan({ name: 'Ben Ford', phone: '504-555-0183', smsConsent: true, day: '2026-11-03' }));
    await post(plan({ name: 'Cy Young', phone: '504-555-0184', smsConsent: true }));
    await post(
      plan({
        name: 'Dee Moss',
        email: 'dee@example.org',
        emailConsent: true,
        day: '2026-10-31',
        method: 'mail',
      }),
    );
    await post(plan({ name: 'Eve Hart', phone: '504-555-0185' }));
    await applyInboundText({ messageSid: messageSid(), from: '+15045550184', body: 'STOP' });
    const before = { texts: (await texts()).length, emails: (await emails()).length };
    const newTexts = async () => (await texts()).slice(before.texts);
    const newEmails = async () => (await emails()).slice(before.emails);

    // Friday Oct 30, 16:59 (CDT): the eve reminders of Saturday (Dee and Luis, by mail) are not due yet; 17:00 they are.
    expect(await runPlanReminders(chicago('2026-10-30', '16:59'))).toMatchObject({ due: 0 });
    expect(await runPlanReminders(chicago('2026-10-30', '17:00'))).toMatchObject({ emails: 2, texts: 0 });
    expect((await newEmails()).map((m) => m.to).sort()).toEqual(['dee@example.org', 'luis@example.org']);
    expect((await newEmails()).find((m) => m.to === 'luis@example.org')?.subject).toMatch(
      /^Su plan para votar/,
    );
    expect((await newEmails()).find((m) => m.to === 'dee@example.org')?.text).toContain(
      'Stop these reminders: http',
    );

    // Sunday Nov 1, after the change to CST: the eve of Monday. Rosa gets a text and an email; Cy said STOP.
    const eve = await runPlanReminders(chicago('2026-11-01', '17:00'));
    expect(campaignWallClock(chicago('2026-11-01', '17:00'))).toBe('2026-11-01T17:00');
    expect(eve).toMatchObject({ texts: 1, emails: 1, skipped: 1 });
    expect((await newTexts()).map((t) => t.to)).toEqual(['+15045550181']);
    expect((await newTexts())[0]?.body).toMatch(/tomorrow, Monday, November 2, 2026/);
    expect(await byName('Cy Young')).toMatchObject({ eveSms: { status: 'skipped', error: 'Opted out' } });
    // Run again, and three runs at once: nothing more.
    expect(await runPlanReminders(chicago('2026-11-01', '17:15'))).toMatchObject({ texts: 0, emails: 0 });

    // Monday Nov 2, 17:00: Ben's eve text (Election Day tomorrow).
    await runPlanReminders(chicago('2026-11-02', '17:00'));
    expect((await newTexts()).map((t) => t.to).sort()).toEqual(['+15045550181', '+15045550183']);

    // Rosa says she voted (the link in her reminder).
    const rosa = await byName('Rosa Parker');
    const voted = await call(votePlanFn, '/api/vote-plan/update', {
      json: { id: rosa.linkId, action: 'voted' },
    });
    expect(await voted.json()).toMatchObject({ status: 'voted' });

    // Election Day 08:59: nothing; 09:00: the morning reminder to Ben only (Rosa voted, Cy stopped, Dee by mail).
    expect(await runPlanReminders(chicago('2026-11-03', '08:59'))).toMatchObject({ due: 0 });
    const runs = await Promise.all([0, 1, 2].map(() => runPlanReminders(chicago('2026-11-03', '09:00'))));
    expect(runs.reduce((n, r) => n + r.texts, 0)).toBe(1);
    const sent = await newTexts();
    // (The outbox's keys carry the faked, frozen clock: compare as sets.)
    expect(sent.map((t) => t.to).sort()).toEqual(['+15045550181', '+15045550183', '+15045550183']);
    expect(
      sent.filter((t) => t.body.includes('Today is Election Day: polls are open until 8:00 PM')),
    ).toHaveLength(1);
    expect((await byName('Rosa Parker')).morningSms).toMatchObject({
      status: 'skipped',
      error: 'Already voted',
    });
    // Eve Hart gave no consent: never texted; the queue is empty.
    expect(sent.some((t) => t.to === '+15045550185')).toBe(false);
    expect(await valuesOf('vote-plans', 'due/')).toHaveLength(0);
  });

  it('a plan made in the evening is held for quiet hours and lapses at midnight, never sent at night', async () => {
    await setElectionCalendar(calendarWith('2026-11-10', '2026-11-07'), 'test');
    at('2026-11-06', '20:30');
    await post(plan({ name: 'Nia Hale', phone: '504-555-0186', smsConsent: true, day: '2026-11-07' }));
    const count = (await texts()).length;
    expect(await runPlanReminders(chicago('2026-11-06', '20:30'))).toMatchObject({ held: 1, texts: 0 });
    expect(await runPlanReminders(chicago('2026-11-06', '23:45'))).toMatchObject({ held: 1, texts: 0 });
    expect(await runPlanReminders(chicago('2026-11-07', '00:15'))).toMatchObject({ skipped: 1, texts: 0 });
    expect((await texts()).length).toBe(count);
    expect((await byName('Nia Hale')).eveSms).toMatchObject({ status: 'skipped' });
    expect((await byName('Nia Hale')).eveSms?.error).toMatch(/^Lapsed/);
  });

  it('a run killed after its claim sends nothing again; the scheduled function runs the same job', async () => {
    await setElectionCalendar(calendarWith('2026-11-10', '2026-11-07'), 'test');
    at('2026-11-08', '10:00');
    await post(plan({ name: 'Omar Diaz', phone: '504-555-0187', smsConsent: true, day: '2026-11-10' }));
    // A run claimed Omar's eve text and died before sending (the claim is left "sending").
    const { kv } = await import('../../src/lib/server/storage/stores.ts');
    const omar = await byName('Omar Diaz');
    const k = `plan/primary/${omar.id}`;
    const cur = await kv('vote-plans').get(k);
    await kv('vote-plans').replace(
      k,
      { ...omar, eveSms: { status: 'sending', at: new Date().toISOString(), error: null } },
      cur!.etag,
    );
    const count = (await texts()).length;
    vi.setSystemTime(chicago('2026-11-09', '17:00'));
    const res = await remindersFn.default(
      new Request('http://localhost/.netlify/functions/vote-plan-reminders', { method: 'POST', body: '{}' }),
      {} as never,
    );
    expect(res.status).toBe(200);
    expect((await texts()).length).toBe(count);
    expect(remindersFn.config.schedule).toBe('*/15 * * * *');
  });

  it('reminders share the site’s send rate with broadcasts: a spent minute holds a text until the next', async () => {
    await setElectionCalendar(calendarWith('2026-11-17', '2026-11-14'), 'test');
    at('2026-11-12', '10:00');
    await post(plan({ name: 'Ida Wells', phone: '504-555-0188', smsConsent: true, day: '2026-11-14' }));
    const count = (await texts()).length;
    // A broadcast (or anything else) spent the whole of 17:00's budget (BROADCAST_RATE_PER_MINUTE).
    const five = chicago('2026-11-13', '17:00');
    expect(await spendRateNow(broadcastRate(), five.getTime())).toBe(true);
    expect(await runPlanReminders(five)).toMatchObject({ held: 1, texts: 0 });
    expect((await texts()).length).toBe(count);
    expect((await byName('Ida Wells')).eveSms).toBeNull();
    // The next minute has its own budget: the text goes, once.
    expect(await runPlanReminders(chicago('2026-11-13', '17:01'))).toMatchObject({ texts: 1 });
    expect(await runPlanReminders(chicago('2026-11-13', '17:02'))).toMatchObject({ texts: 0 });
    expect((await texts()).slice(count).map((t) => t.to)).toEqual(['+15045550188']);
  });
});
