import { useEffect, useRef, useState, type ReactNode } from 'react';
import { apiRequest, messageOf } from '../lib/client/api.ts';
import '../styles/islands.css';

/** A text field of a submitted form ('' when missing or a file). */
const text = (data: FormData, name: string) => {
  const v = data.get(name);
  return typeof v === 'string' ? v : '';
};

/** Posts the static cancellation form as JSON and shows the answer in its place. */
export default function RsvpCancelForm({ children }: { children?: ReactNode }) {
  const wrap = useRef<HTMLDivElement>(null);
  const done = useRef<HTMLParagraphElement>(null);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    const form = wrap.current?.querySelector<HTMLFormElement>('form[data-cancel-form]');
    if (!form) return;
    const alert = form.querySelector<HTMLElement>('[data-cancel-error]');
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    const onSubmit = async (e: SubmitEvent) => {
      e.preventDefault();
      const data = new FormData(form);
      if (button) button.disabled = true;
      try {
        const r = await apiRequest<{ message: string }>('POST', '/api/rsvp/cancel', {
          event: Number(data.get('event')),
          rsvp: text(data, 'rsvp'),
          token: text(data, 'token'),
        });
        form.hidden = true;
        setMessage(r.message);
      } catch (err) {
        if (alert) {
          alert.textContent = messageOf(err, 'We could not cancel your RSVP right now. Please try again.');
          alert.hidden = false;
        }
      } finally {
        if (button) button.disabled = false;
      }
    };
    const listener = (e: SubmitEvent) => void onSubmit(e);
    form.addEventListener('submit', listener);
    return () => form.removeEventListener('submit', listener);
  }, []);

  useEffect(() => {
    if (message) done.current?.focus();
  }, [message]);

  return (
    <div ref={wrap}>
      {children}
      {message ? (
        <p className="notice notice--info" role="status" tabIndex={-1} ref={done}>
          {message}
        </p>
      ) : null}
    </div>
  );
}
