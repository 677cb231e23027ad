import { atom, computed } from 'nanostores';
import { ApiError, apiRequest } from './api.ts';
import type { PublicUser } from '../schemas/user.ts';
import type { Role } from '../schemas/permissions.ts';
import type { SecondFactorInput, TwoFactorStatus } from '../schemas/two-factor.ts';

/**
 * The signed-in staff user (spec section 4): loading -> unauthenticated |
 * authenticated. Framework-free so it is unit-tested without React; the admin
 * app reads it through `AuthProvider` / `useAuth`.
 */
export type AuthStatus = 'loading' | 'unauthenticated' | 'authenticated';

export interface MeResponse {
  role: Role;
  user: PublicUser;
  /** The user's second factor and whether the campaign requires one. */
  twoFactor?: TwoFactorStatus;
}

/** Spec section 9: the current user stays fresh for 5 minutes. */
export const CURRENT_USER_FRESH_MS = 5 * 60 * 1000;
export const CURRENT_USER_URL = '/api/auth/me';

export const $user = atom<PublicUser | null>(null);
export const $authStatus = atom<AuthStatus>('loading');
/** True when the user signed in with a temporary password and must pick a new one first. */
export const $mustChangePassword = computed($user, (u) => Boolean(u?.mustChangePassword));
/** The signed-in user's second factor (from /api/auth/me). */
export const $twoFactor = atom<TwoFactorStatus | null>(null);
/** The password was accepted and the sign-in waits for a code (docs/decisions/160-staff-sign-in-and-sessions.md). */
export const $awaitingSecondFactor = atom(false);
/** The campaign requires two-factor for this user and they have not set it up: show enrolment first. */
export const $mustEnrolTwoFactor = computed($twoFactor, (t) => Boolean(t?.required && !t.enabled));

let fetchedAt = 0;
let inFlight: Promise<PublicUser | null> | null = null;
const clearListeners = new Set<() => void>();

function setUser(user: PublicUser | null): void {
  if (!user) $twoFactor.set(null);
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
      $twoFactor.set(me?.twoFactor ?? null);
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

/**
 * POST /api/auth/login; sets the user, then refetches the current user. Rethrows failures.
 * With two-factor on, the answer is `{ twoFactorRequired: true }`: nobody is
 * signed in yet, $awaitingSecondFactor is set and null is returned.
 */
export async function login(username: string, password: string): Promise<PublicUser | null> {
  const res = await apiRequest<MeResponse & { twoFactorRequired?: boolean }>('POST', '/api/auth/login', {
    username,
    password,
  });
  if (res?.twoFactorRequired) {
    $awaitingSecondFactor.set(true);
    return null;
  }
  return signedIn(res);
}

/** POST /api/auth/two-factor/verify: the code step; signs in on success. Rethrows failures. */
export async function verifySecondFactor(input: SecondFactorInput): Promise<PublicUser | null> {
  try {
    const res = await apiRequest<MeResponse>('POST', '/api/auth/two-factor/verify', input);
    $awaitingSecondFactor.set(false);
    return await signedIn(res);
  } catch (err) {
    // The 5-minute window is over: back to the password.
    if (err instanceof ApiError && err.status === 401 && err.body.includes('twoFactorExpired'))
      $awaitingSecondFactor.set(false);
    throw err;
  }
}

/** Leave the code step and go back to the password form. */
export function cancelSecondFactor(): void {
  $awaitingSecondFactor.set(false);
}

async function signedIn(res: MeResponse | null): Promise<PublicUser | null> {
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

/** After enrolling or turning two-factor off. */
export function twoFactorChanged(status: TwoFactorStatus): void {
  $twoFactor.set(status);
}

/** After a successful password change the server returns the updated user. */
export function passwordChanged(user: PublicUser): void {
  fetchedAt = Date.now();
  setUser(user);
}

/**
 * Inspect a failed call: a 403 with `mustChangePassword: true` sends the user
 * to the change-password form; a 401, or a 429 with `signedOut: true`, means the session is gone. Returns true
 * when the error was one of these and has been handled.
 */
export function handleAuthError(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.status === 403) {
    try {
      const body = JSON.parse(err.body) as { mustChangePassword?: unknown };
      if ((body as { twoFactorSetupRequired?: unknown }).twoFactorSetupRequired === true) {
        $twoFactor.set({ enabled: false, recoveryCodesLeft: 0, required: true });
        return true;
      }
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
  // Too many password attempts inside a session: the server signed the account out
  // (docs/decisions/160-staff-sign-in-and-sessions.md); the caller still shows the server's message.
  if (err.status === 429 && $authStatus.get() === 'authenticated') {
    try {
      if ((JSON.parse(err.body) as { signedOut?: unknown }).signedOut === true) {
        clearSession();
        return true;
      }
    } catch {
      /* not JSON: an ordinary 429 */
    }
  }
  return false;
}

/** Test hook: back to the initial state. */
export function resetAuthStore(): void {
  fetchedAt = 0;
  inFlight = null;
  $twoFactor.set(null);
  $awaitingSecondFactor.set(false);
  $user.set(null);
  $authStatus.set('loading');
}
