import type { Context } from '@netlify/functions';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as remindersFn from '../../netlify/functions/event-reminders.mts';
import { StoredRsvpSchema } from '../../src/lib/schemas/rsvp.ts';
import { campaignTomorrow, runReminders } from '../../src/lib/server/events/reminders.ts';
import { applyInboundText } from '../../src/lib/server/texting/sms-webhook.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { localProviders, messageSid, valuesOf } from '../helpers/forms.ts';
import { person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
});
afterAll(() => blobs.stop());
afterEach(() => vi.useRealTimers());

/**
 * A fake clock reading: `hh:mm` on `date`, New Orleans time, written with its UTC offset (never computed by the
 * campaign clock under test): the event is in July 2031, daylight time (-05:00).
 */
function chicago(date: string, time: string): Date {
  if (!date.startsWith('2031-07-')) throw new Error(`the offset below is July 2031's, not ${date}'s`);
  return new Date(`${date}T${time}:00-05:00`);
}
const dayBefore = (date: string) => {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
};

describe('day-before reminders (fake clock)', () => {
  it('emails and texts the people going, inside 9:00-20:00 only, once, never to an opted-out number', async () => {
    // The event is a week after the pinned clock (only Date is faked): Tuesday, July 8, 2031.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-07-01T12:00:00-05:00'));
    const event = await rsvpEventFixture(2);
    expect(event.eventDate).toBe('2031-07-08');
    const [a, b, c] = [
      person({ smsReminder: true, phone: '504-555-0161' }),
      person({ smsReminder: true, phone: '504-555-0162' }),
      person({ smsReminder: true, phone: '504-555-0163' }),
    ];
    for (const p of [a, b, c]) await rsvpTo(event.id, p); // c is waitlisted
    // b texts STOP to the campaign's number.
    await applyInboundText({ messageSid: messageSid(), from: '+15045550162', body: 'STOP' });

    const eve = dayBefore(event.eventDate);
    expect(campaignTomorrow(chicago(eve, '12:00'))).toBe(event.eventDate);
    const texts = async () =>
      (await valuesOf<{ to: string; body: string }>('outbox', 'sms/')).filter((m) =>
        m.to.startsWith('+150455501'),
      );
    const reminders = async () =>
      (await valuesOf<{ to: string; subject: string }>('outbox', 'email/')).filter((m) =>
        m.subject.startsWith('Tomorrow:'),
      );

    expect(await runReminders(chicago(eve, '08:59'))).toMatchObject({ quiet: true, emails: 0, texts: 0 });
    expect(await runReminders(chicago(eve, '20:00'))).toMatchObject({ quiet: true, emails: 0, texts: 0 });
    expect(await runReminders(chicago(dayBefore(eve), '12:00'))).toMatchObject({ events: 0, emails: 0 });
    expect(await reminders()).toHaveLength(0);

    expect(await runReminders(chicago(eve, '09:00'))).toEqual({
      events: 1,
      emails: 2,
      texts: 1,
      textsSkipped: 1,
      quiet: false,
    });
    expect((await reminders()).map((m) => m.to).sort()).toEqual([a.email, b.email].sort());
    const sent = await texts();
    expect(sent.map((t) => t.to)).toEqual(['+15045550161']);
    expect(sent[0]?.body).toMatch(
      /^Avery for Mayor: Reminder: Town Hall on Drainage is tomorrow, 6:00 PM .*Reply STOP to opt out\.$/,
    );

    // Later runs the same day send nothing again.
    expect(await runReminders(chicago(eve, '13:00'))).toMatchObject({ emails: 0, texts: 0, textsSkipped: 0 });
    const recs = (await valuesOf('rsvps', `rsvp/${event.id}/`)).map((r) => StoredRsvpSchema.parse(r));
    const byEmail = (e: string) => recs.find((r) => r.email === e);
    expect(byEmail(a.email)).toMatchObject({
      reminderEmail: { status: 'sent' },
      reminderSms: { status: 'sent' },
    });
    expect(byEmail(b.email)).toMatchObject({ reminderSms: { status: 'skipped', error: 'Opted out' } });
    expect(byEmail(c.email)).toMatchObject({ status: 'waitlisted', reminderEmail: null, reminderSms: null });
  });

  it('the scheduled function runs the same job', async () => {
    const res = await remindersFn.default(
      new Request('http://localhost:4321/.netlify/functions/event-reminders', {
        method: 'POST',
        body: JSON.stringify({ next_run: new Date().toISOString() }),
      }),
      {} as Context,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveProperty('quiet');
    expect(remindersFn.config.schedule).toBe('@hourly');
  });
});
