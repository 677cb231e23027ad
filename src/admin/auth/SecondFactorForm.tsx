import { useId, useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { cancelSecondFactor } from '../../lib/client/auth-store.ts';
import { TWO_FACTOR_MESSAGES } from '../../lib/schemas/two-factor-messages.ts';
import { TextField } from '../components/Field.tsx';
import { useAuth } from './AuthProvider.tsx';
import { SubmitButton } from '../../islands/form-kit/SubmitButton.tsx';

/** The code step of a sign-in with two-factor on (docs/decisions/160-staff-sign-in-and-sessions.md): an authenticator code, or one recovery code. */
export function SecondFactorForm() {
  const { verify } = useAuth();
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const headingId = useId();

  async function onSubmit(e: SyntheticEvent) {
    e.preventDefault();
    const v = value.trim();
    if (!v) {
      toast.error(useRecovery ? 'Enter one of your recovery codes' : TWO_FACTOR_MESSAGES.codeFormat);
      return;
    }
    setBusy(true);
    try {
      await verify(useRecovery ? { recoveryCode: v } : { code: v });
    } catch {
      setValue('');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="auth-card" aria-labelledby={headingId}>
      <h2 id={headingId} className="auth-card__title">
        Two-factor sign-in
      </h2>
      <p className="auth-card__lead">
        {useRecovery
          ? 'Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each works once.'
          : 'Enter the 6-digit code from your authenticator app.'}
      </p>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="stack">
        {useRecovery ? (
          <TextField
            key="recovery"
            id="second-factor-recovery"
            label="Recovery code"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            required
            value={value}
            onChange={(e) => setValue(e.target.value)}
            data-autofocus
            autoFocus
          />
        ) : (
          <TextField
            key="code"
            id="second-factor-code"
            label="Authentication code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={6}
            required
            value={value}
            onChange={(e) => setValue(e.target.value.replace(/\D/g, ''))}
            autoFocus
          />
        )}
        <SubmitButton busy={busy} label="Verify" busyLabel="Verifying..." />
      </form>
      <div className="auth-card__links">
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setUseRecovery(!useRecovery);
            setValue('');
          }}
        >
          {useRecovery ? 'Use a code from your app instead' : 'Use a recovery code instead'}
        </button>
        <button type="button" className="link-button" onClick={cancelSecondFactor}>
          Back to Login
        </button>
      </div>
    </section>
  );
}
