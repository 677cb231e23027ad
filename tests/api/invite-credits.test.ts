import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as newsletterFn from '../../netlify/functions/email-subscribers.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
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
import { startBlobs } from '../helpers/blobs.ts';
import { localProviders, uniqueIp, validVolunteer } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';

/*
 * Invite links (docs/decisions/182-supporter-page.md) through the real handlers on a real local Blobs server: a
 * visit through a live code sets the cookie, the sign-ups that follow are credited on write exactly once to the
 * code's owner, and a revoked or guessed code credits nobody. Its own file: a thousand sign-ups fill the store.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
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

describe('invite links', () => {
  it('1,000 visits through 50 codes credit each sign-up exactly once to its owner; a revoked code credits nobody', async () => {
    const owners = await mapLimit(
      Array.from({ length: 51 }, (_, i) => supporter(`Owner${i}`)),
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

    const visits = Array.from({ length: 1000 }, (_, v) => ({ v, owner: owners[v % 50]! }));
    const signups = await mapLimit(visits, 8, async ({ v, owner }) => {
      const cookie = await cookieOf(owner.code);
      expect(cookie).toBe(`invite=${owner.code}`);
      const email = `friend${v}.${Date.now()}@example.org`;
      const body = { email, captcha: TURNSTILE_TEST_TOKEN };
      const res = await call(newsletterFn, '/api/email-subscribers', {
        json: body,
        ip: uniqueIp(),
        cookie: cookie!,
      });
      expect(res.status).toBeLessThan(300);
      return { body, cookie: cookie! };
    });
    // Replays of a hundred sign-ups (a retried post, a double click) count nothing more.
    await mapLimit(signups.slice(0, 100), 8, ({ body, cookie }) =>
      call(newsletterFn, '/api/email-subscribers', { json: body, ip: uniqueIp(), cookie }),
    );
    // A cookie from before the revocation: the sign-up credits nobody.
    await call(newsletterFn, '/api/email-subscribers', {
      json: { email: `late.${Date.now()}@example.org`, captcha: TURNSTILE_TEST_TOKEN },
      ip: uniqueIp(),
      cookie: `invite=${revoked.code}`,
    });

    const counts = await mapLimit(owners, 8, async (o) => (await inviteCounts(o.id)).newsletter);
    expect(counts).toEqual(owners.map(() => 20));
    expect((await inviteCounts(revoked.id)).total).toBe(0);
  }, 600_000);
});
