import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as newsletter from '../../netlify/functions/newsletter.mts';
import * as volunteers from '../../netlify/functions/volunteers-sendgrid.mts';
import * as contact from '../../netlify/functions/contact.mts';
import * as inbound from '../../netlify/functions/sms-inbound.mts';
import {
  ConsentEventSchema,
  StoredContactSchema,
  StoredTextSignupSchema,
  StoredVolunteerSchema,
} from '../../src/lib/schemas/inbox.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import {
  localProviders,
  messageSid,
  setEnv,
  signedInbound,
  TWILIO_TOKEN,
  valuesOf,
} from '../helpers/forms.ts';

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
const anyValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.jsonValue({ maxDepth: 2 }),
  fc.constant(''),
  fc.constant(null),
);
const phoneish = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      '504-555-0100',
      '+15045550123',
      '(504) 555 0199',
      '15045550111',
      '+442071838750',
    ),
    weight: 4,
  },
  fc.string({ maxLength: 20 }),
);
const emailish = fc.oneof(
  { arbitrary: fc.constantFrom('a@example.com', ' Bob.Smith@Example.ORG ', 'x+tag@y.co'), weight: 4 },
  fc.emailAddress(),
  fc.string({ maxLength: 30 }),
);
const token = fc.oneof(
  { arbitrary: fc.constant(TURNSTILE_TEST_TOKEN), weight: 4 },
  fc.string({ maxLength: 20 }),
);

/**
 * Records with the endpoint's own field names: each field mostly plausible,
 * sometimes junk or missing, and sometimes a stray key (so both 2xx and 4xx occur).
 */
function formOf(fields: Record<string, fc.Arbitrary<unknown>>) {
  const biased = Object.fromEntries(
    Object.entries(fields).map(([k, a]) => [
      k,
      fc.oneof(
        { arbitrary: a, weight: 12 },
        { arbitrary: anyValue, weight: 1 },
        { arbitrary: fc.constant(undefined), weight: 1 },
      ),
    ]),
  );
  const extra = fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 6 },
    { arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), anyValue, { maxKeys: 2 }), weight: 1 },
  );
  return fc.tuple(fc.record(biased), extra).map(([r, x]) => {
    const clean = Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined));
    return x ? { ...x, ...clean } : clean;
  });
}

const bodies = {
  newsletter: fc.oneof(
    { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
    {
      weight: 3,
      arbitrary: formOf({
        firstName: fc.string({ maxLength: 90 }),
        phone: phoneish,
        email: emailish,
        smsConsent: fc.constant(true),
        sourcePage: fc.constantFrom('/', '/volunteer', '/a b'),
        captcha: token,
      }),
    },
  ),
  volunteers: fc.oneof(
    { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
    {
      weight: 3,
      arbitrary: formOf({
        firstName: fc.string({ maxLength: 90 }),
        lastName: fc.string({ maxLength: 90 }),
        email: emailish,
        phone: phoneish,
        address1: fc.string({ maxLength: 50 }),
        address2: fc.string({ maxLength: 30 }),
        city: fc.string({ maxLength: 20 }),
        state: fc.constantFrom('LA', 'TX', 'Other', 'la'),
        zip: fc.constantFrom('70112', '70112-1234', '', '7011'),
        interests: fc.array(fc.string({ maxLength: 70 }), { maxLength: 12 }),
        captchaResponse: token,
      }),
    },
  ),
  contact: fc.oneof(
    { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
    {
      weight: 3,
      arbitrary: formOf({
        name: fc.string({ maxLength: 130 }),
        email: emailish,
        phone: phoneish,
        subject: fc.constantFrom('general', 'press', 'donation', 'other'),
        message: fc.string({ maxLength: 200 }),
        captcha: token,
      }),
    },
  ),
};

const endpoints = [
  ['newsletter', newsletter, '/api/newsletter'],
  ['volunteers', volunteers, '/api/volunteers-sendgrid'],
  ['contact', contact, '/api/contact'],
] as const;

describe('property-based fuzz of the public form endpoints', () => {
  it.each(endpoints)(
    '%s: arbitrary JSON and field values -> only 2xx/4xx',
    async (name, mod, path) => {
      const seen = new Set<number>();
      await fc.assert(
        fc.asyncProperty(bodies[name], async (body) => {
          const res = await call(mod, path, { json: body });
          seen.add(res.status);
          if (process.env.FUZZ_DEBUG && res.status >= 400)
            console.log(res.status, JSON.stringify(body).slice(0, 200));
          const text = await res.text();
          expect(res.status, text).toBeLessThan(500);
          expect(text).not.toMatch(/at .*\.ts:\d+/); // no stack traces
        }),
        { numRuns: RUNS },
      );
      // The generators reach both sides.
      expect([...seen].some((s) => s < 300)).toBe(true);
      expect([...seen].some((s) => s >= 400)).toBe(true);
    },
    120_000,
  );

  it('sms inbound: arbitrary signed and unsigned forms -> only 2xx/4xx', async () => {
    const field = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.constantFrom('STOP', 'HELP', 'START', 'please stop texting me'),
    );
    const form = fc.record({
      MessageSid: fc.oneof(
        fc.constant(null).map(() => messageSid()),
        fc.string({ maxLength: 40 }),
      ),
      From: fc.oneof(fc.constantFrom('+15045550100', '+15045550101'), fc.string({ maxLength: 20 })),
      Body: field,
      extra: fc.string({ maxLength: 10 }),
    });
    await fc.assert(
      fc.asyncProperty(form, fc.boolean(), async (fields, signed) => {
        const s = signedInbound(fields);
        const headers = signed ? s.headers : { 'content-type': s.headers['content-type'] };
        const res = await call(inbound, '/api/sms/inbound', {
          method: 'POST',
          body: s.body,
          headers,
          crossSite: true,
        });
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
