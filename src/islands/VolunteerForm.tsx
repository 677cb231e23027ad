import { useEffect, useId, useRef, useState, type SyntheticEvent } from 'react';
import { toast } from '../lib/client/toast';
import { CAPTCHA_REQUIRED, STATES } from '../lib/schemas/forms.ts';
import {
  flushOutbox,
  postVolunteer,
  readOutbox,
  removeFromOutbox,
  saveForRetry,
  type PendingSignup,
} from '../lib/client/volunteer-outbox.ts';
import Captcha, { type CaptchaHandle } from './Captcha.tsx';
import '../styles/islands.css';

interface Props {
  /** The six help areas (content module), offered as optional interest checkboxes. */
  helpAreas: string[];
  /** PUBLIC_TURNSTILE_SITE_KEY (empty: local test widget). */
  captchaSiteKey?: string | undefined;
}

const EMPTY = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  address1: '',
  address2: '',
  city: '',
  state: '',
};
type Values = typeof EMPTY;
type Outcome = 'sent' | 'saved';

const FIELDS: {
  name: keyof Values;
  label: string;
  type?: string;
  autoComplete: string;
  optional?: boolean;
}[] = [
  { name: 'firstName', label: 'First Name', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last Name', autoComplete: 'family-name' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'phone', label: 'Mobile Number', type: 'tel', autoComplete: 'tel' },
  { name: 'address1', label: 'Address Line 1', autoComplete: 'address-line1' },
  { name: 'address2', label: 'Address Line 2 (optional)', autoComplete: 'address-line2', optional: true },
  { name: 'city', label: 'City', autoComplete: 'address-level2' },
];

/**
 * Volunteer sign-up (spec sections 2-5, 8). Success is shown only when the
 * server accepted the sign-up, or when it could not be reached and the sign-up
 * was saved in this browser for an automatic retry (docs/decisions.md). A 4xx
 * shows the server's field errors and never claims success.
 */
export default function VolunteerForm({ helpAreas, captchaSiteKey }: Props) {
  const id = useId();
  const captcha = useRef<CaptchaHandle>(null);
  const [values, setValues] = useState<Values>(EMPTY);
  const [interests, setInterests] = useState<string[]>([]);
  const [token, setToken] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [resubmit, setResubmit] = useState<PendingSignup | null>(null);

  // Send sign-ups saved on an earlier visit; one whose captcha expired comes back into the form.
  useEffect(() => {
    const flush = () =>
      void flushOutbox(postVolunteer).then((left) => {
        const stuck = left.find((e) => e.needsCaptcha);
        if (!stuck) return;
        setResubmit(stuck);
        const p = stuck.payload as Partial<Values> & { interests?: string[] };
        setValues({
          ...EMPTY,
          ...Object.fromEntries(Object.keys(EMPTY).map((k) => [k, String(p[k as keyof Values] ?? '')])),
        });
        setInterests(Array.isArray(p.interests) ? p.interests : []);
      });
    if (readOutbox().length > 0) flush();
    window.addEventListener('online', flush);
    return () => window.removeEventListener('online', flush);
  }, []);

  const set = (name: keyof Values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: e.target.value }));

  async function onSubmit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!token) {
      setError(CAPTCHA_REQUIRED);
      toast.error(CAPTCHA_REQUIRED);
      return;
    }
    setSubmitting(true);
    setError(null);
    setFieldErrors({});
    const payload = { ...values, interests, captchaResponse: token };
    const res = await postVolunteer(payload);
    captcha.current?.reset(); // tokens are single use
    setSubmitting(false);
    const status = res.status;
    if (status !== null && status >= 200 && status < 300) {
      if (resubmit) removeFromOutbox(resubmit.id);
      setResubmit(null);
      setOutcome('sent');
      // The server is reachable: send anything else still waiting, so nothing stays in this browser.
      if (readOutbox().length > 0) void flushOutbox(postVolunteer);
      return;
    }
    if (status === null || status === 429 || status >= 500) {
      if (saveForRetry(payload)) {
        if (resubmit) removeFromOutbox(resubmit.id);
        setResubmit(null);
        setOutcome('saved');
        return;
      }
      setError('We could not send your sign-up. Please check your connection and try again.');
      return;
    }
    setError(res.error ?? 'Please check the form and try again.');
    setFieldErrors(res.fields ?? {});
  }

  function reset() {
    setValues(EMPTY);
    setInterests([]);
    setError(null);
    setFieldErrors({});
    setToken(null);
    captcha.current?.reset();
    setOutcome(null);
  }

  if (outcome) {
    return (
      <div className="form-card volunteer-done" role="status" data-volunteer-form>
        <h3>Thank you for volunteering!</h3>
        {outcome === 'sent' ? (
          <p>We received your sign-up. Our volunteer team will contact you soon with next steps.</p>
        ) : (
          <p>
            We couldn't reach our server just now, so your sign-up is saved in this browser and will be sent
            automatically the next time you visit this site. Our volunteer team will contact you once it
            arrives.
          </p>
        )}
        <button type="button" className="btn btn--secondary" onClick={reset}>
          Sign Up Another Volunteer
        </button>
      </div>
    );
  }

  const errId = (name: string) => `${id}-${name}-error`;
  return (
    <form
      className="form-card"
      onSubmit={(e) => void onSubmit(e)}
      aria-label="Volunteer sign-up"
      data-volunteer-form
    >
      {resubmit && (
        <p className="notice notice--info">
          Your saved sign-up from {new Date(resubmit.savedAt).toLocaleDateString('en-US')} could not be sent
          automatically. Please complete the CAPTCHA and submit it again.
        </p>
      )}
      <div className="field-grid">
        {FIELDS.map((f) => (
          <div className="field" key={f.name}>
            <label htmlFor={`${id}-${f.name}`}>
              {f.label}
              {!f.optional && <span aria-hidden="true"> *</span>}
            </label>
            <input
              id={`${id}-${f.name}`}
              name={f.name}
              type={f.type ?? 'text'}
              autoComplete={f.autoComplete}
              required={!f.optional}
              value={values[f.name]}
              onChange={set(f.name)}
              aria-invalid={fieldErrors[f.name] ? true : undefined}
              aria-describedby={fieldErrors[f.name] ? errId(f.name) : undefined}
            />
            {fieldErrors[f.name] && (
              <p className="field-error" id={errId(f.name)}>
                {fieldErrors[f.name]}
              </p>
            )}
          </div>
        ))}
        <div className="field">
          <label htmlFor={`${id}-state`}>
            State<span aria-hidden="true"> *</span>
          </label>
          <select
            id={`${id}-state`}
            name="state"
            required
            value={values.state}
            onChange={set('state')}
            aria-invalid={fieldErrors.state ? true : undefined}
            aria-describedby={fieldErrors.state ? errId('state') : undefined}
          >
            <option value="">Select a state</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          {fieldErrors.state && (
            <p className="field-error" id={errId('state')}>
              {fieldErrors.state}
            </p>
          )}
        </div>
      </div>
      {helpAreas.length > 0 && (
        <fieldset className="interests">
          <legend>How would you like to help? (optional)</legend>
          {helpAreas.map((area, i) => (
            <div className="field field--check" key={area}>
              <input
                id={`${id}-interest-${i}`}
                type="checkbox"
                name="interests"
                value={area}
                checked={interests.includes(area)}
                onChange={(e) =>
                  setInterests((list) =>
                    e.target.checked ? [...list, area] : list.filter((x) => x !== area),
                  )
                }
              />
              <label htmlFor={`${id}-interest-${i}`}>{area}</label>
            </div>
          ))}
        </fieldset>
      )}
      <Captcha ref={captcha} siteKey={captchaSiteKey} onToken={setToken} />
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="btn btn--primary btn--block" disabled={submitting}>
        {submitting ? 'Submitting...' : 'Sign Up to Volunteer'}
      </button>
    </form>
  );
}
