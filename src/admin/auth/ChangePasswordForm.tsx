import { useId, useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { messageOf } from '../../lib/client/api.ts';
import { PASSWORD_MIN } from '../../lib/schemas/fields.ts';
import { changePassword } from '../api/change-password.ts';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { useAuth } from './AuthProvider.tsx';
import { NewPasswordFields } from './NewPasswordFields.tsx';
import { SubmitButton } from '../../islands/form-kit/SubmitButton.tsx';

/** Checked in the order of spec section 5 (reset password): filled, long enough, matching. */
export function changePasswordProblem(current: string, next: string, confirm: string): string | null {
  if (!current || !next || !confirm) return 'Please fill in all fields';
  if (next.length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters`;
  if (next !== confirm) return 'Passwords do not match';
  return null;
}

/** Shown before anything else to a user who signed in with a temporary password. */
export function ChangePasswordForm() {
  const { user, logout } = useAuth();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const headingId = useId();

  async function onSubmit(e: SyntheticEvent) {
    e.preventDefault();
    const problem = changePasswordProblem(current, next, confirm);
    if (problem) {
      toast.error(problem);
      return;
    }
    setBusy(true);
    try {
      await changePassword({ currentPassword: current, newPassword: next });
      toast.success('Password changed', { description: 'Your new password is set.' });
    } catch (err) {
      toast.error('Password change failed', { description: messageOf(err, 'Failed to change password') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="auth-card" aria-labelledby={headingId}>
      <h2 id={headingId} className="auth-card__title">
        Change Your Password
      </h2>
      <p className="auth-card__lead">
        {user ? `${user.username}, you` : 'You'} signed in with a temporary password. Choose a new password to
        continue.
      </p>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="stack">
        <div className="field">
          <label htmlFor="cp-current" className="field__label">
            Current or temporary password
          </label>
          <PasswordInput
            id="cp-current"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </div>
        <NewPasswordFields
          idPrefix="cp"
          next={next}
          confirm={confirm}
          onNext={setNext}
          onConfirm={setConfirm}
        />
        <SubmitButton busy={busy} label="Change Password" busyLabel="Changing Password..." />
      </form>
      <div className="auth-card__links">
        <button type="button" className="link-button" onClick={() => void logout()}>
          Logout
        </button>
      </div>
    </section>
  );
}
