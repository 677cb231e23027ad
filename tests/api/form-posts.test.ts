import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contact from '../../netlify/functions/contact.mts';
import * as subscribers from '../../netlify/functions/email-subscribers.mts';
import * as forgot from '../../netlify/functions/auth-forgot-password.mts';
import * as newsletter from '../../netlify/functions/text-signup.mts';
import * as volunteers from '../../netlify/functions/volunteers-sendgrid.mts';
import { EMAIL_CONSENT_TEXT, EMAIL_CONSENT_VERSION } from '../../src/content/consent.ts';
import { StoredSubscriberSchema } from '../../src/lib/schemas/inbox.ts';
import {
  formFieldsToInput,
  PUBLIC_FORMS,
  publicFormAt,
  TEXT_SIGNUP_PHONE_NEEDED,
} from '../../src/lib/schemas/public-forms.ts';
import {
  formPostLocation,
  OUTCOME_TTL_MS,
  sweepOutcomes,
  takeOutcome,
} from '../../src/lib/server/form-post.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call, ORIGIN } from '../helpers/http.ts';
import { keysOf, localProviders, valuesOf } from '../helpers/forms.ts';

/**
 * Browser form posts (docs/decisions/159-public-forms.md): every public form endpoint also takes
 * application/x-www-form-urlencoded from a same-origin page and answers with a
 * 303 to an outcome page, never JSON and never personal data in the URL.
 */
let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
});
afterAll(() => blobs.stop());

type Mod = Parameters<typeof call>[0];
const FORM = 'application/x-www-form-urlencoded';

/** A form post as Chromium sends it from our own page. */
function postForm(mod: Mod, path: string, fields: [string, string][], headers: Record<string, string> = {}) {
  return call(mod, path, {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': FORM, ...headers },
  });
}

function location(res: Response): string {
  expect(res.status).toBe(303);
  expect(res.headers.get('content-type')).toBeNull();
  const loc = res.headers.get('location') ?? '';
  expect(/^(\/es)?\/forms\//.test(loc)).toBe(true);
  return loc;
}

/** Nothing a person typed can be in a redirect: only the form, the outcome and an opaque id. */
function expectNoPersonalData(loc: string, typed: string[]) {
  expect(loc).toMatch(/^\/forms\/[a-z-]+(\/[a-z_]+|\?(outcome=\d{13}-[a-f0-9]{32}|error=\d{3}))$/);
  for (const t of typed) expect(loc.toLowerCase()).not.toContain(t.toLowerCase());
}

const VOLUNTEER: [string, string][] = [
  ['firstName', 'Vera'],
  ['lastName', 'Formpost'],
  ['email', 'vera.formpost@example.com'],
  ['phone', '504-555-0107'],
  ['address1', '12 Elm St'],
  ['address2', ''],
  ['city', 'New Orleans'],
  ['state', 'LA'],
  ['interests', 'Phone Banking'],
  ['interests', 'Text Banking'],
];

describe('the shared field conversion', () => {
  it('maps checkboxes, repeated fields, Turnstile and client-only fields', () => {
    expect(formFieldsToInput('volunteer', [...VOLUNTEER, ['cf-turnstile-response', 'tok']])).toMatchObject({
      interests: ['Phone Banking', 'Text Banking'],
      captchaResponse: 'tok',
      state: 'LA',
    });
    expect(formFieldsToInput('text-signup', [['firstName', 'A']])).toEqual({
      firstName: 'A',
      smsConsent: false,
    });
    expect(formFieldsToInput('text-signup', [['smsConsent', 'on']]).smsConsent).toBe(true);
    expect(
      formFieldsToInput('reset-password', [
        ['token', 't'],
        ['password', 'p'],
        ['confirmPassword', 'p'],
      ]),
    ).toEqual({ token: 't', password: 'p' });
    expect(publicFormAt('/api/contact/')).toBe('contact');
    expect(publicFormAt('/api/news')).toBeNull();
  });
});

describe('success: 303 to the static outcome page', () => {
  it('volunteer: stored, then /forms/volunteer/sent', async () => {
    const res = await postForm(volunteers, '/api/volunteers-sendgrid', [
      ...VOLUNTEER,
      ['captchaResponse', TURNSTILE_TEST_TOKEN],
    ]);
    const loc = location(res);
    expect(loc).toBe('/forms/volunteer/sent');
    expectNoPersonalData(loc, ['vera', '555']);
    const [stored] = await valuesOf<{ interests: string[]; email: string }>(
      'volunteers',
      `volunteer/${hashed('vera.formpost@example.com')}`,
    );
    expect(stored?.interests).toEqual(['Phone Banking', 'Text Banking']);
  });

  it('text sign-up: the consent checkbox as "on", sourcePage from the hidden field', async () => {
    const res = await postForm(newsletter, '/api/newsletter', [
      ['firstName', 'Nora'],
      ['phone', '504-555-0177'],
      ['email', ''],
      ['smsConsent', 'on'],
      ['sourcePage', '/'],
    ]);
    expect(location(res)).toBe('/forms/text-signup/sent');
    const [p] = await valuesOf<{ firstName: string; sourcePage: string }>(
      'signups',
      `person/${hashed('+15045550177')}`,
    );
    expect(p).toMatchObject({ firstName: 'Nora', sourcePage: '/' });
  });

  it('text sign-up with a first name only, without JavaScript: refused to the form with the phone message kept', async () => {
    const res = await postForm(newsletter, '/api/newsletter', [
      ['firstName', 'Solo'],
      ['phone', ''],
      ['email', ''],
      ['smsConsent', 'on'],
      ['sourcePage', '/'],
    ]);
    const loc = location(res);
    expect(loc).toMatch(/^\/forms\/text-signup\?outcome=/);
    const outcome = await takeOutcome('text-signup', new URL(loc, ORIGIN).searchParams.get('outcome') ?? '');
    expect(outcome?.fields).toEqual({ phone: TEXT_SIGNUP_PHONE_NEEDED });
  });

  it('text sign-up without JavaScript (no bot-check token): accepted under the no-script budget, 3 per IP an hour', async () => {
    const ip = '198.51.100.77';
    const post = (n: number) =>
      call(newsletter, '/api/newsletter', {
        method: 'POST',
        ip,
        body: new URLSearchParams([
          ['firstName', `Nina${n}`],
          ['phone', `504-555-02${String(n).padStart(2, '0')}`],
          ['smsConsent', 'on'],
          ['sourcePage', '/'],
        ]).toString(),
        headers: { 'content-type': FORM },
      });
    for (const n of [1, 2, 3]) expect(location(await post(n))).toBe('/forms/text-signup/sent');
    const refused = location(await post(4));
    expect(refused).toMatch(/^\/forms\/text-signup\?outcome=/);
    expect(await valuesOf('signups', `person/${hashed('+15045550204')}`)).toEqual([]);
    expect(await valuesOf('signups', `person/${hashed('+15045550203')}`)).toHaveLength(1);
    // The same request as JSON (a script, not a browser form) still needs the bot check.
    const json = await call(newsletter, '/api/newsletter', {
      ip: '198.51.100.78',
      json: { firstName: 'Nina', phone: '504-555-0299', smsConsent: true },
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual({ error: 'Please complete the CAPTCHA' });
    expect(await valuesOf('signups', `person/${hashed('+15045550299')}`)).toEqual([]);
  });

  it('contact with Turnstile\u2019s own field as the captcha', async () => {
    const res = await postForm(contact, '/api/contact', [
      ['name', 'Cora'],
      ['email', 'cora@example.com'],
      ['phone', ''],
      ['subject', 'press'],
      ['message', 'Hello'],
      ['cf-turnstile-response', TURNSTILE_TEST_TOKEN],
    ]);
    expect(location(res)).toBe('/forms/contact/sent');
  });

  it('a post from a Spanish page (hidden lang=es) lands on the Spanish outcome pages (docs/decisions/166-spanish.md)', async () => {
    const sent = await postForm(contact, '/api/contact', [
      ['name', 'Carmen'],
      ['email', 'carmen@example.com'],
      ['subject', 'general'],
      ['message', 'Hola'],
      ['captcha', TURNSTILE_TEST_TOKEN],
      ['lang', 'es'],
    ]);
    expect(location(sent)).toBe('/es/forms/contact/sent');
    const refused = location(
      await postForm(contact, '/api/contact', [
        ['name', 'Carmen'],
        ['email', 'not an email'],
        ['subject', 'general'],
        ['message', 'Hola'],
        ['captcha', TURNSTILE_TEST_TOKEN],
        ['lang', 'es'],
      ]),
    );
    expect(refused).toMatch(/^\/es\/forms\/contact\?outcome=/);
    // Any other value of lang is refused like any bad field, and answered in English.
    const odd = location(
      await postForm(contact, '/api/contact', [
        ['name', 'Carmen'],
        ['email', 'carmen@example.com'],
        ['subject', 'general'],
        ['message', 'Hola'],
        ['captcha', TURNSTILE_TEST_TOKEN],
        ['lang', 'fr'],
      ]),
    );
    expect(odd).toMatch(/^\/forms\/contact\?outcome=/);
  });

  it('forgot password: the same answer as JSON gives, as a page', async () => {
    const res = await postForm(forgot, '/api/auth/forgot-password', [['email', 'nobody@example.com']]);
    expect(location(res)).toBe('/forms/forgot-password/sent');
  });
});

describe('declared success outcomes', () => {
  it('an answer whose status names a declared outcome goes to that page (docs/decisions/151-texting.md: a number that opted out)', async () => {
    const req = new Request(`${ORIGIN}/api/newsletter`, {
      method: 'POST',
      headers: { 'content-type': FORM },
      body: 'firstName=A',
    });
    const answer = (body: unknown) =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    expect(await formPostLocation(req, 'text-signup', answer({ status: 'opted_out', message: 'x' }))).toBe(
      '/forms/text-signup/opted_out',
    );
    expect(await formPostLocation(req, 'text-signup', answer({ status: 'subscribed' }))).toBe(
      '/forms/text-signup/sent',
    );
    expect(await formPostLocation(req, 'contact', answer({ status: 'opted_out' }))).toBe(
      '/forms/contact/sent',
    );
  });
});

describe('refused: 303 to the outcome page with a one-time record', () => {
  it('keeps the message, field errors and what was typed (never the captcha) for one read', async () => {
    // What other tests stored stays; this one stores nothing.
    const before = (await keysOf('volunteers', 'volunteer/')).length;
    const res = await postForm(volunteers, '/api/volunteers-sendgrid', [
      ...VOLUNTEER.map(([k, v]): [string, string] => (k === 'phone' ? [k, 'not a phone'] : [k, v])),
      ['captchaResponse', TURNSTILE_TEST_TOKEN],
    ]);
    const loc = location(res);
    expectNoPersonalData(loc, ['vera', 'formpost', 'not a phone']);
    const id = new URL(loc, ORIGIN).searchParams.get('outcome')!;
    const outcome = await takeOutcome('volunteer', id);
    expect(outcome).toMatchObject({
      status: 400,
      message: 'Please enter a valid phone number',
      fields: { phone: 'Please enter a valid phone number' },
      values: { firstName: 'Vera', phone: 'not a phone', interests: ['Phone Banking', 'Text Banking'] },
    });
    expect(outcome?.values).not.toHaveProperty('captchaResponse');
    // Read once: a second read (a reload, a shared link) finds nothing.
    expect(await takeOutcome('volunteer', id)).toBeNull();
    // Nothing was stored for the refused sign-up.
    expect(await keysOf('volunteers', 'volunteer/')).toHaveLength(before);
  });

  it('a post without the captcha (scripts off) is refused with the captcha message', async () => {
    const loc = location(
      await postForm(contact, '/api/contact', [
        ['name', 'Nocaptcha'],
        ['email', 'n@example.com'],
        ['subject', 'general'],
        ['message', 'Hi'],
      ]),
    );
    const id = new URL(loc, ORIGIN).searchParams.get('outcome')!;
    expect((await takeOutcome('contact', id))?.message).toBe('Please complete the CAPTCHA');
  });

  it('an outcome of another form, a malformed id or an expired one is not shown', async () => {
    const loc = location(await postForm(subscribers, '/api/email-subscribers', [['email', 'not-an-email']]));
    const id = new URL(loc, ORIGIN).searchParams.get('outcome')!;
    expect(await takeOutcome('contact', id)).toBeNull(); // and it is gone now
    expect(await takeOutcome('newsletter', '../../users/x')).toBeNull();
    const loc2 = location(await postForm(subscribers, '/api/email-subscribers', [['email', 'bad']]));
    const id2 = new URL(loc2, ORIGIN).searchParams.get('outcome')!;
    expect(await takeOutcome('newsletter', id2, Date.now() + OUTCOME_TTL_MS + 1000)).toBeNull();
    const loc3 = location(await postForm(subscribers, '/api/email-subscribers', [['email', 'bad']]));
    expect(await sweepOutcomes(Date.now() + OUTCOME_TTL_MS + 1000)).toBeGreaterThanOrEqual(1);
    const id3 = new URL(loc3, ORIGIN).searchParams.get('outcome')!;
    expect(await takeOutcome('newsletter', id3)).toBeNull();
  });
});

describe('CSRF: a form post needs positive same-origin proof', () => {
  const fields: [string, string][] = [['email', 'csrf@example.com']];
  it.each([
    ['cross-site Sec-Fetch-Site', { 'sec-fetch-site': 'cross-site', origin: ORIGIN }],
    ['same-site (another subdomain)', { 'sec-fetch-site': 'same-site' }],
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['Origin null (sandboxed page)', { origin: 'null' }],
  ])('%s: refused, nothing stored, no record written', async (_name, headers) => {
    const res = await call(subscribers, '/api/email-subscribers', {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': FORM, ...headers },
      crossSite: true,
    });
    expect(location(res)).toBe('/forms/newsletter?error=403');
    expect(await keysOf('subscribers', `subscriber/${hashed('csrf@example.com')}`)).toEqual([]);
  });

  it('no Origin and no Sec-Fetch-Site: refused for a form post (JSON keeps its old rule)', async () => {
    const res = await call(subscribers, '/api/email-subscribers', {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': FORM },
      crossSite: true,
    });
    expect(location(res)).toBe('/forms/newsletter?error=403');
    const json = await call(subscribers, '/api/email-subscribers', {
      json: { email: 'json-no-origin@example.com', captcha: TURNSTILE_TEST_TOKEN },
      crossSite: true,
    });
    expect(json.status).toBe(202);
  });

  it('Sec-Fetch-Site: same-origin is enough even with Origin null (a no-referrer page posting to its own site)', async () => {
    const res = await call(subscribers, '/api/email-subscribers', {
      method: 'POST',
      body: new URLSearchParams([
        ['email', 'no-referrer-page@example.com'],
        ['cf-turnstile-response', TURNSTILE_TEST_TOKEN],
      ]).toString(),
      headers: { 'content-type': FORM, origin: 'null', 'sec-fetch-site': 'same-origin' },
      crossSite: true,
    });
    expect(location(res)).toBe('/forms/newsletter/sent');
  });

  it('a same-origin Origin alone (no Sec-Fetch-Site) is enough', async () => {
    const res = await call(subscribers, '/api/email-subscribers', {
      method: 'POST',
      body: new URLSearchParams([
        ['email', 'origin-only@example.com'],
        ['cf-turnstile-response', TURNSTILE_TEST_TOKEN],
      ]).toString(),
      headers: { 'content-type': FORM, origin: ORIGIN },
      crossSite: true,
    });
    expect(location(res)).toBe('/forms/newsletter/sent');
  });
});

describe('POST /api/email-subscribers (the newsletter box)', () => {
  // Since double opt-in (docs/decisions/167-email-and-newsletter.md): behind the captcha,
  // kept as pending, and answered 202 with "check your inbox" whether the address is new or known.
  it('stores the normalised address once, with time, page and consent wording', async () => {
    const first = await call(subscribers, '/api/email-subscribers', {
      json: { email: '  Reader@Example.COM ', sourcePage: '/blog', captcha: TURNSTILE_TEST_TOKEN },
      headers: { 'user-agent': 'vitest' },
    });
    expect(first.status).toBe(202);
    expect(await first.json()).toMatchObject({ message: 'Thank you for subscribing!' });
    const again = await call(subscribers, '/api/email-subscribers', {
      json: { email: 'reader@example.com', captcha: TURNSTILE_TEST_TOKEN },
    });
    expect(again.status).toBe(202);
    const stored = await valuesOf('subscribers', `subscriber/${hashed('reader@example.com')}`);
    expect(stored).toHaveLength(1);
    const s = StoredSubscriberSchema.parse(stored[0]);
    expect(s).toMatchObject({
      email: 'reader@example.com',
      sourcePage: '/blog',
      consentText: EMAIL_CONSENT_TEXT,
      consentVersion: EMAIL_CONSENT_VERSION,
      userAgent: 'vitest',
      status: 'pending',
    });
    expect(Date.parse(s.createdAt)).not.toBeNaN();
  });

  it('bad input: 400 with a message, nothing stored', async () => {
    const before = (await keysOf('subscribers')).length;
    for (const json of [
      { email: 'no-at-sign' },
      {},
      { email: 'a@b.co', extra: 1 },
      { email: 'a@b.co', sourcePage: 'http://x' },
    ]) {
      const res = await call(subscribers, '/api/email-subscribers', { json });
      expect(res.status).toBe(400);
      expect(typeof ((await res.json()) as { error: unknown }).error).toBe('string');
    }
    expect((await call(subscribers, '/api/email-subscribers')).status).toBe(405);
    expect(
      (
        await call(subscribers, '/api/email-subscribers', {
          method: 'POST',
          body: 'email=a@b.co',
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(415);
    expect((await keysOf('subscribers')).length).toBe(before);
  });

  it('fuzz: any JSON answers 2xx/4xx and stores only valid records', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            email: fc.oneof(fc.emailAddress(), fc.string({ maxLength: 30 }), fc.jsonValue({ maxDepth: 1 })),
            sourcePage: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
          },
          { requiredKeys: [] },
        ),
        async (json) => {
          const res = await call(subscribers, '/api/email-subscribers', { json });
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
    for (const r of await valuesOf('subscribers', 'subscriber/')) StoredSubscriberSchema.parse(r);
  });

  it('every public form is registered at its endpoint', () => {
    for (const [id, form] of Object.entries(PUBLIC_FORMS)) expect(publicFormAt(form.endpoint)).toBe(id);
  });
});
