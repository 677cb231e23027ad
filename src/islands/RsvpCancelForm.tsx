import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiError, apiRequest } from '../lib/client/api.ts';
import type { RsvpCancelWords } from '../content/ui.ts';
import { formEndpoint } from '../lib/schemas/public-forms.ts';
import { RSVP_MESSAGES } from '../lib/schemas/rsvp-rules.ts';
import { markBusy } from './form-kit/static-form.ts';
import '../styles/islands.css';

/** A text field of a submitted form ('' when missing or a file). */
const text = (data: FormData, name: string) => {
  const v = data.get(name);
  return typeof v === 'string' ? v : '';
};

interface Props {
  children?: ReactNode;
  /** The page's words (src/content/ui.ts `rsvpCancelCopy`, in the page's language). */
  words: Pick<
    RsvpCancelWords,
    'submit' | 'submitting' | 'cancelledHeading' | 'cancelled' | 'alreadyCancelled' | 'badLink' | 'failed'
  > & { allEvents: { label: string } };
  /** The list of events in the page's language. */
  allEvents: string;
}

/**
 * Posts the static cancellation form as JSON and, once cancelled, shows the
 * cancelled state in its place (the button is gone, so it cannot be pressed
 * again); the page shows the same state when the link is opened again.
 */
export default function RsvpCancelForm({ children, words, allEvents }: Props) {
  const wrap = useRef<HTMLDivElement>(null);
  const done = useRef<HTMLDivElement>(null);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    const form = wrap.current?.querySelector<HTMLFormElement>('form[data-cancel-form]');
    if (!form) return;
    const alert = form.querySelector<HTMLElement>('[data-cancel-error]');
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    const onSubmit = async (e: SubmitEvent) => {
      e.preventDefault();
      if (button?.disabled) return;
      const data = new FormData(form);
      markBusy(button, true, words);
      try {
        const r = await apiRequest<{ message: string }>('POST', formEndpoint('rsvp-cancel'), {
          event: Number(data.get('event')),
          token: text(data, 'token'),
          lang: text(data, 'lang') || undefined,
        });
        form.hidden = true;
        setMessage(r.message === RSVP_MESSAGES.alreadyCancelled ? words.alreadyCancelled : words.cancelled);
      } catch (err) {
        if (alert) {
          alert.textContent = err instanceof ApiError && err.status === 404 ? words.badLink : words.failed;
          alert.hidden = false;
        }
        markBusy(button, false, words);
      }
    };
    const listener = (e: SubmitEvent) => void onSubmit(e);
    form.addEventListener('submit', listener);
    return () => form.removeEventListener('submit', listener);
  }, [words]);

  useEffect(() => {
    if (message) done.current?.focus();
  }, [message]);

  return (
    <div ref={wrap}>
      {children}
      {message ? (
        <div className="form-card" role="status" tabIndex={-1} ref={done} data-cancel-state="cancelled">
          <h2>{words.cancelledHeading}</h2>
          <p>{message}</p>
          <a className="btn btn--secondary" href={allEvents}>
            {words.allEvents.label}
          </a>
        </div>
      ) : null}
    </div>
  );
}
