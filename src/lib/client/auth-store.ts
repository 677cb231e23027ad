import { atom, computed } from 'nanostores';
import { ApiError, apiRequest } from './api.ts';
import type { PublicUser } from '../schemas/user.ts';
import type { Role } from '../schemas/permissions.ts';

/**
 * The signed-in staff user (spec section 4): loading -> unauthenticated |
 * authenticated. Framework-free so it is unit-tested without React; the admin
 * app reads it through `AuthProvider` / `useAuth`.
 */
export type AuthStatus = 'loading' | 'unauthenticated' | 'authenticated';

export interface MeResponse {
  role: Role;
  user: PublicUser;
}

/** Spec section 9: the current user stays fresh for 5 minutes. */
export const CURRENT_USER_FRESH_MS = 5 * 60 * 1000;
export const CURRENT_USER_URL = '/api/auth/me';

export const $user = atom<PublicUser | null>(null);
export const $authStatus = atom<AuthStatus>('loading');
/** True when the user signed in with a temporary password and must pick a new one first. */
export const $mustChangePassword = computed($user, (u) => Boolean(u?.mustChangePassword));

let fetchedAt = 0;
let inFlight: Promise<PublicUser | null> | null = null;
const clearListeners = new Set<() => void>();

function setUser(user: PublicUser | null): void {
  $user.set(user);
  $authStatus.set(user ? 'authenticated' : 'unauthenticated');
}

/** Listen for "forget everything" (logout, expired session): the admin app clears its swr cache. */
export function onAuthCleared(listener: () => void): () => void {
  clearListeners.add(listener);
  return () => clearListeners.delete(listener);
}

function clearSession(): void {
  fetchedAt = 0;
  setUser(null);
  for (const listener of clearListeners) listener();
}

/**
 * Fetch GET /api/auth/me (no retry). A 401 means signed out. Skipped while the
 * last answer is younger than 5 minutes unless `force`. Concurrent calls share one request.
 */
export async function refresh(force = false): Promise<PublicUser | null> {
  if (!force && fetchedAt && Date.now() - fetchedAt < CURRENT_USER_FRESH_MS) return $user.get();
  if (inFlight) return inFlight;
  inFlight = (async () => {
    try {
      const me = await apiRequest<MeResponse>('GET', CURRENT_USER_URL);
      fetchedAt = Date.now();
      const user = me?.user ? { ...me.user, role: me.role ?? me.user.role } : null;
      setUser(user);
      return user;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        fetchedAt = Date.now();
        setUser(null);
        return null;
      }
      // Network or server fault: keep a known user; an unknown one is signed out.
      if ($authStatus.get() === 'loading') setUser(null);
      throw err;
    } finally {
      inFlight = null;
    }
  })();
  return inFlight;
}

/** POST /api/auth/login; sets the user, then refetches the current user. Rethrows failures. */
export async function login(username: string, password: string): Promise<PublicUser | null> {
  const res = await apiRequest<MeResponse>('POST', '/api/auth/login', { username, password });
  if (res?.user) setUser({ ...res.user, role: res.role ?? res.user.role });
  fetchedAt = 0;
  try {
    return await refresh(true);
  } catch {
    return $user.get();
  }
}

/**
 * POST /api/auth/logout. Successful or not, the user and every cached
 * response are cleared (spec section 4). Resolves true when the server agreed.
 */
export async function logout(): Promise<boolean> {
  try {
    await apiRequest('POST', '/api/auth/logout');
    return true;
  } catch {
    return false;
  } finally {
    clearSession();
  }
}

/** After a successful password change the server returns the updated user. */
export function passwordChanged(user: PublicUser): void {
  fetchedAt = Date.now();
  setUser(user);
}

/**
 * Inspect a failed call: a 403 with `mustChangePassword: true` sends the user
 * to the change-password form; a 401 means the session is gone. Returns true
 * when the error was one of these and has been handled.
 */
export function handleAuthError(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.status === 403) {
    try {
      const body = JSON.parse(err.body) as { mustChangePassword?: unknown };
      if (body.mustChangePassword === true) {
        const user = $user.get();
        if (user && !user.mustChangePassword) $user.set({ ...user, mustChangePassword: true });
        return true;
      }
    } catch {
      /* not JSON: an ordinary 403 */
    }
    return false;
  }
  if (err.status === 401 && $authStatus.get() === 'authenticated') {
    clearSession();
    return true;
  }
  return false;
}

/** Test hook: back to the initial state. */
export function resetAuthStore(): void {
  fetchedAt = 0;
  inFlight = null;
  $user.set(null);
  $authStatus.set('loading');
}
