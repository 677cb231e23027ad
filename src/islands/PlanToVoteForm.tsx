import { useEffect, type ReactNode } from 'react';
import { apiRequest, ApiError } from '../lib/client/api.ts';
import type { FormUi } from '../content/ui.ts';
import type { Lang } from '../lib/lang.ts';
import { formEndpoint, formFieldsToInput } from '../lib/schemas/public-forms.ts';
import { planMessageIn, type PlanErrorWords } from '../lib/vote-plan.ts';
import { markBusy, showFormErrors } from './form-kit/static-form.ts';
import { useSlotCaptcha } from './form-kit/use-slot-captcha.tsx';
import '../styles/islands.css';

/** The words the island shows (src/content/vote.ts `planCopy`), passed by the page. */
export interface PlanFormWords {
  submit: string;
  submitting: string;
  errors: PlanErrorWords;
}

interface Props {
  /** PUBLIC_TURNSTILE_SITE_KEY (empty: local test widget). */
  captchaSiteKey?: string | undefined;
  /** The server-rendered <form data-plan-form> (src/components/sections/PlanToVoteSection.astro). */
  children?: ReactNode;
  lang: Lang;
  words: PlanFormWords;
  formWords: FormUi;
}

/**
 * Adds behaviour to the static plan-to-vote form (docs/decisions/158-plan-to-vote.md): the captcha (portalled into
 * the form's slot), a JSON submit with the same fields the form posts (formFieldsToInput), field errors beside their
 * fields, and on success the plan's own page (the same page a form post without JavaScript lands on).
 */
export default function PlanToVoteForm({ captchaSiteKey, children, lang, words, formWords }: Props) {
  const { wrap, token, reset, captcha } = useSlotCaptcha('form[data-plan-form]', captchaSiteKey, formWords);

  useEffect(() => {
    const form = wrap.current?.querySelector<HTMLFormElement>('form[data-plan-form]');
    if (!form) return;
    const message = planMessageIn(lang, words.errors);
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');

    const onSubmit = async (event: SubmitEvent) => {
      event.preventDefault();
      if (!token.current) {
        showFormErrors(form, words.errors.captcha);
        return;
      }
      const input = { ...formFieldsToInput('vote-plan', new FormData(form)), captcha: token.current, lang };
      showFormErrors(form, null);
      markBusy(button, true, words);
      try {
        const r = await apiRequest<{ next: string }>('POST', formEndpoint('vote-plan'), input);
        window.location.assign(r.next);
        return;
      } catch (err) {
        const fields = err instanceof ApiError ? err.fields : {};
        const server = err instanceof ApiError ? err.serverMessage : null;
        showFormErrors(
          form,
          server ? message(server) : words.errors.offline,
          Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, message(v, k)])),
        );
      }
      reset(); // tokens are single use
      markBusy(button, false, words);
    };
    const listener = (e: SubmitEvent) => void onSubmit(e);
    form.addEventListener('submit', listener);
    return () => form.removeEventListener('submit', listener);
  }, [lang, words, wrap, token, reset]);

  return (
    <div ref={wrap}>
      {children}
      {captcha}
    </div>
  );
}
