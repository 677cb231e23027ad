import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as newsletter from '../../netlify/functions/newsletter.mts';
import * as volunteers from '../../netlify/functions/volunteers-sendgrid.mts';
import * as contact from '../../netlify/functions/contact.mts';
import * as inbound from '../../netlify/functions/sms-inbound.mts';
import { ConsentEventSchema, StoredContactSchema, StoredTextSignupSchema, StoredVolunteerSchema } from '../../src/lib/schemas/inbox.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import { localProviders, messageSid, setEnv, signedInbound, TWILIO_TOKEN, valuesOf } from '../helpers/forms.ts';

/**
 * Property: whatever JSON or field values arrive, a public endpoint answers
 * 2xx or 4xx (never 5xx), and everything it stored re-parses with its schema.
 */
let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
  setEnv({ TWILIO_AUTH_TOKEN: TWILIO_TOKEN });
});
afterAll(() => blobs.stop());

const RUNS = 120;
const anyValue = fc.oneof(fc.string({ maxLength: 40 }), fc.fullUnicodeString({ maxLength: 20 }), fc.jsonValue({ maxDepth: 2 }), fc.constant(''), fc.constant(null));
const maybe = <T,>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const phoneish = fc.oneof(fc.constantFrom('504-555-0100', '+15045550123', '(504) 555 0199', '15045550111', '+442071838750'), fc.string({ maxLength: 20 }), anyValue);
const emailish = fc.oneof(fc.emailAddress(), fc.string({ maxLength: 30 }), anyValue);
const token = fc.oneof(fc.constant(TURNSTILE_TEST_TOKEN), fc.string({ maxLength: 20 }), anyValue);

/** Records with the endpoint's own field names (mostly plausible, sometimes junk) plus stray keys. */
function formOf(fields: Record<string, fc.Arbitrary<unknown>>) {
  return fc.tuple(
    fc.record(Object.fromEntries(Object.entries(fields).map(([k, a]) => [k, maybe(a)]))),
    fc.option(fc.dictionary(fc.string({ maxLength: 8 }), anyValue, { maxKeys: 2 }), { nil: undefined }),
  ).map(([r, extra]) => {
    const clean = Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined));
    return extra ? { ...extra, ...clean } : clean;
  });
}

const bodies = {
  newsletter: fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    formOf({
      firstName: fc.oneof(fc.string({ maxLength: 90 }), anyValue),
      phone: phoneish,
      email: emailish,
      smsConsent: fc.oneof(fc.constant(true), anyValue),
      sourcePage: fc.oneof(fc.constantFrom('/', '/volunteer'), anyValue),
    }),
  ),
  volunteers: fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    formOf({
      firstName: fc.oneof(fc.string({ maxLength: 90 }), anyValue),
      lastName: fc.oneof(fc.string({ maxLength: 90 }), anyValue),
      email: emailish,
      phone: phoneish,
      address1: fc.oneof(fc.string({ maxLength: 50 }), anyValue),
      address2: anyValue,
      city: fc.oneof(fc.string({ maxLength: 20 }), anyValue),
      state: fc.oneof(fc.constantFrom('LA', 'TX', 'Other'), anyValue),
      zip: fc.oneof(fc.constantFrom('70112', '70112-1234', ''), anyValue),
      interests: fc.oneof(fc.array(fc.string({ maxLength: 70 }), { maxLength: 12 }), anyValue),
      captchaResponse: token,
    }),
  ),
  contact: fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    formOf({
      name: fc.oneof(fc.string({ maxLength: 130 }), anyValue),
      email: emailish,
      phone: phoneish,
      subject: fc.oneof(fc.constantFrom('general', 'press', 'donation'), anyValue),
      message: fc.oneof(fc.string({ maxLength: 200 }), anyValue),
      captcha: token,
    }),
  ),
};

const endpoints = [
  ['newsletter', newsletter, '/api/newsletter'],
  ['volunteers', volunteers, '/api/volunteers-sendgrid'],
  ['contact', contact, '/api/contact'],
] as const;

describe('property-based fuzz of the public form endpoints', () => {
  it.each(endpoints)('%s: arbitrary JSON and field values -> only 2xx/4xx', async (name, mod, path) => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(bodies[name], async (body) => {
        const res = await call(mod, path, { json: body });
        seen.add(res.status);
        const text = await res.text();
        expect(res.status, text).toBeLessThan(500);
        expect(text).not.toMatch(/at .*\.ts:\d+/); // no stack traces
      }),
      { numRuns: RUNS },
    );
    // The generators reach both sides.
    expect([...seen].some((s) => s < 300)).toBe(true);
    expect([...seen].some((s) => s >= 400)).toBe(true);
  }, 120_000);

  it('sms inbound: arbitrary signed and unsigned forms -> only 2xx/4xx', async () => {
    const field = fc.oneof(fc.string({ maxLength: 30 }), fc.fullUnicodeString({ maxLength: 30 }), fc.constantFrom('STOP', 'HELP', 'START', 'please stop texting me'));
    const form = fc.record({
      MessageSid: fc.oneof(fc.constant(null).map(() => messageSid()), fc.string({ maxLength: 40 })),
      From: fc.oneof(fc.constantFrom('+15045550100', '+15045550101'), fc.string({ maxLength: 20 })),
      Body: field,
      extra: fc.string({ maxLength: 10 }),
    });
    await fc.assert(
      fc.asyncProperty(form, fc.boolean(), async (fields, signed) => {
        const s = signedInbound(fields);
        const headers = signed ? s.headers : { 'content-type': s.headers['content-type'] };
        const res = await call(inbound, '/api/sms/inbound', { method: 'POST', body: s.body, headers, crossSite: true });
        expect(res.status).toBeLessThan(500);
        if (!signed) expect(res.status).toBe(403);
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('everything stored re-parses with its schema', async () => {
    const people = await valuesOf('signups', 'person/');
    expect(people.length).toBeGreaterThan(0);
    for (const p of people) StoredTextSignupSchema.parse(p);
    for (const e of await valuesOf('signups', 'consent/')) ConsentEventSchema.parse(e);
    for (const v of await valuesOf('volunteers', 'volunteer/')) StoredVolunteerSchema.parse(v);
    for (const c of await valuesOf('contacts', 'message/')) StoredContactSchema.parse(c);
  });
});
