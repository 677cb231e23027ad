/**
 * A stolen session
 * cannot guess the password (or a code) behind a sensitive change. Each test
 * replays the attack against the real handlers and a local Blobs server.
 * docs/decisions/160-staff-sign-in-and-sessions.md
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as adminTwoFactorFn from '../../netlify/functions/admin-two-factor.mts';
import * as changeFn from '../../netlify/functions/auth-change-password.mts';
import * as loginFn from '../../netlify/functions/auth-login.mts';
import * as meFn from '../../netlify/functions/auth-me.mts';
import * as twoFactorFn from '../../netlify/functions/auth-two-factor.mts';
import * as activityFn from '../../netlify/functions/admin-activity.mts';
import { TWO_FACTOR_MESSAGES } from '../../src/lib/schemas/two-factor.ts';
import * as passwords from '../../src/lib/server/auth/passwords.ts';
import { LIMITS } from '../../src/lib/server/auth/rate-limit.ts';
import { REAUTH_MESSAGES } from '../../src/lib/server/auth/reauth.ts';
import { totpCode } from '../../src/lib/server/auth/totp.ts';
import { isEnrolled } from '../../src/lib/server/auth/two-factor.ts';
import { createUser, getUser } from '../../src/lib/server/auth/users.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { startBlobs, useMemoryStores } from '../helpers/blobs.ts';
import { call, sessionCookie } from '../helpers/http.ts';

// Count every real password evaluation (argon2 verify) the handlers make.
vi.mock('../../src/lib/server/auth/passwords.ts', async (importOriginal) => {
  const m = await importOriginal<typeof passwords>();
  return { ...m, verifyPassword: vi.fn(m.verifyPassword) };
});
const verifications = () => vi.mocked(passwords.verifyPassword).mock.calls.length;

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

const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as T;
let seq = 0;
let ipSeq = 0;
const freshIp = () => `198.19.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

const login = (username: string, password: string) =>
  call(loginFn, '/api/auth/login', { json: { username, password }, ip: freshIp() });

interface Member {
  id: number;
  username: string;
  password: string;
  cookie: string;
}

async function member(role: 'admin' | 'editor' | 'viewer' = 'editor'): Promise<Member> {
  seq += 1;
  const username = `reauth${seq}x${Math.random().toString(36).slice(2, 7)}`;
  const password = `the right password ${seq}`;
  const user = await createUser({
    username,
    email: `${username}@example.org`,
    password,
    role,
    firstName: 'Sam',
    lastName: 'Lee',
  });
  const res = await login(username, password);
  expect(res.status).toBe(200);
  return { id: user.id, username, password, cookie: sessionCookie(res) };
}

const me = (cookie: string) => call(meFn, '/api/auth/me', { cookie });

/** Turns two-factor on through the API; keeps the caller's re-issued cookie. */
async function enrol(m: Member): Promise<{ secret: string; codes: string[] }> {
  const setup = await json<{ secret: string }>(
    await call(twoFactorFn, '/api/auth/two-factor/setup', { method: 'POST', cookie: m.cookie }),
  );
  const res = await call(twoFactorFn, '/api/auth/two-factor/enable', {
    json: { password: m.password, code: totpCode(setup.secret) },
    cookie: m.cookie,
  });
  expect(res.status).toBe(200);
  m.cookie = sessionCookie(res);
  return { secret: setup.secret, codes: (await json<{ recoveryCodes: string[] }>(res)).recoveryCodes };
}

const changePassword = (cookie: string, body: Record<string, unknown>) =>
  call(changeFn, '/api/auth/change-password', { json: body, cookie });
const disable = (cookie: string, body: Record<string, unknown>) =>
  call(twoFactorFn, '/api/auth/two-factor/disable', { json: body, cookie });
const newCodes = (cookie: string, body: Record<string, unknown>) =>
  call(twoFactorFn, '/api/auth/two-factor/recovery-codes', { json: body, cookie });

/** The 429 of a lockout: Retry-After within the window, the cookie cleared, the dashboard told to sign out. */
async function expectLockedOut(res: Response) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(LIMITS.loginAccount.windowSeconds);
  expect(res.headers.getSetCookie().some((c) => /^session=;.*Max-Age=0/.test(c))).toBe(true);
  const body = await json(res);
  expect(body).toMatchObject({ signedOut: true });
  expect(body.error).toMatch(/signed out/);
}

describe('change-password: the current password shares the sign-in lockout', () => {
  it('30 wrong current passwords: 5 evaluated, then 429 and the session revoked; the right one is still refused in the window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t0 = Date.parse('2026-03-02T15:00:00Z');
    vi.setSystemTime(t0);
    const m = await member();
    const other = sessionCookie(await login(m.username, m.password)); // a second browser of the same person
    const versionBefore = (await getUser(m.id))!.tokenVersion;
    vi.mocked(passwords.verifyPassword).mockClear();

    const answers: Response[] = [];
    for (let i = 0; i < 30; i++)
      answers.push(
        await changePassword(m.cookie, { currentPassword: `guess ${i}`, newPassword: 'taken-over' }),
      );
    const statuses = answers.map((r) => r.status);
    const max = LIMITS.loginAccount.max;
    expect(statuses.slice(0, max - 1)).toEqual(Array(max - 1).fill(400));
    await expectLockedOut(answers[max - 1]!);
    // Signed out: every later request of that session is refused before any password is looked at.
    expect(statuses.slice(max)).toEqual(Array(30 - max).fill(401));
    expect(verifications()).toBe(max);
    expect((await getUser(m.id))!.tokenVersion).toBeGreaterThan(versionBefore);
    expect((await me(m.cookie)).status).toBe(401);
    expect((await me(other)).status).toBe(401);

    // The right password, in that window: the session is gone, and signing in again is the same lockout.
    expect(
      (await changePassword(m.cookie, { currentPassword: m.password, newPassword: 'x-new-pass' })).status,
    ).toBe(401);
    expect((await login(m.username, m.password)).status).toBe(429);
    vi.setSystemTime(t0 + (LIMITS.loginAccount.windowSeconds - 5) * 1000);
    expect((await login(m.username, m.password)).status).toBe(429);

    // After the window: the owner signs in with the password that never changed.
    vi.setSystemTime(t0 + (LIMITS.loginAccount.windowSeconds + 1) * 1000);
    const back = await login(m.username, m.password);
    expect(back.status).toBe(200);
    expect((await me(sessionCookie(back))).status).toBe(200);
  });

  it('once the account is locked (guesses at the sign-in form), right and wrong current passwords get the same 429, unchecked', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t0 = Date.parse('2026-03-03T15:00:00Z');
    vi.setSystemTime(t0);
    // Two accounts with a live session each, locked by outside guesses at the same moment.
    const [a, b] = [await member(), await member()];
    for (const x of [a, b])
      for (let i = 0; i < LIMITS.loginAccount.max; i++)
        expect((await login(x.username, `outside guess ${i}`)).status).toBe(401);
    vi.mocked(passwords.verifyPassword).mockClear();
    const wrong = await changePassword(a.cookie, { currentPassword: 'nope', newPassword: 'another-one' });
    const right = await changePassword(b.cookie, { currentPassword: b.password, newPassword: 'another-one' });
    expect(verifications()).toBe(0);
    expect(right.status).toBe(wrong.status);
    expect(right.headers.get('retry-after')).toBe(wrong.headers.get('retry-after'));
    expect(await right.clone().text()).toBe(await wrong.clone().text());
    await expectLockedOut(wrong);
    await expectLockedOut(right);
    expect((await me(b.cookie)).status).toBe(401);
    // The password did not change; after the window the owner signs in with it.
    vi.setSystemTime(t0 + (LIMITS.loginAccount.windowSeconds + 2) * 1000);
    expect((await login(b.username, 'another-one')).status).toBe(401);
    expect((await login(b.username, b.password)).status).toBe(200);
  });

  it('a right current password clears the window (4 wrong, right, 4 wrong, right)', async () => {
    const m = await member();
    let password = m.password;
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < LIMITS.loginAccount.max - 1; i++)
        expect(
          (await changePassword(m.cookie, { currentPassword: 'nope', newPassword: 'whatever-1' })).status,
        ).toBe(400);
      const next = `new password round ${round}`;
      const ok = await changePassword(m.cookie, { currentPassword: password, newPassword: next });
      expect(ok.status).toBe(200);
      m.cookie = sessionCookie(ok);
      password = next;
    }
  });

  it('with two-factor on, a password change also needs a code; the answer does not say which was wrong', async () => {
    const m = await member();
    const { secret } = await enrol(m);
    const noCode = await changePassword(m.cookie, {
      currentPassword: m.password,
      newPassword: 'brand-new-1',
    });
    expect(noCode.status).toBe(400);
    expect((await json(noCode)).error).toBe(REAUTH_MESSAGES.codeNeeded);
    const wrongPassword = await changePassword(m.cookie, {
      currentPassword: 'nope',
      newPassword: 'brand-new-1',
      code: totpCode(secret, Date.now() + 30_000),
    });
    const wrongCode = await changePassword(m.cookie, {
      currentPassword: m.password,
      newPassword: 'brand-new-1',
      code: '000000',
    });
    expect(wrongPassword.status).toBe(400);
    expect(wrongCode.status).toBe(400);
    expect(await json(wrongCode)).toEqual(await json(wrongPassword));
    const ok = await changePassword(m.cookie, {
      currentPassword: m.password,
      newPassword: 'brand-new-1',
      code: totpCode(secret, Date.now() + 30_000),
    });
    expect(ok.status).toBe(200);
  });
});

describe.each(['atomic in-memory KV', 'real local Blobs server'])(
  'parallel guesses in one session (%s)',
  (backend) => {
    beforeAll(() => (backend.startsWith('atomic') ? useMemoryStores() : setStoreFactory(null)));
    afterAll(() => setStoreFactory(null));

    it('20 parallel wrong guesses in one session: at most 5 evaluated', async () => {
      const m = await member();
      vi.mocked(passwords.verifyPassword).mockClear();
      const res = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          changePassword(m.cookie, { currentPassword: `parallel ${i}`, newPassword: 'taken-over' }),
        ),
      );
      const statuses = res.map((r) => r.status);
      expect(statuses.filter((s) => s === 400).length).toBeLessThan(LIMITS.loginAccount.max);
      expect(statuses.every((s) => s === 400 || s === 429 || s === 401)).toBe(true);
      expect(statuses).toContain(429);
      expect(verifications()).toBeLessThanOrEqual(LIMITS.loginAccount.max);
      expect((await me(m.cookie)).status).toBe(401);
    });
  },
);

describe('two-factor: turning it off, new recovery codes', () => {
  it('25 wrong passwords on disable: the same answer whether or not the password is right, 429 and signed out after 5', async () => {
    const m = await member();
    const { secret } = await enrol(m);
    vi.mocked(passwords.verifyPassword).mockClear();
    const bodies: unknown[] = [];
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      // The 3rd guess is the right password (with a wrong code): it must look like the others.
      const res = await disable(m.cookie, { password: i === 2 ? m.password : `guess ${i}`, code: '123456' });
      statuses.push(res.status);
      if (res.status === 400) bodies.push(await json(res));
      if (i === LIMITS.loginAccount.max - 1) await expectLockedOut(res);
    }
    const max = LIMITS.loginAccount.max;
    expect(statuses.slice(0, max - 1)).toEqual(Array(max - 1).fill(400));
    expect(statuses[max - 1]).toBe(429);
    expect(statuses.slice(max)).toEqual(Array(25 - max).fill(401));
    for (const b of bodies) expect(b).toEqual(bodies[0]);
    expect(bodies[0]).toMatchObject({ error: REAUTH_MESSAGES.passwordOrCodeIncorrect });
    expect(verifications()).toBe(max);
    expect(await isEnrolled(m.id)).toBe(true);
    // A right password and a right code, in the window: still no.
    expect((await login(m.username, m.password)).status).toBe(429);
    expect(
      (await disable(m.cookie, { password: m.password, code: totpCode(secret, Date.now() + 30_000) })).status,
    ).toBe(401);
    expect(await isEnrolled(m.id)).toBe(true);
  });

  it('guesses on disable, new recovery codes and the sign-in form add up on one counter', async () => {
    const m = await member();
    const { secret } = await enrol(m);
    expect((await disable(m.cookie, { password: 'a', code: '111111' })).status).toBe(400);
    expect((await newCodes(m.cookie, { password: 'b', code: '111111' })).status).toBe(400);
    expect((await login(m.username, 'c')).status).toBe(401);
    expect((await login(m.username, 'd')).status).toBe(401);
    // The 5th failure, in a session: locked and signed out.
    await expectLockedOut(await newCodes(m.cookie, { password: m.password, code: '000000' }));
    expect((await me(m.cookie)).status).toBe(401);
    // Locked for the right password and code as well.
    expect((await login(m.username, m.password)).status).toBe(429);
    expect(totpCode(secret)).toMatch(/^\d{6}$/);
  });

  it('new recovery codes need the password and a code; the old codes stop working', async () => {
    const m = await member();
    const { secret, codes } = await enrol(m);
    const bad = await newCodes(m.cookie, { password: m.password });
    expect(bad.status).toBe(400);
    const res = await newCodes(m.cookie, { password: m.password, recoveryCode: codes[0] });
    expect(res.status).toBe(200);
    const fresh = (await json<{ recoveryCodes: string[]; status: { recoveryCodesLeft: number } }>(res))
      .recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => codes.includes(c))).toBe(false);
    // An old code no longer works (here, to turn two-factor off); a new one does.
    expect((await disable(m.cookie, { password: m.password, recoveryCode: codes[1] })).status).toBe(400);
    const off = await disable(m.cookie, { password: m.password, recoveryCode: fresh[0] });
    expect(off.status).toBe(200);
    expect(await isEnrolled(m.id)).toBe(false);
    expect(secret).toMatch(/^[A-Z2-7]+$/);
    const admin = await member('admin');
    const log = await json<{ entries: { kind: string; actorName: string }[] }>(
      await call(activityFn, '/api/admin/activity?pageSize=200&kind=auth.recovery_codes_new', {
        cookie: admin.cookie,
      }),
    );
    expect(log.entries.some((e) => e.actorName === m.username)).toBe(true);
  });
});

describe('two-factor: turning it on', () => {
  it('needs the current password: none or a wrong one is refused, and nothing is enabled', async () => {
    const m = await member();
    const setup = await json<{ secret: string }>(
      await call(twoFactorFn, '/api/auth/two-factor/setup', { method: 'POST', cookie: m.cookie }),
    );
    const none = await call(twoFactorFn, '/api/auth/two-factor/enable', {
      json: { code: totpCode(setup.secret) },
      cookie: m.cookie,
    });
    expect(none.status).toBe(400);
    const wrong = await call(twoFactorFn, '/api/auth/two-factor/enable', {
      json: { password: 'not mine', code: totpCode(setup.secret) },
      cookie: m.cookie,
    });
    expect(wrong.status).toBe(400);
    expect(await json(wrong)).toMatchObject({ error: REAUTH_MESSAGES.passwordIncorrect });
    expect(await isEnrolled(m.id)).toBe(false);
  });

  it('revokes every other session, not the caller (who gets a fresh cookie)', async () => {
    const m = await member();
    const otherBrowser = sessionCookie(await login(m.username, m.password));
    const callerBefore = m.cookie;
    expect((await me(otherBrowser)).status).toBe(200);
    await enrol(m);
    expect(m.cookie).not.toBe(callerBefore);
    expect((await me(m.cookie)).status).toBe(200);
    expect((await me(otherBrowser)).status).toBe(401);
    expect((await me(callerBefore)).status).toBe(401);
  });
});

describe("an admin's own second factor comes off only through Security", () => {
  it('user management refuses to reset the caller’s own factor; another admin still can', async () => {
    const boss = await member('admin');
    await enrol(boss);
    const own = await call(adminTwoFactorFn, `/api/admin/users/${boss.id}/two-factor`, {
      method: 'DELETE',
      cookie: boss.cookie,
    });
    expect(own.status).toBe(403);
    expect(await json(own)).toMatchObject({ error: TWO_FACTOR_MESSAGES.ownResetRefused });
    expect(await isEnrolled(boss.id)).toBe(true);
    expect((await me(boss.cookie)).status).toBe(200);

    const colleague = await member('admin');
    const reset = await call(adminTwoFactorFn, `/api/admin/users/${boss.id}/two-factor`, {
      method: 'DELETE',
      cookie: colleague.cookie,
    });
    expect(reset.status).toBe(200);
    expect(await isEnrolled(boss.id)).toBe(false);
  });

  it('Security refuses to turn it off while the policy requires it for admins', async () => {
    const boss = await member('admin');
    const { secret } = await enrol(boss);
    const put = (requireForAdmins: boolean) =>
      call(adminTwoFactorFn, '/api/admin/two-factor', {
        method: 'PUT',
        json: { requireForAdmins, requireForAllStaff: false },
        cookie: boss.cookie,
      });
    expect((await put(true)).status).toBe(200);
    try {
      const res = await disable(boss.cookie, {
        password: boss.password,
        code: totpCode(secret, Date.now() + 30_000),
      });
      expect(res.status).toBe(409);
      expect(await json(res)).toMatchObject({ error: TWO_FACTOR_MESSAGES.requiredCannotDisable });
      expect(await isEnrolled(boss.id)).toBe(true);
    } finally {
      expect((await put(false)).status).toBe(200);
    }
  });
});
