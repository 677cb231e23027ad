import { useEffect, useId, useRef, useState } from 'react';
import type { OutcomeCopy } from '../content/forms.ts';
import type { FormUi } from '../content/ui.ts';
import { fill } from '../lib/fill.ts';
import type { Lang } from '../lib/lang.ts';
import { toast } from '../lib/client/toast';
import {
  flushOutbox,
  postVolunteer,
  readOutbox,
  removeFromOutbox,
  saveForRetry,
  type PendingSignup,
} from '../lib/client/volunteer-outbox.ts';
import { FIELD_MAX, STATES, type FormInput, type VolunteerState } from '../lib/schemas/public-forms.ts';
import Captcha from './Captcha.tsx';
import { CheckboxField, FormAlert, SelectField, TextField } from './form-kit/Field.tsx';
import { fieldPropsIn } from './form-kit/field-message.ts';
import { usePublicForm } from './form-kit/use-public-form.ts';
import '../styles/islands.css';

interface Props {
  /**
   * The six help areas, offered as optional interest checkboxes: `value` is
   * what is stored (the English title, so staff see one list), `label` what
   * the page's language calls it.
   */
  helpAreas: { value: string; label: string }[];
  /** The page's language, posted with the sign-up (docs/decisions/166-spanish.md). */
  lang: Lang;
  /** The form's words in that language (src/content/ui.ts `formUi`). */
  words: FormUi;
  /** Display names of the states (content module). */
  stateLabels: Record<VolunteerState, string>;
  /** PUBLIC_TURNSTILE_SITE_KEY (empty: local test widget). */
  captchaSiteKey?: string | undefined;
  /** The confirmation (src/content/forms.ts), and what the captcha says with scripts off. */
  sent: OutcomeCopy;
  captchaNote: string;
  /** An outcome page's refill after a refused form post. */
  initialValues?: FormInput | undefined;
  initialFieldErrors?: Record<string, string> | undefined;
}

type Outcome = 'sent' | 'saved';

const TEXT_FIELDS: {
  name: 'firstName' | 'lastName' | 'email' | 'phone' | 'address1' | 'address2' | 'city';
  /** The label's key in the form's words. */
  label: 'firstName' | 'lastName' | 'email' | 'mobile' | 'address1' | 'address2' | 'city';
  type?: 'email' | 'tel';
  autoComplete: string;
  max: number;
  optional?: boolean;
}[] = [
  { name: 'firstName', label: 'firstName', autoComplete: 'given-name', max: FIELD_MAX.firstName },
  { name: 'lastName', label: 'lastName', autoComplete: 'family-name', max: FIELD_MAX.lastName },
  { name: 'email', label: 'email', type: 'email', autoComplete: 'email', max: FIELD_MAX.email },
  { name: 'phone', label: 'mobile', type: 'tel', autoComplete: 'tel', max: FIELD_MAX.phone },
  { name: 'address1', label: 'address1', autoComplete: 'address-line1', max: FIELD_MAX.address },
  {
    name: 'address2',
    label: 'address2',
    autoComplete: 'address-line2',
    max: FIELD_MAX.address,
    optional: true,
  },
  { name: 'city', label: 'city', autoComplete: 'address-level2', max: FIELD_MAX.city },
];

/**
 * Volunteer sign-up (spec sections 2-5, 8). Success is shown only when the
 * server accepted the sign-up, or when it could not be reached and the sign-up
 * was saved in this browser for an automatic retry (docs/decisions/159-public-forms.md). A 4xx
 * shows the server's field errors and never claims success.
 */
export default function VolunteerForm({
  helpAreas,
  lang,
  words,
  stateLabels,
  captchaSiteKey,
  sent,
  captchaNote,
  initialValues = {},
  initialFieldErrors = {},
}: Props) {
  const id = useId();
  // A new key remounts the (uncontrolled) fields with new defaults: a reset, or a saved sign-up put back.
  const [version, setVersion] = useState(0);
  const [values, setValues] = useState<FormInput>(initialValues);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>(initialFieldErrors);
  const [resubmit, setResubmit] = useState<PendingSignup | null>(null);

  // Send sign-ups saved on an earlier visit; one whose captcha expired comes back into the form.
  useEffect(() => {
    const flush = () =>
      void flushOutbox(postVolunteer).then((left) => {
        const stuck = left.find((e) => e.needsCaptcha);
        if (!stuck) return;
        setResubmit(stuck);
        const { captchaResponse: _token, ...saved } = stuck.payload as FormInput;
        setValues(saved);
        setVersion((v) => v + 1);
      });
    if (readOutbox().length > 0) flush();
    window.addEventListener('online', flush);
    return () => window.removeEventListener('online', flush);
  }, []);

  // The thank-you card replaces a long form: on a phone the page would stay scrolled past it. Focus (and so
  // scroll) moves to its heading (docs/decisions/159-public-forms.md).
  const doneHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!outcome || !doneHeading.current) return;
    // At once, not smooth: the page gets much shorter as the form goes, which can cut a smooth scroll short.
    // Below the sticky header as it really is: on a phone it is taller than the 4rem scroll-padding-top allows for.
    const heading = doneHeading.current;
    heading.focus({ preventScroll: true });
    const header = document.querySelector('.site-header')?.getBoundingClientRect().bottom ?? 0;
    window.scrollBy({
      top: heading.getBoundingClientRect().top - Math.max(header, 0) - 16,
      behavior: 'instant',
    });
  }, [outcome]);

  const field = fieldPropsIn(id, lang, words, values, fieldErrors);
  const { formProps, submitting, captchaRef, captchaField } = usePublicForm('volunteer', {
    captchaMessage: words.captchaRequired,
    onProblem(p) {
      setError(p.title);
      toast.error(p.title);
    },
    async send(payload) {
      setError(null);
      setFieldErrors({});
      const res = await postVolunteer(payload);
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
        setError(words.volunteer.offline);
        return;
      }
      setError((lang === 'en' && res.error) || words.volunteer.checkForm);
      setFieldErrors(res.fields ?? {});
    },
  });

  function reset() {
    setValues({});
    setError(null);
    setFieldErrors({});
    setOutcome(null);
    setVersion((v) => v + 1);
  }

  if (outcome) {
    return (
      <div className="form-card volunteer-done" role="status" data-volunteer-form>
        <h3 ref={doneHeading} tabIndex={-1}>
          {sent.heading}
        </h3>
        {outcome === 'sent' ? <p>{sent.text}</p> : <p>{words.volunteer.saved}</p>}
        <button type="button" className="btn btn--secondary" onClick={reset}>
          {sent.link.label}
        </button>
      </div>
    );
  }

  const interests = Array.isArray(values.interests) ? values.interests : [];
  return (
    <form
      key={version}
      className="form-card"
      {...formProps}
      aria-label={words.volunteer.formLabel}
      data-volunteer-form
    >
      <input type="hidden" name="lang" value={lang} />
      {resubmit && (
        <p className="notice notice--info">
          {fill(words.volunteer.resubmit, new Date(resubmit.savedAt).toLocaleDateString(`${lang}-US`))}
        </p>
      )}
      <div className="field-grid">
        {TEXT_FIELDS.map((f) => (
          <TextField
            key={f.name}
            {...field(f.name)}
            label={words[f.label]}
            type={f.type}
            autoComplete={f.autoComplete}
            maxLength={f.max}
            required={!f.optional}
          />
        ))}
        <SelectField
          {...field('state')}
          label={words.state}
          required
          placeholder={words.selectState}
          options={STATES.map((s) => ({ value: s, label: stateLabels[s] }))}
        />
        {/* Optional, for voter-file matching (docs/decisions/159-public-forms.md); the server checks the format. */}
        <TextField {...field('zip')} label={words.zip} autoComplete="postal-code" inputMode="numeric" />
      </div>
      {helpAreas.length > 0 && (
        <fieldset className="interests">
          <legend>{words.interests}</legend>
          {helpAreas.map((area, i) => (
            <CheckboxField
              key={area.value}
              idBase={id}
              name="interests"
              idSuffix={String(i)}
              value={area.value}
              label={area.label}
              defaultChecked={interests.includes(area.value)}
            />
          ))}
        </fieldset>
      )}
      <Captcha
        ref={captchaRef}
        siteKey={captchaSiteKey}
        name={captchaField}
        noscriptNote={captchaNote}
        words={words}
      />
      <FormAlert message={error} />
      <button type="submit" className="btn btn--primary btn--block" disabled={submitting}>
        {submitting ? words.volunteer.submitting : words.volunteer.submit}
      </button>
    </form>
  );
}
