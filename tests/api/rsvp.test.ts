import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as rsvpFn from '../../netlify/functions/event-rsvp.mts';
import * as cancelFn from '../../netlify/functions/rsvp-cancel.mts';
import { ConsentEventSchema } from '../../src/lib/schemas/inbox.ts';
import { RSVP_MESSAGES, StoredRsvpSchema, type RsvpResult } from '../../src/lib/schemas/rsvp.ts';
import { getRoster } from '../../src/lib/server/events/rsvp.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { startBlobs, useFakeService } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import { keysOf, localProviders, uniqueIp, valuesOf } from '../helpers/forms.ts';
import { cancel, cancelLinkIn, cancelUrlIn, person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
});
afterAll(() => blobs.stop());

interface Mail {
  to: string;
  subject: string;
  text: string;
  attachments?: { filename: string; type: string; content: string }[];
}
const mailTo = async (to: string) =>
  (await valuesOf<Mail & { at: string }>('outbox', 'email/')).filter((m) => m.to === to);

describe('RSVP', () => {
  it('stores the person, answers going, emails a confirmation with the .ics and a cancellation link', async () => {
    const event = await rsvpEventFixture(10);
    const p = person({ guests: 2, phone: '504-555-0177' });
    const res = await rsvpTo(event.id, p);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ status: 'going', message: RSVP_MESSAGES.going, position: null });
    const [rec] = await valuesOf('rsvps', `rsvp/${event.id}/`);
    expect(StoredRsvpSchema.parse(rec)).toMatchObject({
      email: p.email,
      guests: 2,
      phone: '+15045550177',
      status: 'going',
      confirmation: { status: 'sent' },
    });
    const [mail] = await mailTo(p.email);
    expect(mail?.subject).toBe("You're going: Town Hall on Drainage");
    expect(mail?.text).toContain('Party: you and 2 guests');
    expect(mail?.attachments?.[0]).toMatchObject({ type: 'text/calendar' });
    expect(mail?.attachments?.[0]?.content).toContain('BEGIN:VEVENT');
    // The link names the event and a keyed token, never a hash of the email (076-rsvp-cancel-links.md).
    expect([...cancelUrlIn(mail!.text).searchParams.keys()]).toEqual(['event', 'token']);
    expect(mail!.text).not.toContain(hashed(p.email));
    // Party of 3 holds 3 seats.
    const avail: unknown = await (await call(rsvpFn, `/api/events/${event.id}/rsvp`)).json();
    expect(avail).toEqual({ open: true, capacity: 10, seatsTaken: 3, seatsLeft: 7, waitlisted: 0 });

    // A repeat (double click, second tab) is answered as a new RSVP would be (077-repeat-rsvp.md)
    // and sends nothing (the confirmation just went out).
    const again = await rsvpTo(event.id, { ...p, guests: 0 });
    expect(again.status).toBe(201);
    expect((await again.json()) as RsvpResult).toEqual({
      status: 'going',
      message: RSVP_MESSAGES.going,
      position: null,
    });
    expect(await mailTo(p.email)).toHaveLength(1);
  });

  it('the SMS reminder opt-in is logged like the text sign-up consent; it needs a phone', async () => {
    const event = await rsvpEventFixture(null);
    expect((await rsvpTo(event.id, person({ smsReminder: true }))).status).toBe(400);
    const p = person({ smsReminder: true, phone: '(504) 555-0188' });
    expect((await rsvpTo(event.id, p, '203.0.113.10')).status).toBe(201);
    const log = (await valuesOf('signups', `consent/${hashed('+15045550188')}/`)).map((e) =>
      ConsentEventSchema.parse(e),
    );
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      type: 'rsvp_reminder_opt_in',
      phone: '+15045550188',
      consentVersion: '2025-10-01',
      sourcePage: `/events/${event.id}`,
      ip: '203.0.113.10',
    });
    expect(log[0]?.consentText).toContain('Reply HELP for help and STOP to opt out');
    // It does not put them on the recurring text list.
    expect(await keysOf('signups', `person/${hashed('+15045550188')}`)).toHaveLength(0);
  });

  it('only public, upcoming events that take registration here accept RSVPs', async () => {
    // What other tests stored stays; this one stores nothing.
    const before = (await keysOf('rsvps', 'rsvp/')).length;
    const cases = [
      await rsvpEventFixture(5, { registrationRequired: false }),
      await rsvpEventFixture(5, { registrationUrl: 'https://www.mobilize.us/avery/event/1/' }),
      await rsvpEventFixture(5, { isPublic: false }),
      await rsvpEventFixture(5, {}, new Date(Date.now() - 30 * 86_400_000)),
    ];
    for (const e of cases) {
      const res = await rsvpTo(e.id, person());
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: RSVP_MESSAGES.notTaking });
      expect((await call(rsvpFn, `/api/events/${e.id}/rsvp`)).status).toBe(404);
    }
    expect((await rsvpTo(999_999, person())).status).toBe(404);
    expect(await keysOf('rsvps', 'rsvp/')).toHaveLength(before);
  });

  it('bad input and a missing captcha store nothing', async () => {
    const event = await rsvpEventFixture(5);
    const bad = [
      person({ captchaResponse: '' }),
      person({ captchaResponse: 'forged' }),
      person({ name: ' ' }),
      person({ email: 'nope' }),
      person({ guests: 6 }),
      person({ guests: -1 }),
      person({ phone: '12' }),
      { ...person(), isAdmin: true },
    ];
    for (const b of bad) expect((await rsvpTo(event.id, b)).status).toBe(400);
    expect(await keysOf('rsvps', `rsvp/${event.id}/`)).toHaveLength(0);
    const crossSite = await call(rsvpFn, `/api/events/${event.id}/rsvp`, {
      json: person(),
      crossSite: true,
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
  });

  it('full: the waitlist; a cancellation frees the seat and promotes the first waitlisted, who is emailed', async () => {
    const event = await rsvpEventFixture(1);
    const [a, b, c] = [person(), person(), person()];
    expect(await (await rsvpTo(event.id, a)).json()).toMatchObject({ status: 'going' });
    expect(await (await rsvpTo(event.id, b)).json()).toEqual({
      status: 'waitlisted',
      message: RSVP_MESSAGES.waitlisted,
      position: 1,
    });
    expect(await (await rsvpTo(event.id, c)).json()).toMatchObject({ status: 'waitlisted', position: 2 });
    expect((await mailTo(b.email))[0]?.subject).toBe("You're on the waitlist: Town Hall on Drainage");
    expect((await mailTo(b.email))[0]?.attachments).toBeUndefined();

    const link = cancelLinkIn((await mailTo(a.email))[0]!.text);
    expect(
      (await cancel({ ...link, token: link.token.replace(/.$/, (x) => (x === 'A' ? 'B' : 'A')) })).status,
    ).toBe(404);
    const res = await cancel(link);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: RSVP_MESSAGES.cancelled });
    expect(await (await cancel(link)).json()).toEqual({ message: RSVP_MESSAGES.alreadyCancelled });

    const roster = await getRoster(event.id);
    expect(roster.entries.map((e) => e.status)).toEqual(['cancelled', 'going', 'waitlisted']);
    const promoted = (await mailTo(b.email)).find((m) => m.subject.startsWith('A seat opened up'));
    expect(promoted?.attachments?.[0]?.content).toContain('BEGIN:VCALENDAR');
    // The promotion email carries its own working cancellation link.
    expect((await cancel(cancelLinkIn(promoted!.text))).status).toBe(200);
    const after = await getRoster(event.id);
    expect(after.entries.map((e) => e.status)).toEqual(['cancelled', 'cancelled', 'going']);
    // Cancelled people may RSVP again: at the end of the line.
    expect(await (await rsvpTo(event.id, a)).json()).toMatchObject({ status: 'waitlisted', position: 1 });
  });

  it('a party never splits: a smaller one behind it may take the seats it does not fit', async () => {
    const event = await rsvpEventFixture(3);
    expect(await (await rsvpTo(event.id, person({ guests: 1 }))).json()).toMatchObject({ status: 'going' });
    expect(await (await rsvpTo(event.id, person({ guests: 2 }))).json()).toMatchObject({
      status: 'waitlisted',
    });
    expect(await (await rsvpTo(event.id, person())).json()).toMatchObject({ status: 'going' });
    const avail: unknown = await (await call(rsvpFn, `/api/events/${event.id}/rsvp`)).json();
    expect(avail).toMatchObject({ seatsTaken: 3, seatsLeft: 0, waitlisted: 1 });
  });
});

function useMemory(): void {
  const stores = new Map<StoreName, KV>();
  setStoreFactory((name) => {
    let s = stores.get(name);
    if (!s) stores.set(name, (s = new MemoryKV()));
    return s;
  });
}

describe.each(['production path, SDK-like fake service', 'atomic in-memory KV', 'real local Blobs server'])(
  'concurrent RSVPs (%s)',
  (backend) => {
    let fake: Awaited<ReturnType<typeof useFakeService>> | null = null;
    beforeAll(async () => {
      if (backend.startsWith('production')) fake = await useFakeService();
      else if (backend.startsWith('atomic')) useMemory();
      else setStoreFactory(null);
    });
    afterAll(async () => {
      await fake?.stop();
      setStoreFactory(null);
    });

    it('100 concurrent RSVPs to a 40-seat event -> exactly 40 going and 60 waitlisted, everyone answered', async () => {
      const event = await rsvpEventFixture(40);
      const people = Array.from({ length: 100 }, () => person());
      const res = await Promise.all(people.map((p) => rsvpTo(event.id, p)));
      expect(res.map((r) => r.status)).toEqual(Array(100).fill(201));
      const answers = (await Promise.all(res.map((r) => r.json()))) as RsvpResult[];
      expect(answers.filter((a) => a.status === 'going')).toHaveLength(40);
      const waiting = answers.filter((a) => a.status === 'waitlisted');
      expect(waiting).toHaveLength(60);
      expect(waiting.map((a) => a.position).sort((x, y) => x! - y!)).toEqual(
        Array.from({ length: 60 }, (_, i) => i + 1),
      );

      const roster = await getRoster(event.id);
      expect(roster.entries).toHaveLength(100);
      expect(new Set(roster.entries.map((e) => e.id)).size).toBe(100);
      expect(roster.entries.filter((e) => e.status === 'going')).toHaveLength(40);
      const records = (await valuesOf('rsvps', `rsvp/${event.id}/`)).map((r) => StoredRsvpSchema.parse(r));
      expect(records).toHaveLength(100);
      // Each person's answer, record and roster place agree.
      for (const [i, p] of people.entries()) {
        const id = hashed(p.email);
        expect(records.find((r) => r.id === id)?.status).toBe(answers[i]?.status);
        expect(roster.entries.find((e) => e.id === id)?.status).toBe(answers[i]?.status);
      }
      const emails = (await valuesOf<Mail>('outbox', 'email/')).filter((m) =>
        people.some((p) => p.email === m.to),
      );
      expect(emails).toHaveLength(100);
    }, 90_000);
  },
);

describe('RSVP without JavaScript (browser form posts, as the public forms post)', () => {
  const FORM = 'application/x-www-form-urlencoded';
  const post = (mod: Parameters<typeof call>[0], path: string, fields: [string, string][]) =>
    call(mod, path, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': FORM },
      ip: uniqueIp(),
    });
  const fields = (p: ReturnType<typeof person>, captcha = true): [string, string][] => [
    ['name', p.name],
    ['email', p.email],
    ['phone', ''],
    ['guests', '1'],
    ...(captcha ? ([['captchaResponse', p.captchaResponse]] as [string, string][]) : []),
  ];

  it('going, then waitlisted when full: 303 to the outcome pages, stored, nothing personal in the URL', async () => {
    const event = await rsvpEventFixture(2);
    const a = person();
    const res = await post(rsvpFn, `/api/events/${event.id}/rsvp`, fields(a));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/forms/rsvp/sent');
    const b = person();
    const full = await post(rsvpFn, `/api/events/${event.id}/rsvp`, fields(b));
    expect(full.headers.get('location')).toBe('/forms/rsvp/waitlisted');
    const roster = await getRoster(event.id);
    expect(roster.entries.map((e) => e.status)).toEqual(['going', 'waitlisted']);
  });

  it('without the captcha (scripts off): refused, nothing stored, the outcome page links back to the event', async () => {
    const event = await rsvpEventFixture(5);
    const p = person();
    const res = await post(rsvpFn, `/api/events/${event.id}/rsvp`, fields(p, false));
    expect(res.status).toBe(303);
    const loc = res.headers.get('location') ?? '';
    expect(loc).toMatch(/^\/forms\/rsvp\?outcome=\d{13}-[a-f0-9]{32}$/);
    expect(loc).not.toContain('guest');
    expect(await keysOf('rsvps', `rsvp/${event.id}/`)).toEqual([]);
    const { takeOutcome } = await import('../../src/lib/server/form-post.ts');
    const outcome = await takeOutcome('rsvp', loc.split('=')[1]!);
    expect(outcome).toMatchObject({
      message: 'Please complete the CAPTCHA',
      back: `/events/${event.id}#rsvp-heading`,
    });
  });

  it('the cancellation button works as a plain form post', async () => {
    const event = await rsvpEventFixture(5);
    const p = person();
    expect((await rsvpTo(event.id, p)).status).toBe(201);
    const [mail] = await mailTo(p.email);
    const link = cancelLinkIn(mail!.text);
    const res = await post(cancelFn, '/api/rsvp/cancel', [
      ['event', String(link.event)],
      ['token', link.token],
    ]);
    expect(res.headers.get('location')).toBe('/forms/rsvp-cancel/sent');
    const roster = await getRoster(event.id);
    expect(roster.entries[0]?.status).toBe('cancelled');
  });
});
