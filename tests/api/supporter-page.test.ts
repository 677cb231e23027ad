import { beforeAll, describe, expect, it, vi } from 'vitest';
import * as authMe from '../../netlify/functions/auth-me.mts';
import * as inboundFn from '../../netlify/functions/sms-inbound.mts';
import * as myAccount from '../../netlify/functions/my-account.mts';
import * as myLink from '../../netlify/functions/my-link.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
import * as votePlanFn from '../../netlify/functions/vote-plan.mts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import { SUPPORTER_COPY } from '../../src/content/supporter-page.ts';
import type { ElectionCalendar } from '../../src/lib/election-stage.ts';
import { setElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { consentFor } from '../../src/lib/server/people/consent.ts';
import { lookupKey } from '../../src/lib/server/people/keys.ts';
import { ownTimeline } from '../../src/lib/server/people/person.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { traces } from '../helpers/store-traces.ts';
import { useLocalBlobs } from '../helpers/blobs.ts';
import { DST_2026 } from '../helpers/election.ts';
import { messageSid, signedInbound, TWILIO_TOKEN, uniqueIp, validVolunteer } from '../helpers/forms.ts';
import { call, callThenDeferred } from '../helpers/http.ts';
import { person as rsvpPerson, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import { my } from '../helpers/supporters.ts';

/*
 * A supporter's own page (docs/decisions/182-supporter-page.md), through the real handlers on a real local Blobs
 * server: the sign-in link that answers alike for every address and works once, the supporter session, consent per
 * channel, and "delete my data" that leaves no trace (invite credits: tests/api/invite-credits.test.ts).
 */

/** The campaign's clock: 2026-10-20 10:00 in New Orleans (plans to vote are open). */
const NOW = new Date('2026-10-20T10:00:00-05:00');

useLocalBlobs({ env: { TWILIO_AUTH_TOKEN: TWILIO_TOKEN }, now: NOW });
beforeAll(async () => {
  const calendar: ElectionCalendar = {
    sites: defaultElectionCalendar.sites,
    mode: 'none',
    runoff: null,
    primary: DST_2026,
  };
  await setElectionCalendar(calendar, 'test');
});

let seq = 0;
function supporter(first: string, last: string) {
  seq += 1;
  const n = String(2000 + seq).slice(-4);
  return {
    first,
    last,
    name: `${first} ${last}`,
    email: `${first.toLowerCase()}.${seq}-${Date.now()}@example.org`,
    phone: `+1504556${n}`,
    dashed: `504-556-${n}`,
  };
}
type Supporter = ReturnType<typeof supporter>;

const volunteer = (s: Supporter, cookie?: string) =>
  call(volunteersFn, '/api/volunteers-sendgrid', {
    json: validVolunteer({ firstName: s.first, lastName: s.last, email: s.email, phone: s.dashed }),
    ip: uniqueIp(),
    ...(cookie ? { cookie } : {}),
  });
const plan = (s: Supporter) =>
  call(votePlanFn, '/api/vote-plan', {
    json: {
      captcha: TURNSTILE_TEST_TOKEN,
      day: '2026-11-02',
      method: 'in-person',
      name: s.name,
      phone: s.dashed,
      email: s.email,
      smsConsent: true,
      emailConsent: true,
    },
    ip: uniqueIp(),
  });
const inbound = (from: string, body: string) => {
  const signed = signedInbound({ MessageSid: messageSid(), From: from, Body: body });
  return call(inboundFn, '/api/sms/inbound', { method: 'POST', body: signed.body, headers: signed.headers });
};

/** Asks for a sign-in link; the deferred work (look-up and email) is collected, then awaited. */
const askLink = (email: string, ip = uniqueIp(), lang = 'en') =>
  callThenDeferred(myLink, '/api/my/link', { json: { email, lang }, ip });

const seen = new Set<string>();
/** The sign-in token of the one email to `to` not read before (the clock is frozen: mail is told apart by token). */
async function tokenFor(to: string): Promise<string | null> {
  const found: string[] = [];
  for await (const page of kv('outbox').keys('email/'))
    for (const k of page) {
      const m = (await kv('outbox').get<{ to: string; text: string }>(k))?.value;
      const t = m?.to === to ? /\/my\/signin\?token=([A-Za-z0-9_-]+)/.exec(m.text) : null;
      if (t && !seen.has(t[1]!)) found.push(t[1]!);
    }
  expect(found.length).toBeLessThanOrEqual(1);
  for (const t of found) seen.add(t);
  return found[0] ?? null;
}

/** Signs a known supporter in through the emailed link; the cookie for /my, /es/my and /api/my. */
async function signIn(email: string): Promise<string> {
  await askLink(email);
  const token = await tokenFor(email);
  expect(token).not.toBeNull();
  const res = await my('session', { token });
  expect(res.status).toBe(200);
  const set = res.headers.getSetCookie();
  expect(set.map((c) => /Path=([^;]+)/.exec(c)?.[1]).sort()).toEqual(['/api/my', '/es/my', '/my']);
  return set[0]!.split(';')[0]!;
}

describe('the sign-in link', () => {
  it('answers a known and an unknown address identically, and only the known one gets an email', async () => {
    const eva = supporter('Eva', 'Known');
    expect((await volunteer(eva)).status).toBe(201);
    const unknown = `nobody.${Date.now()}@example.org`;
    const a = await askLink(eva.email);
    const b = await askLink(unknown);
    expect(a.res.status).toBe(200);
    expect([b.res.status, b.body]).toEqual([a.res.status, a.body]);
    const headers = (r: Response) => [...r.headers.entries()].filter(([k]) => k !== 'date');
    expect(headers(b.res)).toEqual(headers(a.res));
    // Both hand the address-dependent work to after the response, alike.
    expect([a.deferred, b.deferred]).toEqual([1, 1]);
    expect(await tokenFor(eva.email)).not.toBeNull();
    expect(await tokenFor(unknown)).toBeNull();
    expect(JSON.parse(a.body)).toEqual({ success: true, message: SUPPORTER_COPY.en.linkSent });
  });

  it('limits requests per recipient whoever asks, the same for a known and an unknown address', async () => {
    const rita = supporter('Rita', 'Limited');
    expect((await volunteer(rita)).status).toBe(201);
    const unknown = `ghost.${Date.now()}@example.org`;
    for (const address of [rita.email, unknown]) {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await askLink(address)).res.status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    }
  });

  it('works once, and not after 15 minutes; a scanner GET changes nothing', async () => {
    const ana = supporter('Ana', 'Once');
    expect((await volunteer(ana)).status).toBe(201);
    await askLink(ana.email);
    const token = await tokenFor(ana.email);
    expect((await call(myAccount, '/api/my/session', { method: 'GET' })).status).toBe(405);
    expect((await my('session', { token })).status).toBe(200);
    const again = await my('session', { token });
    expect(again.status).toBe(400);
    expect(again.headers.getSetCookie()).toEqual([]);

    await askLink(ana.email);
    const late = await tokenFor(ana.email);
    expect(late).not.toBe(token);
    vi.setSystemTime(new Date(NOW.getTime() + 15 * 60_000 + 1000));
    try {
      expect((await my('session', { token: late })).status).toBe(400);
    } finally {
      vi.setSystemTime(NOW);
    }
  });

  it('gives a session that is never a staff session', async () => {
    const lea = supporter('Lea', 'Session');
    expect((await volunteer(lea)).status).toBe(201);
    const cookie = await signIn(lea.email);
    const data = await call(myAccount, '/api/my/data', { cookie });
    expect(data.status).toBe(200);
    expect(data.headers.get('cache-control')).toBe('private, no-store');
    const body = (await data.json()) as { person: { emails: string[] } };
    expect(body.person.emails).toEqual([lea.email]);
    expect(
      (await call(authMe, '/api/auth/me', { cookie: cookie.replace(/^supporter=/, 'session=') })).status,
    ).toBe(401);
    expect((await call(myAccount, '/api/my/data')).status).toBe(401);
  });
});

describe('consent on the page', () => {
  it('resumes texts after STOP only with the consent box, recording its wording', async () => {
    const tia = supporter('Tia', 'Resume');
    expect((await volunteer(tia)).status).toBe(201);
    await inbound(tia.phone, 'STOP');
    expect((await consentFor('text', tia.phone)).revoked).toBe(true);
    const cookie = await signIn(tia.email);

    const refused = await my('resume-texts', {}, cookie);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe(SUPPORTER_COPY.en.consentRequired);
    expect((await consentFor('text', tia.phone)).revoked).toBe(true);

    expect((await my('resume-texts', { consent: true }, cookie)).status).toBe(200);
    const answer = await consentFor('text', tia.phone);
    expect(answer.revoked).toBe(false);
    const optIns = (await ownTimeline(answer.personId!)).filter(
      (e) => e.source === 'consent' && e.detail.action === 'opt_in',
    );
    expect(optIns).toHaveLength(1);
    expect(optIns[0]!.detail).toMatchObject({
      channel: 'text',
      action: 'opt_in',
      via: 'supporter_page',
      wording: SUPPORTER_COPY.en.resumeTextsConsent,
    });

    // And stopping from the page revokes again, on every ledger.
    expect((await my('stop', { channel: 'text' }, cookie)).status).toBe(200);
    expect((await consentFor('text', tia.phone)).revoked).toBe(true);
  });
});

describe('delete my data', () => {
  it('needs the confirmation, leaves no trace, and the session and any open link die with it', async () => {
    const zoe = supporter('Zoe', 'Quintavalle');
    const event = await rsvpEventFixture(null);
    expect((await volunteer(zoe)).status).toBe(201);
    await rsvpTo(
      event.id,
      rsvpPerson({ name: zoe.name, email: zoe.email, phone: zoe.dashed, smsReminder: true }),
    );
    expect((await plan(zoe)).status).toBe(201);
    const cookie = await signIn(zoe.email);
    const data = (await (await call(myAccount, '/api/my/data', { cookie })).json()) as {
      person: { id: string };
      rsvps: unknown[];
      plans: unknown[];
      invite: { code: string };
    };
    expect([data.rsvps.length, data.plans.length]).toEqual([1, 1]);
    await askLink(zoe.email); // an open link, unused
    const open = await tokenFor(zoe.email);
    const needles = [
      zoe.email,
      zoe.phone,
      zoe.dashed,
      zoe.last,
      hashed(zoe.email),
      hashed(zoe.phone),
      data.person.id,
    ];
    expect((await traces(needles)).length).toBeGreaterThan(5);

    expect((await my('forget', {}, cookie)).status).toBe(400);
    const res = await my('forget', { confirm: true }, cookie);
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().every((c) => c.includes('Max-Age=0'))).toBe(true);

    expect(await traces(needles)).toEqual([]);
    expect((await kv('people').get(`invite/${data.invite.code}`)) ?? null).toBeNull();
    // Only the tombstone: the keyed hash in the key, the time in the value.
    const tomb = await kv('people').get<Record<string, unknown>>(lookupKey('email', zoe.email));
    expect(Object.keys(tomb?.value ?? {})).toEqual(['forgottenAt']);
    expect((await call(myAccount, '/api/my/data', { cookie })).status).toBe(401);
    expect((await my('session', { token: open })).status).toBe(400);
  });
});
