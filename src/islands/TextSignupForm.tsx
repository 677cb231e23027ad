import { useId, useState, type ReactNode } from 'react';
import type { FormCopy } from '../content/forms.ts';
import type { FormUi } from '../content/ui.ts';
import type { Lang } from '../lib/lang.ts';
import { toast } from '../lib/client/toast';
import { ApiError, apiRequest, messageOf } from '../lib/client/api.ts';
import { textSignupProblem } from '../lib/client/validation.ts';
import { formEndpoint, type FormInput } from '../lib/schemas/public-forms.ts';
import { CheckboxField, TextField } from './form-kit/Field.tsx';
import { fieldMessageIn, fieldPropsIn, textValue } from './form-kit/field-message.ts';
import { usePublicForm } from './form-kit/use-public-form.ts';
import Captcha from './Captcha.tsx';
import '../styles/islands.css';

interface Props {
  /** SMS_CONSENT[lang].text (src/content/consent.ts), passed by the page. */
  consentText: string;
  /** The page's language: posted with the sign-up (docs/decisions/166-spanish.md), and where the policy links lead. */
  lang: Lang;
  /** The form's words in that language (src/content/ui.ts `formUi`). */
  words: FormUi;
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

/** The consent text with the policy names ("Privacy Policy", "Política de Privacidad") as links that open in a new tab. */
function ConsentText({ text, words, lang }: { text: string; words: FormUi; lang: Lang }) {
  const prefix = lang === 'en' ? '' : `/${lang}`;
  const links = new Map([
    [words.privacyPolicy, `${prefix}/privacy-policy`],
    [words.termsOfUse, `${prefix}/terms-of-use`],
  ]);
  const parts: ReactNode[] = [];
  let last = 0;
  for (;;) {
    const found = [...links.keys()]
      .map((label) => ({ label, at: text.indexOf(label, last) }))
      .filter((f) => f.at >= 0)
      .sort((a, b) => a.at - b.at)[0];
    if (!found) break;
    parts.push(text.slice(last, found.at));
    parts.push(
      <a key={found.at} href={links.get(found.label)} target="_blank" rel="noopener">
        {found.label}
        <span className="visually-hidden"> {words.opensInNewTab}</span>
      </a>,
    );
    last = found.at + found.label.length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}

/**
 * Text-message sign-up (spec sections 2, 4, 5, 8): idle -> submitting ->
 * success (form replaced) or failure (toast, form stays filled). A real POST
 * form: before hydration or without JavaScript the browser posts it and the
 * server answers with the outcome page.
 */
export default function TextSignupForm({
  consentText,
  lang,
  words,
  sourcePage,
  outcomes,
  initialValues = {},
  initialFieldErrors = {},
  captchaSiteKey,
  captchaNote,
}: Props) {
  const id = useId();
  const fieldMessage = fieldMessageIn(lang, words);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>(initialFieldErrors);
  const field = fieldPropsIn(id, lang, words, initialValues, fieldErrors);
  // `opted_out`: the number texted STOP; only START from that phone re-subscribes it (docs/decisions/151-texting.md).
  const [done, setDone] = useState<'sent' | 'opted_out' | null>(null);
  const { formProps, submitting, captchaRef, captchaField } = usePublicForm('text-signup', {
    ownValidation: true,
    captchaMessage: words.captchaRequired,
    check: (input) =>
      textSignupProblem(
        { firstName: textValue(input.firstName) ?? '', smsConsent: input.smsConsent === true },
        {
          firstName: { title: words.textSignup.firstNameTitle, description: words.textSignup.firstNameText },
          consent: { title: words.textSignup.consentTitle, description: words.textSignup.consentText },
          captcha: { title: words.captchaRequired },
        },
      ),
    onProblem: (p) => toast.error(p.title, p.description ? { description: p.description } : undefined),
    async send(input) {
      setFieldErrors({});
      try {
        const res = await apiRequest<{ message?: string; status?: string }>(
          'POST',
          formEndpoint('text-signup'),
          input,
        );
        if (res?.status === 'opted_out') {
          setDone('opted_out');
          return;
        }
        setDone('sent');
        // The server's message is English; a page in another language shows its own words.
        toast.success(words.textSignup.success, {
          description: (lang === 'en' && res?.message) || words.textSignup.successText,
        });
      } catch (err) {
        // The server words its refusals in English: a page in another language shows the field's own
        // message where it has one, else its own words.
        const first = err instanceof ApiError ? Object.entries(err.fields)[0] : undefined;
        const [name, message] = first ?? [];
        const own = name === undefined ? undefined : fieldMessage(name, message);
        // The field is marked too (a sign-up with no phone: docs/decisions/151-texting.md).
        if (err instanceof ApiError && err.status < 500) setFieldErrors(err.fields);
        const description =
          lang === 'en' ? messageOf(err, words.tryLater) : own && own !== message ? own : words.tryLater;
        toast.error(words.textSignup.failure, { description });
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
    <form className="form-card" {...formProps} aria-label={words.textSignup.formLabel}>
      <input type="hidden" name="sourcePage" value={textValue(initialValues.sourcePage) ?? sourcePage} />
      <input type="hidden" name="lang" value={lang} />
      <TextField {...field('firstName')} label={words.firstName} required autoComplete="given-name" />
      <div className="field-row">
        <TextField {...field('phone')} label={words.phone} type="tel" autoComplete="tel" />
        <TextField {...field('email')} label={words.email} type="email" autoComplete="email" />
      </div>
      <CheckboxField
        idBase={id}
        name="smsConsent"
        required
        defaultChecked={initialValues.smsConsent === true}
        labelClassName="consent-text"
        label={<ConsentText text={consentText} words={words} lang={lang} />}
        error={fieldMessage('smsConsent', fieldErrors.smsConsent)}
      />
      <Captcha
        ref={captchaRef}
        siteKey={captchaSiteKey}
        name={captchaField}
        noscriptNote={captchaNote}
        words={words}
      />
      <button type="submit" className="btn btn--primary btn--block" disabled={submitting}>
        {submitting ? words.textSignup.submitting : words.textSignup.submit}
      </button>
    </form>
  );
}
