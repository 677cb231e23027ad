/**
 * Each test replays the
 * attack of the outside test against the real handlers and the local Blobs
 * server, and shows it no longer gets through.
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import * as newsletter from '../../netlify/functions/text-signup.mts';
import * as inbound from '../../netlify/functions/sms-inbound.mts';
import * as alertsFn from '../../netlify/functions/admin-alerts.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
import * as contactFn from '../../netlify/functions/contact.mts';
import * as inboxFn from '../../netlify/functions/admin-inbox.mts';
import { AlertsResponseSchema } from '../../src/lib/schemas/alerts.ts';
import type { ConsentEvent, StoredTextSignup } from '../../src/lib/schemas/inbox.ts';
import { TEXT_SIGNUP_LIMITS } from '../../src/lib/server/texting/text-limits.ts';
import { TEXT_SIGNUP_OPTED_OUT } from '../../src/lib/server/texting/text-signups.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { makeUsers } from '../helpers/content-users.ts';
import {
  fakeProvider,
  keysOf,
  localProviders,
  messageSid,
  sendJson,
  setEnv,
  signedInbound,
  TWILIO_TOKEN,
  uniqueIp,
  validContact,
  validSignup,
  validVolunteer,
  valuesOf,
  type FakeProvider,
} from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';

let blobs: Awaited<ReturnType<typeof startBlobs>>;
let turnstile: FakeProvider;
beforeAll(async () => {
  blobs = await startBlobs();
  // A Turnstile siteverify stand-in: tokens starting with "bad" fail.
  turnstile = await fakeProvider((req, res) => {
    const token = new URLSearchParams(req.body).get('response') ?? '';
    if (token.startsWith('bad'))
      return sendJson(res, 200, { success: false, 'error-codes': ['invalid-input-response'] });
    sendJson(res, 200, { success: true });
  });
});
afterAll(async () => {
  localProviders();
  await turnstile.close();
  await blobs.stop();
});
beforeEach(() => localProviders());
afterEach(() => {
  vi.useRealTimers();
  setEnv({ SMS_ALLOWED_COUNTRIES: undefined, SMS_DAILY_CAP: undefined, TEXT_SIGNUP_HOURLY_CAP: undefined });
});

let n = 0;
/** A fresh valid New Orleans mobile number (exchange 3xx). */
const usPhone = () => `+1504${String(3_100_000 + ++n)}`;
const post = (json: unknown, opts: Parameters<typeof call>[2] = {}) =>
  call(newsletter, '/api/newsletter', {
    json,
    ip: uniqueIp(),
    headers: { 'user-agent': 'attack-script' },
    ...opts,
  });
const textsTo = async (phones: string[]) =>
  (await valuesOf<{ to: string }>('outbox', 'sms/')).filter((m) => phones.includes(m.to));
const person = async (phone: string) =>
  (await valuesOf<StoredTextSignup>('signups', `person/${hashed(phone)}`))[0];
const ledger = (phone: string) => valuesOf<ConsentEvent>('signups', `consent/${hashed(phone)}/`);
const sendInbound = (From: string, Body: string) => {
  const s = signedInbound({ MessageSid: messageSid(), From, Body });
  return call(inbound, '/api/sms/inbound', {
    method: 'POST',
    body: s.body,
    headers: s.headers,
    crossSite: true,
  });
};

describe('finding 1: SMS pumping', () => {
  it('20 sign-ups to +882 (international premium) numbers: all 400, nothing stored, nothing texted', async () => {
    const phones = Array.from({ length: 20 }, (_, i) => `+88213${String(1_000_000 + i)}`);
    const res = await Promise.all(phones.map((phone) => post(validSignup({ phone, email: '' }))));
    for (const r of res) {
      expect(r.status).toBe(400);
      expect(await r.json()).toMatchObject({
        error: 'Please enter a phone number from the US.',
        fields: { phone: 'Please enter a phone number from the US.' },
      });
    }
    for (const phone of phones) expect(await keysOf('signups', `consent/${hashed(phone)}`)).toHaveLength(0);
    expect(await textsTo(phones)).toHaveLength(0);
  });

  it.each([
    ['+0000000000', 'Please enter a valid phone number'],
    ['+18765550123', 'Please enter a phone number from the US.'], // Jamaica shares +1
    ['+18095550123', 'Please enter a phone number from the US.'], // Dominican Republic
    ['+14165550123', 'Please enter a phone number from the US.'], // Toronto
    ['+15041000000', 'Please enter a valid phone number'], // no exchange starts with 1
    ['+447700900123', 'Please enter a phone number from the US.'],
  ])('%s -> 400 %s, nothing stored or texted', async (phone, message) => {
    const res = await post(validSignup({ phone, email: '' }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(message);
    expect(await textsTo([phone])).toHaveLength(0);
  });

  it('the allowed countries are configurable (SMS_ALLOWED_COUNTRIES=US,CA)', async () => {
    setEnv({ SMS_ALLOWED_COUNTRIES: 'US,CA' });
    expect((await post(validSignup({ phone: '+14165550177', email: '' }))).status).toBe(201);
    const jm = await post(validSignup({ phone: '+18765550177', email: '' }));
    expect(jm.status).toBe(400);
    expect(((await jm.json()) as { error: string }).error).toBe(
      'Please enter a phone number from the US or Canada.',
    );
    setEnv({ SMS_ALLOWED_COUNTRIES: 'not a list' });
    expect((await post(validSignup({ phone: usPhone(), email: '' }))).status).toBe(503);
  });

  it('one IP looping sign-ups with new numbers gets at most the per-IP text limit, then 429 until the hour passes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t0 = new Date('2025-09-21T15:00:00Z').getTime();
    vi.setSystemTime(t0);
    const ip = uniqueIp();
    const phones: string[] = [];
    const statuses: number[] = [];
    let limited: Response | null = null;
    for (let i = 0; i < 15; i++) {
      const phone = usPhone();
      phones.push(phone);
      const res = await post(validSignup({ phone, email: '' }), { ip });
      statuses.push(res.status);
      if (res.status === 429) limited ??= res;
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(TEXT_SIGNUP_LIMITS.textsPerIp.max);
    expect(statuses.slice(TEXT_SIGNUP_LIMITS.textsPerIp.max).every((s) => s === 429)).toBe(true);
    expect(await textsTo(phones)).toHaveLength(TEXT_SIGNUP_LIMITS.textsPerIp.max);
    const retryAfter = Number(limited?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(((await limited!.json()) as { error: string }).error).toMatch(
      /Too many sign-ups from this connection/,
    );
    // Refused requests stored nothing.
    for (const phone of phones.slice(TEXT_SIGNUP_LIMITS.textsPerIp.max))
      expect(await keysOf('signups', `consent/${hashed(phone)}`)).toHaveLength(0);

    vi.setSystemTime(t0 + 3601 * 1000);
    expect((await post(validSignup({ phone: usPhone(), email: '' }), { ip })).status).toBe(201);
  });

  it('a client-sent X-Forwarded-For changes nothing: limits use the platform IP (context.ip)', async () => {
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < TEXT_SIGNUP_LIMITS.signupsPerIp.max + 3; i++) {
      const res = await post(validSignup({ phone: '', email: `xff${i}-${ip}@example.com` }), {
        ip,
        headers: { 'x-forwarded-for': `10.1.2.${i}`, 'x-real-ip': `10.9.9.${i}`, 'user-agent': 'x' },
      });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s < 300)).toHaveLength(TEXT_SIGNUP_LIMITS.signupsPerIp.max);
    expect(statuses.slice(-3)).toEqual([429, 429, 429]);
  });

  it('one number signed up from many IPs: per-number limit (5 an hour), one confirmation text', async () => {
    const phone = usPhone();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await post(validSignup({ phone }))).status);
    expect(statuses[0]).toBe(201);
    expect(statuses.slice(1, TEXT_SIGNUP_LIMITS.signupsPerNumber.max)).toEqual(
      Array(TEXT_SIGNUP_LIMITS.signupsPerNumber.max - 1).fill(200),
    );
    expect(statuses.slice(TEXT_SIGNUP_LIMITS.signupsPerNumber.max).every((s) => s === 429)).toBe(true);
    expect(await textsTo([phone])).toHaveLength(1);
  });

  it('the site-wide daily cap: texts stop at SMS_DAILY_CAP, 429 until the next UTC day, one alert in the log and on the dashboard', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t0 = new Date('2025-09-22T20:00:00Z').getTime(); // sessions last 12 h: still valid tomorrow at 00:00
    vi.setSystemTime(t0);
    setEnv({ SMS_DAILY_CAP: '3' });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const phones = Array.from({ length: 6 }, usPhone);
      const res: Response[] = [];
      for (const phone of phones) res.push(await post(validSignup({ phone, email: '' })));
      expect(res.map((r) => r.status)).toEqual([201, 201, 201, 429, 429, 429]);
      expect(await textsTo(phones)).toHaveLength(3);
      const retryAfter = Number(res[3]!.headers.get('retry-after'));
      expect(retryAfter).toBe((new Date('2025-09-23T00:00:00Z').getTime() - t0) / 1000);
      expect(((await res[3]!.json()) as { error: string }).error).toMatch(/a lot of sign-ups/);
      // Email-only sign-ups text nobody and still work.
      expect((await post(validSignup({ phone: '', email: 'cap-email-only@example.com' }))).status).toBe(201);
      const alerts = errors.mock.calls.filter((c) => String(c[0]).startsWith('[ALERT] sms-daily-cap'));
      expect(alerts).toHaveLength(1);

      const { viewer } = await makeUsers();
      const seen = await call(alertsFn, '/api/admin/alerts', { cookie: viewer });
      expect(seen.status).toBe(200);
      const body = AlertsResponseSchema.parse(await seen.json());
      expect(body.alerts).toHaveLength(1);
      expect(body.alerts[0]).toMatchObject({ kind: 'sms-daily-cap', day: '2025-09-22' });
      expect(body.alerts[0]!.message).toMatch(/daily cap of 3 texts/);
      expect(body.smsToday).toEqual({ used: 3, max: 3, resetsAt: '2025-09-23T00:00:00.000Z' });

      // The next UTC day: texting again, the alert is yesterday's.
      vi.setSystemTime(new Date('2025-09-23T00:00:05Z'));
      expect((await post(validSignup({ phone: usPhone(), email: '' }))).status).toBe(201);
      const next = AlertsResponseSchema.parse(
        await (await call(alertsFn, '/api/admin/alerts', { cookie: viewer })).json(),
      );
      expect(next.alerts).toHaveLength(0);
      expect(next.smsToday.used).toBe(1);
    } finally {
      errors.mockRestore();
    }
  });

  it('the bot check: no token, a failed token or a reused token -> 400 and nothing stored or texted', async () => {
    const phone = usPhone();
    const missing = await post(validSignup({ phone, captcha: undefined }));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'Please complete the CAPTCHA' });
    // Local mode accepts only Turnstile's dummy token.
    expect((await post(validSignup({ phone, captcha: 'forged-token' }))).status).toBe(400);
    setEnv({ TURNSTILE_SECRET_KEY: 'real-secret', TURNSTILE_VERIFY_URL: turnstile.url });
    expect((await post(validSignup({ phone, captcha: 'bad-token' }))).status).toBe(400);
    expect(await keysOf('signups', `consent/${hashed(phone)}`)).toHaveLength(0);
    expect(await textsTo([phone])).toHaveLength(0);
    const token = `good-${phone}`;
    expect((await post(validSignup({ phone, captcha: token }))).status).toBe(201);
    const other = usPhone();
    expect((await post(validSignup({ phone: other, captcha: token }))).status).toBe(400);
    expect(await textsTo([other])).toHaveLength(0);
  });

  it('production refuses to run the sign-up without a real captcha secret (503, nothing stored)', async () => {
    // Back to local mode before anything else runs (a later suite's beforeAll comes before any beforeEach), and
    // the stores opened here, which took the production path and are kept, are dropped: the next test opens its own.
    onTestFinished(() => {
      localProviders();
      setStoreFactory(null);
    });
    setEnv({
      APP_ENV: 'production',
      TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
      TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
      TWILIO_FROM_NUMBER: '+15045550199',
      TURNSTILE_SECRET_KEY: '1x0000000000000000000000000000000AA',
    });
    const phone = usPhone();
    expect((await post(validSignup({ phone }))).status).toBe(503);
    expect(await keysOf('signups', `consent/${hashed(phone)}`)).toHaveLength(0);
  });
});

describe('finding 2: only the owner can undo a STOP', () => {
  beforeEach(() => setEnv({ TWILIO_AUTH_TOKEN: TWILIO_TOKEN }));

  it('after STOP, a stranger signing the number up again is logged and refused: still opted out, nothing texted', async () => {
    const phone = usPhone();
    expect((await post(validSignup({ phone, firstName: 'Owner' }))).status).toBe(201);
    expect((await sendInbound(phone, 'STOP')).status).toBe(200);
    const texted = (await textsTo([phone])).length;

    const res = await post(validSignup({ phone, firstName: 'Stranger', sourcePage: '/volunteer' }), {
      ip: '203.0.113.99',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: TEXT_SIGNUP_OPTED_OUT, status: 'opted_out' });
    expect(TEXT_SIGNUP_OPTED_OUT).toMatch(/reply START \(or COMENZAR\) from that phone/);
    const p = await person(phone);
    expect(p).toMatchObject({ smsStatus: 'opted_out', firstName: 'Owner' });
    expect(await textsTo([phone])).toHaveLength(texted);
    // The consent ledger: who, when, which page; and the refusal pointing at it.
    const log = await ledger(phone);
    const request = log.find((e) => e.type === 'web_opt_in' && e.firstName === 'Stranger');
    expect(request).toMatchObject({
      ip: '203.0.113.99',
      userAgent: 'attack-script',
      sourcePage: '/volunteer',
    });
    const refusal = log.find((e) => e.type === 'web_opt_in_refused');
    expect(refusal).toMatchObject({ firstName: 'Stranger', ip: '203.0.113.99' });
    expect(refusal?.refKey).toMatch(new RegExp(`^consent/${hashed(phone)}/`));
  });

  it('a number that texted STOP before ever signing up cannot be signed up from the web either', async () => {
    const phone = usPhone();
    await sendInbound(phone, 'ALTO');
    const res = await post(validSignup({ phone }));
    expect(((await res.json()) as { status: string }).status).toBe('opted_out');
    expect((await person(phone))?.smsStatus).toBe('opted_out');
    expect(await textsTo([phone])).toHaveLength(0);
  });

  it('only an inbound START (or COMENZAR) from the phone resubscribes it', async () => {
    for (const keyword of ['START', 'comenzar']) {
      const phone = usPhone();
      await post(validSignup({ phone }));
      await sendInbound(phone, 'STOP');
      await post(validSignup({ phone }));
      expect((await person(phone))?.smsStatus).toBe('opted_out');
      await sendInbound(phone, keyword);
      expect((await person(phone))?.smsStatus).toBe('subscribed');
      // A web sign-up now is a plain repeat: nothing changes, nothing is sent.
      const again = await post(validSignup({ phone }));
      expect(await again.json()).toMatchObject({ status: 'subscribed' });
      expect(await textsTo([phone])).toHaveLength(1);
    }
  });

  it("a web sign-up never changes an existing subscriber's stored name or email", async () => {
    const phone = usPhone();
    await post(validSignup({ phone, firstName: 'Real', email: 'real@example.com' }));
    const before = await person(phone);
    expect((await post(validSignup({ phone, firstName: 'Prank', email: 'prank@example.com' }))).status).toBe(
      200,
    );
    expect(await person(phone)).toEqual(before);
    const logged = (await ledger(phone)).filter((e) => e.type === 'web_opt_in').map((e) => e.firstName);
    expect(logged.sort()).toEqual(['Prank', 'Real']);
  });
});

describe('finding 6: control characters in names', () => {
  it.each(['Ada\u0000', 'Ada\u001b[31m', 'Ada\u0085', 'Ada\nSmith'])(
    '%j in a name -> 400 on every public form, nothing stored',
    async (name) => {
      const phone = usPhone();
      const signup = await post(validSignup({ phone, firstName: name }));
      expect(signup.status).toBe(400);
      expect(await signup.json()).toMatchObject({
        fields: { firstName: 'Contains characters that are not allowed' },
      });
      expect(await keysOf('signups', `consent/${hashed(phone)}`)).toHaveLength(0);
      const email = `ctl-${phone.slice(-6)}@example.com`;
      const volunteer = await call(volunteersFn, '/api/volunteers-sendgrid', {
        json: validVolunteer({ email, firstName: name }),
      });
      expect(volunteer.status).toBe(400);
      expect(await keysOf('volunteers', `volunteer/${hashed(email)}`)).toHaveLength(0);
      const contact = await call(contactFn, '/api/contact', { json: validContact({ email, name }) });
      expect(contact.status).toBe(400);
    },
  );

  it('a message body keeps its line breaks but not a NUL', async () => {
    const email = `lines-${usPhone().slice(-6)}@example.com`;
    expect(
      (
        await call(contactFn, '/api/contact', {
          json: validContact({ email, message: 'Line one\nLine two\r\n\tindented' }),
        })
      ).status,
    ).toBe(201);
    expect(
      (await call(contactFn, '/api/contact', { json: validContact({ email, message: 'A\u0000B' }) })).status,
    ).toBe(400);
  });
});

describe('finding 6: an anonymous form never overwrites a stored person', () => {
  it("a second volunteer submission with someone's email is a record of its own; staff see both", async () => {
    const email = `victim-${usPhone().slice(-6)}@example.com`;
    const v = (over: Record<string, unknown>) =>
      call(volunteersFn, '/api/volunteers-sendgrid', { json: validVolunteer({ email, ...over }) });
    expect((await v({ firstName: 'Vic', address1: '1 Real St' })).status).toBe(201);
    expect((await v({ firstName: 'Mallory', address1: '666 Fake Ave', phone: '504-555-0166' })).status).toBe(
      201,
    );
    const stored = await valuesOf<{ firstName: string; address1: string }>(
      'volunteers',
      `volunteer/${hashed(email)}`,
    );
    expect(stored.map((r) => `${r.firstName}|${r.address1}`).sort()).toEqual([
      'Mallory|666 Fake Ave',
      'Vic|1 Real St',
    ]);
    const { editor } = await makeUsers();
    const page = await call(inboxFn, `/api/admin/volunteers?q=${encodeURIComponent(email)}`, {
      cookie: editor,
    });
    expect(page.status).toBe(200);
    const body = (await page.json()) as { items: { firstName: string; submissionsFromEmail: number }[] };
    expect(body.items).toHaveLength(2);
    expect(body.items.every((i) => i.submissionsFromEmail === 2)).toBe(true);
  });
});

describe('GET /api/admin/alerts', () => {
  let users: Awaited<ReturnType<typeof makeUsers>>;
  beforeAll(async () => {
    users = await makeUsers();
  });

  it('permission matrix: anonymous and inactive 401, every staff role 200', async () => {
    const expected = { anonymous: 401, inactive: 401, viewer: 200, editor: 200, admin: 200 } as const;
    for (const [who, status] of Object.entries(expected)) {
      const res = await call(alertsFn, '/api/admin/alerts', { cookie: users[who as keyof typeof users] });
      expect(res.status, who).toBe(status);
      expect(res.headers.get('cache-control')).toBe('no-store');
      if (status === 200) AlertsResponseSchema.parse(await res.json());
    }
  });

  it('bad input: other methods 405 with Allow, a cross-site POST is still 405 and changes nothing', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await call(alertsFn, '/api/admin/alerts', { method, cookie: users.admin, json: {} });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
    }
  });

  it('fuzz: arbitrary query strings and cookies -> only 2xx/4xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 40 }),
        fc.oneof(
          fc.constant(users.viewer),
          fc.string({ maxLength: 60 }).map((s) => `session=${s}`),
        ),
        async (query, cookie) => {
          const res = await call(alertsFn, `/api/admin/alerts?${encodeURIComponent(query)}=1`, { cookie });
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
  });
});
