import type { Context } from '@netlify/functions';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as shiftsFn from '../../netlify/functions/admin-event-shifts.mts';
import * as answerFn from '../../netlify/functions/shift-answer.mts';
import * as sequenceFn from '../../netlify/functions/shift-sequence.mts';
import { SequenceRecordSchema } from '../../src/lib/schemas/shift-sequence.ts';
import { getAttendance } from '../../src/lib/server/events/shift-attendance.ts';
import { answerUrl, sequenceKey } from '../../src/lib/server/events/shift-answers.ts';
import { runShiftSequence } from '../../src/lib/server/events/shift-sequence.ts';
import { getSlotRoster } from '../../src/lib/server/events/shifts.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { applyInboundText } from '../../src/lib/server/texting/sms-webhook.ts';
import { useCountingStores, type CountingStores } from '../helpers/counting-store.ts';
import { localProviders, messageSid, setEnv, valuesOf } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { shiftSlot } from '../helpers/shifts.ts';
import { cancel, cancelLinkIn, person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import {
  AREAS,
  emails,
  MIN,
  nola,
  plus,
  runAt,
  stepTimes,
  texts,
  type Step,
} from '../helpers/sequence-clock.ts';
import { signedIn } from '../helpers/users.ts';
import { faults, seeded } from '../helpers/worker-faults.ts';

/*
 * The shifts' confirm-and-remind sequence (docs/decisions/181-shifts.md, "The sequence") on a fake clock: two weeks
 * of an early-vote event in New Orleans (campaign time America/Chicago, daylight time in October 2026: every
 * clock below is written with its -05:00 offset, never computed by the campaign clock under test), 500 volunteers in
 * English and Spanish with phones in four US time zones. The worker runs every minute around each step's time.
 */

vi.mock('../../src/lib/server/adapters/sms.ts', async (importOriginal) =>
  (await import('../helpers/worker-faults.ts')).killableSms(await importOriginal()),
);
vi.mock('../../src/lib/server/adapters/email.ts', async (importOriginal) =>
  (await import('../helpers/worker-faults.ts')).killableEmail(await importOriginal()),
);

/** Which step a message is, from its words (either language). */
function stepOfText(body: string): Step | null {
  if (/Your shift tomorrow|Su turno de mañana/.test(body)) return 'dayBefore';
  if (/Your shift starts soon|Su turno empieza pronto/.test(body)) return 'soon';
  return null;
}
function stepOfEmail(subject: string): Step | null {
  if (/^(Tomorrow: your shift|Mañana: su turno)/.test(subject)) return 'dayBefore';
  if (/^(Today: your shift|Hoy: su turno)/.test(subject)) return 'morning';
  if (/^(How did it go\?|¿Cómo le fue\?)/.test(subject)) return 'followUp';
  return null;
}

/** Every store its own atomic in-memory store (counting calls), so 500 people fit in the test's time. */
let stores: CountingStores;

const slotOf = (id: string, date: string, start: string, end: string) =>
  shiftSlot(id, 60, { date, start, end, label: `Site ${id}` });

async function signUp(eventId: number, slot: string, p: ReturnType<typeof person>) {
  const res = await rsvpTo(eventId, { ...p, slots: [slot] });
  expect(res.status).toBe(201);
}

beforeAll(() => {
  stores = useCountingStores();
  localProviders();
  // The site's send rate and daily cap sized for the campaign (the guard still spends them).
  setEnv({ BROADCAST_RATE_PER_MINUTE: '100000', SMS_DAILY_CAP: '100000' });
});
afterAll(() => {
  setStoreFactory(null);
  setEnv({ BROADCAST_RATE_PER_MINUTE: undefined, SMS_DAILY_CAP: undefined });
});
afterEach(() => {
  vi.useRealTimers();
  faults.before = 0;
  faults.afterText = 0;
});

describe('the shifts sequence on a fake clock', () => {
  it('14 days, 500 volunteers: every step within 2 minutes of its time, in their language; 1 / SÍ confirm, 2 / NO cancel, STOP stops every later step; steps off stay off', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(nola('2026-10-17', '10:00'));
    const admin = await signedIn('admin');
    const slots = [
      slotOf('s1', '2026-10-19', '12:00', '15:00'),
      slotOf('s2', '2026-10-20', '14:00', '17:00'),
      slotOf('s3', '2026-10-21', '18:00', '21:00'),
      slotOf('s4', '2026-10-22', '12:00', '15:00'),
      slotOf('s5', '2026-10-23', '16:00', '19:00'),
      slotOf('s6', '2026-10-24', '11:30', '14:00'),
      slotOf('s7', '2026-10-26', '12:00', '16:00'),
      slotOf('s8', '2026-10-28', '13:00', '16:00'),
      slotOf('s9', '2026-10-30', '12:00', '15:00'),
      slotOf('s10', '2026-10-31', '17:00', '20:00'),
    ];
    const event = await rsvpEventFixture(null, {
      title: 'Cover the early-vote sites',
      eventDate: '2026-10-31',
    });
    const put = await call(shiftsFn, `/api/admin/events/${event.id}/shifts`, {
      method: 'PUT',
      json: { slots },
      cookie: admin.cookie,
    });
    expect(put.status).toBe(200);
    // A second event with two steps turned off by staff (the same endpoint, audited).
    const other = await rsvpEventFixture(null, { title: 'Phone bank', eventDate: '2026-10-22' });
    const quiet = slotOf('pb', '2026-10-22', '15:00', '17:00');
    const put2 = await call(shiftsFn, `/api/admin/events/${other.id}/shifts`, {
      method: 'PUT',
      json: { slots: [quiet], sequence: { morning: { on: false }, soon: { on: false } } },
      cookie: admin.cookie,
    });
    expect(put2.status).toBe(200);
    expect(await put2.json()).toMatchObject({
      sequence: { morning: { on: false }, soon: { on: false, minutesBefore: 30 } },
    });

    // 500 volunteers: person i on slot i % 10; k = its place among the slot's 50 decides what it does.
    const people = Array.from({ length: 500 }, (_, i) => {
      const k = Math.floor(i / 10);
      const texter = k < 12 || k % 4 !== 3;
      const lang = k % 2 === 1 ? ('es' as const) : ('en' as const);
      const phone = `+1${AREAS[k % 4]}248${String(1000 + i)}`;
      const p = person({ phone: texter ? phone : '', smsReminder: texter, lang });
      return { i, k, slot: slots[i % 10]!, texter, lang, phone, p };
    });
    for (let b = 0; b < people.length; b += 50)
      await Promise.all(people.slice(b, b + 50).map((x) => signUp(event.id, x.slot.id, x.p)));
    const pb = Array.from({ length: 4 }, (_, j) => ({
      p: person({ phone: `+1504249${1000 + j}`, smsReminder: true }),
    }));
    for (const x of pb) await signUp(other.id, quiet.id, x.p);

    // A texter's consent is in the consent log, with their shift record as its reference.
    const log = await valuesOf<{ type: string; refKey: string }>(
      'signups',
      `consent/${hashed(people[0]!.phone)}/`,
    );
    expect(log).toEqual([
      expect.objectContaining({
        type: 'rsvp_reminder_opt_in',
        refKey: `shift/${event.id}/${hashed(people[0]!.p.email)}`,
      }),
    ]);

    // What each k does after the day-before text: reply, or a link from the day-before email.
    const REPLY: Record<number, string> = { 0: '1', 1: 'SÍ', 2: 'si', 3: '2', 4: 'NO', 5: 'STOP' };
    const cancelled = (k: number) => k === 3 || k === 4 || k === 6 || k === 10;
    const stopped = (k: number) => k === 5;

    // The clock: every minute from 2 minutes before to 2 after each step's time; the answers 3 minutes after.
    const ticks = new Map<number, Set<string>>();
    const at = (t: Date, what: string) =>
      ticks.set(t.getTime(), (ticks.get(t.getTime()) ?? new Set()).add(what));
    for (const s of [...slots, quiet]) {
      const times = stepTimes(s);
      for (const t of Object.values(times)) for (let m = -2; m <= 2; m++) at(plus(t, m), 'run');
      at(plus(times.dayBefore, 3), `answer:${s.id}`);
      at(plus(times.followUp, 3), `after:${s.id}`);
    }
    const linkIn = (text: string, answer: string) => {
      const m = new RegExp(`https?://\\S+/api/shifts/answer\\?\\S*answer=${answer}\\S*?(?=\\)|\\s|$)`).exec(
        text,
      );
      if (!m) throw new Error(`no ${answer} link`);
      const u = new URL(m[0]);
      return Object.fromEntries(u.searchParams);
    };
    const replies: { k: number; reply: string | null; lang: string }[] = [];
    const runFailures: unknown[] = [];
    const linkStatuses: number[] = [];
    for (const t of [...ticks.keys()].sort((a, b) => a - b)) {
      const now = new Date(t);
      for (const what of ticks.get(t)!) {
        if (what === 'run') {
          const [r] = await runAt(now);
          if (r?.status === 'rejected') runFailures.push(r.reason);
          continue;
        }
        vi.setSystemTime(now);
        const [kind, id] = what.split(':') as [string, string];
        const mine = people.filter((x) => x.slot.id === id);
        const mail = await emails();
        const emailOf = (x: (typeof people)[number], step: Step) =>
          mail.find((m) => m.to === x.p.email && stepOfEmail(m.subject) === step)!;
        const links =
          kind === 'answer'
            ? mine
                .filter((y) => y.k === 6 || y.k === 7)
                .map((x) => linkIn(emailOf(x, 'dayBefore').text, x.k === 6 ? 'cancel' : 'confirm'))
            : mine
                .filter((y) => y.k === 8 || y.k === 9)
                .map((x) => linkIn(emailOf(x, 'followUp').text, x.k === 8 ? 'attended' : 'absent'));
        const texting = kind === 'answer' ? mine.filter((y) => y.k in REPLY) : [];
        for (const x of texting) {
          const body = REPLY[x.k]!;
          const reply = await applyInboundText({ messageSid: messageSid(), from: x.phone, body }, now);
          replies.push({ k: x.k, reply, lang: x.lang });
        }
        for (const json of links)
          linkStatuses.push((await call(answerFn, '/api/shifts/answer', { json })).status);
        // k 10 cancels by the sign-up email's own link (the roster alone says so: no answer is noted).
        const signupCancels = mine
          .filter((y) => kind === 'answer' && y.k === 10)
          .map((x) =>
            cancelLinkIn(mail.find((m) => m.to === x.p.email && m.subject.startsWith('Your shifts'))!.text),
          );
        for (const body of signupCancels) linkStatuses.push((await cancel(body)).status);
      }
    }
    expect(runFailures).toEqual([]);
    expect(linkStatuses).toEqual(Array(50).fill(200));

    // Every message: the right people, once each, within 2 minutes of its step's time, in their language.
    const [allTexts, allMails] = [await texts(), await emails()];
    const problems: string[] = [];
    const check = (
      who: string,
      step: Step,
      sent: { at: string; lang: string }[],
      want: boolean,
      due: Date,
      lang: string,
    ) => {
      if (sent.length !== (want ? 1 : 0))
        problems.push(`${who} ${step}: ${sent.length} sent, ${want ? 1 : 0} wanted`);
      for (const m of sent) {
        const late = Date.parse(m.at) - due.getTime();
        if (late < 0 || late > 2 * MIN)
          problems.push(`${who} ${step}: sent ${late / MIN} min after its time`);
        if (m.lang !== lang) problems.push(`${who} ${step}: in ${m.lang}`);
      }
    };
    const langOfText = (s: string) => (/Su turno|Responda/.test(s) ? 'es' : 'en');
    for (const x of people) {
      const times = stepTimes(x.slot);
      const later = !cancelled(x.k) && !stopped(x.k);
      const mineT = allTexts.filter((m) => m.to === x.phone);
      const mineM = allMails.filter((m) => m.to === x.p.email);
      const tx = (step: Step) =>
        mineT.filter((m) => stepOfText(m.body) === step).map((m) => ({ at: m.at, lang: langOfText(m.body) }));
      const em = (step: Step) =>
        mineM
          .filter((m) => stepOfEmail(m.subject) === step)
          .map((m) => ({ at: m.at, lang: /^(Mañana|Hoy|¿Cómo)/.test(m.subject) ? 'es' : 'en' }));
      const who = `#${x.i} (k ${x.k})`;
      check(who, 'dayBefore', tx('dayBefore'), x.texter, times.dayBefore, x.lang);
      check(who, 'dayBefore', em('dayBefore'), true, times.dayBefore, x.lang);
      check(who, 'morning', em('morning'), later, times.morning, x.lang);
      check(who, 'soon', tx('soon'), later && x.texter, times.soon, x.lang);
      check(who, 'followUp', em('followUp'), later, times.followUp, x.lang);
    }
    for (const [j, x] of pb.entries()) {
      const times = stepTimes(quiet);
      const mineT = allTexts.filter((m) => m.to === x.p.phone);
      const mineM = allMails.filter((m) => m.to === x.p.email);
      check(
        `pb${j}`,
        'dayBefore',
        mineT.filter((m) => stepOfText(m.body) === 'dayBefore').map((m) => ({ at: m.at, lang: 'en' })),
        true,
        times.dayBefore,
        'en',
      );
      check(
        `pb${j}`,
        'morning',
        mineM.filter((m) => stepOfEmail(m.subject) === 'morning').map((m) => ({ at: m.at, lang: 'en' })),
        false,
        times.morning,
        'en',
      );
      check(
        `pb${j}`,
        'soon',
        mineT.filter((m) => stepOfText(m.body) === 'soon').map((m) => ({ at: m.at, lang: 'en' })),
        false,
        times.soon,
        'en',
      );
      check(
        `pb${j}`,
        'followUp',
        mineM.filter((m) => stepOfEmail(m.subject) === 'followUp').map((m) => ({ at: m.at, lang: 'en' })),
        true,
        times.followUp,
        'en',
      );
    }
    expect(problems.slice(0, 20)).toEqual([]);

    // The emails carry the paid-for line and an unsubscribe link (the email guard's footer).
    for (const m of allMails.filter((y) => stepOfEmail(y.subject)).slice(0, 50)) {
      expect(m.text).toMatch(/Paid for by|Pagado por/);
      expect(m.text).toMatch(/\/unsubscribe\?u=/);
    }

    // The replies: 1 / SÍ / si confirm, 2 / NO cancel (answered in the volunteer's language); STOP is still STOP.
    const answered = (k: number) => replies.filter((r) => r.k === k);
    for (const k of [0, 1, 2])
      for (const r of answered(k))
        expect(r.reply).toMatch(
          r.lang === 'es' ? /^Gracias, su turno está confirmado/ : /^Thank you, you're confirmed/,
        );
    for (const k of [3, 4])
      for (const r of answered(k))
        expect(r.reply).toMatch(r.lang === 'es' ? /^Gracias por avisarnos/ : /^Thank you for telling us/);
    for (const r of answered(5)) expect(r.reply).toBeNull();
    expect(replies).toHaveLength(60);
    for (const s of slots) {
      const { entries } = await getSlotRoster(event.id, s.id);
      const mine = people.filter((x) => x.slot.id === s.id);
      const status = (x: (typeof people)[number]) => entries.find((e) => e.id === hashed(x.p.email))?.status;
      expect(mine.filter((x) => cancelled(x.k)).map(status)).toEqual(Array(4).fill('cancelled'));
      expect(mine.filter((x) => !cancelled(x.k)).every((x) => status(x) === 'going')).toBe(true);
      const seq = async (x: (typeof people)[number]) =>
        SequenceRecordSchema.parse(
          (await kv('rsvps').get(sequenceKey(event.id, s.id, hashed(x.p.email))))?.value,
        ).answer;
      expect(await Promise.all(mine.filter((x) => [0, 1, 2, 7].includes(x.k)).map(seq))).toEqual(
        Array(4).fill('confirmed'),
      );
      // The follow-up's links recorded attendance (no staff check-in).
      const k8 = mine.find((x) => x.k === 8)!;
      const k9 = mine.find((x) => x.k === 9)!;
      const outcome = async (email: string) =>
        (await getAttendance(hashed(email))).outcomes[`${event.id}:${s.id}`];
      expect(await outcome(k8.p.email)).toMatchObject({ outcome: 'attended', source: 'volunteer' });
      expect(await outcome(k9.p.email)).toMatchObject({ outcome: 'absent', source: 'volunteer' });
    }
    // A run with nothing due reads the day index (four days) and the events' index, and nothing else.
    stores.reset();
    expect(await runShiftSequence(nola('2026-10-17', '12:00'))).toMatchObject({ slots: 0, emails: 0 });
    const idleCalls = stores.calls();
    // Two slots with a step due and everyone done: the four days' index and the events' index, the two listed events'
    // slots and settings, each due slot's roster and progress; never a person's records (50 people each).
    stores.reset();
    expect(await runShiftSequence(nola('2026-10-24', '16:00'))).toMatchObject({
      slots: 2,
      emails: 0,
      texts: 0,
    });
    expect({ idleCalls, doneCalls: stores.calls() }).toEqual({ idleCalls: 5, doneCalls: 5 + 2 * 2 + 2 * 2 });

    // A reply with nothing waiting (after the slot) does nothing and says nothing.
    vi.setSystemTime(nola('2026-10-31', '23:00'));
    expect(
      await applyInboundText({ messageSid: messageSid(), from: people[0]!.phone, body: '2' }),
    ).toBeNull();
  }, 120_000);
});

describe('the worker killed at random points', () => {
  it('two overlapping workers, sends that throw before the provider and texts that went before the worker died: each step reaches each person exactly once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(nola('2026-10-03', '10:00'));
    const admin = await signedIn('admin');
    const slots = [
      slotOf('k1', '2026-10-05', '12:00', '15:00'),
      slotOf('k2', '2026-10-06', '12:00', '15:00'),
    ];
    const event = await rsvpEventFixture(null, { title: 'Canvass', eventDate: '2026-10-06' });
    const put = await call(shiftsFn, `/api/admin/events/${event.id}/shifts`, {
      method: 'PUT',
      json: { slots },
      cookie: admin.cookie,
    });
    expect(put.status).toBe(200);
    const people = Array.from({ length: 40 }, (_, i) => ({
      slot: slots[i % 2]!,
      p: person({ phone: `+1${AREAS[i % 4]}250${1000 + i}`, smsReminder: true, lang: i % 3 ? 'en' : 'es' }),
    }));
    await Promise.all(people.map((x) => signUp(event.id, x.slot.id, x.p)));

    faults.random = seeded(44);
    const ticks = new Set<number>();
    for (const s of slots)
      for (const t of Object.values(stepTimes(s)))
        for (let m = 0; m <= 16; m++) ticks.add(plus(t, m).getTime());
    let killed = 0;
    for (const t of [...ticks].sort((a, b) => a - b)) {
      // Faults for the first 6 minutes of each step; then the workers run clean and catch up.
      const sinceDue = Math.min(
        ...slots
          .flatMap((s) => Object.values(stepTimes(s)).map((d) => t - d.getTime()))
          .filter((d) => d >= 0),
      );
      faults.before = sinceDue < 6 * MIN ? 0.15 : 0;
      faults.afterText = sinceDue < 6 * MIN ? 0.1 : 0;
      const runs = await runAt(new Date(t), 2);
      killed += runs.filter((r) => r.status === 'rejected').length;
    }
    expect(killed).toBeGreaterThan(5);

    const [allTexts, allMails] = [await texts(), await emails()];
    const counts: string[] = [];
    for (const x of people) {
      const n = (step: Step) =>
        allTexts.filter((m) => m.to === x.p.phone && stepOfText(m.body) === step).length +
        allMails.filter((m) => m.to === x.p.email && stepOfEmail(m.subject) === step).length;
      const got = {
        dayBefore: n('dayBefore'),
        morning: n('morning'),
        soon: n('soon'),
        followUp: n('followUp'),
      };
      if (JSON.stringify(got) !== JSON.stringify({ dayBefore: 2, morning: 1, soon: 1, followUp: 1 }))
        counts.push(`${x.p.email}: ${JSON.stringify(got)}`);
    }
    expect(counts).toEqual([]);
  }, 120_000);

  it('an answer link: GET shows the buttons and changes nothing; a changed token or answer is a 404; the page posts', async () => {
    const admin = await signedIn('admin');
    const event = await rsvpEventFixture(null, { title: 'Door knock' });
    const slot = slotOf('dk', event.eventDate, '12:00', '15:00');
    const put = await call(shiftsFn, `/api/admin/events/${event.id}/shifts`, {
      method: 'PUT',
      json: { slots: [slot] },
      cookie: admin.cookie,
    });
    expect(put.status).toBe(200);
    const p = person({ lang: 'es' });
    await signUp(event.id, slot.id, p);
    const id = hashed(p.email);
    const url = new URL(answerUrl(event.id, slot.id, id, 'confirm', 'es'));
    const page = await call(answerFn, `${url.pathname}${url.search}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Sí, ahí estaré');
    expect(html).toContain('No puedo asistir');
    const statusNow = async () =>
      (await getSlotRoster(event.id, slot.id)).entries.find((e) => e.id === id)?.status;
    expect(await statusNow()).toBe('going');
    // The same token for another answer, or another token: 404, nothing changed.
    const forged = new URL(url);
    forged.searchParams.set('answer', 'cancel');
    expect((await call(answerFn, `${forged.pathname}${forged.search}`)).status).toBe(404);
    const post = (fields: Record<string, string>) =>
      call(answerFn, '/api/shifts/answer', {
        body: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const fields = Object.fromEntries(url.searchParams);
    expect((await post({ ...fields, answer: 'cancel' })).status).toBe(404);
    expect((await post({ ...fields, token: 'A'.repeat(43) })).status).toBe(404);
    expect(await statusNow()).toBe('going');
    // The cancel button's own form (as the page renders it) cancels.
    const cancelToken =
      /name="answer" value="cancel"><input type="hidden" name="token" value="([A-Za-z0-9_-]{43})"/.exec(
        html,
      )?.[1];
    const done = await post({ ...fields, answer: 'cancel', token: cancelToken ?? '' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Ya no está en este turno');
    expect(await statusNow()).toBe('cancelled');
    expect(
      (await call(answerFn, '/api/shifts/answer', { json: { ...fields, slot: 'Bad Slot!' } })).status,
    ).toBe(400);
  });

  it('the scheduled function runs the same job every 5 minutes', async () => {
    const res = await sequenceFn.default(
      new Request('http://localhost:4321/.netlify/functions/shift-sequence', {
        method: 'POST',
        body: JSON.stringify({ next_run: new Date().toISOString() }),
      }),
      {} as Context,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveProperty('emails');
    expect(sequenceFn.config.schedule).toBe('*/5 * * * *');
  });
});
