import { describe, expect, it } from 'vitest';
import * as newsletterFn from '../../netlify/functions/email-subscribers.mts';
import * as textSignup from '../../netlify/functions/text-signup.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { inviteCodeOf, inviteCounts, revokeInvite } from '../../src/lib/server/supporters/invites.ts';
import { useLocalBlobs } from '../helpers/blobs.ts';
import { TWILIO_TOKEN, uniqueIp, validSignup, validVolunteer } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { bySource, overviewThreeWays } from '../helpers/overview.ts';

/*
 * Sign-ups credited through a supporter's invite link (/r/<code>, docs/decisions/182-supporter-page.md) are the
 * Overview's source "invite" (docs/decisions/180-overview.md): counted so on write when the post credited the
 * sign-up, the same after the fold and after a rebuild from the records. Its own store: no other file's sign-ups.
 */

useLocalBlobs({ env: { TWILIO_AUTH_TOKEN: TWILIO_TOKEN } });

let seq = 0;
const unique = (what: string) => `${what}${++seq}.${Date.now()}@example.org`;

const volunteer = (email: string, cookie?: string, city = 'New Orleans') =>
  call(volunteersFn, '/api/volunteers-sendgrid', {
    json: validVolunteer({ email, city, phone: `504-558-${String(1000 + seq).slice(-4)}` }),
    ip: uniqueIp(),
    ...(cookie ? { cookie } : {}),
  });
const newsletter = (email: string, cookie?: string) =>
  call(newsletterFn, '/api/email-subscribers', {
    json: { email, sourcePage: '/blog', captcha: TURNSTILE_TEST_TOKEN },
    ip: uniqueIp(),
    ...(cookie ? { cookie } : {}),
  });
const text = (email: string, cookie?: string) =>
  call(textSignup, '/api/newsletter', {
    json: validSignup({ email, phone: `+1504${2_300_000 + seq}`, sourcePage: '/volunteer' }),
    ip: uniqueIp(),
    ...(cookie ? { cookie } : {}),
  });

describe('sign-ups by source: the invite link', () => {
  it('a sign-up the post credited to a live invite link counts as "invite", on write, after the fold and after a rebuild', async () => {
    const live = `invite=${await inviteCodeOf('overview-owner-live')}`;
    const revokedCode = await inviteCodeOf('overview-owner-revoked');
    expect(await revokeInvite(revokedCode, 'owner')).toBe(true);
    const revoked = `invite=${revokedCode}`;

    const statuses = [
      (await volunteer(unique('a'), live)).status, // credited: invite
      (await newsletter(unique('b'), live)).status, // credited: invite
      (await text(unique('c'), live)).status, // credited: invite (its text opt-in has no source)
      (await newsletter(unique('d'))).status, // no cookie: page:blog
      (await newsletter(unique('e'), revoked)).status, // a revoked code credits nobody: page:blog
    ];
    // The same volunteer twice through the link, the second from another city: each post is its own record; only
    // the first is credited (once per form and address), so the second counts under its page.
    const g = unique('g');
    statuses.push((await volunteer(g, live)).status, (await volunteer(g, live, 'Metairie')).status);
    expect(statuses.every((s) => s >= 200 && s < 300)).toBe(true);
    expect((await inviteCounts('overview-owner-live')).total).toBe(4);

    const expected = {
      'signup.volunteer invite': 2,
      'signup.volunteer page:volunteer': 1,
      'signup.newsletter invite': 1,
      'signup.newsletter page:blog': 2,
      'signup.text invite': 1,
    };
    const { onWrite, folded, rebuilt, waiting } = await overviewThreeWays();
    expect(bySource(onWrite)).toEqual(expected);
    expect(onWrite.totals['text.optin']).toBe(1);

    expect(bySource(folded)).toEqual(expected);

    // Rebuilt from the records (npm run reindex): equal to what was kept on write.
    expect(bySource(rebuilt)).toEqual(expected);
    expect(rebuilt.days).toEqual(folded.days);
    expect(waiting).toEqual([]);
  });
});
