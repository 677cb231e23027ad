import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { ApiError, messageOf } from '../../lib/client/api.ts';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { TextField } from '../components/Field.tsx';

/**
 * What a sensitive change asks for (docs/decisions/160-staff-sign-in-and-sessions.md):
 * the current password and, with two-factor on, a code from the app or one
 * recovery code. The server answers one message whichever was wrong, and
 * after too many attempts signs the session out (the auth store then shows
 * the sign-in form; the toast keeps the server's message).
 */
export interface ReauthValues {
  password: string;
  code: string;
}

export interface ReauthErrors {
  password?: string | undefined;
  code?: string | undefined;
}

/** The fields' errors from a failed call: the server's message on each field it names. */
export function reauthErrorsOf(err: unknown, passwordField = 'password'): ReauthErrors {
  if (!(err instanceof ApiError) || err.status !== 400) return {};
  const fields = err.fields;
  const message = err.serverMessage ?? undefined;
  return {
    password: passwordField in fields ? message : undefined,
    code: 'code' in fields ? message : undefined,
  };
}

/** Says what went wrong in a toast: the server's message (a lockout says the session was signed out). */
export function reportFailure(err: unknown, title: string): void {
  const signedOut = err instanceof ApiError && err.status === 429;
  toast.error(signedOut ? 'Signed out' : title, { description: messageOf(err, 'Please try again.') });
}

/** Problems found before sending: both fields filled (the code only when asked for). */
export function reauthProblems(values: ReauthValues, withCode: boolean): ReauthErrors {
  return {
    password: values.password ? undefined : 'Enter your current password',
    code: !withCode || values.code.trim() ? undefined : 'Enter a code from your app or a recovery code',
  };
}

export const hasProblem = (e: ReauthErrors) => Boolean(e.password ?? e.code);

export function ReauthFields({
  idPrefix,
  values,
  errors,
  withCode,
  onChange,
}: {
  idPrefix: string;
  values: ReauthValues;
  errors: ReauthErrors;
  withCode: boolean;
  onChange: (values: ReauthValues) => void;
}) {
  const passwordId = `${idPrefix}-password`;
  return (
    <>
      <div className="field">
        <label htmlFor={passwordId} className="field__label">
          Current password
        </label>
        <PasswordInput
          id={passwordId}
          autoComplete="current-password"
          required
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={errors.password ? `${passwordId}-error` : undefined}
          value={values.password}
          onChange={(e) => onChange({ ...values, password: e.target.value })}
        />
        {errors.password ? (
          <p id={`${passwordId}-error`} className="field__error">
            {errors.password}
          </p>
        ) : null}
      </div>
      {withCode ? (
        <TextField
          id={`${idPrefix}-code`}
          label="Code from your app, or a recovery code"
          autoComplete="one-time-code"
          required
          value={values.code}
          error={errors.code}
          onChange={(e) => onChange({ ...values, code: e.target.value })}
        />
      ) : null}
    </>
  );
}

/** Ten recovery codes, shown once, with a copy button and the confirmation that closes them. */
export function RecoveryCodeList({
  headingId,
  codes,
  lead,
  onDone,
}: {
  headingId: string;
  codes: string[];
  lead: string;
  onDone: () => void;
}) {
  // The codes replace a form that may have been scrolled far down (the set-up's QR code and fields): bring
  // their heading into view and focus, so neither a sighted nor a screen-reader user starts below them.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    heading.current?.scrollIntoView({ block: 'start' });
  }, []);
  return (
    <div className="stack" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1}>
        Save your recovery codes
      </h3>
      <p>
        {lead} If you lose your phone, each of these codes signs you in once. They are shown only now: print
        them or keep them in a password manager.
      </p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div className="row-actions">
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(codes.join('\n'))
              .then(() => toast.success('Recovery codes copied'))
              .catch(() => toast.error('Could not copy; please write them down'))
          }
        >
          Copy codes
        </button>
        <button type="button" className="btn btn--primary" onClick={onDone}>
          I have saved my recovery codes
        </button>
      </div>
    </div>
  );
}
