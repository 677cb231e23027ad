import { useId, useState } from 'react';
import type { FormUi } from '../content/ui.ts';
import { toast } from '../lib/client/toast';
import type { Lang } from '../lib/lang.ts';
import { ApiError, apiRequest } from '../lib/client/api.ts';
import {
  CONTACT_SUBJECTS,
  formEndpoint,
  type ContactSubject,
  type FormInput,
} from '../lib/schemas/public-forms.ts';
import Captcha from './Captcha.tsx';
import { FormAlert, SelectField, TextAreaField, TextField } from './form-kit/Field.tsx';
import { fieldPropsIn } from './form-kit/field-message.ts';
import { usePublicForm } from './form-kit/use-public-form.ts';
import '../styles/islands.css';

interface Props {
  /** The page's language, posted with the message (docs/decisions/166-spanish.md). */
  lang: Lang;
  /** The form's words in that language (src/content/ui.ts `formUi`), and its confirmation. */
  words: FormUi;
  sentText: string;
  /** Display labels of the subjects (src/content/contact.ts). */
  subjectLabels: Record<ContactSubject, string>;
  /** PUBLIC_TURNSTILE_SITE_KEY (empty: local test widget). */
  captchaSiteKey?: string | undefined;
  /** What the captcha says with scripts off (src/content/forms.ts). */
  captchaNote: string;
  /** An outcome page's refill after a refused form post. */
  initialValues?: FormInput | undefined;
  initialFieldErrors?: Record<string, string> | undefined;
}

/** Contact form (spec sections 2, 4, 5, 8): success clears the fields and the captcha. */
export default function ContactForm({
  lang,
  words,
  sentText,
  subjectLabels,
  captchaSiteKey,
  captchaNote,
  initialValues = {},
  initialFieldErrors = {},
}: Props) {
  const id = useId();
  const [captchaMissing, setCaptchaMissing] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>(initialFieldErrors);
  const [error, setError] = useState<string | null>(null);
  const field = fieldPropsIn(id, lang, words, initialValues, fieldErrors);
  const { formProps, submitting, captchaRef, captchaField } = usePublicForm('contact', {
    captchaMessage: words.captchaRequired,
    onProblem(p) {
      setCaptchaMissing(true);
      toast.error(p.title);
    },
    async send(input, form) {
      setCaptchaMissing(false);
      setError(null);
      setFieldErrors({});
      try {
        await apiRequest('POST', formEndpoint('contact'), input);
        toast.success(words.contact.success, { description: sentText });
        form.reset();
      } catch (err) {
        // A refusal that names fields (a 400 such as 'Please enter a valid email address') is shown on those
        // fields, as the volunteer form does; "try again later" stays for a failure a retry can fix
        // (network, 429, 5xx): docs/decisions/159-public-forms.md.
        const fields = err instanceof ApiError && err.status < 500 && err.status !== 429 ? err.fields : {};
        const first = Object.keys(fields)[0];
        if (err instanceof ApiError && first) {
          setFieldErrors(fields);
          setError((lang === 'en' && err.serverMessage) || words.volunteer.checkForm);
          // The first marked field, for keyboard and screen-reader users (its message is its description).
          requestAnimationFrame(() =>
            form.querySelector<HTMLElement>(`[name="${CSS.escape(first)}"]`)?.focus(),
          );
          return;
        }
        toast.error(words.contact.failure, { description: words.contact.failureText });
      }
    },
  });

  return (
    <form className="form-card" {...formProps} aria-label={words.contact.formLabel}>
      <input type="hidden" name="lang" value={lang} />
      <div className="field-grid">
        <TextField {...field('name')} label={words.fullName} required autoComplete="name" />
        <TextField {...field('email')} label={words.email} type="email" required autoComplete="email" />
        <TextField {...field('phone')} label={words.phoneOptional} type="tel" autoComplete="tel" />
        <SelectField
          {...field('subject')}
          label={words.subject}
          required
          placeholder={words.selectSubject}
          options={CONTACT_SUBJECTS.map((s) => ({ value: s, label: subjectLabels[s] }))}
        />
      </div>
      <TextAreaField {...field('message')} label={words.message} required />
      <Captcha
        ref={captchaRef}
        siteKey={captchaSiteKey}
        name={captchaField}
        noscriptNote={captchaNote}
        words={words}
      />
      {captchaMissing && <FormAlert message={words.captchaRequired} />}
      <FormAlert message={error} />
      <button type="submit" className="btn btn--primary btn--block" disabled={submitting}>
        {submitting ? words.contact.submitting : words.contact.submit}
      </button>
    </form>
  );
}
