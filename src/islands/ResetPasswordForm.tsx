import { useEffect, useId, useState, type SyntheticEvent } from 'react';
import { toast } from '../lib/client/toast';
import { resetPasswordProblem, RESET_PASSWORD_MIN } from '../lib/client/validation.ts';
import { PUBLIC_FORMS } from '../lib/schemas/public-forms.ts';
import { FieldRow } from './form-kit/Field.tsx';
import '../styles/islands.css';
import { SubmitButton } from './form-kit/SubmitButton.tsx';

/** How long a toast stays readable before the redirect to /admin. */
const REDIRECT_DELAY_MS = 1500;

function PasswordField({
  idBase,
  name,
  label,
  value,
  onChange,
  autoComplete,
}: {
  idBase: string;
  name: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  autoComplete: string;
}) {
  const [shown, setShown] = useState(false);
  return (
    <FieldRow field={{ idBase, name, label }}>
      {(control) => (
        <div className="password-input">
          <input
            {...control}
            name={name}
            type={shown ? 'text' : 'password'}
            autoComplete={autoComplete}
            required
            minLength={RESET_PASSWORD_MIN}
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
          <button
            type="button"
            className="password-toggle"
            aria-pressed={shown}
            aria-controls={control.id}
            onClick={() => setShown((s) => !s)}
          >
            {shown ? 'Hide' : 'Show'}
            <span className="visually-hidden"> {label.toLowerCase()}</span>
          </button>
        </div>
      )}
    </FieldRow>
  );
}

/**
 * Reset password (spec sections 2, 4, 5, 8). The token comes from the query
 * string; without one: 'Invalid Reset Link' and back to /admin. Checks run in
 * the spec's order before anything is sent.
 */
export default function ResetPasswordForm() {
  const id = useId();
  const [token, setToken] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    const t = new URLSearchParams(location.search).get('token');
    if (!t) {
      toast.error('Invalid Reset Link', {
        description: 'This password reset link is invalid. Please request a new one.',
      });
      const timer = window.setTimeout(() => location.assign('/admin'), REDIRECT_DELAY_MS);
      return () => window.clearTimeout(timer);
    }
    setToken(t);
    // Keep the token out of the address bar, history and screenshots once read.
    history.replaceState(history.state, '', location.pathname);
  }, []);

  async function onSubmit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = resetPasswordProblem(password, confirm);
    if (problem) {
      toast.error(problem);
      return;
    }
    setSubmitting(true);
    try {
      const res = await fetch(PUBLIC_FORMS['reset-password'].endpoint, {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token, password }),
      });
      const data = (await res.json().catch(() => ({}))) as { success?: boolean; error?: string };
      if (res.ok && data.success) {
        toast.success('Password Reset Successful', {
          description: 'Your password has been updated. You can now log in with your new password.',
        });
        window.setTimeout(() => location.assign('/admin'), REDIRECT_DELAY_MS);
        return; // stay busy until the redirect
      }
      toast.error('Reset Failed', { description: data.error || 'Failed to reset password' });
    } catch {
      toast.error('Error', { description: 'Failed to reset password' });
    }
    setSubmitting(false);
  }

  return (
    <form
      className="form-card auth-card"
      method="post"
      action={PUBLIC_FORMS['reset-password'].endpoint}
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-label="Reset password"
    >
      {/* The token is read from the address after hydration; until then the button stays disabled. */}
      <input type="hidden" name="token" value={token ?? ''} />
      <p>Use at least {RESET_PASSWORD_MIN} characters.</p>
      <PasswordField
        idBase={id}
        name="password"
        label="New Password"
        value={password}
        onChange={setPassword}
        autoComplete="new-password"
      />
      <PasswordField
        idBase={id}
        name="confirmPassword"
        label="Confirm New Password"
        value={confirm}
        onChange={setConfirm}
        autoComplete="new-password"
      />
      <SubmitButton
        busy={submitting}
        label="Reset Password"
        busyLabel="Resetting Password..."
        disabled={token === null}
      />
    </form>
  );
}
