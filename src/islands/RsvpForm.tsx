import { useEffect, useRef, useState, type ReactNode } from 'react';
import useSWR from 'swr';
import { apiRequest, ApiError, messageOf, queryFetcher } from '../lib/client/api.ts';
import { PUBLIC_LIST_SWR } from '../lib/public-lists.ts';
import { formEndpoint, NAME_CHARACTERS_MESSAGE } from '../lib/schemas/public-forms.ts';
import { RSVP_MESSAGES } from '../lib/schemas/rsvp-rules.ts';
import type { RsvpAvailability, RsvpResult } from '../lib/schemas/rsvp.ts';
import type { FormUi, RsvpWords } from '../content/ui.ts';
import type { ShiftCopy } from '../content/shifts.ts';
import type { Lang } from '../lib/lang.ts';
import { fill } from '../lib/fill.ts';
import { markBusy, showFormErrors } from './form-kit/static-form.ts';
import { useSlotCaptcha } from './form-kit/use-slot-captcha.tsx';
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
  /** The page's language and its words (src/content/ui.ts `eventPageCopy.rsvp`, `formUi`), passed by the page. */
  lang: Lang;
  words: RsvpWords;
  formWords: FormUi;
  /** What a refusal says by HTTP status in the page's language (src/content/forms.ts `refusedCopy.byStatus`). */
  statusMessages: Record<number, string>;
  /** The shifts' words (src/content/shifts.ts), for an event with shifts (docs/decisions/181-shifts.md). */
  shiftWords?: ShiftCopy;
}

export function availabilityText(
  a: RsvpAvailability | undefined,
  words: Pick<RsvpWords, 'full' | 'seatsLeft'>,
): string {
  if (a?.capacity == null) return '';
  if (a.seatsLeft === 0) return words.full;
  return fill(words.seatsLeft, a.seatsLeft ?? 0, a.capacity);
}

/**
 * A refusal in the page's language: the server words its answers in English, so a page in
 * another language shows its own message for each field and for the status (as
 * form-kit/field-message.ts does for the other forms).
 */
/** The server's message for a reminder asked for without a number (the phone field's other message). */
const ENGLISH_PHONE_FOR_SMS: string = RSVP_MESSAGES.phoneForSms;

export function refusal(
  err: unknown,
  lang: Lang,
  words: RsvpWords,
  formWords: FormUi,
  statusMessages: Record<number, string>,
) {
  const fields = err instanceof ApiError ? err.fields : {};
  if (lang === 'en') return { message: messageOf(err, words.offline), fields };
  const own: Record<string, string> = words.fields;
  const translated = Object.fromEntries(
    Object.entries(fields).map(([name, text]) => [
      name,
      name === 'phone' && text === ENGLISH_PHONE_FOR_SMS
        ? words.fields.phoneForSms
        : text === NAME_CHARACTERS_MESSAGE
          ? formWords.nameCharacters
          : (own[name] ?? text),
    ]),
  );
  const status = err instanceof ApiError ? err.status : 0;
  const message = status === 404 ? words.notTaking : (statusMessages[status] ?? words.offline);
  return { message, fields: translated };
}

/** A shift's words as the server wrote them in the form (its label's text). */
function slotLabel(root: HTMLElement | null, id: string): string {
  const li = [...(root?.querySelectorAll<HTMLElement>('[data-slot]') ?? [])].find(
    (e) => e.dataset.slot === id,
  );
  return li?.querySelector('[data-slot-label]')?.textContent ?? id;
}

/**
 * Adds behaviour to the static RSVP form: the captcha (portalled into the
 * form's slot), a JSON submit, field errors next to their fields, the seats
 * left (refreshed like the public lists) and the answer, going or waitlisted.
 */
export default function RsvpForm({
  eventId,
  captchaSiteKey,
  children,
  lang,
  words,
  formWords,
  statusMessages,
  shiftWords,
}: Props) {
  const answer = useRef<HTMLDivElement>(null);
  const { wrap, token, reset, captcha } = useSlotCaptcha('form[data-rsvp-form]', captchaSiteKey, formWords);
  const [result, setResult] = useState<RsvpResult | null>(null);
  const url = formEndpoint('rsvp', { id: eventId });
  const availability = useSWR<RsvpAvailability>(url, queryFetcher, PUBLIC_LIST_SWR);
  const refresh = useRef(availability.mutate);
  refresh.current = availability.mutate;

  useEffect(() => {
    const form = wrap.current?.querySelector<HTMLFormElement>('form[data-rsvp-form]');
    if (!form) return;
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    const showError = (message: string | null, fields: Record<string, string> = {}) =>
      showFormErrors(form, message, fields);

    const onSubmit = async (event: SubmitEvent) => {
      event.preventDefault();
      if (!token.current) {
        showError(formWords.captchaRequired);
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
        lang,
        slots: data.getAll('slots').filter((v): v is string => typeof v === 'string'),
      };
      showError(null);
      markBusy(button, true, words);
      try {
        const r = await apiRequest<RsvpResult>('POST', url, payload);
        form.hidden = true;
        setResult(r);
        void refresh.current();
      } catch (err) {
        const { message, fields } = refusal(err, lang, words, formWords, statusMessages);
        showError(message, fields);
      } finally {
        reset(); // tokens are single use
        markBusy(button, false, words);
      }
    };
    const listener = (e: SubmitEvent) => void onSubmit(e);
    form.addEventListener('submit', listener);
    return () => form.removeEventListener('submit', listener);
  }, [url, lang, words, formWords, statusMessages, wrap, token, reset]);

  useEffect(() => {
    if (result) answer.current?.focus();
  }, [result]);

  const seats = availabilityText(availability.data, words);
  return (
    <div ref={wrap} className="rsvp">
      {seats && !result ? (
        <p className="notice notice--info" data-rsvp-availability>
          {seats}
        </p>
      ) : null}
      {children}
      {captcha}
      {result ? (
        <div className="form-card" role="status" tabIndex={-1} ref={answer} data-rsvp-result={result.status}>
          <h3>{result.status === 'going' ? words.goingHeading : words.waitlistedHeading}</h3>
          <p>
            {result.message === RSVP_MESSAGES.going
              ? words.going
              : lang === 'en'
                ? result.message
                : words[result.status]}
          </p>
          {result.position && !result.slots ? <p>{fill(words.waitlistPosition, result.position)}</p> : null}
          {result.slots && shiftWords ? (
            <ul data-shift-results>
              {result.slots.map((s) => (
                <li key={s.id} data-shift-result={s.status}>
                  {fill(
                    shiftWords.emailLine,
                    slotLabel(wrap.current, s.id),
                    s.status === 'going' ? shiftWords.going : fill(shiftWords.waitlisted, s.position ?? ''),
                  ).replace(/^- /, '')}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
