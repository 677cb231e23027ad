import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  $authStatus,
  $mustChangePassword,
  $user,
  handleAuthError,
  login,
  logout,
  onAuthCleared,
  passwordChanged,
  refresh,
  resetAuthStore,
} from '../../src/lib/client/auth-store.ts';
import { ApiError } from '../../src/lib/client/api.ts';
import type { PublicUser } from '../../src/lib/schemas/user.ts';

const alice: PublicUser = {
  id: 1,
  username: 'alice',
  email: 'alice@example.com',
  role: 'editor',
  firstName: 'Alice',
  lastName: 'Ng',
  isActive: true,
  lastLogin: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  mustChangePassword: false,
};

interface Reply {
  status: number;
  body?: unknown;
}
let replies: Record<string, Reply[]>;
let calls: { method: string; url: string; body?: string }[];

function queue(key: string, ...r: Reply[]) {
  (replies[key] ??= []).push(...r);
}

beforeEach(() => {
  resetAuthStore();
  replies = {};
  calls = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    const method = init.method ?? 'GET';
    calls.push({ method, url, body: init.body as string | undefined });
    const next = replies[`${method} ${url}`]?.shift();
    if (!next) return Promise.reject(new TypeError('Failed to fetch'));
    const text = next.body === undefined ? '' : JSON.stringify(next.body);
    return Promise.resolve(new Response(text, { status: next.status }));
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('auth store', () => {
  it('starts loading, then authenticated when /api/auth/me answers a user', async () => {
    expect($authStatus.get()).toBe('loading');
    queue('GET /api/auth/me', { status: 200, body: { role: 'editor', user: alice } });
    await refresh();
    expect($authStatus.get()).toBe('authenticated');
    expect($user.get()?.username).toBe('alice');
  });

  it('becomes unauthenticated on 401', async () => {
    queue('GET /api/auth/me', { status: 401, body: { error: 'Unauthorized' } });
    await expect(refresh()).resolves.toBeNull();
    expect($authStatus.get()).toBe('unauthenticated');
  });

  it('keeps the current user fresh for 5 minutes, and forced refresh refetches', async () => {
    queue('GET /api/auth/me', { status: 200, body: { role: 'editor', user: alice } });
    await refresh();
    await refresh();
    expect(calls).toHaveLength(1);
    queue('GET /api/auth/me', { status: 200, body: { role: 'editor', user: alice } });
    await refresh(true);
    expect(calls).toHaveLength(2);
  });

  it('shares one request between concurrent refreshes and does not retry', async () => {
    queue('GET /api/auth/me', { status: 500, body: { error: 'x' } });
    const results = await Promise.allSettled([refresh(), refresh()]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(calls).toHaveLength(1);
    expect($authStatus.get()).toBe('unauthenticated');
  });

  it('login sets the user and refetches the current user', async () => {
    queue('GET /api/auth/me', { status: 401 });
    await refresh();
    queue('POST /api/auth/login', { status: 200, body: { role: 'editor', user: alice } });
    queue('GET /api/auth/me', { status: 200, body: { role: 'editor', user: alice } });
    await login('alice', 'pw123456');
    expect($authStatus.get()).toBe('authenticated');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /api/auth/me',
      'POST /api/auth/login',
      'GET /api/auth/me',
    ]);
    expect(JSON.parse(calls[1]!.body!)).toEqual({ username: 'alice', password: 'pw123456' });
  });

  it('login failure rethrows the ApiError and leaves the user signed out', async () => {
    queue('GET /api/auth/me', { status: 401 });
    await refresh();
    queue('POST /api/auth/login', { status: 401, body: { error: 'Invalid credentials' } });
    const err = await login('alice', 'wrong').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).serverMessage).toBe('Invalid credentials');
    expect($authStatus.get()).toBe('unauthenticated');
  });

  it('logout clears the user and notifies listeners whether or not the server answers', async () => {
    const cleared = vi.fn();
    const off = onAuthCleared(cleared);
    for (const reply of [{ status: 200, body: { success: true } }, null]) {
      queue('GET /api/auth/me', { status: 200, body: { role: 'editor', user: alice } });
      await refresh(true);
      if (reply) queue('POST /api/auth/logout', reply);
      const ok = await logout();
      expect(ok).toBe(Boolean(reply));
      expect($user.get()).toBeNull();
      expect($authStatus.get()).toBe('unauthenticated');
    }
    expect(cleared).toHaveBeenCalledTimes(2);
    off();
  });

  it('a 403 with mustChangePassword forces the password change; passwordChanged lifts it', async () => {
    queue('GET /api/auth/me', { status: 200, body: { role: 'editor', user: alice } });
    await refresh();
    expect($mustChangePassword.get()).toBe(false);
    const forced = new ApiError(
      403,
      JSON.stringify({ error: 'Change your password', mustChangePassword: true }),
      'Forbidden',
    );
    expect(handleAuthError(forced)).toBe(true);
    expect($mustChangePassword.get()).toBe(true);
    expect(handleAuthError(new ApiError(403, '{"error":"Forbidden"}', 'Forbidden'))).toBe(false);
    passwordChanged({ ...alice, mustChangePassword: false });
    expect($mustChangePassword.get()).toBe(false);
  });

  it('a 401 from any call while signed in signs the user out', async () => {
    queue('GET /api/auth/me', { status: 200, body: { role: 'editor', user: alice } });
    await refresh();
    expect(handleAuthError(new ApiError(401, '', 'Unauthorized'))).toBe(true);
    expect($authStatus.get()).toBe('unauthenticated');
  });

  it('a 429 that signed the account out (too many password attempts) signs the user out; another 429 does not', async () => {
    queue('GET /api/auth/me', { status: 200, body: { role: 'editor', user: alice } });
    await refresh();
    expect(handleAuthError(new ApiError(429, '{"error":"Too many attempts."}', 'Too Many Requests'))).toBe(
      false,
    );
    expect($authStatus.get()).toBe('authenticated');
    const locked = new ApiError(429, '{"error":"Too many attempts.","signedOut":true}', 'Too Many Requests');
    expect(handleAuthError(locked)).toBe(true);
    expect($authStatus.get()).toBe('unauthenticated');
  });
});
