import { useEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import useSWR from 'swr';
import { apiRequest, ApiError, messageOf, queryFetcher } from '../lib/client/api.ts';
import { PUBLIC_LIST_SWR } from '../lib/client/public-lists.ts';
import { CAPTCHA_REQUIRED } from '../lib/schemas/forms.ts';
import type { RsvpAvailability, RsvpResult } from '../lib/schemas/rsvp.ts';
import Captcha, { type CaptchaHandle } from './Captcha.tsx';
import '../styles/islands.css';

/** A text field of a submitted form ('' when missing or a file). */
const text = (data: FormData, name: string) => {
  const v = data.get(name);
  return typeof v === 'string' ? v : '';
};

interface Props {
  eventId: number;
  /** PUBLIC_TURNSTILE_SITE_KEY (empty: local test widget). */
  captchaSiteKey?: string | undefined;
  /** The server-rendered <form data-rsvp-form> (RsvpSection.astro). */
  children?: ReactNode;
}

export function availabilityText(a: RsvpAvailability | undefined): string {
  if (a?.capacity == null) return '';
  if (a.seatsLeft === 0)
    return "This event is full. You can still RSVP to join the waitlist; we'll email you if a seat opens up.";
  return `${a.seatsLeft} of ${a.capacity} seats left.`;
}

/**
 * Adds behaviour to the static RSVP form: the captcha (portalled into the
 * form's slot), a JSON submit, field errors next to their fields, the seats
 * left (refreshed like the public lists) and the answer, going or waitlisted.
 */
export default function RsvpForm({ eventId, captchaSiteKey, children }: Props) {
  const wrap = useRef<HTMLDivElement>(null);
  const answer = useRef<HTMLDivElement>(null);
  const captcha = useRef<CaptchaHandle>(null);
  const token = useRef<string | null>(null);
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  const [result, setResult] = useState<RsvpResult | null>(null);
  const url = `/api/events/${eventId}/rsvp`;
  const availability = useSWR<RsvpAvailability>(url, queryFetcher, PUBLIC_LIST_SWR);
  const refresh = useRef(availability.mutate);
  refresh.current = availability.mutate;

  useEffect(() => {
    const form = wrap.current?.querySelector<HTMLFormElement>('form[data-rsvp-form]');
    if (!form) return;
    setSlot(form.querySelector<HTMLElement>('[data-captcha-slot]'));
    const alert = form.querySelector<HTMLElement>('[data-rsvp-error]');
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');

    const showError = (message: string | null, fields: Record<string, string> = {}) => {
      if (alert) {
        alert.textContent = message ?? '';
        alert.hidden = !message;
      }
      for (const el of form.querySelectorAll<HTMLElement>('[data-error-for]')) {
        const name = el.dataset.errorFor ?? '';
        const input = form.elements.namedItem(name);
        const text = fields[name];
        el.textContent = text ?? '';
        el.hidden = !text;
        if (input instanceof HTMLElement) {
          if (text) {
            input.setAttribute('aria-invalid', 'true');
            input.setAttribute('aria-describedby', el.id);
          } else {
            input.removeAttribute('aria-invalid');
            input.removeAttribute('aria-describedby');
          }
        }
      }
    };

    const onSubmit = async (event: SubmitEvent) => {
      event.preventDefault();
      if (!token.current) {
        showError(CAPTCHA_REQUIRED);
        return;
      }
      const data = new FormData(form);
      const payload = {
        name: text(data, 'name'),
        email: text(data, 'email'),
        phone: text(data, 'phone'),
        guests: Number(data.get('guests') ?? 0),
        smsReminder: data.get('smsReminder') === 'true',
        captchaResponse: token.current,
      };
      showError(null);
      if (button) {
        button.disabled = true;
        button.textContent = 'Sending...';
      }
      try {
        const r = await apiRequest<RsvpResult>('POST', url, payload);
        form.hidden = true;
        setResult(r);
        void refresh.current();
      } catch (err) {
        showError(
          messageOf(err, 'We could not send your RSVP. Please check your connection and try again.'),
          err instanceof ApiError ? err.fields : {},
        );
      } finally {
        captcha.current?.reset(); // tokens are single use
        if (button) {
          button.disabled = false;
          button.textContent = 'RSVP';
        }
      }
    };
    const listener = (e: SubmitEvent) => void onSubmit(e);
    form.addEventListener('submit', listener);
    return () => form.removeEventListener('submit', listener);
  }, [url]);

  useEffect(() => {
    if (result) answer.current?.focus();
  }, [result]);

  const seats = availabilityText(availability.data);
  return (
    <div ref={wrap} className="rsvp">
      {seats && !result ? (
        <p className="notice notice--info" data-rsvp-availability>
          {seats}
        </p>
      ) : null}
      {children}
      {slot
        ? createPortal(
            <Captcha ref={captcha} siteKey={captchaSiteKey} onToken={(t) => (token.current = t)} />,
            slot,
          )
        : null}
      {result ? (
        <div className="form-card" role="status" tabIndex={-1} ref={answer} data-rsvp-result={result.status}>
          <h3>{result.status === 'going' ? "You're going!" : "You're on the waitlist"}</h3>
          <p>{result.message}</p>
          {result.position ? <p>Your place on the waitlist: {result.position}</p> : null}
        </div>
      ) : null}
    </div>
  );
}
