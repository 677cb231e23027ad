import { useEffect, useRef, useState, type SyntheticEvent } from 'react';
import {
  CAPTCHA_REQUIRED,
  PUBLIC_FORMS,
  formFieldsToInput,
  type FormInput,
  type PublicForm,
  type PublicFormId,
} from '../../lib/schemas/public-forms.ts';
import type { Problem } from '../../lib/client/validation.ts';
import type { CaptchaHandle } from '../Captcha.tsx';

interface Options {
  /** The island's own checks, in the spec's order; the first problem stops the submit. */
  check?: (input: FormInput) => Problem | null;
  /** Shows a problem (a toast, an alert). The captcha check comes after `check`. */
  onProblem: (problem: Problem) => void;
  /** Sends the input over fetch and shows the outcome; the captcha is reset afterwards either way. */
  send: (input: FormInput, form: HTMLFormElement) => Promise<void>;
  /**
   * The island shows its own messages for empty required fields (the text
   * sign-up's toasts), so the form turns off the browser's own once hydrated.
   * Before hydration and without JavaScript the browser still checks them.
   */
  ownValidation?: boolean;
  /** The captcha message in the page's language (default: the English CAPTCHA_REQUIRED). */
  captchaMessage?: string | undefined;
}

/**
 * The public forms' submit hook (docs/decisions/162-public-pages-and-performance.md): the <form> is a real POST to its
 * endpoint (so it works before hydration and without JavaScript), and once
 * hydrated the submit reads the same fields (`formFieldsToInput`, shared with
 * the server), runs the island's checks and then the captcha check, sends over
 * fetch, and resets the single-use captcha token after every attempt.
 */
export function usePublicForm(id: PublicFormId, options: Options) {
  const form: PublicForm = PUBLIC_FORMS[id];
  const captchaRef = useRef<CaptchaHandle>(null);
  const [submitting, setSubmitting] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  async function onSubmit(event: SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const element = event.currentTarget;
    const input = formFieldsToInput(id, new FormData(element));
    const problem =
      options.check?.(input) ??
      (form.captchaField && !input[form.captchaField]
        ? { title: options.captchaMessage ?? CAPTCHA_REQUIRED }
        : null);
    if (problem) {
      options.onProblem(problem);
      return;
    }
    setSubmitting(true);
    try {
      await options.send(input, element);
    } finally {
      setSubmitting(false);
      captchaRef.current?.reset(); // Turnstile tokens are single use
    }
  }

  return {
    submitting,
    captchaRef,
    /** The schema's captcha field name (the local test widget posts under it). */
    captchaField: form.captchaField,
    formProps: {
      method: 'post',
      action: form.endpoint,
      noValidate: options.ownValidation ? hydrated : undefined,
      onSubmit: (e: SyntheticEvent<HTMLFormElement>) => void onSubmit(e),
    },
  };
}
