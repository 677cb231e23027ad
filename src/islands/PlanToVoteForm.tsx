import { useEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { apiRequest, ApiError } from '../lib/client/api.ts';
import type { FormUi } from '../content/ui.ts';
import type { Lang } from '../lib/lang.ts';
import { formFieldsToInput } from '../lib/schemas/public-forms.ts';
import { VOTE_PLAN_MESSAGES } from '../lib/vote-plan.ts';
import Captcha, { type CaptchaHandle } from './Captcha.tsx';
import { showFormErrors } from './form-kit/static-form.ts';
import '../styles/islands.css';

/** The words the island shows (src/content/vote.ts `planCopy`), passed by the page. */
export interface PlanFormWords {
  submit: string;
  submitting: string;
  errors: Record<keyof typeof VOTE_PLAN_MESSAGES | 'phone' | 'email' | 'captcha' | 'offline', string>;
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

/** A server message in the page's language: the English message names its translation. */
function translate(message: string, lang: Lang, words: PlanFormWords, field?: string): string {
  if (lang === 'en') return message;
  const key = (Object.keys(VOTE_PLAN_MESSAGES) as (keyof typeof VOTE_PLAN_MESSAGES)[]).find(
    (k) => VOTE_PLAN_MESSAGES[k] === message,
  );
  if (key) return words.errors[key];
  if (field === 'phone' || field === 'email') return words.errors[field];
  return message;
}

/**
 * Adds behaviour to the static plan-to-vote form (docs/decisions/110-plan-to-vote.md): the captcha (portalled into
 * the form's slot), a JSON submit with the same fields the form posts (formFieldsToInput), field errors beside their
 * fields, and on success the plan's own page (the same page a form post without JavaScript lands on).
 */
export default function PlanToVoteForm({ captchaSiteKey, children, lang, words, formWords }: Props) {
  const wrap = useRef<HTMLDivElement>(null);
  const captcha = useRef<CaptchaHandle>(null);
  const token = useRef<string | null>(null);
  const [slot, setSlot] = useState<HTMLElement | null>(null);

  useEffect(() => {
    const form = wrap.current?.querySelector<HTMLFormElement>('form[data-plan-form]');
    if (!form) return;
    setSlot(form.querySelector<HTMLElement>('[data-captcha-slot]'));
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');

    const onSubmit = async (event: SubmitEvent) => {
      event.preventDefault();
      if (!token.current) {
        showFormErrors(form, words.errors.captcha);
        return;
      }
      const input = { ...formFieldsToInput('vote-plan', new FormData(form)), captcha: token.current, lang };
      showFormErrors(form, null);
      if (button) {
        button.disabled = true;
        button.textContent = words.submitting;
      }
      try {
        const r = await apiRequest<{ next: string }>('POST', '/api/vote-plan', input);
        window.location.assign(r.next);
        return;
      } catch (err) {
        const fields = err instanceof ApiError ? err.fields : {};
        const server = err instanceof ApiError ? err.serverMessage : null;
        showFormErrors(
          form,
          server ? translate(server, lang, words) : words.errors.offline,
          Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, translate(v, lang, words, k)])),
        );
      }
      captcha.current?.reset(); // tokens are single use
      if (button) {
        button.disabled = false;
        button.textContent = words.submit;
      }
    };
    const listener = (e: SubmitEvent) => void onSubmit(e);
    form.addEventListener('submit', listener);
    return () => form.removeEventListener('submit', listener);
  }, [lang, words]);

  return (
    <div ref={wrap}>
      {children}
      {slot
        ? createPortal(
            <Captcha
              ref={captcha}
              siteKey={captchaSiteKey}
              words={formWords}
              onToken={(t) => (token.current = t)}
            />,
            slot,
          )
        : null}
    </div>
  );
}
