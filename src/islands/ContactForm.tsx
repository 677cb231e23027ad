import { useId, useState } from 'react';
import { toast } from '../lib/client/toast';
import { apiRequest } from '../lib/client/api.ts';
import {
  CAPTCHA_REQUIRED,
  CONTACT_SUBJECTS,
  FIELD_MAX,
  type ContactSubject,
  type FormInput,
} from '../lib/schemas/public-forms.ts';
import Captcha from './Captcha.tsx';
import { FormAlert, SelectField, TextAreaField, TextField } from './form-kit/Field.tsx';
import { usePublicForm } from './form-kit/use-public-form.ts';
import '../styles/islands.css';

interface Props {
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

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Contact form (spec sections 2, 4, 5, 8): success clears the fields and the captcha. */
export default function ContactForm({
  subjectLabels,
  captchaSiteKey,
  captchaNote,
  initialValues = {},
  initialFieldErrors = {},
}: Props) {
  const id = useId();
  const [captchaMissing, setCaptchaMissing] = useState(false);
  const { formProps, submitting, captchaRef, captchaField } = usePublicForm('contact', {
    onProblem(p) {
      setCaptchaMissing(true);
      toast.error(p.title);
    },
    async send(input, form) {
      setCaptchaMissing(false);
      try {
        await apiRequest('POST', '/api/contact', input);
        toast.success('Message sent successfully!', {
          description: "We'll get back to you within 24 hours.",
        });
        form.reset();
      } catch {
        toast.error('Failed to send message', {
          description: 'Please try again later or contact us directly.',
        });
      }
    },
  });

  return (
    <form className="form-card" {...formProps} aria-label="Send us a message">
      <div className="field-grid">
        <TextField
          idBase={id}
          name="name"
          label="Full Name"
          required
          autoComplete="name"
          maxLength={FIELD_MAX.name}
          defaultValue={str(initialValues.name)}
          error={initialFieldErrors.name}
        />
        <TextField
          idBase={id}
          name="email"
          label="Email"
          type="email"
          required
          autoComplete="email"
          maxLength={FIELD_MAX.email}
          defaultValue={str(initialValues.email)}
          error={initialFieldErrors.email}
        />
        <TextField
          idBase={id}
          name="phone"
          label="Phone (optional)"
          type="tel"
          autoComplete="tel"
          maxLength={FIELD_MAX.phone}
          defaultValue={str(initialValues.phone)}
          error={initialFieldErrors.phone}
        />
        <SelectField
          idBase={id}
          name="subject"
          label="Subject"
          required
          placeholder="Select a subject"
          options={CONTACT_SUBJECTS.map((s) => ({ value: s, label: subjectLabels[s] }))}
          defaultValue={str(initialValues.subject)}
          error={initialFieldErrors.subject}
        />
      </div>
      <TextAreaField
        idBase={id}
        name="message"
        label="Message"
        required
        maxLength={FIELD_MAX.message}
        defaultValue={str(initialValues.message)}
        error={initialFieldErrors.message}
      />
      <Captcha ref={captchaRef} siteKey={captchaSiteKey} name={captchaField} noscriptNote={captchaNote} />
      {captchaMissing && <FormAlert message={CAPTCHA_REQUIRED} />}
      <button type="submit" className="btn btn--primary btn--block" disabled={submitting}>
        {submitting ? 'Sending...' : 'Send Message'}
      </button>
    </form>
  );
}
