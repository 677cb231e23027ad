import { useStore } from '@nanostores/react';
import { useEffect, useState, type SyntheticEvent } from 'react';
import { toast } from 'sonner';
import { ApiError, messageOf } from '../../lib/client/api.ts';
import { $twoFactor, twoFactorChanged } from '../../lib/client/auth-store.ts';
import { TWO_FACTOR_MESSAGES } from '../../lib/schemas/two-factor-messages.ts';
import type { TwoFactorPolicy, TwoFactorStatus } from '../../lib/schemas/two-factor.ts';
import { changePassword } from '../api/change-password.ts';
import {
  disableTwoFactor,
  newRecoveryCodes,
  secondFactorOf,
  useSetTwoFactorPolicy,
  useTwoFactorAdmin,
  type Reauth,
} from '../api/two-factor.ts';
import { changePasswordProblem } from '../auth/ChangePasswordForm.tsx';
import {
  hasProblem,
  ReauthFields,
  reauthErrorsOf,
  reauthProblems,
  RecoveryCodeList,
  reportFailure,
  type ReauthErrors,
  type ReauthValues,
} from '../auth/Reauth.tsx';
import { NewPasswordFields } from '../auth/NewPasswordFields.tsx';
import { TwoFactorSetup } from '../auth/TwoFactorSetup.tsx';
import { CheckboxField, TextField } from '../components/Field.tsx';
import { useOwnPhone, useOwnPhoneActions } from '../api/staff-phone.ts';
import { STAFF_PHONE_CODE_TTL_MINUTES } from '../../lib/schemas/staff-phone.ts';
import { SubmitButton } from '../../islands/form-kit/SubmitButton.tsx';

/**
 * Security (docs/decisions/160-staff-sign-in-and-sessions.md): the member's own password and two-factor sign-in, and
 * for admins the campaign's policy (require it for admins, or for all staff).
 */
export function SecurityTab({ isAdmin, canTestSend }: { isAdmin: boolean; canTestSend: boolean }) {
  return (
    <section aria-labelledby="security-heading" className="stack">
      <h2 id="security-heading">Security</h2>
      <MyPassword />
      <MyTwoFactor />
      {/* The phone a broadcast's test text goes to: for those who can send one (editors and admins). */}
      {canTestSend ? <MyPhone /> : null}
      {isAdmin ? <TeamPolicy /> : null}
    </section>
  );
}

/**
 * The member's own password. Like every sensitive change here it needs the current password (and a code
 * with two-factor on), and wrong tries count against the sign-in lockout:
 * docs/decisions/160-staff-sign-in-and-sessions.md.
 */
function MyPassword() {
  const status = useStore($twoFactor);
  const [open, setOpen] = useState(false);
  return (
    <section className="card stack" aria-labelledby="my-password-heading">
      <h3 id="my-password-heading">Password</h3>
      <p className="muted">
        Changing your password signs out every other browser signed in as you; this one stays signed in.
      </p>
      {open ? (
        <ChangePasswordCard withCode={Boolean(status?.enabled)} onDone={() => setOpen(false)} />
      ) : (
        <div>
          <button type="button" className="btn btn--secondary" onClick={() => setOpen(true)}>
            Change password
          </button>
        </div>
      )}
    </section>
  );
}

function ChangePasswordCard({ withCode, onDone }: { withCode: boolean; onDone: () => void }) {
  const [values, setValues] = useState<ReauthValues>({ password: '', code: '' });
  const [errors, setErrors] = useState<ReauthErrors>({});
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: SyntheticEvent) {
    e.preventDefault();
    const problems = reauthProblems(values, withCode);
    setErrors(problems);
    if (hasProblem(problems)) return;
    // The new password's own checks, in the spec's order (as on the forced change).
    const problem = changePasswordProblem(values.password, next, confirm);
    if (problem) {
      toast.error(problem);
      return;
    }
    setBusy(true);
    try {
      await changePassword({
        currentPassword: values.password,
        newPassword: next,
        ...(withCode ? secondFactorOf(values.code) : {}),
      });
      toast.success('Password changed', { description: 'Your new password is set.' });
      onDone();
    } catch (err) {
      setErrors(reauthErrorsOf(err, 'currentPassword'));
      reportFailure(err, 'Password change failed');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="stack" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Change password">
      <ReauthFields
        idPrefix="change-password"
        values={values}
        errors={errors}
        withCode={withCode}
        onChange={setValues}
      />
      <NewPasswordFields
        idPrefix="change-password"
        next={next}
        confirm={confirm}
        onNext={setNext}
        onConfirm={setConfirm}
      />
      <div className="row-actions">
        <SubmitButton
          busy={busy}
          label="Change password"
          busyLabel="Changing password..."
          className="btn btn--primary"
        />
        <button type="button" className="btn btn--secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function MyTwoFactor() {
  const stored = useStore($twoFactor);
  const [mode, setMode] = useState<'view' | 'setup' | 'disable' | 'codes'>('view');
  // The status the server answered when turning it on, shown at once above the recovery codes (the shared
  // status is updated when the member has confirmed them: see TwoFactorSetup's onEnabled).
  const [justEnabled, setJustEnabled] = useState<TwoFactorStatus | null>(null);
  const status = justEnabled ?? stored;
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
          onEnabled={setJustEnabled}
          onDone={() => {
            if (justEnabled) twoFactorChanged(justEnabled);
            setJustEnabled(null);
            setMode('view');
            toast.success('Two-factor sign-in is on');
          }}
          onCancel={() => setMode('view')}
        />
      ) : mode === 'disable' ? (
        <DisableForm onDone={() => setMode('view')} />
      ) : mode === 'codes' ? (
        <NewCodesForm onDone={() => setMode('view')} />
      ) : enabled ? (
        <div className="row-actions">
          <button type="button" className="btn btn--secondary" onClick={() => setMode('codes')}>
            Get new recovery codes
          </button>
          {status?.required ? null : (
            <button type="button" className="btn btn--secondary" onClick={() => setMode('disable')}>
              Turn off two-factor sign-in
            </button>
          )}
        </div>
      ) : (
        <div>
          <button type="button" className="btn btn--primary" onClick={() => setMode('setup')}>
            Turn on two-factor sign-in
          </button>
        </div>
      )}
      {enabled && status?.required && mode === 'view' ? (
        <p className="muted">{TWO_FACTOR_MESSAGES.requiredCannotDisable}</p>
      ) : null}
    </section>
  );
}

/**
 * The member's own mobile phone: the one number a broadcast's test text goes to
 * (docs/decisions/152-broadcasts.md). A code texted to it proves it is theirs; a new number
 * replaces the verified one only when its own code comes back.
 */
function MyPhone() {
  const { data, error } = useOwnPhone();
  const actions = useOwnPhoneActions();
  const [entering, setEntering] = useState(false);
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<{ phone?: string; code?: string }>({});
  const [busy, setBusy] = useState(false);
  const pending = entering ? null : (data?.pending ?? null);

  /** Runs a call; a 400 shows its message on the field, anything else in a toast. */
  async function run(field: 'phone' | 'code', call: () => Promise<unknown>, failure: string) {
    setBusy(true);
    setProblem({});
    try {
      await call();
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.status === 400)
        setProblem({ [field]: messageOf(err, 'Please check and try again.') });
      else toast.error(failure, { description: messageOf(err, 'Please try again.') });
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function onSendCode(e: SyntheticEvent) {
    e.preventDefault();
    if (!phone.trim()) return setProblem({ phone: 'Enter your mobile number' });
    if (await run('phone', () => actions.sendCode(phone), 'Could not text a code')) {
      setEntering(false);
      setCode('');
    }
  }

  async function onVerify(e: SyntheticEvent) {
    e.preventDefault();
    if (!code.trim()) return setProblem({ code: 'Enter the code we texted you' });
    if (await run('code', () => actions.verify(code), 'Could not verify the phone')) {
      setCode('');
      setPhone('');
      toast.success('Phone verified', { description: 'Test texts now go to this phone.' });
    }
  }

  async function onRemove() {
    if (await run('phone', () => actions.remove(), 'Could not remove the phone'))
      toast.success('Phone removed');
  }

  return (
    <section className="card stack" aria-labelledby="my-phone-heading">
      <h3 id="my-phone-heading">Mobile phone for test texts</h3>
      {error ? (
        <p className="state state--error" role="alert">
          {messageOf(error, 'Could not load your phone.')}
        </p>
      ) : null}
      <p>
        Verified phone: <strong data-testid="own-phone">{data ? (data.phone ?? 'None') : '…'}</strong>
      </p>
      <p className="muted">
        A broadcast’s test text goes only to this phone. We text it a 6-digit code to check it is yours; it is
        not added to the text list.
      </p>
      {entering ? (
        <form className="stack" onSubmit={(e) => void onSendCode(e)} noValidate aria-label="Text me a code">
          <TextField
            id="my-phone-number"
            label="Your mobile number"
            type="tel"
            autoComplete="tel"
            value={phone}
            error={problem.phone}
            onChange={(e) => setPhone(e.target.value)}
          />
          <div className="row-actions">
            <SubmitButton
              busy={busy}
              label="Text me a code"
              busyLabel="Texting..."
              className="btn btn--primary"
            />
            <button type="button" className="btn btn--secondary" onClick={() => setEntering(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : pending ? (
        <form className="stack" onSubmit={(e) => void onVerify(e)} noValidate aria-label="Verify phone">
          <TextField
            id="my-phone-code"
            label="Code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={12}
            value={code}
            hint={`We texted a code to ${pending.phone}. It works for ${STAFF_PHONE_CODE_TTL_MINUTES} minutes.`}
            error={problem.code}
            onChange={(e) => setCode(e.target.value)}
          />
          <div className="row-actions">
            <SubmitButton
              busy={busy}
              label="Verify phone"
              busyLabel="Checking..."
              className="btn btn--primary"
            />
            <button type="button" className="btn btn--secondary" onClick={() => setEntering(true)}>
              Text a new code
            </button>
          </div>
        </form>
      ) : (
        <div className="row-actions">
          <button type="button" className="btn btn--secondary" onClick={() => setEntering(true)}>
            {data?.phone ? 'Change phone' : 'Add a phone'}
          </button>
          {data?.phone ? (
            <button
              type="button"
              className="btn btn--secondary"
              disabled={busy}
              onClick={() => void onRemove()}
            >
              Remove phone
            </button>
          ) : null}
        </div>
      )}
      {problem.phone && !entering ? (
        <p className="field__error" role="alert">
          {problem.phone}
        </p>
      ) : null}
    </section>
  );
}

/** The shared shape of "current password and a code, then do it": turning two-factor off, new codes. */
function useReauthForm(run: (input: Reauth) => Promise<void>, failureTitle: string) {
  const [values, setValues] = useState<ReauthValues>({ password: '', code: '' });
  const [errors, setErrors] = useState<ReauthErrors>({});
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: SyntheticEvent) {
    e.preventDefault();
    const problems = reauthProblems(values, true);
    setErrors(problems);
    if (hasProblem(problems)) return;
    setBusy(true);
    try {
      await run({ password: values.password, ...secondFactorOf(values.code) });
    } catch (err) {
      setErrors(reauthErrorsOf(err));
      reportFailure(err, failureTitle);
    } finally {
      setBusy(false);
    }
  }
  return { values, setValues, errors, busy, onSubmit };
}

function DisableForm({ onDone }: { onDone: () => void }) {
  const form = useReauthForm(async (input) => {
    await disableTwoFactor(input);
    toast.success('Two-factor sign-in is off');
    onDone();
  }, 'Could not turn off two-factor sign-in');

  return (
    <ReauthForm
      form={form}
      idPrefix="disable-2fa"
      label="Turn off two-factor sign-in"
      submit={{ label: 'Turn off', busyLabel: 'Turning off...', className: 'btn btn--destructive' }}
      onCancel={onDone}
    />
  );
}

function NewCodesForm({ onDone }: { onDone: () => void }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  const form = useReauthForm(async (input) => {
    setCodes(await newRecoveryCodes(input));
  }, 'Could not make new recovery codes');

  if (codes)
    return (
      <RecoveryCodeList
        headingId="new-codes-heading"
        codes={codes}
        lead="Your earlier recovery codes no longer work."
        onDone={onDone}
      />
    );
  return (
    <ReauthForm
      form={form}
      idPrefix="new-codes"
      label="Get new recovery codes"
      lead="Ten new codes replace all of your current ones."
      submit={{ label: 'Get new codes', busyLabel: 'Checking...', className: 'btn btn--primary' }}
      onCancel={onDone}
    />
  );
}

/** A change that needs the password and a code (turning two-factor off, new recovery codes), with Cancel. */
function ReauthForm({
  form,
  idPrefix,
  label,
  lead,
  submit,
  onCancel,
}: {
  form: ReturnType<typeof useReauthForm>;
  idPrefix: string;
  label: string;
  lead?: string;
  submit: { label: string; busyLabel: string; className: string };
  onCancel: () => void;
}) {
  return (
    <form className="stack" onSubmit={(e) => void form.onSubmit(e)} noValidate aria-label={label}>
      {lead ? <p>{lead}</p> : null}
      <ReauthFields
        idPrefix={idPrefix}
        values={form.values}
        errors={form.errors}
        withCode
        onChange={form.setValues}
      />
      <div className="row-actions">
        <SubmitButton busy={form.busy} {...submit} />
        <button type="button" className="btn btn--secondary" onClick={onCancel}>
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
