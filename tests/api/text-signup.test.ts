import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as newsletter from '../../netlify/functions/text-signup.mts';
import * as inbound from '../../netlify/functions/sms-inbound.mts';
import { IDENTITY } from '../../src/content/identity.ts';
import { SMS_CONSENT_VERSION, smsConsentText } from '../../src/content/consent.ts';
import {
  ConsentEventSchema,
  StoredTextSignupSchema,
  type ConsentEvent,
  type StoredTextSignup,
} from '../../src/lib/schemas/inbox.ts';
import { sendProgramText, TEXT_SIGNUP_OPTED_OUT } from '../../src/lib/server/texting/text-signups.ts';
import { classifyInbound } from '../../src/lib/server/texting/inbound-keywords.ts';
import { TEXT_SIGNUP_PHONE_NEEDED } from '../../src/lib/schemas/public-forms.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import {
  fakeProvider,
  keysOf,
  localProviders,
  messageSid,
  setEnv,
  signedInbound,
  twilioHandler,
  TWILIO_SID,
  TWILIO_TOKEN,
  uniqueIp,
  uniquePhone,
  validSignup,
  valuesOf,
  type FakeProvider,
} from '../helpers/forms.ts';

const OK = "You're signed up for text messages!";
let blobs: Awaited<ReturnType<typeof startBlobs>>;
let tw: FakeProvider;
let twilioMode: { fail?: number } = {};

beforeAll(async () => {
  blobs = await startBlobs();
  tw = await fakeProvider((req, res) => twilioHandler(twilioMode)(req, res));
});
afterAll(async () => {
  localProviders();
  await tw.close();
  await blobs.stop();
});
beforeEach(() => {
  localProviders();
  twilioMode = {};
});

/** One visitor per call (a fresh client IP) unless the test says otherwise. */
const post = (json: unknown, opts: Parameters<typeof call>[2] = {}) =>
  call(newsletter, '/api/newsletter', {
    method: 'POST',
    json,
    headers: { 'user-agent': 'vitest-agent' },
    ip: uniqueIp(),
    ...opts,
  });

async function person(phone: string): Promise<StoredTextSignup | undefined> {
  const all = await valuesOf<StoredTextSignup>('signups', `person/${hashed(phone)}`);
  return all[0];
}
async function events(phone: string): Promise<ConsentEvent[]> {
  return valuesOf<ConsentEvent>('signups', `consent/${hashed(phone)}/`);
}
async function textsTo(phone: string): Promise<{ to: string; body: string }[]> {
  return (await valuesOf<{ to: string; body: string }>('outbox', 'sms/')).filter((m) => m.to === phone);
}
function useTwilio(): void {
  setEnv({
    TWILIO_ACCOUNT_SID: TWILIO_SID,
    TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
    TWILIO_FROM_NUMBER: '+15045550199',
    TWILIO_API_URL: tw.url,
  });
}
async function sendInbound(
  fields: Record<string, string>,
  opts: { tamper?: boolean; signature?: string | null } = {},
) {
  const s = signedInbound(fields);
  const headers: Record<string, string> = { ...s.headers };
  if (opts.signature === null) delete headers['x-twilio-signature'];
  else if (opts.signature) headers['x-twilio-signature'] = opts.signature;
  const body = opts.tamper ? s.body.replace(/Body=[^&]*/, 'Body=START') : s.body;
  return call(inbound, '/api/sms/inbound', { method: 'POST', body, headers, crossSite: true });
}

describe('POST /api/newsletter', () => {
  it('stores the consent record and person, texts one confirmation, answers 201', async () => {
    const res = await post(
      validSignup({
        firstName: '  Ada  ',
        phone: '(504) 555-0100',
        email: ' Ada.First@Example.com ',
        sourcePage: '/volunteer',
      }),
      {
        ip: '198.51.100.20',
      },
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ message: OK, status: 'subscribed' });
    expect(res.headers.get('cache-control')).toBe('no-store');

    const p = StoredTextSignupSchema.parse(await person('+15045550100'));
    expect(p).toMatchObject({
      firstName: 'Ada',
      phone: '+15045550100',
      email: 'ada.first@example.com',
      smsStatus: 'subscribed',
    });
    expect(p.confirmation?.status).toBe('sent');
    expect(p.consentVersion).toBe(SMS_CONSENT_VERSION);

    const log = (await events('+15045550100')).map((e) => ConsentEventSchema.parse(e));
    const optIn = log.find((e) => e.type === 'web_opt_in')!;
    const text = smsConsentText(IDENTITY.committeeName);
    expect(optIn).toMatchObject({
      phone: '+15045550100',
      firstName: 'Ada',
      email: 'ada.first@example.com',
      consentText: text,
      consentVersion: SMS_CONSENT_VERSION,
      sourcePage: '/volunteer',
      ip: '198.51.100.20',
      userAgent: 'vitest-agent',
    });
    expect(optIn.consentTextSha256).toMatch(/^[a-f0-9]{64}$/);
    expect(optIn.at).toMatch(/Z$/);
    const confirmed = log.find((e) => e.type === 'confirmation_sent')!;
    expect(confirmed.messageId).toBe(p.confirmation?.messageId);

    const texts = await textsTo('+15045550100');
    expect(texts).toHaveLength(1);
    const body = texts[0]!.body;
    for (const part of [
      IDENTITY.smsProgramName,
      'Msg frequency varies',
      'Msg & data rates may apply',
      'Reply HELP for help, STOP to unsubscribe',
    ]) {
      expect(body).toContain(part);
    }
  });

  it('a repeat sign-up answers 200, logs the new details beside the first record, never rewrites it, sends no second text', async () => {
    const phone = uniquePhone();
    expect((await post(validSignup({ phone, email: '' }))).status).toBe(201);
    const before = await person(phone);
    const again = await post(validSignup({ phone, firstName: 'Mallory', email: 'mallory@example.com' }));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ message: OK, status: 'subscribed' });
    expect(await keysOf('signups', `person/${hashed(phone)}`)).toHaveLength(1);
    // The first record stands as it was: a web form never changes a stored name silently.
    expect(await person(phone)).toEqual(before);
    expect(before).toMatchObject({ firstName: 'Ada', email: null });
    const optIns = (await events(phone)).filter((e) => e.type === 'web_opt_in');
    expect(optIns.map((e) => e.firstName).sort()).toEqual(['Ada', 'Mallory']);
    expect(optIns.find((e) => e.firstName === 'Mallory')?.email).toBe('mallory@example.com');
    expect(await textsTo(phone)).toHaveLength(1);
  });

  it('email only: stored, no text', async () => {
    const res = await post({
      firstName: 'Eve',
      email: 'eve-only@example.com',
      smsConsent: true,
      captcha: validSignup().captcha,
    });
    expect(res.status).toBe(201);
    const p = (await valuesOf<StoredTextSignup>('signups', `person/${hashed('eve-only@example.com')}`))[0]!;
    expect(p).toMatchObject({ phone: null, email: 'eve-only@example.com', confirmation: null });
  });

  it('first name only (no phone, no email): 400 on the phone field, nothing stored (docs/decisions/151-texting.md)', async () => {
    const before = await keysOf('signups', 'person/');
    const res = await post({
      firstName: 'Solo',
      phone: '',
      email: '',
      smsConsent: true,
      captcha: validSignup().captcha,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: TEXT_SIGNUP_PHONE_NEEDED,
      fields: { phone: TEXT_SIGNUP_PHONE_NEEDED },
    });
    expect(TEXT_SIGNUP_PHONE_NEEDED).toMatch(/phone number/);
    expect(await keysOf('signups', 'person/')).toEqual(before);
  });

  it.each([
    [{ firstName: '   ' }, 'Please enter your first name.', 'firstName'],
    [{ firstName: undefined }, 'Please enter your first name.', 'firstName'],
    [{ smsConsent: false }, 'Please check the box to consent to receiving text messages.', 'smsConsent'],
    [{ smsConsent: undefined }, 'Please check the box to consent to receiving text messages.', 'smsConsent'],
    [{ smsConsent: 'true' }, 'Please check the box to consent to receiving text messages.', 'smsConsent'],
    [{ phone: '12345' }, 'Please enter a valid phone number', 'phone'],
    [{ email: 'not-an-email' }, 'Please enter a valid email address', 'email'],
    [{ admin: true }, 'Unknown field: admin', '_'],
  ])('%j -> 400 %s and nothing stored', async (over, message, field) => {
    const phone = uniquePhone();
    const res = await post(validSignup({ phone, ...over }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; fields: Record<string, string> };
    expect(body.error).toBe(message);
    expect(body.fields[field]).toBe(message);
    expect(await keysOf('signups', `person/${hashed(phone)}`)).toHaveLength(0);
    expect(await keysOf('signups', `consent/${hashed(phone)}`)).toHaveLength(0);
    expect(await textsTo(phone)).toHaveLength(0);
  });

  it('wrong method 405, wrong content type 415, oversize 413, bad JSON 400, cross-site 403', async () => {
    const get = await call(newsletter, '/api/newsletter');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const text = await call(newsletter, '/api/newsletter', {
      method: 'POST',
      body: 'firstName=A',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    // A form post is the no-JavaScript path: refused (no consent) as a page, not JSON (tests/api/form-posts.test.ts).
    const form = await call(newsletter, '/api/newsletter', {
      method: 'POST',
      body: 'firstName=A',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(303);
    const big = await post(validSignup({ firstName: 'x'.repeat(20_000) }));
    expect(big.status).toBe(413);
    const bad = await call(newsletter, '/api/newsletter', {
      method: 'POST',
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    const cross = await call(newsletter, '/api/newsletter', {
      json: validSignup(),
      crossSite: true,
      headers: { origin: 'https://evil.example' },
    });
    expect(cross.status).toBe(403);
    const crossFetch = await call(newsletter, '/api/newsletter', {
      json: validSignup(),
      crossSite: true,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossFetch.status).toBe(403);
  });

  it('SMS provider down: the sign-up is stored (201) and the failure is recorded for staff', async () => {
    useTwilio();
    twilioMode = { fail: 500 };
    const phone = uniquePhone();
    // An email of its own: the default one belongs to a person another test stops (149-people.md).
    const res = await post(validSignup({ phone, email: 'ada.provider-down@example.com' }));
    expect(res.status).toBe(201);
    const p = await person(phone);
    expect(p?.smsStatus).toBe('subscribed');
    expect(p?.confirmation).toMatchObject({
      status: 'failed',
      error: 'SmsSendError: Twilio answered 500 (code 20003)',
    });
    expect((await events(phone)).map((e) => e.type).sort()).toEqual(['confirmation_failed', 'web_opt_in']);
  });

  it('through Twilio: the confirmation goes to the Messages API and its SID is recorded', async () => {
    useTwilio();
    const phone = uniquePhone();
    tw.requests.length = 0;
    expect((await post(validSignup({ phone, email: 'ada.twilio@example.com' }))).status).toBe(201);
    expect(tw.requests).toHaveLength(1);
    expect(new URLSearchParams(tw.requests[0]!.body).get('To')).toBe(phone);
    expect((await person(phone))?.confirmation?.messageId).toMatch(/^SM/);
  });

  it('production with Twilio but without the Campaign Verify token: 503, nothing stored, nothing texted', async () => {
    setEnv({
      APP_ENV: 'production',
      TURNSTILE_SECRET_KEY: '0x4AAAAAAAnot-a-test-secret',
      TWILIO_ACCOUNT_SID: TWILIO_SID,
      TWILIO_AUTH_TOKEN: '0123456789abcdef0123456789abcdef',
      TWILIO_MESSAGING_SERVICE_SID: 'MG' + 'b'.repeat(32),
      TWILIO_API_URL: tw.url,
    });
    tw.requests.length = 0;
    const logged: string[] = [];
    const spy = vi
      .spyOn(console, 'error')
      .mockImplementation((...args: unknown[]) => void logged.push(args.join(' ')));
    const phone = uniquePhone();
    try {
      const res = await post(validSignup({ phone }));
      expect(res.status).toBe(503);
    } finally {
      spy.mockRestore();
    }
    // Refused for the token, before the captcha is asked or anything is stored.
    expect(logged.join('\n')).toMatch(/CAMPAIGN_VERIFY_TOKEN is not set/);
    expect(await keysOf('signups', `consent/${hashed(phone)}`)).toHaveLength(0);
    expect(tw.requests).toHaveLength(0);
  });

  it('production without Twilio configured: 503 and nothing stored', async () => {
    setEnv({ APP_ENV: 'production' });
    const phone = uniquePhone();
    const res = await post(validSignup({ phone }));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(await keysOf('signups', `consent/${hashed(phone)}`)).toHaveLength(0);
  });
});

describe('POST /api/sms/inbound', () => {
  beforeEach(() => setEnv({ TWILIO_AUTH_TOKEN: TWILIO_TOKEN }));

  it('classifies keywords and plain-language requests', () => {
    for (const s of ['STOP', 'stop', ' Stop. ', 'STOPALL', 'unsubscribe', 'CANCEL', 'end', 'QUIT'])
      expect(classifyInbound(s)).toEqual({ kind: 'stop', keyword: true, lang: 'en' });
    for (const s of [
      'please stop texting me',
      'Remove me from this list',
      'take me off your list',
      "don't text me again",
    ]) {
      expect(classifyInbound(s)).toEqual({ kind: 'stop', keyword: false, lang: 'en' });
    }
    expect(classifyInbound('START').kind).toBe('start');
    expect(classifyInbound('unstop').kind).toBe('start');
    expect(classifyInbound('HELP').kind).toBe('help');
    expect(classifyInbound('Who is this?').kind).toBe('other');
  });

  it('a valid STOP -> 200 empty TwiML, opt-out recorded; replay -> one record', async () => {
    const phone = uniquePhone();
    expect((await post(validSignup({ phone }))).status).toBe(201);
    const fields = { MessageSid: messageSid(), From: phone, Body: 'STOP' };
    const res = await sendInbound(fields);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/xml/);
    const xml = await res.text();
    expect(xml).toContain('<Response');
    expect(xml).not.toContain('<Message');
    const p = await person(phone);
    expect(p?.smsStatus).toBe('opted_out');
    expect(p?.optedOutAt).toBeTruthy();
    // Replay of the same MessageSid (a Twilio retry or a captured request).
    expect((await sendInbound(fields)).status).toBe(200);
    expect((await events(phone)).filter((e) => e.type === 'stop')).toHaveLength(1);
  });

  it('an opted-out number is never texted again, and a web sign-up cannot undo the STOP', async () => {
    const phone = uniquePhone();
    await post(validSignup({ phone }));
    await sendInbound({ MessageSid: messageSid(), From: phone, Body: 'please stop texting me' });
    expect((await person(phone))?.smsStatus).toBe('opted_out');
    // Any program text is refused for this number.
    expect(await sendProgramText(phone, 'News!')).toEqual({ sent: false, reason: 'opted_out' });
    // Signing up again without consent: 400, still opted out, no text.
    expect((await post(validSignup({ phone, smsConsent: false }))).status).toBe(400);
    expect((await person(phone))?.smsStatus).toBe('opted_out');
    // A web opt-in (by anyone): recorded and refused; still opted out, nothing sent.
    const again = await post(validSignup({ phone }));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ message: TEXT_SIGNUP_OPTED_OUT, status: 'opted_out' });
    expect((await person(phone))?.smsStatus).toBe('opted_out');
    expect(await textsTo(phone)).toHaveLength(1);
    const log = await events(phone);
    expect(log.filter((e) => e.type === 'web_opt_in')).toHaveLength(2);
    expect(log.filter((e) => e.type === 'web_opt_in_refused')).toHaveLength(1);
  });

  it('a plain-language stop gets a confirmation reply; HELP gets program name and contact', async () => {
    const phone = uniquePhone();
    const stop = await sendInbound({ MessageSid: messageSid(), From: phone, Body: 'Remove me please' });
    expect(await stop.text()).toContain("You're unsubscribed");
    const help = await sendInbound({ MessageSid: messageSid(), From: phone, Body: 'HELP' });
    const xml = await help.text();
    expect(xml).toContain(`<Message>${IDENTITY.smsProgramName}`);
    expect(xml).toContain(IDENTITY.emails.general);
    expect(xml).toContain('Reply STOP to unsubscribe');
    expect((await events(phone)).map((e) => e.type).sort()).toEqual(['help', 'stop']);
  });

  it('START after STOP re-subscribes', async () => {
    const phone = uniquePhone();
    await post(validSignup({ phone }));
    await sendInbound({ MessageSid: messageSid(), From: phone, Body: 'STOP' });
    const start = await sendInbound({ MessageSid: messageSid(), From: phone, Body: 'START' });
    expect(start.status).toBe(200);
    expect((await person(phone))?.smsStatus).toBe('subscribed');
  });

  it('tampered, missing or foreign signatures -> 403 and nothing recorded', async () => {
    const phone = uniquePhone();
    const fields = { MessageSid: messageSid(), From: phone, Body: 'STOP' };
    expect((await sendInbound(fields, { tamper: true })).status).toBe(403);
    expect((await sendInbound(fields, { signature: null })).status).toBe(403);
    expect((await sendInbound(fields, { signature: 'AAAA' })).status).toBe(403);
    setEnv({ TWILIO_AUTH_TOKEN: undefined });
    expect((await sendInbound(fields)).status).toBe(403);
    expect(await keysOf('signups', `consent/${hashed(phone)}`)).toHaveLength(0);
    expect(await keysOf('signups', `inbound/${fields.MessageSid}`)).toHaveLength(0);
  });

  it('wrong method 405, wrong content type 415, oversize 413, malformed fields 400', async () => {
    expect((await call(inbound, '/api/sms/inbound')).status).toBe(405);
    expect(
      (await call(inbound, '/api/sms/inbound', { json: { Body: 'STOP' }, crossSite: true })).status,
    ).toBe(415);
    const big = signedInbound({ MessageSid: messageSid(), From: uniquePhone(), Body: 'x'.repeat(20_000) });
    expect(
      (
        await call(inbound, '/api/sms/inbound', {
          method: 'POST',
          body: big.body,
          headers: big.headers,
          crossSite: true,
        })
      ).status,
    ).toBe(413);
    expect((await sendInbound({ MessageSid: 'nope', From: uniquePhone(), Body: 'STOP' })).status).toBe(400);
  });
});
