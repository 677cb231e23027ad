import argon2 from 'argon2';
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as loginFn from '../../netlify/functions/auth-login.mts';
import * as logoutFn from '../../netlify/functions/auth-logout.mts';
import * as meFn from '../../netlify/functions/auth-me.mts';
import { createSessionCookie, sessionCookieName } from '../../src/lib/server/auth/session.ts';
import { pendingSignInCookie, pendingSignInUser } from '../../src/lib/server/auth/two-factor.ts';
import { createUser, getUser, type StoredUser } from '../../src/lib/server/auth/users.ts';
import { resetEnv, sessionSecret } from '../../src/lib/server/env.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call, ORIGIN } from '../helpers/http.ts';

/**
 * Properties of sign-in and sessions that no other test would notice losing:
 * the equal work for unknown users, every claim check on the session and the
 * pending two-factor tokens, and the `__Host-` / Secure cookie on an https site.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
let user: StoredUser;
const password = 'correct horse battery staple';
let ipN = 0;
const nextIp = () => `192.0.2.${(ipN = (ipN % 250) + 1)}`;

beforeAll(async () => {
  blobs = await startBlobs();
  user = await createUser({
    username: 'claims-user',
    email: 'claims@example.org',
    password,
    role: 'editor',
    firstName: 'C',
    lastName: 'U',
  });
});
afterAll(() => blobs.stop());

describe('sign-in does the same hashing work for an unknown user (no timing oracle)', () => {
  afterEach(() => vi.restoreAllMocks());

  /** The argon2 parameters of a hash ($argon2id$v=19$m=..,t=..,p=..$). */
  const params = (hash: string) => hash.split('$').slice(1, 4).join('$');

  async function verifiesDuring(username: string, pw: string) {
    const verify = vi.spyOn(argon2, 'verify');
    const res = await call(loginFn, '/api/auth/login', { json: { username, password: pw }, ip: nextIp() });
    const hashes = verify.mock.calls.map(([hash]) => hash);
    verify.mockRestore();
    return { status: res.status, hashes };
  }

  it('an unknown name, a wrong password and an inactive account each cost exactly one argon2 verify with the same parameters', async () => {
    const stored = (await getUser(user.id))!;
    const unknown = await verifiesDuring('nobody-by-this-name', 'whatever-password');
    const wrong = await verifiesDuring('claims-user', 'not the password');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(wrong.hashes).toEqual([stored.passwordHash]);
    expect(unknown.hashes).toHaveLength(1);
    // The dummy hash is no cheaper than a real one: same algorithm, memory, time and parallelism.
    expect(params(unknown.hashes[0]!)).toBe(params(stored.passwordHash));
    expect(unknown.hashes[0]).not.toBe(stored.passwordHash);
  });
});

describe('session and pending two-factor tokens: every claim is checked', () => {
  type Claims = Record<string, unknown>;
  const now = () => Math.floor(Date.now() / 1000);
  const valid = (audience: string): Claims => ({
    ver: user.tokenVersion,
    sub: String(user.id),
    iss: new URL(ORIGIN).origin,
    aud: audience,
    iat: now(),
    exp: now() + 300,
  });

  async function mint(claims: Claims, alg = 'HS256', secret: Uint8Array = sessionSecret()): Promise<string> {
    return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(secret);
  }

  const without = (claims: Claims, name: string): Claims =>
    Object.fromEntries(Object.entries(claims).filter(([k]) => k !== name));

  /** Each token that must be refused, and why. */
  const refused = (audience: string): [string, () => Promise<string>][] => [
    ['another issuer', () => mint({ ...valid(audience), iss: 'https://evil.example' })],
    ['no issuer', () => mint(without(valid(audience), 'iss'))],
    [
      'another audience',
      () =>
        mint({
          ...valid(audience),
          aud: audience === 'campaign-admin' ? 'campaign-2fa-pending' : 'campaign-admin',
        }),
    ],
    ['no audience', () => mint(without(valid(audience), 'aud'))],
    ['no exp', () => mint(without(valid(audience), 'exp'))],
    ['expired', () => mint({ ...valid(audience), iat: now() - 600, exp: now() - 300 })],
    ['no iat', () => mint(without(valid(audience), 'iat'))],
    ['no sub', () => mint(without(valid(audience), 'sub'))],
    ['a sub that is not an id', () => mint({ ...valid(audience), sub: 'admin' })],
    ['another token version', () => mint({ ...valid(audience), ver: user.tokenVersion + 1 })],
    ['HS512', () => mint(valid(audience), 'HS512')],
    ['another secret', () => mint(valid(audience), 'HS256', new TextEncoder().encode('x'.repeat(64)))],
  ];

  const me = (cookie: string) => call(meFn, '/api/auth/me', { cookie });

  it('a well-formed session token is accepted (the control)', async () => {
    expect((await me(`session=${await mint(valid('campaign-admin'))}`)).status).toBe(200);
  });

  it.each(refused('campaign-admin').map(([name, make]) => [name, make] as const))(
    'a session token with %s is refused (401)',
    async (_name, make) => {
      expect((await me(`session=${await make()}`)).status).toBe(401);
    },
  );

  const pending = (token: string) =>
    pendingSignInUser(
      new Request(`${ORIGIN}/api/auth/two-factor`, { headers: { cookie: `twofactor=${token}` } }),
    );

  it('a well-formed pending two-factor token is accepted (the control)', async () => {
    expect((await pending(await mint(valid('campaign-2fa-pending')))).id).toBe(user.id);
  });

  it.each(refused('campaign-2fa-pending').map(([name, make]) => [name, make] as const))(
    'a pending two-factor token with %s is refused (401)',
    async (_name, make) => {
      await expect(pending(await make())).rejects.toMatchObject({ status: 401 });
    },
  );
});

describe('cookies on an https site: __Host- names and Secure', () => {
  let saved: string | undefined;
  // Its own account: signing out here moves the token version the claim tests above mint with.
  let cookieUser: StoredUser;
  beforeAll(async () => {
    saved = process.env.SITE_URL;
    cookieUser = await createUser({
      username: 'cookie-user',
      email: 'cookie@example.org',
      password,
      role: 'editor',
      firstName: 'C',
      lastName: 'K',
    });
  });
  afterEach(() => {
    process.env.SITE_URL = saved;
    resetEnv();
  });

  const attributes = (setCookie: string) => setCookie.split(';').map((p) => p.trim().toLowerCase());

  it('https: sign-in sets __Host-session with Secure, Path=/ and no Domain; it alone signs in; logout clears it the same way', async () => {
    process.env.SITE_URL = 'https://campaign.example';
    resetEnv();
    const res = await call(loginFn, '/api/auth/login', {
      json: { username: 'cookie-user', password },
      ip: nextIp(),
    });
    expect(res.status).toBe(200);
    const set = res.headers.getSetCookie().find((c) => c.startsWith('__Host-session='));
    expect(set).toBeDefined();
    const attrs = attributes(set!);
    expect(attrs).toContain('secure');
    expect(attrs).toContain('path=/');
    expect(attrs).toContain('httponly');
    expect(attrs.some((a) => a.startsWith('domain='))).toBe(false);
    const pair = set!.split(';')[0]!;
    expect((await call(meFn, '/api/auth/me', { cookie: pair })).status).toBe(200);
    // The same token under the http name is not a session here.
    expect(
      (await call(meFn, '/api/auth/me', { cookie: pair.replace('__Host-session', 'session') })).status,
    ).toBe(401);
    const out = await call(logoutFn, '/api/auth/logout', { method: 'POST', cookie: pair });
    const cleared = out.headers.getSetCookie().find((c) => c.startsWith('__Host-session='));
    expect(cleared).toBeDefined();
    expect(attributes(cleared!)).toEqual(expect.arrayContaining(['secure', 'path=/', 'max-age=0']));
    expect(sessionCookieName()).toBe('__Host-session');
    const twoFactor = await pendingSignInCookie(cookieUser);
    expect(twoFactor.startsWith('__Host-twofactor=')).toBe(true);
    expect(attributes(twoFactor)).toContain('secure');
  });

  it('http (local): plain names, no Secure (a browser would drop a Secure cookie over http)', async () => {
    process.env.SITE_URL = 'http://localhost:4321';
    resetEnv();
    const session = await createSessionCookie(cookieUser);
    expect(session.startsWith('session=')).toBe(true);
    expect(attributes(session)).not.toContain('secure');
    const twoFactor = await pendingSignInCookie(cookieUser);
    expect(twoFactor.startsWith('twofactor=')).toBe(true);
    expect(attributes(twoFactor)).not.toContain('secure');
  });
});
