import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contactFn from '../../netlify/functions/contact.mts';
import * as newsletterFn from '../../netlify/functions/email-subscribers.mts';
import * as rsvpFn from '../../netlify/functions/event-rsvp.mts';
import * as textSignupFn from '../../netlify/functions/text-signup.mts';
import * as volunteerFn from '../../netlify/functions/volunteers-sendgrid.mts';
import * as votePlanFn from '../../netlify/functions/vote-plan.mts';
import { CAPTCHA_REQUIRED, formEndpoint } from '../../src/lib/schemas/public-forms.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { phoneCountryMessage } from '../../src/lib/server/texting/phone-policy.ts';
import type { AcceptedForm } from '../../src/lib/server/public-forms/accept.ts';
import { takeOutcome } from '../../src/lib/server/form-post.ts';
import type { StoreName } from '../../src/lib/server/storage/kv.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { keysOf, localProviders, uniqueIp, uniquePhone } from '../helpers/forms.ts';
import { call, type CallOptions, type FunctionModule } from '../helpers/http.ts';
import { rsvpEventFixture } from '../helpers/rsvp.ts';

/*
 * The six public forms that store what a visitor typed go through the same steps in the same order
 * (src/lib/server/public-forms/accept.ts): method, origin, providers, size and parse, open, phone, per-address
 * limit, captcha, shared limits, store and confirm. Each test sends one request that fails two or more steps at
 * once to every form, and every form must answer with the earliest step's refusal, on the JSON path and the
 * browser form post (no JavaScript) alike; and no refused request leaves a record or sends anything.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
let eventId = 0;

beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
  eventId = (await rsvpEventFixture(null)).id;
});
afterAll(async () => {
  await blobs.stop();
});

interface FormCase {
  id: AcceptedForm;
  mod: FunctionModule;
  /** A body every step up to the captcha accepts (with a phone when the form takes one), with this token. */
  valid: (captcha: string) => Record<string, unknown>;
  /** Where the form keeps what it stores. */
  store: StoreName;
  /** The form's captcha field. */
  captchaField: string;
  takesPhone: boolean;
}

/** A number of a country the campaign does not text (a UK landline, well formed). */
const FOREIGN_PHONE = '+44 20 7946 0958';

const FORMS: FormCase[] = [
  {
    id: 'volunteer',
    mod: volunteerFn,
    valid: (captcha) => ({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      phone: uniquePhone(),
      address1: '1 Canal St',
      city: 'New Orleans',
      state: 'LA',
      captchaResponse: captcha,
    }),
    store: 'volunteers',
    captchaField: 'captchaResponse',
    takesPhone: true,
  },
  {
    id: 'contact',
    mod: contactFn,
    valid: (captcha) => ({
      name: 'Alan Turing',
      email: 'alan@example.com',
      phone: uniquePhone(),
      subject: 'general',
      message: 'Hello campaign!',
      captcha,
    }),
    store: 'contacts',
    captchaField: 'captcha',
    takesPhone: true,
  },
  {
    id: 'text-signup',
    mod: textSignupFn,
    valid: (captcha) => ({
      firstName: 'Ada',
      phone: uniquePhone(),
      email: 'ada@example.com',
      smsConsent: true,
      captcha,
    }),
    store: 'signups',
    captchaField: 'captcha',
    takesPhone: true,
  },
  {
    id: 'newsletter',
    mod: newsletterFn,
    valid: (captcha) => ({ email: 'reader@example.com', sourcePage: '/blog', captcha }),
    store: 'subscribers',
    captchaField: 'captcha',
    takesPhone: false,
  },
  {
    id: 'rsvp',
    mod: rsvpFn,
    valid: (captcha) => ({
      name: 'Guest Person',
      email: 'guest@example.org',
      phone: uniquePhone(),
      guests: 0,
      smsReminder: true,
      captchaResponse: captcha,
    }),
    store: 'rsvps',
    captchaField: 'captchaResponse',
    takesPhone: true,
  },
  {
    id: 'vote-plan',
    mod: votePlanFn,
    valid: (captcha) => ({
      day: '2026-11-02',
      method: 'in-person',
      name: 'Rosa Parker',
      phone: uniquePhone(),
      smsConsent: true,
      captcha,
    }),
    store: 'vote-plans',
    captchaField: 'captcha',
    takesPhone: true,
  },
];

const pathOf = (form: FormCase) => formEndpoint(form.id, { id: eventId });

/** Larger than every public form's body cap (the largest is the contact form's 32 KB). */
const OVERSIZE = 'x'.repeat(40 * 1024);

/** What a page of another site sends. */
const CROSS_SITE = { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' };

const without = (body: Record<string, unknown>, field: string) =>
  Object.fromEntries(Object.entries(body).filter(([k]) => k !== field));

async function post(form: FormCase, body: Record<string, unknown>, opts: CallOptions = {}) {
  const res = await call(form.mod, pathOf(form), { method: 'POST', json: body, ...opts });
  const answer = (await res.json().catch(() => ({}))) as { error?: string; fields?: Record<string, string> };
  return { status: res.status, error: answer.error, fields: answer.fields ?? {} };
}

/** The same body as a browser form post (urlencoded), and the status its refused page was given. */
async function formPost(form: FormCase, body: Record<string, unknown>, ip: string) {
  const fields = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) if (v !== false) fields.append(k, String(v));
  const res = await call(form.mod, pathOf(form), {
    body: fields.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    ip,
  });
  expect(res.status).toBe(303);
  const location = new URL(res.headers.get('location') ?? '', 'http://localhost');
  expect(location.pathname).toBe(`/forms/${form.id}`);
  const outcome = await takeOutcome(form.id, location.searchParams.get('outcome') ?? '');
  return { status: outcome?.status, message: outcome?.message };
}

/** Refused captchas from a fresh address until its per-address limit answers (each one counted, none stored). */
async function exhaust(form: FormCase): Promise<string> {
  const ip = uniqueIp();
  for (let i = 0; i < 100; i++) {
    const r = await post(form, form.valid('bad-token'), { ip });
    if (r.status === 429) return ip;
    expect(r, `${form.id} post ${i + 1}`).toMatchObject({ status: 400, error: CAPTCHA_REQUIRED });
  }
  throw new Error(`${form.id}: no 429 after 100 posts from one address`);
}

const exhausted = new Map<AcceptedForm, Promise<string>>();
/** An address past the form's per-address limit (made once per form, by whichever test asks first). */
function overTheLimit(form: FormCase): Promise<string> {
  const ip = exhausted.get(form.id) ?? exhaust(form);
  exhausted.set(form.id, ip);
  return ip;
}

/** What the form has stored and sent so far. */
const written = async (form: FormCase) => ({
  records: (await keysOf(form.store)).length,
  sent: (await keysOf('outbox')).length,
});

describe.each(FORMS)('the steps of the public form $id, in the one order', (form) => {
  it('method before origin and size: a cross-site, oversize PUT is a 405', async () => {
    const before = await written(form);
    const r = await post(
      form,
      { ...form.valid(TURNSTILE_TEST_TOKEN), padding: OVERSIZE },
      {
        method: 'PUT',
        crossSite: true,
      },
    );
    expect(r.status).toBe(405);
    expect(await written(form)).toEqual(before);
  });

  it('origin before size: a cross-site post over the size cap is a 403', async () => {
    const before = await written(form);
    const r = await post(
      form,
      { ...form.valid(TURNSTILE_TEST_TOKEN), padding: OVERSIZE },
      { crossSite: true, headers: CROSS_SITE },
    );
    expect(r.status).toBe(403);
    expect(await written(form)).toEqual(before);
  });

  it('size before parse and the captcha: an oversize post without a token is a 413', async () => {
    const before = await written(form);
    const r = await post(form, { ...without(form.valid(''), form.captchaField), padding: OVERSIZE });
    expect(r.status).toBe(413);
    expect(await written(form)).toEqual(before);
  });

  it('the captcha is a step of every form: a valid post without a token, or with a wrong one, is refused', async () => {
    const before = await written(form);
    const missing = await post(form, without(form.valid(''), form.captchaField), { ip: uniqueIp() });
    expect(missing).toMatchObject({ status: 400, error: CAPTCHA_REQUIRED });
    const wrong = await post(form, form.valid('bad-token'), { ip: uniqueIp() });
    expect(wrong).toMatchObject({ status: 400, error: CAPTCHA_REQUIRED });
    expect(await written(form)).toEqual(before);
  });

  it('size and parse before the per-address limit, the limit before the captcha: past the limit, each earlier refusal wins', async () => {
    const ip = await overTheLimit(form);
    const before = await written(form);
    const valid = form.valid('bad-token');
    // Over the limit AND oversize: the size.
    expect((await post(form, { ...valid, padding: OVERSIZE }, { ip })).status).toBe(413);
    // Over the limit AND invalid (and a wrong token): the schema's answer, on its field.
    const invalid = await post(form, { ...valid, email: 'not-an-email' }, { ip });
    expect(invalid.status).toBe(400);
    expect(invalid.fields).toHaveProperty('email');
    // Over the limit AND no token: a JSON post without a token does not parse (the token's presence is the schema's).
    expect(await post(form, without(valid, form.captchaField), { ip })).toMatchObject({
      status: 400,
      error: CAPTCHA_REQUIRED,
    });
    // Over the limit AND a wrong token: the limit, before the token is sent to the verifier.
    expect((await post(form, valid, { ip })).status).toBe(429);
    // The same order without JavaScript: a form post's refused page carries the earlier step's answer.
    expect(await formPost(form, { ...valid, email: 'not-an-email' }, ip)).toMatchObject({
      status: 400,
    });
    expect(await formPost(form, valid, ip)).toMatchObject({ status: 429 });
    expect(await written(form)).toEqual(before);
  });
});

describe.each(FORMS.filter((f) => f.takesPhone))('the phone step of the public form $id', (form) => {
  const foreign = (body: Record<string, unknown>) => ({ ...body, phone: FOREIGN_PHONE });

  it('phone before the captcha: a foreign number with a wrong token gets the phone answer, nothing stored', async () => {
    const before = await written(form);
    const r = await post(form, foreign(form.valid('bad-token')), { ip: uniqueIp() });
    expect(r).toMatchObject({ status: 400, error: phoneCountryMessage() });
    expect(await written(form)).toEqual(before);
  });

  it('phone before the per-address limit: past the limit, a foreign number gets the phone answer', async () => {
    const ip = await overTheLimit(form);
    const before = await written(form);
    expect(await post(form, foreign(form.valid('bad-token')), { ip })).toMatchObject({
      status: 400,
      error: phoneCountryMessage(),
    });
    expect(await formPost(form, foreign(form.valid('bad-token')), ip)).toMatchObject({
      status: 400,
      message: phoneCountryMessage(),
    });
    expect(await written(form)).toEqual(before);
  });
});
