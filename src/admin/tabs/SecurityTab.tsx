import { useStore } from '@nanostores/react';
import { useEffect, useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { messageOf } from '../../lib/client/api.ts';
import { $twoFactor } from '../../lib/client/auth-store.ts';
import { TWO_FACTOR_MESSAGES } from '../../lib/schemas/two-factor-messages.ts';
import type { TwoFactorPolicy } from '../../lib/schemas/two-factor.ts';
import { disableTwoFactor, useSetTwoFactorPolicy, useTwoFactorAdmin } from '../api/two-factor.ts';
import { TwoFactorSetup } from '../auth/TwoFactorSetup.tsx';
import { CheckboxField, TextField } from '../components/Field.tsx';
import { PasswordInput } from '../components/PasswordInput.tsx';
import { SubmitButton } from '../../islands/form-kit/SubmitButton.tsx';

/**
 * Security (issue 11): the member's own two-factor sign-in, and for admins
 * the campaign's policy (require it for admins, or for all staff).
 */
export function SecurityTab({ isAdmin }: { isAdmin: boolean }) {
  return (
    <section aria-labelledby="security-heading" className="stack">
      <h2 id="security-heading">Security</h2>
      <MyTwoFactor />
      {isAdmin ? <TeamPolicy /> : null}
    </section>
  );
}

function MyTwoFactor() {
  const status = useStore($twoFactor);
  const [mode, setMode] = useState<'view' | 'setup' | 'disable'>('view');
  const enabled = Boolean(status?.enabled);

  return (
    <section className="card stack" aria-labelledby="my-2fa-heading">
      <h3 id="my-2fa-heading">Two-factor sign-in</h3>
      <p>
        Status: <strong>{enabled ? 'On' : 'Off'}</strong>
        {enabled ? ` · ${status?.recoveryCodesLeft ?? 0} recovery codes left` : ''}
        {status?.required ? ' · required by your campaign' : ''}
      </p>
      <p className="muted">
        With two-factor sign-in on, signing in also needs a 6-digit code from an authenticator app on your
        phone, so a stolen password alone cannot be used to publish in the campaign’s name.
      </p>
      {mode === 'setup' ? (
        <TwoFactorSetup
          onDone={() => {
            setMode('view');
            toast.success('Two-factor sign-in is on');
          }}
          onCancel={() => setMode('view')}
        />
      ) : mode === 'disable' ? (
        <DisableForm onDone={() => setMode('view')} />
      ) : enabled ? (
        status?.required ? (
          <p className="muted">{TWO_FACTOR_MESSAGES.requiredCannotDisable}</p>
        ) : (
          <div>
            <button type="button" className="btn btn--secondary" onClick={() => setMode('disable')}>
              Turn off two-factor sign-in
            </button>
          </div>
        )
      ) : (
        <div>
          <button type="button" className="btn btn--primary" onClick={() => setMode('setup')}>
            Turn on two-factor sign-in
          </button>
        </div>
      )}
    </section>
  );
}

function DisableForm({ onDone }: { onDone: () => void }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: SyntheticEvent) {
    e.preventDefault();
    if (!password || !code.trim()) {
      toast.error('Please fill in all fields');
      return;
    }
    setBusy(true);
    try {
      const c = code.trim();
      await disableTwoFactor(/^\d{6}$/.test(c) ? { password, code: c } : { password, recoveryCode: c });
      toast.success('Two-factor sign-in is off');
      onDone();
    } catch (err) {
      toast.error('Could not turn off two-factor sign-in', {
        description: messageOf(err, 'Please try again.'),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="stack"
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-label="Turn off two-factor sign-in"
    >
      <div className="field">
        <label htmlFor="disable-2fa-password" className="field__label">
          Current password
        </label>
        <PasswordInput
          id="disable-2fa-password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      <TextField
        id="disable-2fa-code"
        label="Code from your app, or a recovery code"
        autoComplete="one-time-code"
        required
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <div className="row-actions">
        <SubmitButton
          busy={busy}
          label="Turn off"
          busyLabel="Turning off..."
          className="btn btn--destructive"
        />
        <button type="button" className="btn btn--secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function TeamPolicy() {
  const { data, error } = useTwoFactorAdmin();
  const save = useSetTwoFactorPolicy();
  const [policy, setPolicy] = useState<TwoFactorPolicy | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (data && !policy) setPolicy(data.policy);
  }, [data, policy]);

  async function onSubmit(e: SyntheticEvent) {
    e.preventDefault();
    if (!policy) return;
    setBusy(true);
    try {
      await save(policy);
      toast.success('Two-factor policy saved');
    } catch (err) {
      toast.error('Failed to save the policy', { description: messageOf(err, 'Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card stack" aria-labelledby="team-2fa-heading">
      <h3 id="team-2fa-heading">Team policy</h3>
      {error ? (
        <p className="state state--error" role="alert">
          {messageOf(error, 'Could not load the policy.')}
        </p>
      ) : null}
      <p className="muted">
        {data
          ? `${data.enrolled.length} member${data.enrolled.length === 1 ? ' has' : 's have'} two-factor on. `
          : ''}
        A member the policy covers who has not set it up is sent to set-up before the dashboard.
      </p>
      {policy ? (
        <form className="stack" onSubmit={(e) => void onSubmit(e)}>
          <CheckboxField
            id="policy-admins"
            label="Require two-factor sign-in for admins"
            checked={policy.requireForAdmins}
            onChange={(e) => setPolicy({ ...policy, requireForAdmins: e.target.checked })}
          />
          <CheckboxField
            id="policy-all"
            label="Require two-factor sign-in for all staff"
            checked={policy.requireForAllStaff}
            onChange={(e) => setPolicy({ ...policy, requireForAllStaff: e.target.checked })}
          />
          <div>
            <SubmitButton
              busy={busy}
              label="Save policy"
              busyLabel="Saving..."
              className="btn btn--primary"
            />
          </div>
        </form>
      ) : null}
    </section>
  );
}
