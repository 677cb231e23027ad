import { useId, useRef, useState, type SyntheticEvent, type ReactNode } from 'react';
import { toast } from '../lib/client/toast';
import { apiRequest, messageOf } from '../lib/client/api.ts';
import { textSignupProblem } from '../lib/client/validation.ts';
import Captcha, { type CaptchaHandle } from './Captcha.tsx';
import '../styles/islands.css';

interface Props {
  /** smsConsentText(IDENTITY.committeeName), computed by the page (keeps zod out of the home bundle). */
  consentText: string;
  /** PUBLIC_TURNSTILE_SITE_KEY (empty: local test widget). */
  captchaSiteKey?: string | undefined;
}

/** POST /api/newsletter's answer: `opted_out` when the number replied STOP (only START from the phone undoes it). */
interface SignupAnswer {
  message?: string;
  status?: 'subscribed' | 'opted_out';
}

const LINKS: Record<string, string> = {
  'Privacy Policy': '/privacy-policy',
  'Terms of Use': '/terms-of-use',
};

/** The consent text with "Privacy Policy" and "Terms of Use" as links that open in a new tab. */
function ConsentText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  const pattern = /(Privacy Policy|Terms of Use)/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const at = match.index ?? 0;
    parts.push(text.slice(last, at));
    const label = match[0];
    parts.push(
      <a key={at} href={LINKS[label]} target="_blank" rel="noopener">
        {label}
        <span className="visually-hidden"> (opens in a new tab)</span>
      </a>,
    );
    last = at + label.length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}

/**
 * Text-message sign-up (spec sections 2, 4, 5, 8): idle -> submitting ->
 * success (form replaced) or failure (toast, form stays filled).
 */
export default function TextSignupForm({ consentText, captchaSiteKey }: Props) {
  const id = useId();
  const captcha = useRef<CaptchaHandle>(null);
  const [token, setToken] = useState<string | null>(null);
  const [optedOut, setOptedOut] = useState<string | null>(null);
  const [firstName, setFirstName] = useState('');
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [smsConsent, setSmsConsent] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);

  async function onSubmit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = textSignupProblem({ firstName, smsConsent, captcha: token });
    if (problem) {
      toast.error(problem.title, problem.description ? { description: problem.description } : undefined);
      return;
    }
    setSubmitting(true);
    try {
      const res = await apiRequest<SignupAnswer>('POST', '/api/newsletter', {
        firstName,
        phone,
        email,
        smsConsent: true,
        sourcePage: location.pathname,
        captcha: token,
      });
      if (res?.status === 'opted_out') {
        setOptedOut(res.message ?? 'This number asked us to stop texting it. Reply START from that phone.');
        return;
      }
      setDone(true);
      toast.success('Successfully subscribed!', {
        description: res?.message || "You're signed up for text messages!",
      });
    } catch (err) {
      toast.error('Subscription failed', { description: messageOf(err, 'Please try again later') });
    } finally {
      setSubmitting(false);
      captcha.current?.reset(); // tokens are single use
    }
  }

  if (optedOut) {
    return (
      <div className="form-card signup-done" role="status">
        <h3>Text START From Your Phone</h3>
        <p>{optedOut}</p>
        <button type="button" className="btn btn--secondary" onClick={() => setOptedOut(null)}>
          Use Another Number
        </button>
      </div>
    );
  }

  if (done) {
    return (
      <div className="form-card signup-done" role="status">
        <h3>You're Signed Up!</h3>
        <p>Thanks for joining our text updates. Reply STOP at any time to unsubscribe.</p>
      </div>
    );
  }

  return (
    <form
      className="form-card"
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-label="Sign up for text messages"
    >
      <div className="field">
        <label htmlFor={`${id}-first`}>
          First Name <span aria-hidden="true">*</span>
        </label>
        <input
          id={`${id}-first`}
          name="firstName"
          autoComplete="given-name"
          required
          value={firstName}
          onChange={(e) => setFirstName(e.target.value)}
        />
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-phone`}>Phone</label>
          <input
            id={`${id}-phone`}
            name="phone"
            type="tel"
            autoComplete="tel"
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-email`}>Email</label>
          <input
            id={`${id}-email`}
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
      </div>
      <div className="field field--check">
        <input
          id={`${id}-consent`}
          name="smsConsent"
          type="checkbox"
          required
          checked={smsConsent}
          onChange={(e) => setSmsConsent(e.target.checked)}
        />
        <label htmlFor={`${id}-consent`} className="consent-text">
          <ConsentText text={consentText} />
        </label>
      </div>
      <Captcha ref={captcha} siteKey={captchaSiteKey} onToken={setToken} />
      <button type="submit" className="btn btn--primary btn--block" disabled={submitting}>
        {submitting ? 'Signing Up...' : 'Sign Up For Text Messages'}
      </button>
    </form>
  );
}
