import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { toast } from 'sonner';
import { errorMessageOf } from '../../lib/client/api.ts';
import {
  $authStatus,
  $user,
  login as storeLogin,
  verifySecondFactor as storeVerify,
  logout as storeLogout,
  refresh as storeRefresh,
  type AuthStatus,
} from '../../lib/client/auth-store.ts';
import type { SecondFactorInput } from '../../lib/schemas/two-factor.ts';
import { INVALID_CREDENTIALS, type PublicUser } from '../../lib/schemas/user.ts';
import { clearDrafts } from '../forms/use-draft.ts';

export interface AuthContextValue {
  user: PublicUser | null;
  status: AuthStatus;
  /** Toasts 'Welcome back!' or 'Login failed', and rethrows a failure (spec section 8). */
  login: (username: string, password: string) => Promise<void>;
  /** The code step after the password (two-factor on): toasts like login. */
  verify: (input: SecondFactorInput) => Promise<void>;
  /** Clears the user and every cached response whatever the server says. */
  logout: () => Promise<void>;
  refresh: (force?: boolean) => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export const LOGIN_FAILED = 'Login failed';

export function AuthProvider({ children }: { children: ReactNode }) {
  const user = useStore($user);
  const status = useStore($authStatus);

  useEffect(() => {
    storeRefresh().catch(() => undefined);
    // Coming back through the back/forward cache: ask the server again instead of trusting the old page.
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) storeRefresh(true).catch(() => undefined);
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      status,
      async login(username, password) {
        try {
          // null: the password was right and a code is needed next (no welcome yet).
          if (await storeLogin(username, password))
            toast.success('Welcome back!', { description: 'Successfully logged in.' });
        } catch (err) {
          toast.error(LOGIN_FAILED, { description: errorMessageOf(err, INVALID_CREDENTIALS) });
          throw err;
        }
      },
      async verify(input) {
        try {
          await storeVerify(input);
          toast.success('Welcome back!', { description: 'Successfully logged in.' });
        } catch (err) {
          toast.error(LOGIN_FAILED, { description: errorMessageOf(err, INVALID_CREDENTIALS) });
          throw err;
        }
      },
      async logout() {
        const ok = await storeLogout();
        clearDrafts(); // unsaved forms stay with their member, not the next person at this computer
        if (ok) toast.success('Logged out successfully');
      },
      async refresh(force) {
        await storeRefresh(force);
      },
    }),
    [user, status],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used within an AuthProvider');
  return ctx;
}
