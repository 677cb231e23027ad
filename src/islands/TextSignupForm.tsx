import { useId, useState, type ReactNode } from 'react';
import type { FormCopy } from '../content/forms.ts';
import { toast } from '../lib/client/toast';
import { apiRequest, messageOf } from '../lib/client/api.ts';
import { textSignupProblem } from '../lib/client/validation.ts';
import { FIELD_MAX, type FormInput } from '../lib/schemas/public-forms.ts';
import { CheckboxField, TextField } from './form-kit/Field.tsx';
import { usePublicForm } from './form-kit/use-public-form.ts';
import Captcha from './Captcha.tsx';
import '../styles/islands.css';

interface Props {
  /** SMS_CONSENT_TEXT (src/content/consent.ts), passed by the page. */
  consentText: string;
  /** The page the form is on, posted with it for the consent record. */
  sourcePage: string;
  /** The confirmations (src/content/forms.ts `formCopy['text-signup'].outcomes`), passed by the page. */
  outcomes: FormCopy['outcomes'];
  /** An outcome page's refill after a refused form post. */
  initialValues?: FormInput | undefined;
  initialFieldErrors?: Record<string, string> | undefined;
  /** PUBLIC_TURNSTILE_SITE_KEY (empty: local test widget). */
  captchaSiteKey?: string | undefined;
  /** What the bot check says with scripts off (src/content/forms.ts). */
  captchaNote?: string | undefined;
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

const str = (v: FormInput[string] | undefined) => (typeof v === 'string' ? v : undefined);

/**
 * Text-message sign-up (spec sections 2, 4, 5, 8): idle -> submitting ->
 * success (form replaced) or failure (toast, form stays filled). A real POST
 * form: before hydration or without JavaScript the browser posts it and the
 * server answers with the outcome page.
 */
export default function TextSignupForm({
  consentText,
  sourcePage,
  outcomes,
  initialValues = {},
  initialFieldErrors = {},
  captchaSiteKey,
  captchaNote,
}: Props) {
  const id = useId();
  // `opted_out`: the number texted STOP; only START from that phone re-subscribes it (issue 15).
  const [done, setDone] = useState<'sent' | 'opted_out' | null>(null);
  const { formProps, submitting, captchaRef, captchaField } = usePublicForm('text-signup', {
    ownValidation: true,
    check: (input) =>
      textSignupProblem({ firstName: str(input.firstName) ?? '', smsConsent: input.smsConsent === true }),
    onProblem: (p) => toast.error(p.title, p.description ? { description: p.description } : undefined),
    async send(input) {
      try {
        const res = await apiRequest<{ message?: string; status?: string }>('POST', '/api/newsletter', input);
        if (res?.status === 'opted_out') {
          setDone('opted_out');
          return;
        }
        setDone('sent');
        toast.success('Successfully subscribed!', {
          description: res?.message || "You're signed up for text messages!",
        });
      } catch (err) {
        toast.error('Subscription failed', { description: messageOf(err, 'Please try again later') });
      }
    },
  });

  if (done) {
    const outcome = done === 'sent' ? outcomes.sent : (outcomes[done] ?? outcomes.sent);
    return (
      <div className="form-card signup-done" role="status">
        <h3>{outcome.heading}</h3>
        <p>{outcome.text}</p>
        {done === 'opted_out' && (
          <button type="button" className="btn btn--secondary" onClick={() => setDone(null)}>
            {outcome.link.label}
          </button>
        )}
      </div>
    );
  }

  return (
    <form className="form-card" {...formProps} aria-label="Sign up for text messages">
      <input type="hidden" name="sourcePage" value={str(initialValues.sourcePage) ?? sourcePage} />
      <TextField
        idBase={id}
        name="firstName"
        label="First Name"
        required
        autoComplete="given-name"
        maxLength={FIELD_MAX.firstName}
        defaultValue={str(initialValues.firstName)}
        error={initialFieldErrors.firstName}
      />
      <div className="field-row">
        <TextField
          idBase={id}
          name="phone"
          label="Phone"
          type="tel"
          autoComplete="tel"
          maxLength={FIELD_MAX.phone}
          defaultValue={str(initialValues.phone)}
          error={initialFieldErrors.phone}
        />
        <TextField
          idBase={id}
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          maxLength={FIELD_MAX.email}
          defaultValue={str(initialValues.email)}
          error={initialFieldErrors.email}
        />
      </div>
      <CheckboxField
        idBase={id}
        name="smsConsent"
        required
        defaultChecked={initialValues.smsConsent === true}
        labelClassName="consent-text"
        label={<ConsentText text={consentText} />}
        error={initialFieldErrors.smsConsent}
      />
      <Captcha ref={captchaRef} siteKey={captchaSiteKey} name={captchaField} noscriptNote={captchaNote} />
      <button type="submit" className="btn btn--primary btn--block" disabled={submitting}>
        {submitting ? 'Signing Up...' : 'Sign Up For Text Messages'}
      </button>
    </form>
  );
}
