import { useId, useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { ApiError } from '../../lib/client/api.ts';
import { requestTemporaryPassword } from '../api/forgot-password.ts';
import { nonEmpty } from '../forms/errors.ts';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { TextField } from '../components/Field.tsx';
import { useStore } from '@nanostores/react';
import { $awaitingSecondFactor } from '../../lib/client/auth-store.ts';
import { useAuth } from './AuthProvider.tsx';
import { SecondFactorForm } from './SecondFactorForm.tsx';
import { SubmitButton } from '../../islands/form-kit/SubmitButton.tsx';

export interface LoginFormProps {
  /** Spec section 2: 'Register here' shows only when a register handler is supplied. */
  onRegister?: () => void;
}

export function LoginForm({ onRegister }: LoginFormProps) {
  const [mode, setMode] = useState<'login' | 'forgot'>('login');
  const awaitingCode = useStore($awaitingSecondFactor);
  if (awaitingCode) return <SecondFactorForm />;
  return mode === 'login' ? (
    <SignIn onForgot={() => setMode('forgot')} onRegister={onRegister} />
  ) : (
    <Forgot onBack={() => setMode('login')} />
  );
}

function SignIn({ onForgot, onRegister }: { onForgot: () => void; onRegister?: () => void }) {
  const { login } = useAuth();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const headingId = useId();

  async function onSubmit(e: SyntheticEvent) {
    e.preventDefault();
    if (!username.trim() || !password) {
      toast.error('Please fill in all fields');
      return;
    }
    setBusy(true);
    try {
      await login(username.trim(), password);
    } catch {
      // The provider has shown 'Login failed'; the form stays filled for another try.
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="auth-card" aria-labelledby={headingId}>
      <h2 id={headingId} className="auth-card__title">
        Campaign Staff Login
      </h2>
      <p className="auth-card__lead">Sign in to manage the campaign website.</p>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="stack">
        <TextField
          id="login-username"
          label="Username or Email"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
        <div className="field">
          <label htmlFor="login-password" className="field__label">
            Password
          </label>
          <PasswordInput
            id="login-password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <SubmitButton busy={busy} label="Sign In" busyLabel="Signing In..." />
      </form>
      <div className="auth-card__links">
        <button type="button" className="link-button" onClick={onForgot}>
          Forgot your password?
        </button>
        {onRegister ? (
          <p>
            Don't have an account?{' '}
            <button type="button" className="link-button" onClick={onRegister}>
              Register here
            </button>
          </p>
        ) : null}
      </div>
    </section>
  );
}

function Forgot({ onBack }: { onBack: () => void }) {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const headingId = useId();

  async function onSubmit(e: SyntheticEvent) {
    e.preventDefault();
    if (!email.trim()) {
      toast.error('Please enter your email address');
      return;
    }
    setBusy(true);
    try {
      const res = await requestTemporaryPassword(email.trim());
      if (res?.success) {
        toast.success('Temporary Password Sent', { description: res.message });
        onBack();
      } else {
        toast.error('Error', { description: nonEmpty(res?.error) ?? 'Failed to send temporary password' });
      }
    } catch (err) {
      const serverError = err instanceof ApiError ? err.serverMessage : null;
      toast.error('Error', { description: nonEmpty(serverError) ?? 'Failed to send temporary password' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="auth-card" aria-labelledby={headingId}>
      <h2 id={headingId} className="auth-card__title">
        Forgot your password?
      </h2>
      <p className="auth-card__lead">Enter your email address and we'll send you a temporary password.</p>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="stack">
        <TextField
          id="forgot-email"
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <SubmitButton busy={busy} label="Send Temporary Password" busyLabel="Sending..." />
      </form>
      <div className="auth-card__links">
        <button type="button" className="link-button" onClick={onBack}>
          Back to Login
        </button>
      </div>
    </section>
  );
}
