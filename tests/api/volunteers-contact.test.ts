import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as volunteers from '../../netlify/functions/volunteers-sendgrid.mts';
import * as contact from '../../netlify/functions/contact.mts';
import {
  StoredContactSchema,
  StoredVolunteerSchema,
  type StoredContact,
  type StoredVolunteer,
} from '../../src/lib/schemas/inbox.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import {
  fakeProvider,
  keysOf,
  localProviders,
  sendJson,
  setEnv,
  validContact,
  validVolunteer,
  valuesOf,
  type FakeProvider,
} from '../helpers/forms.ts';

let blobs: Awaited<ReturnType<typeof startBlobs>>;
let sg: FakeProvider;
let ts: FakeProvider;
let sgMode: 'ok' | 500 = 'ok';
let tsMode: 'ok' | 500 = 'ok';

beforeAll(async () => {
  blobs = await startBlobs();
  sg = await fakeProvider((_req, res) => {
    if (sgMode !== 'ok') return sendJson(res, sgMode, { errors: [] });
    res.writeHead(202).end();
  });
  ts = await fakeProvider((req, res) => {
    if (tsMode !== 'ok') return sendJson(res, 500, {});
    const token = new URLSearchParams(req.body).get('response') ?? '';
    if (token.startsWith('bad'))
      return sendJson(res, 200, { success: false, 'error-codes': ['invalid-input-response'] });
    if (token.startsWith('dup'))
      return sendJson(res, 200, { success: false, 'error-codes': ['timeout-or-duplicate'] });
    sendJson(res, 200, { success: true });
  });
});
afterAll(async () => {
  localProviders();
  await sg.close();
  await ts.close();
  await blobs.stop();
});
beforeEach(() => {
  localProviders();
  sgMode = 'ok';
  tsMode = 'ok';
});

let seq = 0;
const uniqueEmail = () => `person${++seq}-${Date.now()}@example.com`;
const useRealCaptcha = () => setEnv({ TURNSTILE_SECRET_KEY: 'real-secret', TURNSTILE_VERIFY_URL: ts.url });
const useSendgrid = () => setEnv({ SENDGRID_API_KEY: 'SG.test', SENDGRID_API_URL: sg.url });

async function volunteer(email: string): Promise<StoredVolunteer | undefined> {
  return (await valuesOf<StoredVolunteer>('volunteers', `volunteer/${hashed(email)}`))[0];
}
async function contactsFrom(email: string): Promise<StoredContact[]> {
  return (await valuesOf<StoredContact>('contacts', 'message/')).filter((c) => c.email === email);
}

describe('POST /api/volunteers-sendgrid', () => {
  const post = (json: unknown, opts: Parameters<typeof call>[2] = {}) =>
    call(volunteers, '/api/volunteers-sendgrid', { method: 'POST', json, ...opts });

  it('verifies the captcha, stores the sign-up, emails the inbox (reply-to the volunteer), 201', async () => {
    const email = uniqueEmail();
    const res = await post(
      validVolunteer({ email: ` ${email.toUpperCase()} `, interests: ['Phone banking'], zip: '70112' }),
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ success: true });
    const v = StoredVolunteerSchema.parse(await volunteer(email));
    expect(v).toMatchObject({
      email,
      phone: '+15045550101',
      state: 'LA',
      zip: '70112',
      interests: ['Phone banking'],
      emailStatus: 'sent',
    });
    expect(v).not.toHaveProperty('captchaResponse');
    const mails = (
      await valuesOf<{ to: string; replyTo: string; subject: string }>('outbox', 'email/')
    ).filter((m) => m.replyTo === email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'team@localhost', subject: 'New volunteer: Grace Hopper' });
  });

  it('the same email again never overwrites: identical is one record (200), different details a second record', async () => {
    const email = uniqueEmail();
    expect((await post(validVolunteer({ email }))).status).toBe(201);
    // A double click or a retry: the same submission, no second record, no second email.
    expect((await post(validVolunteer({ email }))).status).toBe(200);
    expect(await keysOf('volunteers', `volunteer/${hashed(email)}`)).toHaveLength(1);
    const count = async () =>
      (await valuesOf<{ replyTo: string }>('outbox', 'email/')).filter((m) => m.replyTo === email).length;
    expect(await count()).toBe(1);
    const first = await volunteer(email);
    // Anyone who knows the email submits other details: a new record beside the first, which stays as it was.
    const other = await post(
      validVolunteer({ email, firstName: 'Mallory', city: 'Metairie', phone: '504-555-0177' }),
    );
    expect(other.status).toBe(201);
    const all = await valuesOf<StoredVolunteer>('volunteers', `volunteer/${hashed(email)}`);
    expect(all).toHaveLength(2);
    expect(all).toContainEqual(first);
    expect(all.find((v) => v.firstName === 'Mallory')).toMatchObject({
      city: 'Metairie',
      phone: '+15045550177',
    });
    expect(await count()).toBe(2);
    const mails = (await valuesOf<{ replyTo: string; subject: string }>('outbox', 'email/')).filter(
      (m) => m.replyTo === email,
    );
    expect(mails.map((m) => m.subject)).toContain('Volunteer sign-up (2 from this email): Mallory Hopper');
  });

  it.each(['+442071838750', '+18765550123', '+14165550123'])(
    'phone %s -> 400 (only the countries the campaign texts)',
    async (phone) => {
      const email = uniqueEmail();
      const res = await post(validVolunteer({ email, phone }));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: 'Please enter a phone number from the US.',
        fields: { phone: 'Please enter a phone number from the US.' },
      });
      expect(await keysOf('volunteers', `volunteer/${hashed(email)}`)).toHaveLength(0);
    },
  );

  it('phone +15045550188 -> 201 (a US number)', async () => {
    const res = await post(validVolunteer({ email: uniqueEmail(), phone: '+15045550188' }));
    expect(res.status).toBe(201);
  });

  it.each([
    [{ firstName: ' ' }, 'First name is required', 'firstName'],
    [{ lastName: undefined }, 'Last name is required', 'lastName'],
    [{ email: 'nope' }, 'Please enter a valid email address', 'email'],
    [{ phone: '555' }, 'Please enter a valid phone number', 'phone'],
    [{ phone: undefined }, 'Please enter a valid phone number', 'phone'],
    [{ address1: '' }, 'Address is required', 'address1'],
    [{ city: '' }, 'City is required', 'city'],
    [{ state: 'NY' }, 'Please choose a state', 'state'],
    [{ zip: 'abcde' }, 'Please enter a valid ZIP code', 'zip'],
    [{ captchaResponse: '' }, 'Please complete the CAPTCHA', 'captchaResponse'],
    [{ captchaResponse: undefined }, 'Please complete the CAPTCHA', 'captchaResponse'],
    [{ isAdmin: true }, 'Unknown field: isAdmin', '_'],
  ])('%j -> 400 %s and nothing stored', async (over, message, field) => {
    const email = uniqueEmail();
    const res = await post(validVolunteer({ email, ...over }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; fields: Record<string, string> };
    expect(body.error).toBe(message);
    expect(body.fields[field]).toBe(message);
    expect(await keysOf('volunteers', `volunteer/${hashed(email)}`)).toHaveLength(0);
  });

  it('captcha failed, reused or verifier down -> 400/400/503 and nothing stored', async () => {
    useRealCaptcha();
    const e1 = uniqueEmail();
    const bad = await post(validVolunteer({ email: e1, captchaResponse: 'bad-token' }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'Please complete the CAPTCHA' });
    const dup = await post(validVolunteer({ email: e1, captchaResponse: 'dup-token' }));
    expect(dup.status).toBe(400);
    expect(await keysOf('volunteers', `volunteer/${hashed(e1)}`)).toHaveLength(0);

    expect((await post(validVolunteer({ email: e1, captchaResponse: 'good-once' }))).status).toBe(201);
    const e2 = uniqueEmail();
    const reused = await post(validVolunteer({ email: e2, captchaResponse: 'good-once' }));
    expect(reused.status).toBe(400);
    expect(await keysOf('volunteers', `volunteer/${hashed(e2)}`)).toHaveLength(0);

    tsMode = 500;
    const down = await post(validVolunteer({ email: e2, captchaResponse: 'good-two' }));
    expect(down.status).toBe(503);
    expect(await keysOf('volunteers', `volunteer/${hashed(e2)}`)).toHaveLength(0);
  });

  it('local mode refuses anything but the dummy token', async () => {
    const email = uniqueEmail();
    expect((await post(validVolunteer({ email, captchaResponse: 'made-up' }))).status).toBe(400);
    expect(await keysOf('volunteers', `volunteer/${hashed(email)}`)).toHaveLength(0);
  });

  it('email provider down: still 201, record stored with emailStatus failed', async () => {
    useSendgrid();
    sgMode = 500;
    const email = uniqueEmail();
    expect((await post(validVolunteer({ email }))).status).toBe(201);
    expect(await volunteer(email)).toMatchObject({
      emailStatus: 'failed',
      emailError: 'EmailSendError: SendGrid answered 500',
    });
  });

  it('method 405, content type 415, oversize 413, cross-site 403', async () => {
    expect((await call(volunteers, '/api/volunteers-sendgrid')).status).toBe(405);
    expect(
      (
        await call(volunteers, '/api/volunteers-sendgrid', {
          method: 'POST',
          body: 'a=b',
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(415);
    expect((await post(validVolunteer({ address1: 'x'.repeat(40_000) }))).status).toBe(413);
    expect(
      (await post(validVolunteer(), { crossSite: true, headers: { origin: 'https://evil.example' } })).status,
    ).toBe(403);
  });

  it('production with Turnstile test secret or without SendGrid: 503, nothing stored', async () => {
    const email = uniqueEmail();
    setEnv({
      APP_ENV: 'production',
      TURNSTILE_SECRET_KEY: '1x0000000000000000000000000000000AA',
      SENDGRID_API_KEY: 'SG.x',
    });
    expect((await post(validVolunteer({ email }))).status).toBe(503);
    setEnv({ TURNSTILE_SECRET_KEY: 'real-secret', SENDGRID_API_KEY: undefined });
    expect((await post(validVolunteer({ email }))).status).toBe(503);
    expect(await keysOf('volunteers', `volunteer/${hashed(email)}`)).toHaveLength(0);
  });
});

describe('POST /api/contact', () => {
  const post = (json: unknown, opts: Parameters<typeof call>[2] = {}) =>
    call(contact, '/api/contact', { method: 'POST', json, ...opts });

  it('stores one record per message (time-ordered key), emails the inbox, 201', async () => {
    const email = uniqueEmail();
    const res = await post(validContact({ email, subject: 'press', phone: '504 555 0102' }));
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ success: true });
    expect((await post(validContact({ email }))).status).toBe(201);
    const stored = await contactsFrom(email);
    expect(stored).toHaveLength(2);
    for (const c of stored) StoredContactSchema.parse(c);
    expect(stored.find((c) => c.subject === 'press')).toMatchObject({
      phone: '+15045550102',
      emailStatus: 'sent',
    });
    const keys = await keysOf('contacts', 'message/');
    expect(keys.every((k) => /^message\/\d{4}-\d\d-\d\dT[\d:.]+Z-[0-9a-f]{12}$/.test(k))).toBe(true);
    const mails = (await valuesOf<{ replyTo: string; subject: string }>('outbox', 'email/')).filter(
      (m) => m.replyTo === email,
    );
    expect(mails.map((m) => m.subject)).toContain('Contact form (Press Inquiry): Alan Turing');
  });

  it.each([
    [{ name: '' }, 'Full name is required', 'name'],
    [{ email: 'x@' }, 'Please enter a valid email address', 'email'],
    [{ phone: '12' }, 'Please enter a valid phone number', 'phone'],
    [{ subject: 'spam' }, 'Please choose a subject', 'subject'],
    [{ message: '  ' }, 'Message is required', 'message'],
    [{ captcha: undefined }, 'Please complete the CAPTCHA', 'captcha'],
    [{ extra: 1 }, 'Unknown field: extra', '_'],
  ])('%j -> 400 %s and nothing stored', async (over, message, field) => {
    const email = uniqueEmail();
    const res = await post(validContact({ email, ...over }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; fields: Record<string, string> };
    expect(body.error).toBe(message);
    expect(body.fields[field]).toBe(message);
    expect(await contactsFrom(email)).toHaveLength(0);
  });

  it('captcha failed / reused -> 400, verifier down -> 503; nothing stored', async () => {
    useRealCaptcha();
    const email = uniqueEmail();
    expect((await post(validContact({ email, captcha: 'bad-1' }))).status).toBe(400);
    expect((await post(validContact({ email, captcha: 'ok-contact-1' }))).status).toBe(201);
    expect((await post(validContact({ email, captcha: 'ok-contact-1' }))).status).toBe(400);
    tsMode = 500;
    expect((await post(validContact({ email, captcha: 'ok-contact-2' }))).status).toBe(503);
    expect(await contactsFrom(email)).toHaveLength(1);
  });

  it('email provider down: still 201 and stored with emailStatus failed', async () => {
    useSendgrid();
    sgMode = 500;
    const email = uniqueEmail();
    expect((await post(validContact({ email }))).status).toBe(201);
    expect((await contactsFrom(email))[0]).toMatchObject({ emailStatus: 'failed' });
  });

  it('method 405, content type 415, oversize 413, cross-site 403', async () => {
    expect((await call(contact, '/api/contact', { method: 'PUT', json: validContact() })).status).toBe(405);
    expect(
      (
        await call(contact, '/api/contact', {
          method: 'POST',
          body: 'x',
          headers: { 'content-type': 'multipart/form-data' },
        })
      ).status,
    ).toBe(415);
    expect((await post(validContact({ message: 'x'.repeat(70_000) }))).status).toBe(413);
    expect(
      (await post(validContact(), { crossSite: true, headers: { 'sec-fetch-site': 'cross-site' } })).status,
    ).toBe(403);
  });
});
