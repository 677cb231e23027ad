import { useEffect, useState, type ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { createPortal } from 'react-dom';
import Toaster from '../islands/Toaster.tsx';
import { useStore } from '@nanostores/react';
import { $mustEnrolTwoFactor, onAuthCleared, type AuthStatus } from '../lib/client/auth-store.ts';
import type { LaunchItem } from '../lib/schemas/launch-check.ts';
import type { PublicUser } from '../lib/schemas/user.ts';
import { hasPermission } from '../lib/schemas/permissions.ts';
import { SWR_DEFAULTS } from './api/shared.ts';
import { AuthProvider, useAuth } from './auth/AuthProvider.tsx';
import { ChangePasswordForm } from './auth/ChangePasswordForm.tsx';
import { LoginForm } from './auth/LoginForm.tsx';
import { TwoFactorSetup } from './auth/TwoFactorSetup.tsx';
import { Dashboard } from './Dashboard.tsx';
import { adminCopy } from '../content/pages.ts';
import './admin.css';

export interface AppProps {
  /** Shows 'Register here' on the login form when supplied (spec section 2). The site supplies none. */
  onRegister?: () => void;
  /** Placeholders still in the site's content, found at build (admin.astro; docs/decisions/085-launch-gate.md). */
  launchContent?: LaunchItem[];
}

/**
 * The staff dashboard at /admin, mounted with client:only="react" so none of
 * it reaches a public page. Sequence (spec section 4): loading, login,
 * forced password change, access denied, dashboard.
 */
export default function App({ onRegister, launchContent = [] }: AppProps) {
  // A new swr cache per session: logout (or an expired session) drops every cached response.
  const [session, setSession] = useState(0);
  useEffect(() => onAuthCleared(() => setSession((s) => s + 1)), []);

  return (
    <div className="admin-app">
      <AuthProvider>
        <SWRConfig key={session} value={{ ...SWR_DEFAULTS, provider: () => new Map() }}>
          <Gate onRegister={onRegister} launchContent={launchContent} />
        </SWRConfig>
      </AuthProvider>
      {/* At the end of <body>, outside the app: a modal dialog makes the rest of the page inert, never the toasts. */}
      {createPortal(
        <div className="admin-app" data-toast-host="">
          <Toaster position="top-center" />
        </div>,
        document.body,
      )}
    </div>
  );
}

/** Sign-in, password change, access denied and loading share the page heading (as the static fallback does). */
function AuthShell({ children }: { children: ReactNode }) {
  return (
    <div className="auth-shell">
      <h1 className="auth-shell__title">{adminCopy.heading}</h1>
      {children}
    </div>
  );
}

function Gate({ onRegister, launchContent = [] }: AppProps) {
  const { status, user } = useAuth();
  const mustEnrol = useStore($mustEnrolTwoFactor);
  if (user && !user.mustChangePassword && mustEnrol)
    return (
      <AuthShell>
        <EnrolmentRequired />
      </AuthShell>
    );
  if (user && !user.mustChangePassword && hasPermission(user, 'view_admin'))
    return <Dashboard user={user} launchContent={launchContent} />;
  return <AuthShell>{gateContent(status, user, onRegister)}</AuthShell>;
}

/** The campaign requires two-factor for this member, who has not set it up yet. */
function EnrolmentRequired() {
  const { logout } = useAuth();
  return (
    <section className="auth-card auth-card--wide" aria-labelledby="enrol-heading">
      <h2 id="enrol-heading" className="auth-card__title">
        Set up two-factor sign-in
      </h2>
      <p className="auth-card__lead">
        Your campaign requires two-factor sign-in for your account. Set it up now to continue to the
        dashboard.
      </p>
      <TwoFactorSetup onDone={() => undefined} />
      <div className="auth-card__links">
        <button type="button" className="link-button" onClick={() => void logout()}>
          Logout
        </button>
      </div>
    </section>
  );
}

function gateContent(status: AuthStatus, user: PublicUser | null, onRegister: AppProps['onRegister']) {
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
  return (
    <section className="auth-card" aria-labelledby="denied-heading">
      <h2 id="denied-heading" className="auth-card__title">
        Access Denied
      </h2>
      <p className="auth-card__lead">You don't have permission to access this area.</p>
    </section>
  );
}
