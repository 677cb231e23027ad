import { createHash, createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as rsvpFn from '../../netlify/functions/event-rsvp.mts';
import * as cancelFn from '../../netlify/functions/rsvp-cancel.mts';
import { RSVP_MESSAGES, RsvpInputSchema } from '../../src/lib/schemas/rsvp.ts';
import { ConfigError, DEV_SESSION_SECRET } from '../../src/lib/server/env.ts';
import {
  getRoster,
  rsvp,
  RSVP_STATUS_EMAIL_QUIET_MS,
  RSVP_STATUS_EMAIL_WINDOW_MS,
} from '../../src/lib/server/events/rsvp.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import { localProviders, setEnv, uniqueIp, valuesOf } from '../helpers/forms.ts';
import { cancelLinkIn, cancelUrlIn, person, rsvpEventFixture } from '../helpers/rsvp.ts';

/*
 * What a prankster or a snoop can do with the RSVP form and its emails
 * (docs/decisions/075-names-are-not-a-channel.md): write to a stranger through the name field, forge a
 * cancellation link from an email address, or learn who is attending.
 * docs/decisions/075-names-are-not-a-channel.md, 076-rsvp-cancel-links.md,
 * 077-repeat-rsvp.md.
 */

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
}
const mailTo = async (to: string) =>
  (await valuesOf<Mail & { at: string }>('outbox', 'email/'))
    .filter((m) => m.to === to)
    .sort((a, b) => a.at.localeCompare(b.at));

/** Each post from its own address, as different people would (per-IP limits are not what is tested here). */
const rsvpTo = (eventId: number, body: unknown) =>
  call(rsvpFn, `/api/events/${eventId}/rsvp`, { json: body, ip: uniqueIp() });
/** A repeat RSVP at a later time (fake clock), straight through the function the endpoint calls. */
const meta = { ip: '203.0.113.7', userAgent: null };
const rsvpAt = (eventId: number, p: ReturnType<typeof person>, msFromNow: number) =>
  rsvp(eventId, RsvpInputSchema.parse(p), meta, new Date(Date.now() + msFromNow));
const AFTER_QUIET = RSVP_STATUS_EMAIL_QUIET_MS + 60_000;
const cancel = (body: unknown) => call(cancelFn, '/api/rsvp/cancel', { json: body, ip: uniqueIp() });
const formPost = (eventId: number, p: ReturnType<typeof person>) =>
  call(rsvpFn, `/api/events/${eventId}/rsvp`, {
    method: 'POST',
    ip: uniqueIp(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams([
      ['name', p.name],
      ['email', p.email],
      ['phone', ''],
      ['guests', String(p.guests)],
      ['captchaResponse', p.captchaResponse],
    ]).toString(),
  });

describe('names are not a channel', () => {
  it('a "name" that is a message with a link is not mailed: the greeting is neutral, nothing typed is echoed', async () => {
    const event = await rsvpEventFixture(10);
    const attacks = [
      'Your ballot was rejected, fix it at http://evil.example/fix',
      'Polls moved to Wednesday: see vote-info.example',
      'Call 504-555-0199 now',
    ];
    for (const name of attacks) {
      const p = person({ name });
      expect((await rsvpTo(event.id, p)).status).toBe(201);
      const [mail] = await mailTo(p.email);
      expect(mail?.text.split('\n')[0]).toBe('Hello,');
      for (const part of ['ballot', 'http://evil', 'evil', 'Polls', 'vote-info', '555-0199'])
        expect(mail?.text).not.toContain(part);
      expect(mail?.subject).not.toContain(name);
    }
  });

  it('real names, Unicode included, are still greeted by name', async () => {
    const event = await rsvpEventFixture(10);
    for (const name of ['Nguyễn Thị Minh Khai', 'José Ramírez-Núñez', "Siobhán O'Brien"]) {
      const p = person({ name });
      expect((await rsvpTo(event.id, p)).status).toBe(201);
      expect((await mailTo(p.email))[0]?.text.split('\n')[0]).toBe(`Hi ${name},`);
    }
  });

  it('the promotion email greets the same way', async () => {
    const event = await rsvpEventFixture(1);
    const first = person();
    const prank = person({ name: 'Your ballot was rejected, fix it at http://evil.example' });
    await rsvpTo(event.id, first);
    await rsvpTo(event.id, prank);
    expect((await cancel(cancelLinkIn((await mailTo(first.email))[0]!.text))).status).toBe(200);
    const promoted = (await mailTo(prank.email)).find((m) => m.subject.startsWith('A seat opened up'));
    expect(promoted?.text.split('\n')[0]).toBe('Hello,');
    expect(promoted?.text).not.toContain('evil');
  });
});

describe('cancellation links are keyed', () => {
  it('a link forged from the email address (its plain hash, or an HMAC without the server key) is refused', async () => {
    const event = await rsvpEventFixture(5);
    const victim = person();
    expect((await rsvpTo(event.id, victim)).status).toBe(201);
    const id = hashed(victim.email);
    const b64 = (b: Buffer) => b.toString('base64url');
    const sha = (s: string) => createHash('sha256').update(s).digest();
    const forged = [
      b64(Buffer.from(id, 'hex')),
      b64(sha(victim.email)),
      b64(sha(`${event.id}${id}`)),
      b64(sha(`${event.id}\n${id}`)),
      // The right construction under the published dev secret itself, without the link key's derivation.
      b64(createHmac('sha256', DEV_SESSION_SECRET).update(`${event.id}\n${id}`).digest()),
    ];
    for (const token of forged) {
      const res = await cancel({ event: event.id, token });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: RSVP_MESSAGES.badLink });
    }
    // The old link shape (the email's hash as `rsvp`) is not accepted at all.
    expect((await cancel({ event: event.id, rsvp: id, token: forged[0] })).status).toBe(400);
    expect((await getRoster(event.id)).entries.map((e) => e.status)).toEqual(['going']);

    // The real link works; it does not work for another event.
    const link = cancelLinkIn((await mailTo(victim.email))[0]!.text);
    const other = await rsvpEventFixture(5);
    expect((await rsvpTo(other.id, victim)).status).toBe(201);
    expect((await cancel({ ...link, event: other.id })).status).toBe(404);
    expect((await getRoster(other.id)).entries.map((e) => e.status)).toEqual(['going']);
    expect((await cancel(link)).status).toBe(200);
    expect((await getRoster(event.id)).entries.map((e) => e.status)).toEqual(['cancelled']);
  });
});

describe('the link key', () => {
  afterEach(() => setEnv({ APP_ENV: 'test', SITE_URL: undefined, SESSION_SECRET: undefined }));

  it('production without SESSION_SECRET refuses the RSVP (ConfigError, a 503) before storing anything', async () => {
    const event = await rsvpEventFixture(5);
    setEnv({ APP_ENV: 'production', SITE_URL: 'https://example.org', SESSION_SECRET: undefined });
    await expect(rsvpAt(event.id, person(), 0)).rejects.toBeInstanceOf(ConfigError);
    setEnv({ APP_ENV: 'test', SITE_URL: undefined });
    expect(await valuesOf('rsvps', `rsvp/${event.id}/`)).toEqual([]);
  });

  it('a new SESSION_SECRET invalidates the links made under the old one', async () => {
    const event = await rsvpEventFixture(5);
    const p = person();
    expect((await rsvpTo(event.id, p)).status).toBe(201);
    const link = cancelLinkIn((await mailTo(p.email))[0]!.text);
    setEnv({ SESSION_SECRET: 'k3Jx9-aQ2LmV7pRt0sWz4yB6nC8dE1fG5hK-rotated' });
    expect((await cancel(link)).status).toBe(404);
    setEnv({ SESSION_SECRET: undefined });
    expect((await cancel(link)).status).toBe(200);
  });
});

describe("the cancellation page in the RSVP's language", () => {
  it('a Spanish RSVP links to /es/rsvp/cancel; its button without JavaScript lands on the Spanish outcome page', async () => {
    const event = await rsvpEventFixture(5);
    const p = person({ lang: 'es' });
    expect((await rsvpTo(event.id, p)).status).toBe(201);
    const url = cancelUrlIn((await mailTo(p.email))[0]!.text);
    expect(url.pathname).toBe('/es/rsvp/cancel');
    const res = await call(cancelFn, '/api/rsvp/cancel', {
      method: 'POST',
      ip: uniqueIp(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams([
        ['event', url.searchParams.get('event')!],
        ['token', url.searchParams.get('token')!],
        ['lang', 'es'],
      ]).toString(),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/es/forms/rsvp-cancel/sent');
    expect((await getRoster(event.id)).entries.map((e) => e.status)).toEqual(['cancelled']);
  });
});

describe('a repeat RSVP does not say who is on the list', () => {
  it('an address already going and a new one get the same status, body and outcome page; the status goes by email', async () => {
    const event = await rsvpEventFixture(10);
    const victim = person({ name: 'Ana Pérez' });
    expect((await rsvpTo(event.id, victim)).status).toBe(201);

    const probe = { ...victim, name: 'Someone Else', guests: 1 };
    const repeated = await rsvpTo(event.id, probe);
    const fresh = await rsvpTo(event.id, person({ guests: 1 }));
    expect(repeated.status).toBe(fresh.status);
    expect(await repeated.json()).toEqual(await fresh.json());
    // Without JavaScript: the same outcome page.
    const page = await formPost(event.id, probe);
    const newPage = await formPost(event.id, person({ guests: 1 }));
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(newPage.headers.get('location'));

    // Right after the confirmation, the repeats mail nothing (a double click is answered by it).
    expect(await mailTo(victim.email)).toHaveLength(1);
    // Later, a repeat mails the victim their status (greeted with their own name); nothing about them changed.
    expect(await rsvpAt(event.id, probe, AFTER_QUIET)).toEqual(
      await (await rsvpTo(event.id, person({ guests: 1 }))).json(),
    );
    const rec = (await valuesOf<{ name: string; guests: number }>('rsvps', `rsvp/${event.id}/`)).find(
      (r) => r.name === 'Ana Pérez',
    );
    expect(rec?.guests).toBe(0);
    const mails = await mailTo(victim.email);
    expect(mails.map((m) => m.subject)).toEqual([
      "You're going: Town Hall on Drainage",
      'Your RSVP: Town Hall on Drainage',
    ]);
    expect(mails[1]?.text.split('\n')[0]).toBe('Hi Ana Pérez,');
    expect(mails[1]?.text).toContain(RSVP_MESSAGES.alreadyGoing);
    expect(mails[1]?.text).not.toContain('Someone Else');
    // The status email's link cancels.
    expect((await cancel(cancelLinkIn(mails[1]!.text))).status).toBe(200);
  });

  it('when the event is full, a repeat from a waitlisted or going address is answered like a new one', async () => {
    const event = await rsvpEventFixture(1);
    const going = person();
    const waiting = person();
    await rsvpTo(event.id, going);
    expect(await (await rsvpTo(event.id, waiting)).json()).toMatchObject({ position: 1 });
    const answers = [];
    for (const p of [going, waiting]) answers.push(await (await rsvpTo(event.id, p)).json());
    answers.push(await (await rsvpTo(event.id, person())).json());
    expect(answers).toEqual([
      { status: 'waitlisted', message: RSVP_MESSAGES.waitlisted, position: 2 },
      { status: 'waitlisted', message: RSVP_MESSAGES.waitlisted, position: 2 },
      { status: 'waitlisted', message: RSVP_MESSAGES.waitlisted, position: 2 },
    ]);
    expect((await getRoster(event.id)).entries.map((e) => e.status)).toEqual([
      'going',
      'waitlisted',
      'waitlisted',
    ]);
    await rsvpAt(event.id, waiting, AFTER_QUIET);
    const status = (await mailTo(waiting.email)).find((m) => m.subject.startsWith('Your RSVP'));
    expect(status?.text).toContain(`${RSVP_MESSAGES.alreadyWaitlisted} Your place: number 1.`);
  });

  it('repeats cannot flood a mailbox: none right after the confirmation, then one per RSVP per window', async () => {
    const event = await rsvpEventFixture(10);
    const victim = person();
    expect((await rsvpTo(event.id, victim)).status).toBe(201);
    const burst = await Promise.all(Array.from({ length: 8 }, () => rsvpTo(event.id, victim)));
    expect(burst.map((r) => r.status)).toEqual(Array(8).fill(201));
    const statusMails = async () =>
      (await mailTo(victim.email)).filter((m) => m.subject.startsWith('Your RSVP'));
    expect(await statusMails()).toHaveLength(0);

    // After the quiet time, a concurrent burst of repeats mails the status once.
    await Promise.all(Array.from({ length: 8 }, () => rsvpAt(event.id, victim, AFTER_QUIET)));
    for (let i = 0; i < 4; i++) await rsvpAt(event.id, victim, AFTER_QUIET + i * 60_000);
    expect(await statusMails()).toHaveLength(1);
    // Within the window nothing more; a window later, once more.
    await rsvpAt(event.id, victim, AFTER_QUIET + RSVP_STATUS_EMAIL_WINDOW_MS - 60_000);
    expect(await statusMails()).toHaveLength(1);
    await rsvpAt(event.id, victim, AFTER_QUIET + RSVP_STATUS_EMAIL_WINDOW_MS + 60_000);
    await rsvpAt(event.id, victim, AFTER_QUIET + RSVP_STATUS_EMAIL_WINDOW_MS + 120_000);
    expect(await statusMails()).toHaveLength(2);
  });
});
