import type { Config } from '@netlify/functions';
import { SHIFT_SEQUENCE_COPY, sequenceCopy } from '../../src/content/shift-sequence.ts';
import { DEFAULT_LANG, type Lang } from '../../src/lib/lang.ts';
import { escapeHtml } from '../../src/lib/merge-fields.ts';
import { ShiftAnswerSchema, type ShiftAnswer } from '../../src/lib/schemas/shift-sequence.ts';
import { EVENT_SLOT } from '../../src/lib/schemas/shifts.ts';
import { answerFromLink, answerToken, personForAnswer } from '../../src/lib/server/events/shift-answers.ts';
import { HttpError } from '../../src/lib/server/errors.ts';
import {
  allowMethods,
  handle,
  readText,
  requireSameOrigin,
  respond,
  json,
} from '../../src/lib/server/http.ts';

/**
 * /api/shifts/answer?event=&slot=&answer=&token= (docs/decisions/181-shifts.md, "The sequence"): the keyed links
 * of the shifts' sequence emails and texts. GET shows a page with a button (a scanner that fetches a link changes
 * nothing; the day-before question offers both confirm and cancel); the button POSTs the same fields, which
 * confirms, cancels (the waitlist moves up), or records "I was there" / "I could not come". A bad link is a 404.
 */

// An event without slots (its implicit slot) speaks of an RSVP, not a shift.
const words = (lang: Lang, slot?: string) => sequenceCopy(lang, slot === EVENT_SLOT);

const page = (lang: Lang, body: string, status = 200, slot?: string) =>
  respond(
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<title>${escapeHtml(words(lang, slot).pageTitle)}</title></head><body><main>` +
      `<h1>${escapeHtml(words(lang, slot).pageTitle)}</h1>${body}</main></body></html>`,
    { status, type: 'text/html; charset=utf-8' },
  );

const BUTTON: Record<ShiftAnswer, 'confirmButton' | 'cancelButton' | 'attendedButton' | 'absentButton'> = {
  confirm: 'confirmButton',
  cancel: 'cancelButton',
  attended: 'attendedButton',
  absent: 'absentButton',
};
const DONE = {
  confirmed: 'confirmedDone',
  cancelled: 'cancelledDone',
  attended: 'attendedDone',
  absent: 'absentDone',
  not_on_shift: 'badLink',
} as const;

function form(event: number, slot: string, answer: ShiftAnswer, token: string, lang: Lang): string {
  const w = words(lang, slot);
  const field = (name: string, value: string) =>
    `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  return (
    `<form method="post" action="/api/shifts/answer">${field('event', String(event))}${field('slot', slot)}` +
    `${field('answer', answer)}${field('token', token)}${field('lang', lang)}` +
    `<button type="submit">${escapeHtml(w[BUTTON[answer]])}</button></form>`
  );
}

export default handle(async (req: Request) => {
  allowMethods(req, 'GET', 'POST');
  const url = new URL(req.url);
  if (req.method === 'GET') {
    const parsed = ShiftAnswerSchema.safeParse(Object.fromEntries(url.searchParams));
    const lang = url.searchParams.get('lang') === 'es' ? 'es' : DEFAULT_LANG;
    if (!parsed.success) return page(lang, `<p>${escapeHtml(SHIFT_SEQUENCE_COPY[lang].badLink)}</p>`, 404);
    const { event, slot, answer, token } = parsed.data;
    const person = await personForAnswer(event, slot, answer, token);
    if (!person) return page(lang, `<p>${escapeHtml(SHIFT_SEQUENCE_COPY[lang].badLink)}</p>`, 404);
    // The day-before question: both buttons, each with its own token; the follow-up: the one asked.
    const pair: ShiftAnswer[] =
      answer === 'confirm' || answer === 'cancel' ? ['confirm', 'cancel'] : [answer];
    return page(
      lang,
      pair.map((a) => form(event, slot, a, answerToken(event, slot, person, a), lang)).join(''),
      200,
      slot,
    );
  }
  requireSameOrigin(req);
  const raw = await readText(req, 2 * 1024);
  const isForm = /^application\/x-www-form-urlencoded\b/i.test(req.headers.get('content-type') ?? '');
  let fields: unknown;
  try {
    fields = isForm ? Object.fromEntries(new URLSearchParams(raw)) : JSON.parse(raw);
  } catch {
    throw new HttpError(400, 'Invalid JSON');
  }
  const parsed = ShiftAnswerSchema.safeParse(fields);
  if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? 'Invalid answer');
  const lang = parsed.data.lang ?? DEFAULT_LANG;
  const outcome = await answerFromLink(parsed.data);
  const message = words(lang, parsed.data.slot)[DONE[outcome]];
  if (!isForm) return json({ outcome, message });
  return page(
    lang,
    `<p>${escapeHtml(message)}</p>`,
    outcome === 'not_on_shift' ? 404 : 200,
    parsed.data.slot,
  );
});

export const config: Config = { path: '/api/shifts/answer' };
