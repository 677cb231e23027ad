import { useEffect, useId, useMemo, useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { encode } from 'uqr';
import { messageOf } from '../../lib/client/api.ts';
import { TWO_FACTOR_MESSAGES } from '../../lib/schemas/two-factor-messages.ts';
import type { TwoFactorSetup as Setup } from '../../lib/schemas/two-factor.ts';
import { enableTwoFactor, finishTwoFactorSetup, startTwoFactorSetup } from '../api/two-factor.ts';
import { TextField } from '../components/Field.tsx';
import { SubmitButton } from '../../islands/form-kit/SubmitButton.tsx';

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
 * Turning on two-factor sign-in (issue 11): scan the QR code (or type the
 * secret), confirm with a first code, then see the ten recovery codes once.
 * `onDone` runs after the member has confirmed they saved the codes.
 */
export function TwoFactorSetup({ onDone, onCancel }: { onDone: () => void; onCancel?: () => void }) {
  const [setup, setSetup] = useState<Setup | null>(null);
  const [failed, setFailed] = useState('');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState('');
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
    if (!/^\d{6}$/.test(code)) {
      setCodeError(TWO_FACTOR_MESSAGES.codeFormat);
      return;
    }
    setBusy(true);
    setCodeError('');
    try {
      setCodes(await enableTwoFactor(code));
    } catch (err) {
      setCodeError(messageOf(err, TWO_FACTOR_MESSAGES.invalidCode));
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
      <div className="stack" aria-labelledby={`${base}-codes`}>
        <h3 id={`${base}-codes`}>Save your recovery codes</h3>
        <p>
          Two-factor sign-in is on. If you lose your phone, each of these codes signs you in once. They are
          shown only now: print them or keep them in a password manager.
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
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => void finishTwoFactorSetup().then(onDone)}
          >
            I have saved my recovery codes
          </button>
        </div>
      </div>
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
