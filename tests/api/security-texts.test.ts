/**
 * The text guard and the per-IP form limits (docs/decisions/151-texting.md,
 * 081-form-post-limits.md): each test replays an attack of the second outside
 * test (RSVP reminder texts to premium numbers, no per-IP limit on RSVPs and the
 * other forms) against the real handlers and a local Blobs server, with a fake
 * clock, and shows it no longer gets through.
 */
import { CAPTCHA_REQUIRED } from '../../src/lib/schemas/public-forms.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as contactFn from '../../netlify/functions/contact.mts';
import * as subscribersFn from '../../netlify/functions/email-subscribers.mts';
import * as newsletterFn from '../../netlify/functions/text-signup.mts';
import * as rsvpFn from '../../netlify/functions/event-rsvp.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
import type { ConsentEvent, StoredTextSignup } from '../../src/lib/schemas/inbox.ts';
import { StoredRsvpSchema, type StoredRsvp } from '../../src/lib/schemas/rsvp.ts';
import { runReminders } from '../../src/lib/server/events/reminders.ts';
import { update } from '../../src/lib/server/storage/compare-and-set.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { FORM_POST_LIMITS } from '../../src/lib/server/public-forms/post-limits.ts';
import { smsBudgetToday, TEXT_SIGNUP_LIMITS } from '../../src/lib/server/texting/text-limits.ts';
import { applyInboundText } from '../../src/lib/server/texting/sms-webhook.ts';
import { sendGuardedText, TEXT_REFUSALS } from '../../src/lib/server/texting/text-guard.ts';
import { startBlobs } from '../helpers/blobs.ts';
import {
  fakeProvider,
  keysOf,
  localProviders,
  messageSid,
  sendJson,
  setEnv,
  TWILIO_SID,
  TWILIO_TOKEN,
  uniqueIp,
  validContact,
  validSignup,
  validVolunteer,
  valuesOf,
} from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(() => blobs.stop());
beforeEach(() => localProviders());
afterEach(() => {
  vi.useRealTimers();
  setEnv({ SMS_DAILY_CAP: undefined });
});

/** The four numbers the outside test enrolled for reminder texts. */
const ATTACK_NUMBERS = ['+447911123456', '+18765551234', '+882345678901', '+19005550123'];

/**
 * A fake clock reading: `hh:mm` on `date`, New Orleans time, written with its UTC offset (never computed by the
 * campaign clock under test): these tests run in 2031, daylight time (-05:00) from 2:00 on March 9 to 2:00 on
 * November 2, standard time (-06:00) otherwise.
 */
function chicago(date: string, time: string): Date {
  if (!date.startsWith('2031-')) throw new Error(`the offsets below are 2031's, not ${date}'s`);
  const local = `${date}T${time}`;
  const daylight = local >= '2031-03-09T02:00' && local < '2031-11-02T02:00';
  return new Date(`${local}:00${daylight ? '-05:00' : '-06:00'}`);
}
const dayBefore = (date: string) => {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
};

/** Starts the fake clock at `iso` and gives back an event a week later that takes RSVPs. */
async function eventAt(iso: string, maxAttendees: number | null = null) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
  return rsvpEventFixture(maxAttendees);
}

let seq = 0;
/** A fresh valid New Orleans number (exchange 6xx, apart from other test files' ranges). */
const usPhone = () => `+1504${String(6_200_000 + ++seq)}`;
const textsTo = async (phones: string[]) =>
  (await valuesOf<{ to: string; body: string }>('outbox', 'sms/')).filter((m) => phones.includes(m.to));
const rsvpsOf = async (eventId: number) =>
  (await valuesOf('rsvps', `rsvp/${eventId}/`)).map((r) => StoredRsvpSchema.parse(r));

describe('finding 1: a phone on an RSVP is checked like the text sign-up', () => {
  it.each(ATTACK_NUMBERS)(
    '%s with a reminder -> 400 with the text sign-up message, nothing stored',
    async (phone) => {
      const event = await rsvpEventFixture(null);
      const signup = await call(newsletterFn, '/api/newsletter', {
        json: validSignup({ phone, email: '' }),
        ip: uniqueIp(),
      });
      expect(signup.status).toBe(400);
      const expected = ((await signup.json()) as { error: string }).error;
      for (const smsReminder of [true, false]) {
        const p = person({ phone, smsReminder });
        const res = await rsvpTo(event.id, p);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ error: expected, fields: { phone: expected } });
      }
      expect(await keysOf('rsvps', `rsvp/${event.id}/`)).toHaveLength(0);
      expect(await keysOf('signups', `consent/${hashed(phone)}/`)).toHaveLength(0);
    },
  );

  it('US premium ranges (1-900, the 976 exchange) and personal numbers are refused on the text sign-up too', async () => {
    for (const phone of ['+19005550123', '+15049761234', '+15005550123']) {
      const res = await call(newsletterFn, '/api/newsletter', {
        json: validSignup({ phone, email: '' }),
        ip: uniqueIp(),
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(
        'Please enter a mobile or home phone number (not a premium-rate or special-service number).',
      );
      expect(await textsTo([phone])).toHaveLength(0);
    }
  });

  it('the no-JavaScript RSVP form refuses them the same way (303 to the refused page, nothing stored)', async () => {
    const event = await rsvpEventFixture(null);
    const p = person();
    const res = await call(rsvpFn, `/api/events/${event.id}/rsvp`, {
      method: 'POST',
      body: new URLSearchParams([
        ['name', p.name],
        ['email', p.email],
        ['phone', '+19005550123'],
        ['smsReminder', 'on'],
        ['captchaResponse', p.captchaResponse],
      ]).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      ip: uniqueIp(),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/forms\/rsvp\?outcome=/);
    expect(await keysOf('rsvps', `rsvp/${event.id}/`)).toHaveLength(0);
  });
});

describe('finding 1: every reminder text passes the text guard', () => {
  it('RSVPs stored before the fix with premium or foreign numbers get no text (the guard refuses at dispatch)', async () => {
    const event = await eventAt('2031-02-03T16:00:00Z');
    const people = ATTACK_NUMBERS.map(() => person({ smsReminder: true, phone: usPhone() }));
    for (const p of people) expect((await rsvpTo(event.id, p)).status).toBe(201);
    // What the outside test left behind: the same records, holding the attack numbers.
    const recs = await rsvpsOf(event.id);
    for (const [i, rec] of recs.entries())
      await update<StoredRsvp>(kv('rsvps'), `rsvp/${event.id}/${rec.id}`, (cur) => ({
        ...cur,
        phone: ATTACK_NUMBERS[i]!,
      }));

    const run = await runReminders(chicago(dayBefore(event.eventDate), '10:00'));
    expect(run).toMatchObject({ events: 1, emails: 4, texts: 0, textsSkipped: 4 });
    expect(await textsTo(ATTACK_NUMBERS)).toHaveLength(0);
    for (const rec of await rsvpsOf(event.id))
      expect(rec.reminderSms).toMatchObject({ status: 'skipped', error: TEXT_REFUSALS.number_not_allowed });
  });

  it('reminder texts count against the daily cap (SMS_DAILY_CAP), which then refuses sign-ups too', async () => {
    const event = await eventAt('2031-03-03T16:00:00Z');
    setEnv({ SMS_DAILY_CAP: '2' });
    const phones = [usPhone(), usPhone(), usPhone()];
    for (const phone of phones)
      expect((await rsvpTo(event.id, person({ smsReminder: true, phone }))).status).toBe(201);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const at = chicago(dayBefore(event.eventDate), '10:00');
      vi.setSystemTime(at);
      expect(await runReminders(at)).toMatchObject({ texts: 2, textsSkipped: 1 });
      expect(await textsTo(phones)).toHaveLength(2);
      const skipped = (await rsvpsOf(event.id)).filter((r) => r.reminderSms?.status === 'skipped');
      expect(skipped.map((r) => r.reminderSms?.error)).toEqual([TEXT_REFUSALS.daily_cap]);
      expect((await smsBudgetToday(at.getTime())).used).toBe(2);
      expect(errors.mock.calls.some((c) => String(c[0]).startsWith('[ALERT] sms-daily-cap'))).toBe(true);
      // The cap is spent for the day: a new text sign-up is refused at the door.
      const signup = await call(newsletterFn, '/api/newsletter', {
        json: validSignup({ phone: usPhone(), email: '' }),
        ip: uniqueIp(),
      });
      expect(signup.status).toBe(429);
    } finally {
      errors.mockRestore();
    }
  });

  it('reminder texts count against the per-number limit (every text to one number a day, the confirmation included)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-04-03T16:00:00Z'));
    const events = [];
    for (let i = 0; i < 3; i++) events.push(await rsvpEventFixture(null, { title: `Event ${i}` }));
    const phone = usPhone();
    const eve = dayBefore(events[0]!.eventDate);
    for (const e of events)
      expect((await rsvpTo(e.id, person({ smsReminder: true, phone }))).status).toBe(201);
    // The same morning the number signs up for the text list: one confirmation.
    const at = chicago(eve, '09:30');
    vi.setSystemTime(at);
    expect(
      (await call(newsletterFn, '/api/newsletter', { json: validSignup({ phone }), ip: uniqueIp() })).status,
    ).toBe(201);
    const run = await runReminders(chicago(eve, '10:00'));
    expect(run.texts).toBe(TEXT_SIGNUP_LIMITS.textsPerNumber.max - 1);
    expect(await textsTo([phone])).toHaveLength(TEXT_SIGNUP_LIMITS.textsPerNumber.max);
    const skipped = (await Promise.all(events.map((e) => rsvpsOf(e.id))))
      .flat()
      .filter((r) => r.reminderSms?.status === 'skipped');
    expect(skipped.map((r) => r.reminderSms?.error)).toEqual([TEXT_REFUSALS.number_limit]);
  });

  it('a number that replied STOP (English or Spanish) gets no reminder, even after asking for one', async () => {
    const event = await eventAt('2031-05-03T16:00:00Z');
    const [a, b, c] = [usPhone(), usPhone(), usPhone()];
    for (const phone of [a, b, c])
      expect((await rsvpTo(event.id, person({ smsReminder: true, phone }))).status).toBe(201);
    await applyInboundText({ messageSid: messageSid(), from: a, body: 'STOP' });
    await applyInboundText({ messageSid: messageSid(), from: b, body: 'alto' });
    const run = await runReminders(chicago(dayBefore(event.eventDate), '10:00'));
    expect(run).toMatchObject({ texts: 1, textsSkipped: 2 });
    expect((await textsTo([a, b, c])).map((t) => t.to)).toEqual([c]);
  });

  it('two reminder runs at once (a retried job) text each person once', async () => {
    const event = await eventAt('2031-06-03T16:00:00Z');
    const phones = [usPhone(), usPhone(), usPhone(), usPhone()];
    for (const phone of phones)
      expect((await rsvpTo(event.id, person({ smsReminder: true, phone }))).status).toBe(201);
    const at = chicago(dayBefore(event.eventDate), '11:00');
    const runs = await Promise.all([runReminders(at), runReminders(at), runReminders(at)]);
    expect(runs.reduce((n, r) => n + r.texts, 0)).toBe(phones.length);
    expect((await textsTo(phones)).map((t) => t.to).sort()).toEqual([...phones].sort());
    expect((await runReminders(chicago(dayBefore(event.eventDate), '12:00'))).texts).toBe(0);
  });

  it('a carrier opt-out (Twilio 21610) is recorded as a STOP: that number is never tried again', async () => {
    const twilio = await fakeProvider((_req, res) =>
      sendJson(res, 400, { code: 21610, message: 'Attempt to send to unsubscribed recipient', status: 400 }),
    );
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2031-12-03T16:00:00Z'));
      const first = await rsvpEventFixture(null, { title: 'First' });
      const second = await rsvpEventFixture(null, { title: 'Second', eventDate: '2031-12-11' });
      const phone = usPhone();
      expect((await rsvpTo(first.id, person({ smsReminder: true, phone }))).status).toBe(201);
      expect((await rsvpTo(second.id, person({ smsReminder: true, phone }))).status).toBe(201);
      setEnv({
        TWILIO_ACCOUNT_SID: TWILIO_SID,
        TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
        TWILIO_FROM_NUMBER: '+15045550199',
        TWILIO_API_URL: twilio.url,
      });
      const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        expect(await runReminders(chicago(dayBefore(first.eventDate), '10:00'))).toMatchObject({ texts: 0 });
        expect(twilio.requests).toHaveLength(1);
        const [person_] = await valuesOf<StoredTextSignup>('signups', `person/${hashed(phone)}`);
        expect(person_?.smsStatus).toBe('opted_out');
        const log = await valuesOf<ConsentEvent>('signups', `consent/${hashed(phone)}/`);
        expect(log.filter((e) => e.type === 'carrier_opt_out')).toHaveLength(1);
        // The next event's reminder: refused by the guard, Twilio not called again.
        expect(await runReminders(chicago(dayBefore(second.eventDate), '10:00'))).toMatchObject({
          texts: 0,
          textsSkipped: 1,
        });
        expect(twilio.requests).toHaveLength(1);
      } finally {
        errors.mockRestore();
      }
    } finally {
      localProviders();
      await twilio.close();
    }
  });

  it('the guard keeps quiet hours and asks for the consent of the purpose', async () => {
    const event = await eventAt('2031-07-03T16:00:00Z');
    const phone = usPhone();
    const p = person({ smsReminder: true, phone });
    expect((await rsvpTo(event.id, p)).status).toBe(201);
    const rsvpId = hashed(p.email);
    const consent = { purpose: 'rsvp_reminder' as const, eventId: event.id, rsvpId };
    const eve = dayBefore(event.eventDate);
    expect(
      await sendGuardedText({ to: phone, body: 'x', lang: 'en', consent, now: chicago(eve, '21:30') }),
    ).toEqual({
      sent: false,
      refusal: 'quiet_hours',
    });
    // Consent is for this RSVP's number only, and a sign-up confirmation needs the text list.
    expect(
      await sendGuardedText({ to: usPhone(), body: 'x', lang: 'en', consent, now: chicago(eve, '10:00') }),
    ).toEqual({
      sent: false,
      refusal: 'no_consent',
    });
    expect(
      await sendGuardedText({
        to: phone,
        body: 'x',
        lang: 'en',
        consent: { purpose: 'signup_confirmation' },
      }),
    ).toEqual({ sent: false, refusal: 'no_consent' });
    // A cancelled RSVP's consent to reminders is gone with it.
    await update<StoredRsvp>(kv('rsvps'), `rsvp/${event.id}/${rsvpId}`, (cur) => ({
      ...cur,
      status: 'cancelled',
    }));
    expect(
      await sendGuardedText({ to: phone, body: 'x', lang: 'en', consent, now: chicago(eve, '10:00') }),
    ).toEqual({
      sent: false,
      refusal: 'no_consent',
    });
    expect(await textsTo([phone])).toHaveLength(0);
  });
});

describe('finding 1: per-IP limits on RSVPs and the other forms', () => {
  it('60 RSVPs from one IP: the first 40 are answered, the later ones 429 with Retry-After; a family of 6 on one IP all succeed', async () => {
    const event = await eventAt('2031-08-03T16:00:00Z');
    const family = uniqueIp();
    for (let i = 0; i < 6; i++) {
      const res = await rsvpTo(event.id, person({ guests: i % 2 }), family);
      expect(res.status).toBe(201);
    }

    const attacker = uniqueIp();
    const statuses: number[] = [];
    let limited: Response | null = null;
    for (let i = 0; i < 60; i++) {
      const res = await rsvpTo(event.id, person(), attacker);
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    const max = FORM_POST_LIMITS.rsvp.max;
    expect(statuses.slice(0, max).every((s) => s === 201)).toBe(true);
    expect(statuses.slice(max)).toEqual(Array(60 - max).fill(429));
    const retryAfter = Number(limited?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(((await limited!.json()) as { error: string }).error).toMatch(
      /^Too many submissions from this connection\. Please try again in \d+ minutes?\.$/,
    );
    expect(await keysOf('rsvps', `rsvp/${event.id}/`)).toHaveLength(6 + max);
    // A client-sent X-Forwarded-For changes nothing; the hour passing does.
    const spoofed = await call(rsvpFn, `/api/events/${event.id}/rsvp`, {
      json: person(),
      ip: attacker,
      headers: { 'x-forwarded-for': '10.9.8.7' },
    });
    expect(spoofed.status).toBe(429);
    vi.setSystemTime(new Date('2031-08-03T17:00:01Z'));
    expect((await rsvpTo(event.id, person(), attacker)).status).toBe(201);
  });

  it('the no-JavaScript RSVP form past the limit: 303 to the refused page with the message', async () => {
    const event = await eventAt('2031-09-03T16:00:00Z');
    const ip = uniqueIp();
    // The limit counts every post, one the captcha refuses too (reserved before the captcha: public-forms/accept.ts,
    // step 7), so the IP is brought to it with refused posts: no RSVP stored, no email sent (the test above brings
    // an IP to it with RSVPs that go through).
    for (let i = 0; i < FORM_POST_LIMITS.rsvp.max; i++) {
      const refused = await rsvpTo(event.id, person({ captchaResponse: 'not-a-token' }), ip);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toBe(CAPTCHA_REQUIRED);
    }
    expect(await keysOf('rsvps', `rsvp/${event.id}/`)).toHaveLength(0);
    const p = person();
    const res = await call(rsvpFn, `/api/events/${event.id}/rsvp`, {
      method: 'POST',
      body: new URLSearchParams([
        ['name', p.name],
        ['email', p.email],
        ['captchaResponse', p.captchaResponse],
      ]).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      ip,
    });
    expect(res.status).toBe(303);
    const id = /outcome=([^&]+)/.exec(res.headers.get('location') ?? '')?.[1];
    const [outcome] = await valuesOf<{ status: number; message: string }>('forms', `outcome/${id}`);
    expect(outcome?.status).toBe(429);
    expect(outcome?.message).toMatch(/^Too many submissions from this connection/);
    expect(await keysOf('rsvps', `rsvp/${event.id}/${hashed(p.email)}`)).toHaveLength(0);
  });

  it('reminder texts one IP can ask for share the text sign-up allowance (texts per IP per hour)', async () => {
    const event = await eventAt('2031-10-03T16:00:00Z');
    const ip = uniqueIp();
    const cap = TEXT_SIGNUP_LIMITS.textsPerIp.max;
    const half = Math.floor(cap / 2);
    // Half the allowance through the text sign-up...
    for (let i = 0; i < half; i++) {
      const res = await call(newsletterFn, '/api/newsletter', {
        json: validSignup({ phone: usPhone(), email: '' }),
        ip,
      });
      expect(res.status).toBe(201);
    }
    // ...the rest through RSVP reminders; then 429, while an RSVP without a text still goes through.
    const statuses: number[] = [];
    for (let i = 0; i < cap; i++)
      statuses.push((await rsvpTo(event.id, person({ smsReminder: true, phone: usPhone() }), ip)).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(cap - half);
    expect(statuses.slice(cap - half).every((s) => s === 429)).toBe(true);
    expect((await rsvpTo(event.id, person(), ip)).status).toBe(201);
    const enrolled = (await rsvpsOf(event.id)).filter((r) => r.smsReminder);
    expect(enrolled).toHaveLength(cap - half);
  });

  it.each([
    ['contact', contactFn, '/api/contact', () => validContact({ email: `c${++seq}@example.com` })],
    [
      'volunteer',
      volunteersFn,
      '/api/volunteers-sendgrid',
      () => validVolunteer({ email: `v${++seq}@example.com` }),
    ],
    [
      'newsletter',
      subscribersFn,
      '/api/email-subscribers',
      () => ({ email: `s${++seq}@example.com`, captcha: TURNSTILE_TEST_TOKEN }),
    ],
  ] as const)(
    '%s: posts from one IP past the limit -> 429 with Retry-After',
    async (form, mod, path, body) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2031-11-03T16:00:00Z'));
      const ip = uniqueIp();
      const max = FORM_POST_LIMITS[form].max;
      const statuses: number[] = [];
      let limited: Response | null = null;
      for (let i = 0; i < max + 5; i++) {
        const res = await call(mod, path, { json: body(), ip });
        statuses.push(res.status);
        if (res.status === 429) limited ??= res;
      }
      expect(statuses.slice(0, max).every((s) => s >= 200 && s < 300)).toBe(true);
      expect(statuses.slice(max)).toEqual([429, 429, 429, 429, 429]);
      expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another IP is not affected.
      expect((await call(mod, path, { json: body(), ip: uniqueIp() })).status).toBeLessThan(300);
    },
  );
});
