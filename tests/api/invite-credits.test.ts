import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as newsletterFn from '../../netlify/functions/email-subscribers.mts';
import * as rsvpFn from '../../netlify/functions/event-rsvp.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
import * as votePlanFn from '../../netlify/functions/vote-plan.mts';
import { buildDonationUrl } from '../../src/lib/donate.ts';
import { inviteCodeOfCookies, inviteRefcode } from '../../src/lib/invite-link.ts';
import { setElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { lookupKey } from '../../src/lib/server/people/keys.ts';
import { mapLimit } from '../../src/lib/server/storage/map-limit.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import {
  inviteCodeOf,
  inviteCounts,
  inviteVisit,
  revokeInvite,
} from '../../src/lib/server/supporters/invites.ts';
import { recruitCounts } from '../../src/lib/server/supporters/recruits.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { deliver, order, useWebhookCredentials } from '../helpers/donations.ts';
import { FUTURE_CALENDAR } from '../helpers/election.ts';
import { localProviders, uniqueIp, validVolunteer } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { person, rsvpEventFixture } from '../helpers/rsvp.ts';
import { morningAndAfternoon, putShifts } from '../helpers/shifts.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * Invite links (docs/decisions/182-supporter-page.md) through the real handlers on a real local Blobs server: a
 * visit through a live code sets the cookie; the newsletter sign-ups, RSVPs, shift sign-ups and plans to vote that
 * follow are credited on write, and the gifts whose ActBlue notification brings the code back as a refcode (the
 * donate page adds it from the cookie) on the webhook, each exactly once to the code's owner; a revoked or guessed
 * code credits nobody. Its own file: hundreds of sign-ups fill the store.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
let townHall: number;
let canvass: number;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
  useWebhookCredentials();
  // An election still ahead, so plans to vote are taken.
  await setElectionCalendar(FUTURE_CALENDAR, 'invite-credits');
  townHall = (await rsvpEventFixture(null, { title: 'Town Hall on Invites' })).id;
  canvass = (await rsvpEventFixture(null, { title: 'Invite canvass' })).id;
  const editor = (await signedIn('editor')).cookie;
  expect((await putShifts(canvass, morningAndAfternoon(500), editor)).status).toBe(200);
});
afterAll(async () => {
  localProviders();
  await blobs.stop();
});

let seq = 0;
function supporter(first: string) {
  seq += 1;
  const n = String(3000 + seq).slice(-4);
  return { first, email: `${first.toLowerCase()}.${seq}-${Date.now()}@example.org`, dashed: `504-557-${n}` };
}
const volunteer = (s: ReturnType<typeof supporter>) =>
  call(volunteersFn, '/api/volunteers-sendgrid', {
    json: validVolunteer({ firstName: s.first, lastName: 'Inviter', email: s.email, phone: s.dashed }),
    ip: uniqueIp(),
  });

const KINDS = ['newsletter', 'rsvp', 'shift', 'vote-plan', 'donation'] as const;
type Kind = (typeof KINDS)[number];

/** What a friend who came through a link does: one request, as the browser (or ActBlue) sends it. */
function act(kind: Kind, n: number, cookie: string): () => Promise<Response> {
  const email = `friend${n}.${seq}@example.org`;
  const ip = uniqueIp();
  switch (kind) {
    case 'newsletter': {
      const json = { email, captcha: TURNSTILE_TEST_TOKEN };
      return () => call(newsletterFn, '/api/email-subscribers', { json, ip, cookie });
    }
    case 'rsvp': {
      const json = person({ email });
      return () => call(rsvpFn, `/api/events/${townHall}/rsvp`, { json, ip, cookie });
    }
    case 'shift': {
      const json = person({ email, slots: [n % 2 ? 'am' : 'pm'] });
      return () => call(rsvpFn, `/api/events/${canvass}/rsvp`, { json, ip, cookie });
    }
    case 'vote-plan': {
      const json = {
        day: '2031-01-04',
        method: 'in-person',
        name: `Friend ${n}`,
        email,
        emailConsent: true,
        captcha: TURNSTILE_TEST_TOKEN,
      };
      return () => call(votePlanFn, '/api/vote-plan', { json, ip, cookie });
    }
    case 'donation': {
      // The donate page's link from this visitor's cookie, as src/scripts/donate.ts builds it; ActBlue sends back
      // the refcode it carried.
      const link = new URL(
        buildDonationUrl({
          baseUrl: 'https://secure.actblue.com/donate/avery',
          amount: 25,
          inviteCode: inviteCodeOfCookies(cookie),
        })!,
      );
      const body = order(n, { email, refcode2: link.searchParams.get('refcode2') ?? '' });
      return () => deliver(body);
    }
  }
}

/**
 * Owners, and what each of their friends does of each kind: 300 visits. The claims are the same at any size (each
 * credit exactly once, eight requests at a time, replays, a revoked code); 1,000 visits proved nothing 300 do not and
 * cost about a tenth of the quick loop's CPU (docs/decisions/163-tests.md, "Less work per check").
 */
const OWNERS = 30;
const EACH = 2;
const VISITS = OWNERS * KINDS.length * EACH;

describe('invite links', () => {
  it(`${VISITS} visits through ${OWNERS} codes: every sign-up, RSVP, shift, plan and gift credited exactly once to its owner; a revoked code credits nobody`, async () => {
    const owners = await mapLimit(
      Array.from({ length: OWNERS + 1 }, (_, i) => supporter(`Owner${i}`)),
      4,
      async (s) => {
        expect((await volunteer(s)).status).toBe(201);
        const id = (await kv('people').get<{ id: string }>(lookupKey('email', s.email)))!.value.id;
        return { id, code: await inviteCodeOf(id) };
      },
    );
    const revoked = owners.pop()!;
    expect(await revokeInvite(revoked.code, 'staff')).toBe(true);
    const cookieOf = async (code: string) => {
      const res = await inviteVisit(code);
      expect(res.status).toBe(302);
      return res.headers.getSetCookie()[0]?.split(';')[0] ?? null;
    };
    // The revoked code and a guessed one set nothing.
    expect(await cookieOf(revoked.code)).toBeNull();
    expect(await cookieOf('abcdefghij')).toBeNull();

    // Visit v goes through owner v % OWNERS's link, and does the (v / OWNERS) % 5-th thing: EACH of each per owner.
    const visits = Array.from({ length: VISITS }, (_, v) => ({
      v,
      owner: owners[v % OWNERS]!,
      kind: KINDS[Math.floor(v / OWNERS) % KINDS.length]!,
    }));
    const requests = await mapLimit(visits, 8, async ({ v, owner, kind }) => {
      const cookie = await cookieOf(owner.code);
      expect(cookie).toBe(`invite=${owner.code}`);
      const request = act(kind, v, cookie!);
      const res = await request();
      expect(res.status, `${kind}: ${await res.clone().text()}`).toBeLessThan(300);
      return { kind, request, owner };
    });
    // Replays of every fifth request, as many of each kind (a retried post, a double click, ActBlue delivering
    // again), count nothing more.
    const again = requests.filter((_, v) => v % 5 === 0);
    expect(KINDS.map((k) => again.filter((r) => r.kind === k).length)).toEqual(
      KINDS.map(() => VISITS / 5 / KINDS.length),
    );
    const replays = await mapLimit(again, 8, async ({ request }) => (await request()).status);
    expect(replays.every((s) => s < 500)).toBe(true);
    // A recurring gift's next instalment (same order, a new line item) is the same donor: nothing more.
    const firstGift = requests.find((r) => r.kind === 'donation')!;
    const gift = order(600, {
      email: 'recurring@example.org',
      refcode2: inviteRefcode(firstGift.owner.code),
    });
    expect((await deliver(gift)).status).toBe(201);
    const next = order(600, {
      email: 'recurring@example.org',
      refcode2: inviteRefcode(firstGift.owner.code),
      lineitem: 99_000_001,
    });
    expect((await deliver(next)).status).toBe(201);
    // A refund through a live link credits nothing.
    const refund = order(601, { email: 'refunded@example.org', refcode2: inviteRefcode(owners[1]!.code) });
    expect((await deliver(refund, { path: '/api/donations/actblue/refunds' })).status).toBe(201);

    // A cookie from before the revocation, and a gift whose refcode names the revoked code or a guessed one:
    // nobody is credited.
    const stale = `invite=${revoked.code}`;
    for (const [i, kind] of KINDS.entries())
      expect((await act(kind, 2000 + i, stale)()).status).toBeLessThan(300);
    const guessed = order(2100, { email: 'guess@example.org', refcode2: inviteRefcode('abcdefghij') });
    expect((await deliver(guessed)).status).toBe(201);

    const counts = await mapLimit(owners, 8, async (o) => inviteCounts(o.id));
    const gifted = (o: { id: string }) => (o.id === firstGift.owner.id ? EACH + 1 : EACH);
    expect(counts).toEqual(
      owners.map((o) => ({
        volunteer: 0,
        'text-signup': 0,
        newsletter: EACH,
        rsvp: EACH,
        shift: EACH,
        'vote-plan': EACH,
        donation: gifted(o),
        total: 4 * EACH + gifted(o),
      })),
    );
    expect((await inviteCounts(revoked.id)).total).toBe(0);
    // The leaderboard ranks sign-ups: the gifts are each owner's own count.
    const board = new Map((await recruitCounts()).map((r) => [r.personId, r.count]));
    expect(owners.map((o) => board.get(o.id))).toEqual(owners.map(() => 4 * EACH));
    expect(board.has(revoked.id)).toBe(false);
  }, 600_000);
});
