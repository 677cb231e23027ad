import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as rsvpsFn from '../../netlify/functions/admin-event-rsvps.mts';
import * as shiftsFn from '../../netlify/functions/admin-event-shifts.mts';
import * as answerFn from '../../netlify/functions/shift-answer.mts';
import { SequenceRecordSchema } from '../../src/lib/schemas/shift-sequence.ts';
import { runReminders } from '../../src/lib/server/events/reminders.ts';
import { getRoster } from '../../src/lib/server/events/rsvp.ts';
import { getAttendance } from '../../src/lib/server/events/shift-attendance.ts';
import { sequenceKey } from '../../src/lib/server/events/shift-answers.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { applyInboundText } from '../../src/lib/server/texting/sms-webhook.ts';
import { useCountingStores } from '../helpers/counting-store.ts';
import { localProviders, messageSid, setEnv } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
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
  type Mail,
  type Sms,
  type Step,
} from '../helpers/sequence-clock.ts';
import { signedIn } from '../helpers/users.ts';
import { faults, seeded } from '../helpers/worker-faults.ts';

/*
 * The confirm-and-remind sequence of an event WITHOUT slots (docs/decisions/181-shifts.md, "The event without
 * slots"): its implicit slot, the event's own date and hours, its people the RSVPs. On a fake clock in New Orleans
 * (America/Chicago, daylight time in October 2026: every clock is written with its -05:00 offset, never computed by
 * the campaign clock under test), RSVPs in English and Spanish with phones in four US time zones.
 */

vi.mock('../../src/lib/server/adapters/sms.ts', async (importOriginal) =>
  (await import('../helpers/worker-faults.ts')).killableSms(await importOriginal()),
);
vi.mock('../../src/lib/server/adapters/email.ts', async (importOriginal) =>
  (await import('../helpers/worker-faults.ts')).killableEmail(await importOriginal()),
);

/** Which step a message is, from its words (either language): an RSVP's words, not a shift's. */
function stepOfText(body: string): Step | null {
  if (/You RSVPed for tomorrow|Usted confirmó asistencia para mañana/.test(body)) return 'dayBefore';
  if (/Starting soon|Empieza pronto/.test(body)) return 'soon';
  return null;
}
function stepOfEmail(subject: string): Step | null {
  if (/^(Tomorrow: can you still make it\?|Mañana: ¿todavía puede asistir\?)/.test(subject))
    return 'dayBefore';
  if (/^(Today: |Hoy: )/.test(subject)) return 'morning';
  if (/^(How did it go\?|¿Cómo le fue\?)/.test(subject)) return 'followUp';
  return null;
}
/** The RSVP's own day-before reminder (docs/decisions/150-rsvp.md): its email and its text. */
const isOldReminderEmail = (m: Mail) =>
  /A reminder that you are coming tomorrow|Le recordamos que viene mañana/.test(m.text);
const isOldReminderText = (m: Sms) => /Reminder: .* is tomorrow|Recordatorio: .* es mañana/.test(m.body);

const linkIn = (text: string, answer: string) => {
  const m = new RegExp(`https?://\\S+/api/shifts/answer\\?\\S*answer=${answer}\\S*?(?=\\)|\\s|$)`).exec(text);
  if (!m) throw new Error(`no ${answer} link`);
  return Object.fromEntries(new URL(m[0]).searchParams);
};

const ALL_ON = {
  dayBefore: { on: true },
  morning: { on: true },
  soon: { on: true },
  followUp: { on: true },
};

beforeAll(() => {
  useCountingStores();
  localProviders();
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

describe('the sequence of an event without slots', () => {
  it('each step once in its window and language; 1 / SÍ confirm, 2 / NO cancel and move the waitlist up, STOP and a cancelled link stop later steps; "I was there" unless checked in; never the RSVP reminder too', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(nola('2026-10-17', '10:00'));
    const admin = await signedIn('admin');
    const date = '2026-10-20';
    const event = await rsvpEventFixture(12, {
      title: 'Town hall',
      eventDate: date,
      startTime: '18:00',
      endTime: '19:30',
    });
    // A second event the same day whose staff turned nothing on: its RSVP reminder goes, no sequence.
    const other = await rsvpEventFixture(null, {
      title: 'Porch party',
      eventDate: date,
      startTime: '18:00',
      endTime: '19:30',
    });
    const path = `/api/admin/events/${event.id}/shifts`;

    // Off until staff turn it on; a slot may not take the implicit slot's id.
    const before = await call(shiftsFn, path, { cookie: admin.cookie });
    expect(await before.json()).toMatchObject({
      slots: [],
      sequence: {
        dayBefore: { on: false },
        morning: { on: false },
        soon: { on: false },
        followUp: { on: false },
      },
    });
    const reserved = await call(shiftsFn, path, {
      method: 'PUT',
      json: { slots: [{ id: 'event', date, start: '18:00', end: '19:30', capacity: 5 }] },
      cookie: admin.cookie,
    });
    expect(reserved.status).toBe(400);
    // Staff turn every step on: the steps alone, no slots (the event keeps none).
    const put = await call(shiftsFn, path, {
      method: 'PUT',
      json: { sequence: ALL_ON },
      cookie: admin.cookie,
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ slots: [], sequence: ALL_ON });

    // 12 places and 14 RSVPs: k 0..11 going, w0 and w1 waiting. k 11 gave no phone.
    const people = Array.from({ length: 14 }, (_, k) => {
      const lang = k % 2 === 1 ? ('es' as const) : ('en' as const);
      const texter = k !== 11;
      const phone = `+1${AREAS[k % 4]}251${String(1000 + k)}`;
      return { k, lang, texter, phone, p: person({ phone: texter ? phone : '', smsReminder: texter, lang }) };
    });
    for (const x of people) expect((await rsvpTo(event.id, x.p)).status).toBe(201);
    const others = [person({ phone: '+15042521000', smsReminder: true }), person()];
    for (const p of others) expect((await rsvpTo(other.id, p)).status).toBe(201);
    const idOf = (x: (typeof people)[number]) => hashed(x.p.email);
    const statusOf = async (x: (typeof people)[number]) =>
      (await getRoster(event.id)).entries.find((e) => e.id === idOf(x))?.status;
    expect(await Promise.all(people.map(statusOf))).toEqual([
      ...Array<string>(12).fill('going'),
      'waitlisted',
      'waitlisted',
    ]);

    const REPLY: Record<number, string> = { 0: '1', 1: 'SÍ', 2: '2', 3: 'NO', 4: 'STOP' };
    const cancelled = new Set([2, 3, 5, 7]);
    const times = stepTimes({ date, start: '18:00', end: '19:30' });
    const ticks = new Map<number, string[]>();
    const at = (t: Date, what: string) => ticks.set(t.getTime(), [...(ticks.get(t.getTime()) ?? []), what]);
    for (const t of Object.values(times)) for (let m = -2; m <= 5; m++) at(plus(t, m), 'run');
    at(plus(times.dayBefore, 3), 'answer');
    // The RSVP reminder's hourly run, the day before (inside its window).
    at(plus(times.dayBefore, 30), 'reminders');
    at(plus(times.followUp, 3), 'after');

    const replies: { k: number; reply: string | null; lang: string }[] = [];
    const statuses: number[] = [];
    const failures: unknown[] = [];
    for (const t of [...ticks.keys()].sort((a, b) => a - b)) {
      const now = new Date(t);
      for (const what of ticks.get(t)!) {
        vi.setSystemTime(now);
        if (what === 'run') {
          const [r] = await runAt(now);
          if (r?.status === 'rejected') failures.push(r.reason);
        } else if (what === 'reminders') {
          await runReminders(now);
        } else if (what === 'answer') {
          for (const x of people.filter((y) => y.k in REPLY)) {
            const reply = await applyInboundText(
              { messageSid: messageSid(), from: x.phone, body: REPLY[x.k]! },
              now,
            );
            replies.push({ k: x.k, reply, lang: x.lang });
          }
          const mail = await emails();
          const mine = (x: (typeof people)[number]) => mail.filter((m) => m.to === x.p.email);
          // k 5 cancels by the RSVP confirmation's own link; k 6 confirms and k 7 cancels by the day-before email.
          const k5 = mine(people[5]!).find((m) => m.text.includes('/rsvp/cancel?'))!;
          statuses.push((await cancel(cancelLinkIn(k5.text))).status);
          for (const [k, answer] of [
            [6, 'confirm'],
            [7, 'cancel'],
          ] as const) {
            const ask = mine(people[k]!).find((m) => stepOfEmail(m.subject) === 'dayBefore')!;
            statuses.push(
              (await call(answerFn, '/api/shifts/answer', { json: linkIn(ask.text, answer) })).status,
            );
          }
        } else {
          // Staff check k 9 in at the door; then k 8 "I was there", k 9 and k 10 "I could not come".
          const door = await signedIn('editor');
          const checkIn = await call(rsvpsFn, `/api/admin/events/${event.id}/rsvps/${idOf(people[9]!)}`, {
            method: 'PUT',
            json: { checkedIn: true },
            cookie: door.cookie,
          });
          statuses.push(checkIn.status);
          const mail = await emails();
          for (const [k, answer] of [
            [8, 'attended'],
            [9, 'absent'],
            [10, 'absent'],
          ] as const) {
            const ask = mail.find(
              (m) => m.to === people[k]!.p.email && stepOfEmail(m.subject) === 'followUp',
            )!;
            statuses.push(
              (await call(answerFn, '/api/shifts/answer', { json: linkIn(ask.text, answer) })).status,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(statuses).toEqual(Array(7).fill(200));

    // Every message: the right people, once each, within 5 minutes of its step's time, in their language.
    const [allTexts, allMails] = [await texts(), await emails()];
    const problems: string[] = [];
    const check = (
      who: string,
      step: Step,
      sent: { at: string; lang: string }[],
      want: boolean,
      lang: string,
    ) => {
      if (sent.length !== (want ? 1 : 0))
        problems.push(`${who} ${step}: ${sent.length} sent, ${want ? 1 : 0} wanted`);
      for (const m of sent) {
        const late = Date.parse(m.at) - times[step].getTime();
        if (late < 0 || late > 5 * MIN)
          problems.push(`${who} ${step}: sent ${late / MIN} min after its time`);
        if (m.lang !== lang) problems.push(`${who} ${step}: in ${m.lang}`);
      }
    };
    for (const x of people) {
      const waiting = x.k >= 12;
      const later = !cancelled.has(x.k) && x.k !== 4;
      const tx = (step: Step) =>
        allTexts
          .filter((m) => m.to === x.phone && stepOfText(m.body) === step)
          .map((m) => ({ at: m.at, lang: /Usted|Empieza/.test(m.body) ? 'es' : 'en' }));
      const em = (step: Step) =>
        allMails
          .filter((m) => m.to === x.p.email && stepOfEmail(m.subject) === step)
          .map((m) => ({ at: m.at, lang: /^(Mañana|Hoy|¿Cómo)/.test(m.subject) ? 'es' : 'en' }));
      const who = `k ${x.k}`;
      // The waitlisted moved up by a 2 / NO at 11:03 get the day-before ask at the next run (its window is open).
      check(who, 'dayBefore', tx('dayBefore'), x.texter, x.lang);
      check(who, 'dayBefore', em('dayBefore'), true, x.lang);
      check(who, 'morning', em('morning'), later, x.lang);
      check(who, 'soon', tx('soon'), later && x.texter, x.lang);
      check(who, 'followUp', em('followUp'), later, x.lang);
      if (waiting && em('dayBefore').some((m) => Date.parse(m.at) < plus(times.dayBefore, 3).getTime()))
        problems.push(`${who}: asked while still waiting`);
      // Never the RSVP's own reminder too.
      const old =
        allMails.filter((m) => m.to === x.p.email && isOldReminderEmail(m)).length +
        allTexts.filter((m) => m.to === x.phone && isOldReminderText(m)).length;
      if (old) problems.push(`${who}: ${old} RSVP reminders beside the day-before ask`);
    }
    expect(problems).toEqual([]);
    // The event staff turned nothing on: the RSVP reminder (email and text), and no step of the sequence.
    expect(
      others.map((p) => allMails.filter((m) => m.to === p.email && isOldReminderEmail(m)).length),
    ).toEqual([1, 1]);
    expect(allTexts.filter((m) => m.to === others[0]!.phone && isOldReminderText(m))).toHaveLength(1);
    expect(allMails.filter((m) => others.some((p) => p.email === m.to) && stepOfEmail(m.subject))).toEqual(
      [],
    );
    // The emails carry the paid-for line and an unsubscribe link (the email guard's footer).
    for (const m of allMails.filter((y) => stepOfEmail(y.subject))) {
      expect(m.text).toMatch(/Paid for by|Pagado por/);
      expect(m.text).toMatch(/\/unsubscribe\?u=/);
    }

    // The replies, in the person's language; STOP is still STOP.
    expect(replies.map((r) => r.reply?.replace(/:.*/s, '') ?? null)).toEqual([
      "Thank you, you're confirmed",
      'Gracias, su asistencia está confirmada',
      'Thank you for telling us. Your RSVP is cancelled',
      'Gracias por avisarnos. Su reservación quedó cancelada',
      null,
    ]);
    // The cancellations freed their places: both waiting moved up; nobody else moved.
    expect(await Promise.all(people.map(statusOf))).toEqual(
      people.map((x) => (cancelled.has(x.k) ? 'cancelled' : 'going')),
    );
    const answer = async (x: (typeof people)[number]) =>
      SequenceRecordSchema.parse((await kv('rsvps').get(sequenceKey(event.id, 'event', idOf(x))))?.value)
        .answer;
    expect(await Promise.all([0, 1, 6, 2, 3, 7].map((k) => answer(people[k]!)))).toEqual([
      'confirmed',
      'confirmed',
      'confirmed',
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
    // "How did it go": recorded from the volunteer unless staff checked them in (their word stands).
    const outcome = async (k: number) =>
      (await getAttendance(idOf(people[k]!))).outcomes[`${event.id}:event`];
    expect(await outcome(8)).toMatchObject({ outcome: 'attended', source: 'volunteer', date });
    expect(await outcome(9)).toBeUndefined();
    expect(await outcome(10)).toMatchObject({ outcome: 'absent', source: 'volunteer', date });
    expect((await getAttendance(idOf(people[0]!))).confirmed[`${event.id}:event`]).toMatchObject({ date });
    // Staff see the answers beside the people in the attendee list (the check-in stands for k 9).
    const list = await call(rsvpsFn, `/api/admin/events/${event.id}/rsvps?pageSize=50`, {
      cookie: (await signedIn('viewer')).cookie,
    });
    const rows = ((await list.json()) as { items: { email: string; reported: string | null }[] }).items;
    expect([8, 9, 10, 0].map((k) => rows.find((r) => r.email === people[k]!.p.email)?.reported)).toEqual([
      'attended',
      null,
      'absent',
      null,
    ]);
  }, 120_000);

  it('two overlapping workers killed at random points: each step reaches each person exactly once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(nola('2026-10-03', '10:00'));
    const admin = await signedIn('admin');
    const date = '2026-10-06';
    const event = await rsvpEventFixture(null, {
      title: 'Canvass kickoff',
      eventDate: date,
      startTime: '12:00',
      endTime: '15:00',
    });
    const put = await call(shiftsFn, `/api/admin/events/${event.id}/shifts`, {
      method: 'PUT',
      json: { slots: [], sequence: ALL_ON },
      cookie: admin.cookie,
    });
    expect(put.status).toBe(200);
    const people = Array.from({ length: 30 }, (_, i) =>
      person({ phone: `+1${AREAS[i % 4]}253${1000 + i}`, smsReminder: true, lang: i % 3 ? 'en' : 'es' }),
    );
    for (const p of people) expect((await rsvpTo(event.id, p)).status).toBe(201);

    faults.random = seeded(46);
    const times = stepTimes({ date, start: '12:00', end: '15:00' });
    const ticks = new Set<number>();
    for (const t of Object.values(times)) for (let m = 0; m <= 16; m++) ticks.add(plus(t, m).getTime());
    let killed = 0;
    for (const t of [...ticks].sort((a, b) => a - b)) {
      // Faults for the first 6 minutes of each step; then the workers run clean and catch up.
      const sinceDue = Math.min(
        ...Object.values(times)
          .map((d) => t - d.getTime())
          .filter((d) => d >= 0),
      );
      faults.before = sinceDue < 6 * MIN ? 0.15 : 0;
      faults.afterText = sinceDue < 6 * MIN ? 0.1 : 0;
      const runs = await runAt(new Date(t), 2);
      killed += runs.filter((r) => r.status === 'rejected').length;
    }
    expect(killed).toBeGreaterThan(3);
    const [allTexts, allMails] = [await texts(), await emails()];
    const counts = people.map((p) => {
      const n = (step: Step) =>
        allTexts.filter((m) => m.to === p.phone && stepOfText(m.body) === step).length +
        allMails.filter((m) => m.to === p.email && stepOfEmail(m.subject) === step).length;
      return { dayBefore: n('dayBefore'), morning: n('morning'), soon: n('soon'), followUp: n('followUp') };
    });
    expect(counts).toEqual(Array(30).fill({ dayBefore: 2, morning: 1, soon: 1, followUp: 1 }));
  }, 120_000);
});
