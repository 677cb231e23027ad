import { useEffect, useId, useMemo, useState, type SyntheticEvent } from 'react';
import { encode } from 'uqr';
import { messageOf } from '../../lib/client/api.ts';
import { TWO_FACTOR_MESSAGES } from '../../lib/schemas/two-factor-messages.ts';
import type { TwoFactorSetup as Setup, TwoFactorStatus } from '../../lib/schemas/two-factor.ts';
import { enableTwoFactor, finishTwoFactorSetup, startTwoFactorSetup } from '../api/two-factor.ts';
import { TextField } from '../components/Field.tsx';
import { SubmitButton } from '../../islands/form-kit/SubmitButton.tsx';
import { ReauthFields, RecoveryCodeList, reauthErrorsOf, reauthProblems, reportFailure } from './Reauth.tsx';

/** The otpauth:// URI as a QR code: an SVG of dark modules, drawn by React (no innerHTML). */
export function QrCode({ value, label }: { value: string; label: string }) {
  const { d, size } = useMemo(() => {
    const qr = encode(value, { ecc: 'M', border: 2 });
    let path = '';
    qr.data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) path += `M${x} ${y}h1v1h-1z`;
      }),
    );
    return { d: path, size: qr.size };
  }, [value]);
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      width="200"
      height="200"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" shapeRendering="crispEdges" />
    </svg>
  );
}

/** Groups of four, as authenticator apps show secrets: easier to type. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * Turning on two-factor sign-in (docs/decisions/160-staff-sign-in-and-sessions.md): scan the QR code (or type the
 * secret), confirm with the current password and a first code, then see the
 * ten recovery codes once (docs/decisions/160-staff-sign-in-and-sessions.md).
 * `onDone` runs after the member has confirmed they saved the codes.
 */
export function TwoFactorSetup({
  onDone,
  onCancel,
  onEnabled,
}: {
  onDone: () => void;
  onCancel?: () => void;
  /**
   * The new status, as soon as the server has turned it on (before the codes are confirmed). The Security
   * tab shows it at once; the enrolment screen does not take it, since the global status switching to "on"
   * would open the dashboard before the member has seen the recovery codes.
   */
  onEnabled?: (status: TwoFactorStatus) => void;
}) {
  const [setup, setSetup] = useState<Setup | null>(null);
  const [failed, setFailed] = useState('');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState('');
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState('');
  const [busy, setBusy] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const base = useId();

  useEffect(() => {
    let live = true;
    startTwoFactorSetup()
      .then((s) => live && setSetup(s))
      .catch(
        (err: unknown) => live && setFailed(messageOf(err, 'Could not start the set-up. Please try again.')),
      );
    return () => {
      live = false;
    };
  }, []);

  async function onConfirm(e: SyntheticEvent) {
    e.preventDefault();
    const problems = reauthProblems({ password, code: '' }, false);
    const codeProblem = /^\d{6}$/.test(code) ? '' : TWO_FACTOR_MESSAGES.codeFormat;
    setPasswordError(problems.password ?? '');
    setCodeError(codeProblem);
    if (problems.password || codeProblem) return;
    setBusy(true);
    try {
      // The server signs out every other session and gives this one a fresh cookie.
      const enabled = await enableTwoFactor(password, code);
      onEnabled?.(enabled.status);
      setCodes(enabled.recoveryCodes);
    } catch (err) {
      const errors = reauthErrorsOf(err);
      setPasswordError(errors.password ?? '');
      setCodeError(errors.code ?? '');
      if (!errors.password && !errors.code) reportFailure(err, 'Could not turn on two-factor sign-in');
    } finally {
      setBusy(false);
    }
  }

  if (failed)
    return (
      <p className="alert alert--error" role="alert">
        {failed}
      </p>
    );
  if (!setup)
    return (
      <p role="status" className="muted">
        Preparing your set-up…
      </p>
    );

  if (codes)
    return (
      <RecoveryCodeList
        headingId={`${base}-codes`}
        codes={codes}
        lead="Two-factor sign-in is on, and any other browser signed in as you has been signed out."
        onDone={() => void finishTwoFactorSetup().then(onDone)}
      />
    );

  return (
    <div className="stack two-factor-setup">
      <ol className="steps">
        <li>
          Open an authenticator app on your phone (for example Google Authenticator, 1Password or Authy).
        </li>
        <li>Scan this QR code, or enter the key below by hand.</li>
      </ol>
      <QrCode value={setup.otpauthUri} label="QR code to add this account to your authenticator app" />
      <p>
        Key (time-based, 6 digits, 30 seconds):{' '}
        <code className="secret" data-testid="two-factor-secret">
          {grouped(setup.secret)}
        </code>
      </p>
      <form onSubmit={(e) => void onConfirm(e)} noValidate className="stack">
        <ReauthFields
          idPrefix={`${base}-reauth`}
          values={{ password, code: '' }}
          errors={{ password: passwordError || undefined }}
          withCode={false}
          onChange={(v) => setPassword(v.password)}
        />
        <TextField
          id={`${base}-code`}
          label="Code from the app"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          value={code}
          error={codeError}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
        />
        <div className="row-actions">
          <SubmitButton
            busy={busy}
            label="Turn on two-factor sign-in"
            busyLabel="Checking..."
            className="btn btn--primary"
          />
          {onCancel ? (
            <button type="button" className="btn btn--secondary" onClick={onCancel}>
              Cancel
            </button>
          ) : null}
        </div>
      </form>
    </div>
  );
}
