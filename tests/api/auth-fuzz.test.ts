import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as loginFn from '../../netlify/functions/auth-login.mts';
import * as forgotFn from '../../netlify/functions/auth-forgot-password.mts';
import * as resetFn from '../../netlify/functions/auth-reset-password.mts';
import * as changeFn from '../../netlify/functions/auth-change-password.mts';
import * as logoutFn from '../../netlify/functions/auth-logout.mts';
import * as meFn from '../../netlify/functions/auth-me.mts';
import * as newsFn from '../../netlify/functions/news.mts';
import * as eventsFn from '../../netlify/functions/events.mts';
import * as socialFn from '../../netlify/functions/social-media-links.mts';
import { createUser, getUser, listUsers } from '../../src/lib/server/auth/users.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/**
 * Property-based fuzz of the public auth endpoints and the public lists:
 * arbitrary JSON (and arbitrary strings where a field is expected) never gives
 * a 5xx, and never changes a user.
 */
let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(async () => {
  await blobs.stop();
});

const anyBody = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record(
    {
      username: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
      password: fc.oneof(fc.string({ maxLength: 300 }), fc.jsonValue({ maxDepth: 1 })),
      email: fc.oneof(fc.emailAddress(), fc.string()),
      token: fc.oneof(fc.base64String({ minLength: 16, maxLength: 64 }), fc.string()),
      currentPassword: fc.string(),
      newPassword: fc.string({ maxLength: 300 }),
    },
    { requiredKeys: [] },
  ),
);

describe('fuzz: auth endpoints and public lists', () => {
  it('never answer 5xx and never change a user', async () => {
    const victim = await createUser({
      username: 'fuzz-victim',
      email: 'victim@example.org',
      password: 'victim password',
      role: 'admin',
    });
    const { cookie } = await signedIn('editor');
    const before = JSON.stringify(await getUser(victim.id));
    const countBefore = (await listUsers()).length;
    let ip = 0;
    await fc.assert(
      fc.asyncProperty(
        anyBody,
        fc.constantFrom(loginFn, forgotFn, resetFn, changeFn, logoutFn),
        fc.boolean(),
        async (body, fn, withCookie) => {
          ip += 1;
          const path = fn.config.path as string;
          const res = await call(fn, path, {
            json: body,
            cookie: withCookie ? cookie : undefined,
            ip: `198.18.${Math.floor(ip / 250) % 250}.${ip % 250}`,
          });
          expect(res.status, `${path} ${JSON.stringify(body)}`).toBeLessThan(500);
          const text = await res.text();
          expect(text).not.toMatch(/at .+\.(ts|js|mts):\d+/); // no stack traces
        },
      ),
      { numRuns: 150 },
    );
    expect(JSON.stringify(await getUser(victim.id))).toBe(before);
    expect((await listUsers()).length).toBe(countBefore);
  });

  it('public GET lists ignore arbitrary query strings and headers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 80 }),
        fc.constantFrom(newsFn, eventsFn, socialFn, meFn),
        fc.string({ maxLength: 200 }),
        async (query, fn, cookieJunk) => {
          const path = `${fn.config.path as string}?${encodeURIComponent(query)}=${encodeURIComponent(query)}`;
          const res = await call(fn, path, { cookie: `session=${cookieJunk.replace(/[;\r\n]/g, '')}` });
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 80 },
    );
  });
});
