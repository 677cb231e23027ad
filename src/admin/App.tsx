import { useEffect, useState } from 'react';
import { SWRConfig } from 'swr';
import Toaster from '../islands/Toaster.tsx';
import { onAuthCleared } from '../lib/client/auth-store.ts';
import { hasPermission } from '../lib/schemas/permissions.ts';
import { SWR_DEFAULTS } from './api/shared.ts';
import { AuthProvider, useAuth } from './auth/AuthProvider.tsx';
import { ChangePasswordForm } from './auth/ChangePasswordForm.tsx';
import { LoginForm } from './auth/LoginForm.tsx';
import { Dashboard } from './Dashboard.tsx';
import './admin.css';

export interface AppProps {
  /** Shows 'Register here' on the login form when supplied (spec section 2). The site supplies none. */
  onRegister?: () => void;
}

/**
 * The staff dashboard at /admin, mounted with client:only="react" so none of
 * it reaches a public page. Sequence (spec section 4): loading, login,
 * forced password change, access denied, dashboard.
 */
export default function App({ onRegister }: AppProps) {
  // A new swr cache per session: logout (or an expired session) drops every cached response.
  const [session, setSession] = useState(0);
  useEffect(() => onAuthCleared(() => setSession((s) => s + 1)), []);

  return (
    <div className="admin-app">
      <AuthProvider>
        <SWRConfig key={session} value={{ ...SWR_DEFAULTS, provider: () => new Map() }}>
          <Gate onRegister={onRegister} />
        </SWRConfig>
      </AuthProvider>
      <Toaster position="top-center" />
    </div>
  );
}

function Gate({ onRegister }: AppProps) {
  const { status, user } = useAuth();
  if (status === 'loading') {
    return (
      <div className="admin-loading" role="status">
        <span className="spinner" aria-hidden="true" />
        Loading…
      </div>
    );
  }
  if (!user) return <LoginForm onRegister={onRegister} />;
  if (user.mustChangePassword) return <ChangePasswordForm />;
  if (!hasPermission(user, 'view_admin')) {
    return (
      <section className="auth-card" aria-labelledby="denied-heading">
        <h1 id="denied-heading" className="auth-card__title">
          Access Denied
        </h1>
        <p className="auth-card__lead">You don't have permission to access this area.</p>
      </section>
    );
  }
  return <Dashboard user={user} />;
}
