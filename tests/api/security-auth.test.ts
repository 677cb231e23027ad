/**
 * Each test replays the attack of
 * the outside test and shows it no longer gets through.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as loginFn from '../../netlify/functions/auth-login.mts';
import * as meFn from '../../netlify/functions/auth-me.mts';
import * as forgotFn from '../../netlify/functions/auth-forgot-password.mts';
import * as resetFn from '../../netlify/functions/auth-reset-password.mts';
import * as changeFn from '../../netlify/functions/auth-change-password.mts';
import * as passwords from '../../src/lib/server/auth/passwords.ts';
import { LIMITS } from '../../src/lib/server/auth/rate-limit.ts';
import { INVALID_RESET } from '../../src/lib/server/auth/recovery.ts';
import {
  createUser,
  deleteUser,
  getUser,
  LAST_ADMIN_DELETE,
  LAST_ADMIN_UPDATE,
  listUsers,
  updateUser,
} from '../../src/lib/server/auth/users.ts';
import { ConfigError, DEV_SESSION_SECRET, sessionSecret } from '../../src/lib/server/env.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { startBlobs, useFakeService, useMemoryStores } from '../helpers/blobs.ts';
import { fakeProvider, setEnv, type FakeProvider } from '../helpers/forms.ts';
import { call, sessionCookie } from '../helpers/http.ts';
import { outboxEmails } from '../helpers/users.ts';

// Count every real password evaluation (argon2 verify) the handlers make.
vi.mock('../../src/lib/server/auth/passwords.ts', async (importOriginal) => {
  const m = await importOriginal<typeof passwords>();
  return { ...m, verifyPassword: vi.fn(m.verifyPassword), dummyVerify: vi.fn(m.dummyVerify) };
});
const evaluations = () =>
  vi.mocked(passwords.verifyPassword).mock.calls.length + vi.mocked(passwords.dummyVerify).mock.calls.length;

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(async () => {
  setStoreFactory(null);
  await blobs.stop();
});
afterEach(() => {
  vi.useRealTimers();
});

let seq = 0;
async function makeUser(role: 'admin' | 'editor' | 'viewer' = 'editor') {
  seq += 1;
  const username = `sec${seq}x${Math.random().toString(36).slice(2, 7)}`;
  const password = `the right password ${seq}`;
  const email = `${username}@example.org`;
  const user = await createUser({ username, email, password, role, firstName: 'Sam', lastName: 'Lee' });
  return { user, username, password, email };
}

let ipSeq = 0;
const freshIp = () => `198.18.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;
const login = (username: string, password: string, ip = freshIp()) =>
  call(loginFn, '/api/auth/login', { json: { username, password }, ip });

describe.each(['production path, SDK-like fake service', 'atomic in-memory KV', 'real local Blobs server'])(
  'lockout under parallel guesses (%s)',
  (backend) => {
    let fake: Awaited<ReturnType<typeof useFakeService>> | null = null;
    beforeAll(async () => {
      if (backend.startsWith('production')) fake = await useFakeService();
      else if (backend.startsWith('atomic')) useMemoryStores();
      else setStoreFactory(null);
    });
    afterAll(async () => {
      await fake?.stop();
      setStoreFactory(null);
    });

    it('20 parallel wrong guesses: at most 5 evaluated, the rest 429 without verifying', async () => {
      const { username } = await makeUser();
      vi.mocked(passwords.verifyPassword).mockClear();
      vi.mocked(passwords.dummyVerify).mockClear();
      // Different IPs, as a botnet would: only the account limit applies.
      const res = await Promise.all(Array.from({ length: 20 }, (_, i) => login(username, `guess ${i}`)));
      const statuses = res.map((r) => r.status);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LIMITS.loginAccount.max);
      expect(statuses.filter((s) => s !== 401).every((s) => s === 429)).toBe(true);
      expect(evaluations()).toBeLessThanOrEqual(LIMITS.loginAccount.max);
      for (const r of res.filter((x) => x.status === 429))
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('the right password afterwards gets 429 until the window passes (fake clock)', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const t0 = new Date('2025-09-20T12:00:00Z');
      vi.setSystemTime(t0);
      const { username, password, email } = await makeUser();
      await Promise.all(Array.from({ length: 20 }, (_, i) => login(username, `wrong ${i}`)));
      vi.mocked(passwords.verifyPassword).mockClear();
      const locked = await login(username, password);
      expect(locked.status).toBe(429);
      // Username and email share one counter: the email is locked too, and nothing was verified.
      expect((await login(email, password)).status).toBe(429);
      expect(vi.mocked(passwords.verifyPassword)).not.toHaveBeenCalled();
      const retryAfter = Number(locked.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(LIMITS.loginAccount.windowSeconds);

      vi.setSystemTime(t0.getTime() + (LIMITS.loginAccount.windowSeconds - 5) * 1000);
      expect((await login(username, password)).status).toBe(429);
      vi.setSystemTime(t0.getTime() + (LIMITS.loginAccount.windowSeconds + 1) * 1000);
      expect((await login(username, password)).status).toBe(200);
    });

    it('username and email share one counter: 3 by name + 2 by email lock both', async () => {
      const { username, password, email } = await makeUser();
      for (let i = 0; i < 3; i++) expect((await login(username, 'nope')).status).toBe(401);
      for (let i = 0; i < 2; i++) expect((await login(email.toUpperCase(), 'nope')).status).toBe(401);
      expect((await login(username, password)).status).toBe(429);
      expect((await login(email, password)).status).toBe(429);
    });

    it('a success clears the account window (4 wrong, right, 4 wrong, right)', async () => {
      const { username, password } = await makeUser();
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 4; i++) expect((await login(username, 'nope')).status).toBe(401);
        expect((await login(username, password)).status).toBe(200);
      }
    });

    it('unknown names are limited alike (a 429 does not reveal that an account exists)', async () => {
      const res = await Promise.all(Array.from({ length: 8 }, () => login('no-such-user-here', 'x')));
      expect(res.filter((r) => r.status === 401).length).toBe(LIMITS.loginAccount.max);
      expect(res.filter((r) => r.status === 429).length).toBe(8 - LIMITS.loginAccount.max);
    });
  },
);

describe('one password, one set of live credentials', () => {
  beforeAll(() => setStoreFactory(null));

  const forgot = (email: string) =>
    call(forgotFn, '/api/auth/forgot-password', { json: { email }, ip: freshIp() });
  const reset = (token: string, password: string) =>
    call(resetFn, '/api/auth/reset-password', { json: { token, password } });

  /** Asks for a recovery email and returns its temporary password and link token. */
  async function recovery(email: string): Promise<{ temp: string; token: string }> {
    expect((await forgot(email)).status).toBe(200);
    const mail = (await outboxEmails())
      .filter((m) => m.to === email && m.subject.includes('temporary password'))
      .at(-1);
    return {
      temp: /Temporary password: (\S+)/.exec(mail?.text ?? '')?.[1] ?? '',
      token: /token=([\w-]+)/.exec(mail?.text ?? '')?.[1] ?? '',
    };
  }

  it('a reset with a newer link kills the older link', async () => {
    const { email, username } = await makeUser();
    const older = await recovery(email);
    const newer = await recovery(email);
    expect(older.token).not.toBe(newer.token);
    expect((await reset(newer.token, 'newest password 1')).status).toBe(200);
    const stale = await reset(older.token, 'attacker password');
    expect(stale.status).toBe(400);
    expect(await stale.json()).toEqual({ success: false, error: INVALID_RESET });
    expect((await login(username, 'newest password 1')).status).toBe(200);
    expect((await login(username, 'attacker password')).status).toBe(401);
  });

  it('using the temporary password kills the reset link from the same email', async () => {
    const { email, username } = await makeUser();
    const { temp, token } = await recovery(email);
    const signedIn = await login(username, temp);
    expect(signedIn.status).toBe(200);
    expect((await reset(token, 'attacker password')).status).toBe(400);
    // The one who used the temporary password sets the new one.
    const changed = await call(changeFn, '/api/auth/change-password', {
      cookie: sessionCookie(signedIn),
      json: { newPassword: 'chosen after temp' },
    });
    expect(changed.status).toBe(200);
    expect((await login(username, 'chosen after temp')).status).toBe(200);
  });

  it('a reset kills the temporary password from the same email', async () => {
    const { email, username } = await makeUser();
    const { temp, token } = await recovery(email);
    expect((await reset(token, 'reset password 9')).status).toBe(200);
    expect((await login(username, temp)).status).toBe(401);
  });

  it('changing the password kills earlier links and the earlier temporary password', async () => {
    const { email, username, password } = await makeUser();
    const { temp, token } = await recovery(email);
    const cookie = sessionCookie(await login(username, password));
    const changed = await call(changeFn, '/api/auth/change-password', {
      cookie,
      json: { currentPassword: password, newPassword: 'changed by owner' },
    });
    expect(changed.status).toBe(200);
    expect((await reset(token, 'attacker password')).status).toBe(400);
    expect((await login(username, temp)).status).toBe(401);
    expect((await login(username, 'changed by owner')).status).toBe(200);
  });

  it('an admin setting a new password kills earlier links, the temporary password and sessions', async () => {
    const { user, email, username, password } = await makeUser();
    const { temp, token } = await recovery(email);
    const cookie = sessionCookie(await login(username, password));
    await updateUser(user.id, { password: 'set by an admin' });
    expect((await call(meFn, '/api/auth/me', { cookie })).status).toBe(401);
    expect((await reset(token, 'attacker password')).status).toBe(400);
    expect((await login(username, temp)).status).toBe(401);
    expect((await login(username, 'set by an admin')).status).toBe(200);
    expect((await getUser(user.id))?.passwordVersion).toBe(1);
  });

  it('a recovery issued under an older password version is never stored as live', async () => {
    const { user, email } = await makeUser();
    await updateUser(user.id, { password: 'version one pw' });
    const { token } = await recovery(email);
    expect((await reset(token, 'fine to use it')).status).toBe(200);
    expect((await getUser(user.id))?.passwordVersion).toBe(2);
  });
});

describe('forgot-password takes the same time for known and unknown emails', () => {
  const SENDGRID_DELAY_MS = 600;
  let sendgrid: FakeProvider;
  beforeAll(async () => {
    setStoreFactory(null);
    sendgrid = await fakeProvider((_req, res) => {
      setTimeout(() => res.writeHead(202).end(), SENDGRID_DELAY_MS);
    });
    setEnv({ SENDGRID_API_KEY: 'SG.test-key', SENDGRID_API_URL: sendgrid.url });
  });
  afterAll(async () => {
    setEnv({ SENDGRID_API_KEY: undefined, SENDGRID_API_URL: undefined });
    await sendgrid.close();
  });

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

  it('the email work runs after the response, so a slow provider does not show in the answer time', async () => {
    const known = await Promise.all(Array.from({ length: 5 }, () => makeUser()));
    const deferred: Promise<unknown>[] = [];
    const timed = async (email: string) => {
      const t = performance.now();
      const res = await call(forgotFn, '/api/auth/forgot-password', {
        json: { email },
        ip: freshIp(),
        waitUntil: (p) => deferred.push(p),
      });
      const ms = performance.now() - t;
      expect(res.status).toBe(200);
      return { ms, body: await res.text() };
    };
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    const bodies = new Set<string>();
    for (const [i, u] of known.entries()) {
      const a = await timed(u.email);
      const b = await timed(`nobody-${i}-${u.username}@example.org`);
      knownTimes.push(a.ms);
      unknownTimes.push(b.ms);
      bodies.add(a.body).add(b.body);
    }
    expect(bodies.size).toBe(1);
    // Without deferral a known email would wait for SendGrid (600 ms) and unknown ones would not.
    expect(Math.abs(median(knownTimes) - median(unknownTimes))).toBeLessThan(SENDGRID_DELAY_MS / 2);
    expect(median(knownTimes)).toBeLessThan(SENDGRID_DELAY_MS);
    // The work did happen, after the answers: one email per known account, none for the others.
    await Promise.all(deferred);
    expect(sendgrid.requests).toHaveLength(known.length);
    const to = sendgrid.requests.map(
      (r) =>
        (JSON.parse(r.body) as { personalizations: { to: { email: string }[] }[] }).personalizations[0]!
          .to[0]!.email,
    );
    expect(to.sort()).toEqual(known.map((u) => u.email).sort());
  });
});

describe.each(['production path, SDK-like fake service', 'atomic in-memory KV', 'real local Blobs server'])(
  'the last-admin rule under races (%s)',
  (backend) => {
    let fake: Awaited<ReturnType<typeof useFakeService>> | null = null;
    beforeAll(async () => {
      if (backend.startsWith('production')) fake = await useFakeService();
      else if (backend.startsWith('atomic')) useMemoryStores();
      else setStoreFactory(null);
    });
    afterAll(async () => {
      await fake?.stop();
      setStoreFactory(null);
    });

    const activeAdmins = async () => (await listUsers()).filter((u) => u.role === 'admin' && u.isActive);

    /** Brings the store to exactly one active admin (whatever ran before) and returns it. */
    async function oneActiveAdmin() {
      // Demoting every admin in turn: the rule refuses the last one.
      for (const a of await activeAdmins()) await updateUser(a.id, { role: 'viewer' }).catch(() => undefined);
      return (await activeAdmins())[0] ?? (await makeUser('admin')).user;
    }

    it('two admins demoting each other at once: one demotion is refused, one admin remains', async () => {
      for (let round = 0; round < 5; round++) {
        // Start from exactly two active admins.
        for (const a of await activeAdmins())
          await updateUser(a.id, { role: 'viewer' }).catch(() => undefined);
        const left = await activeAdmins();
        const a = left[0] ?? (await makeUser('admin')).user;
        const b = (await makeUser('admin')).user;
        expect((await activeAdmins()).map((u) => u.id).sort()).toEqual([a.id, b.id].sort());
        const results = await Promise.allSettled([
          updateUser(a.id, { role: 'editor' }),
          updateUser(b.id, { role: 'editor' }),
        ]);
        const refused = results.filter((r) => r.status === 'rejected');
        expect(refused).toHaveLength(1);
        expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({
          status: 409,
          message: LAST_ADMIN_UPDATE,
        });
        expect(await activeAdmins()).toHaveLength(1);
      }
    });

    it('racing deactivation and deletion of the last two admins leave one', async () => {
      const a = await oneActiveAdmin();
      const b = (await makeUser('admin')).user;
      const results = await Promise.allSettled([
        updateUser(a.id, { isActive: false }),
        deleteUser(b.id, a.id),
      ]);
      expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
      const reasons = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : []));
      expect([LAST_ADMIN_UPDATE, LAST_ADMIN_DELETE]).toContain(reasons[0]);
      expect(await activeAdmins()).toHaveLength(1);
    });

    it('a promotion puts the admin back in the count', async () => {
      const only = await oneActiveAdmin();
      expect((await activeAdmins()).map((u) => u.id)).toEqual([only.id]);
      const { user } = await makeUser('viewer');
      await updateUser(user.id, { role: 'admin' });
      await updateUser(only.id, { role: 'editor' });
      expect((await activeAdmins()).map((u) => u.id)).toEqual([user.id]);
      await expect(updateUser(user.id, { role: 'viewer' })).rejects.toMatchObject({ status: 409 });
    });
  },
);

describe('the development session secret', () => {
  afterEach(() => setEnv({ APP_ENV: 'test', SESSION_SECRET: undefined }));

  it('is refused in production, as is any secret under 32 bytes; a long random one is accepted', async () => {
    setEnv({ APP_ENV: 'production', SESSION_SECRET: DEV_SESSION_SECRET });
    expect(() => sessionSecret()).toThrow(ConfigError);
    // A request that needs the session answers 503, never signs anything with the public key.
    const me = await call(meFn, '/api/auth/me', { cookie: 'session=anything.at.all' });
    expect(me.status).toBe(503);
    setEnv({ SESSION_SECRET: 'x'.repeat(31) });
    expect(() => sessionSecret()).toThrow(ConfigError);
    setEnv({ SESSION_SECRET: undefined });
    expect(() => sessionSecret()).toThrow(ConfigError);
    setEnv({ SESSION_SECRET: 'k3Jx9-aQ2LmV7pRt0sWz4yB6nC8dE1fG5hK' });
    expect(sessionSecret().byteLength).toBeGreaterThanOrEqual(32);
  });

  it('local mode may use it (npm run dev needs no settings)', () => {
    setEnv({ APP_ENV: 'development', SESSION_SECRET: undefined });
    expect(new TextDecoder().decode(sessionSecret())).toBe(DEV_SESSION_SECRET);
  });
});

describe.each(['production path, SDK-like fake service', 'atomic in-memory KV', 'real local Blobs server'])(
  'one account per username under racing creates (%s)',
  (backend) => {
    let fake: Awaited<ReturnType<typeof useFakeService>> | null = null;
    beforeAll(async () => {
      if (backend.startsWith('production')) fake = await useFakeService();
      else if (backend.startsWith('atomic')) useMemoryStores();
      else setStoreFactory(null);
    });
    afterAll(async () => {
      await fake?.stop();
      setStoreFactory(null);
    });

    it('five creates of one name at once: one account, and the name and email lead to it', async () => {
      const username = `racer${Date.now().toString(36)}`;
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, () =>
          createUser({
            username,
            email: `${username}@example.org`,
            password: 'a-long-enough-password',
            role: 'editor',
            firstName: 'Race',
            lastName: 'Condition',
          }),
        ),
      );
      const made = results.filter((r) => r.status === 'fulfilled');
      expect(made).toHaveLength(1);
      const id = (made[0] as PromiseFulfilledResult<{ id: number }>).value.id;
      const { findUserByLogin } = await import('../../src/lib/server/auth/users.ts');
      expect((await findUserByLogin(username))?.id).toBe(id);
      expect((await findUserByLogin(`${username}@example.org`))?.id).toBe(id);
      expect((await listUsers()).filter((u) => u.username === username)).toHaveLength(1);
    });
  },
);
