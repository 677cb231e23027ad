import { useId, useRef, useState, type SyntheticEvent } from 'react';
import { toast } from '../lib/client/toast';
import { apiRequest } from '../lib/client/api.ts';
import { CAPTCHA_REQUIRED, CONTACT_SUBJECTS, CONTACT_SUBJECT_LABELS } from '../lib/schemas/forms.ts';
import Captcha, { type CaptchaHandle } from './Captcha.tsx';
import '../styles/islands.css';

interface Props {
  /** PUBLIC_TURNSTILE_SITE_KEY (empty: local test widget). */
  captchaSiteKey?: string | undefined;
}

const EMPTY = { name: '', email: '', phone: '', subject: '', message: '' };

/** Contact form (spec sections 2, 4, 5, 8): success clears the fields and the captcha. */
export default function ContactForm({ captchaSiteKey }: Props) {
  const id = useId();
  const captcha = useRef<CaptchaHandle>(null);
  const [values, setValues] = useState(EMPTY);
  const [token, setToken] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [captchaError, setCaptchaError] = useState(false);

  const set = (name: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: e.target.value }));

  async function onSubmit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!token) {
      setCaptchaError(true);
      toast.error(CAPTCHA_REQUIRED);
      return;
    }
    setCaptchaError(false);
    setSubmitting(true);
    try {
      await apiRequest('POST', '/api/contact', { ...values, captcha: token });
      toast.success('Message sent successfully!', { description: "We'll get back to you within 24 hours." });
      setValues(EMPTY);
    } catch {
      toast.error('Failed to send message', {
        description: 'Please try again later or contact us directly.',
      });
    } finally {
      // Turnstile tokens are single use: a fresh challenge after every attempt.
      captcha.current?.reset();
      setSubmitting(false);
    }
  }

  const field = (
    name: 'name' | 'email' | 'phone',
    label: string,
    type: string,
    autoComplete: string,
    required: boolean,
  ) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        id={`${id}-${name}`}
        name={name}
        type={type}
        autoComplete={autoComplete}
        required={required}
        value={values[name]}
        onChange={set(name)}
      />
    </div>
  );

  return (
    <form className="form-card" onSubmit={(e) => void onSubmit(e)} aria-label="Send us a message">
      <div className="field-grid">
        {field('name', 'Full Name', 'text', 'name', true)}
        {field('email', 'Email', 'email', 'email', true)}
        {field('phone', 'Phone (optional)', 'tel', 'tel', false)}
        <div className="field">
          <label htmlFor={`${id}-subject`}>
            Subject<span aria-hidden="true"> *</span>
          </label>
          <select
            id={`${id}-subject`}
            name="subject"
            required
            value={values.subject}
            onChange={set('subject')}
          >
            <option value="">Select a subject</option>
            {CONTACT_SUBJECTS.map((s) => (
              <option key={s} value={s}>
                {CONTACT_SUBJECT_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-message`}>
          Message<span aria-hidden="true"> *</span>
        </label>
        <textarea
          id={`${id}-message`}
          name="message"
          rows={6}
          required
          maxLength={5000}
          value={values.message}
          onChange={set('message')}
        />
      </div>
      <Captcha ref={captcha} siteKey={captchaSiteKey} onToken={setToken} />
      {captchaError && (
        <p className="alert alert--error" role="alert">
          {CAPTCHA_REQUIRED}
        </p>
      )}
      <button type="submit" className="btn btn--primary btn--block" disabled={submitting}>
        {submitting ? 'Sending...' : 'Send Message'}
      </button>
    </form>
  );
}
