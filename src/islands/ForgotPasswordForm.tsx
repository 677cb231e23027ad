import { useId, useState, type SyntheticEvent } from 'react';
import { formCopy } from '../content/forms.ts';
import { forgotPasswordProblem } from '../lib/client/validation.ts';
import { PUBLIC_FORMS } from '../lib/schemas/public-forms.ts';
import { FieldRow } from './form-kit/Field.tsx';
import '../styles/islands.css';
import { SubmitButton } from './form-kit/SubmitButton.tsx';

export const FORGOT_SENT_NOTE = formCopy['forgot-password'].outcomes.sent.text;

/**
 * Public forgot-password page (spec sections 2, 4, 5, 8): form -> submitting
 * -> sent view, or an inline destructive alert. The server answers the same
 * whether or not the account exists. The page around it holds the heading
 * and the 'Back to Login' link.
 */
export default function ForgotPasswordForm() {
  const id = useId();
  const [email, setEmail] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = forgotPasswordProblem(email);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setSubmitting(true);
    try {
      const res = await fetch(PUBLIC_FORMS['forgot-password'].endpoint, {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: email.trim() }),
      });
      const data = (await res.json().catch(() => ({}))) as { success?: boolean; error?: string };
      if (res.ok && data.success) setSent(true);
      else setError(data.error || 'Failed to send password reset email');
    } catch {
      setError('Failed to send password reset email. Please try again.');
    } finally {
      setSubmitting(false);
    }
  }

  if (sent) {
    return (
      <div className="form-card auth-card" role="status">
        <h2>Email Sent!</h2>
        <p>{FORGOT_SENT_NOTE}</p>
        <h3 className="h-small">Next steps</h3>
        <ol className="steps">
          <li>Check your inbox (and your spam folder) for the email.</li>
          <li>Copy the temporary password from the email.</li>
          <li>Log in with your username and the temporary password.</li>
          <li>Change your password right away in the admin settings.</li>
        </ol>
        <a className="btn btn--primary btn--block" href="/admin">
          Return to Login
        </a>
      </div>
    );
  }

  const errorId = `${id}-error`;
  return (
    <form
      className="form-card auth-card"
      method="post"
      action={PUBLIC_FORMS['forgot-password'].endpoint}
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-label="Forgot password"
    >
      <div className="notice notice--info">
        <p>
          <strong>How it works:</strong> we'll email you a temporary password. It expires in 24 hours. Use it
          to log in, then change your password at once. The email is not sent again, so use it before it
          expires.
        </p>
      </div>
      {error && (
        <div className="alert alert--error" role="alert" id={errorId}>
          {error}
        </div>
      )}
      {/* The error is the form's alert above (it describes the field); the label carries no required mark. */}
      <FieldRow
        field={{ idBase: id, name: 'email', label: 'Email', describedBy: error ? errorId : undefined }}
      >
        {(control) => (
          <input
            {...control}
            {...(error ? { 'aria-invalid': true } : {})}
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        )}
      </FieldRow>
      <SubmitButton busy={submitting} label="Send Temporary Password" busyLabel="Sending..." />
    </form>
  );
}
