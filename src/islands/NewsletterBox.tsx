import { useId } from 'react';
import type { OutcomeCopy, newsletterForm } from '../content/forms.ts';
import type { FormUi } from '../content/ui.ts';
import { toast } from '../lib/client/toast';
import { ApiError, apiRequest, messageOf } from '../lib/client/api.ts';
import type { Lang } from '../lib/lang.ts';
import { FIELD_MAX, formEndpoint, type FormInput } from '../lib/schemas/public-forms.ts';
import Captcha from './Captcha.tsx';
import { usePublicForm } from './form-kit/use-public-form.ts';
import '../styles/islands.css';

interface Props {
  /** The page the box is on, kept with the subscription. */
  sourcePage: string;
  /** The thank-you and the box's words (src/content/forms.ts), passed by the page. */
  sent: OutcomeCopy;
  labels: typeof newsletterForm;
  /** The page's language: posted with the address (the consent wording recorded, the email's language). */
  lang: Lang;
  /** The captcha's words in that language (src/content/ui.ts `formUi`). */
  words: FormUi;
  /** PUBLIC_TURNSTILE_SITE_KEY (empty: local test widget). */
  captchaSiteKey?: string | undefined;
  /** What the captcha says with scripts off (src/content/forms.ts). */
  captchaNote: string;
  initialValues?: FormInput | undefined;
}

/**
 * Blog newsletter box (spec section 5, docs/decisions/167-email-and-newsletter.md, 079-newsletter-double-opt-in.md): the browser checks the email
 * (its own message), then the captcha; POST /api/email-subscribers keeps the
 * address as pending and emails a confirmation link, and the thank-you toast
 * says to check the inbox (docs/decisions/167-email-and-newsletter.md).
 * A real POST form without JavaScript.
 */
export default function NewsletterBox({
  sourcePage,
  sent,
  labels,
  lang,
  words,
  captchaSiteKey,
  captchaNote,
  initialValues = {},
}: Props) {
  const id = useId();
  const { formProps, submitting, captchaRef, captchaField } = usePublicForm('newsletter', {
    captchaMessage: words.captchaRequired,
    onProblem: (p) => toast.error(p.title),
    async send(input, form) {
      try {
        await apiRequest('POST', formEndpoint('newsletter'), input);
        toast.success(sent.heading, { description: sent.text });
        form.reset();
      } catch (err) {
        // The server words its answers in English: a page in another language shows its own.
        const description =
          lang === 'en'
            ? messageOf(err, labels.tryLater)
            : err instanceof ApiError && err.fields.email
              ? labels.invalidEmail
              : labels.tryLater;
        toast.error(labels.failure, { description });
      }
    },
  });

  return (
    <form className="newsletter-form" {...formProps} aria-label={labels.formLabel}>
      <input
        type="hidden"
        name="sourcePage"
        value={typeof initialValues.sourcePage === 'string' ? initialValues.sourcePage : sourcePage}
      />
      <input type="hidden" name="lang" value={lang} />
      <label htmlFor={`${id}-email`} className="visually-hidden">
        {labels.label}
      </label>
      <input
        id={`${id}-email`}
        type="email"
        name="email"
        required
        autoComplete="email"
        maxLength={FIELD_MAX.email}
        placeholder={labels.placeholder}
        defaultValue={typeof initialValues.email === 'string' ? initialValues.email : undefined}
      />
      <button type="submit" className="btn btn--primary" disabled={submitting}>
        {labels.submit}
      </button>
      <Captcha
        ref={captchaRef}
        siteKey={captchaSiteKey}
        name={captchaField}
        noscriptNote={captchaNote}
        words={words}
      />
    </form>
  );
}
