import { describe, expect, it } from 'vitest';
import * as newsletterFn from '../../netlify/functions/email-subscribers.mts';
import * as textSignup from '../../netlify/functions/text-signup.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
import { OTHER_REFCODES, TOP_REFCODES } from '../../src/lib/schemas/overview.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { countActivity, store } from '../../src/lib/server/activity/counts.ts';
import { overview } from '../../src/lib/server/overview/overview.ts';
import { inviteCodeOf } from '../../src/lib/server/supporters/invites.ts';
import { useLocalBlobs } from '../helpers/blobs.ts';
import { TWILIO_TOKEN, uniqueIp, validSignup, validVolunteer } from '../helpers/forms.ts';
import { call, ORIGIN } from '../helpers/http.ts';
import { bySource, overviewThreeWays } from '../helpers/overview.ts';

/*
 * A campaign link's refcode (`?refcode=` on the page a form was on) is the sign-up's Overview source
 * `ref:<code>` (docs/decisions/180-overview.md, "Refcodes"): on write, after the fold and after a rebuild from the
 * records; an invite link's credit comes first; a hostile refcode is dropped and reaches no key and no answer.
 * Its own store: no other file's sign-ups.
 */

useLocalBlobs({ env: { TWILIO_AUTH_TOKEN: TWILIO_TOKEN } });

let seq = 0;
const unique = (what: string) => `${what}${++seq}.${Date.now()}@example.org`;
const from = (page: string) => ({ referer: `${ORIGIN}${page}` });

const volunteer = (email: string, page: string, cookie?: string) =>
  call(volunteersFn, '/api/volunteers-sendgrid', {
    json: validVolunteer({ email, phone: `504-558-${String(2000 + seq).slice(-4)}` }),
    ip: uniqueIp(),
    headers: from(page),
    ...(cookie ? { cookie } : {}),
  });
const newsletter = (email: string, headers: Record<string, string>) =>
  call(newsletterFn, '/api/email-subscribers', {
    json: { email, sourcePage: '/blog', captcha: TURNSTILE_TEST_TOKEN },
    ip: uniqueIp(),
    headers,
  });
const text = (email: string, page: string) =>
  call(textSignup, '/api/newsletter', {
    json: validSignup({ email, phone: `+1504${2_400_000 + seq}`, sourcePage: '/volunteer' }),
    ip: uniqueIp(),
    headers: from(page),
  });

const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'x'.repeat(10_240),
  'café-ñ',
  '=HYPERLINK("http://x")',
];

describe('sign-ups by source: refcodes', () => {
  it('a post from a page with ?refcode= counts as "ref:<code>" on write, after the fold and after a rebuild', async () => {
    const live = `invite=${await inviteCodeOf('overview-refcode-owner')}`;
    const statuses = [
      (await volunteer(unique('a'), '/volunteer?refcode=fall-mailer')).status,
      (await newsletter(unique('b'), from('/blog?utm_source=sms&refcode=fall-mailer'))).status,
      (await text(unique('c'), '/es/volunteer?refcode=door_2')).status,
      (await newsletter(unique('d'), from('/blog'))).status, // no refcode: page:blog
      (await volunteer(unique('e'), '/volunteer?refcode=fall-mailer', live)).status, // the invite comes first
      // Another site's address names no refcode of ours.
      (await newsletter(unique('f'), { referer: 'https://elsewhere.example/?refcode=theirs' })).status,
    ];
    for (const bad of HOSTILE)
      statuses.push((await newsletter(unique('h'), from(`/blog?refcode=${encodeURIComponent(bad)}`))).status);
    expect(statuses.every((s) => s >= 200 && s < 300)).toBe(true);

    const expected = {
      'signup.volunteer ref:fall-mailer': 1,
      'signup.volunteer invite': 1,
      'signup.newsletter ref:fall-mailer': 1,
      'signup.newsletter page:blog': 2 + HOSTILE.length,
      'signup.text ref:door_2': 1,
    };
    const { onWrite, folded, rebuilt, waiting } = await overviewThreeWays();
    expect(bySource(onWrite)).toEqual(expected);

    expect(bySource(folded)).toEqual(expected);

    expect(bySource(rebuilt)).toEqual(expected);
    expect(rebuilt.days).toEqual(folded.days);

    // A hostile refcode reached no key of the store and no answer staff read.
    const keys: string[] = [];
    for await (const page of store().keys('')) keys.push(...page);
    const seen = JSON.stringify([keys, onWrite, folded, rebuilt]);
    for (const bad of [
      ...HOSTILE,
      'theirs',
      'script',
      'onerror',
      'HYPERLINK',
      'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    ])
      expect(seen).not.toContain(bad);
    expect(waiting).toEqual([]);
  });

  it(`the ${TOP_REFCODES} refcodes with the most sign-ups keep their rows; the rest are "Other refcodes", per form`, async () => {
    // A campaign day in the spring (fake clock, explicit offsets): 23:30 in Chicago is still 10 March there.
    const at = new Date('2026-03-10T23:30:00-06:00');
    const now = new Date('2026-03-12T09:00:00-05:00');
    let id = 0;
    const count = (kind: 'signup.newsletter' | 'signup.volunteer', code: string, n: number) =>
      Promise.all(
        Array.from({ length: n }, () =>
          countActivity({ kind, id: `refcode-top-${++id}`, at, source: `ref:top-${code}` }),
        ),
      );
    // Refcodes 1..12: code k has k+1 newsletter sign-ups; code 1 also a volunteer (3 in all, as code 2).
    for (let k = 1; k <= TOP_REFCODES + 2; k++) await count('signup.newsletter', String(k), k + 1);
    await count('signup.volunteer', '1', 1);
    const o = await overview('7', now);
    const rows = bySource(o);
    // Kept: codes 3..12 (4..13 sign-ups); codes 1 and 2 (3 each) are the smallest two.
    for (let k = 3; k <= TOP_REFCODES + 2; k++) expect(rows[`signup.newsletter ref:top-${k}`]).toBe(k + 1);
    expect(rows['signup.newsletter ref:top-1']).toBeUndefined();
    expect(rows['signup.newsletter ref:top-2']).toBeUndefined();
    expect(rows[`signup.newsletter ${OTHER_REFCODES}`]).toBe(2 + 3);
    expect(rows[`signup.volunteer ${OTHER_REFCODES}`]).toBe(1);
    const total = (r: Record<string, number>) => Object.values(r).reduce((n, v) => n + v, 0);
    expect(total(rows)).toBe(o.totals['signup.newsletter'] + o.totals['signup.volunteer']);
  });
});
