import { fill } from '../../fill.ts';
import { greeting, escapeHtml } from '../../merge-fields.ts';
import type { CampaignEvent } from '../../schemas/event.ts';
import { toPublicEvent } from '../../schemas/public-projections.ts';
import type { SequenceStep } from '../../schemas/shift-sequence.ts';
import type { ShiftSlot } from '../../schemas/shifts.ts';
import type { BulkEmail } from '../messaging/email-guard.ts';
import { answerUrl } from './shift-answers.ts';
import { sequenceWords, type SequencePerson } from './sequence-source.ts';

/*
 * The messages of the shifts' sequence (docs/decisions/181-shifts.md, "The sequence"), in the volunteer's
 * language, built from the records. Nothing the volunteer typed is echoed but a name that is a name (the
 * greeting); the event's words are staff's. Emails leave here without a footer: the email guard adds the paid-for
 * line, the address and the unsubscribe link; texts get the program name and opt-out line from the text guard.
 */

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').slice(0, 200);

/** A line of the email, a link made clickable in the HTML part. */
type Line = string | { text: string; url: string };

function bulk(to: string, subject: string, lines: Line[], lang: SequencePerson['lang']): BulkEmail {
  const html = lines
    .map((l) =>
      typeof l === 'string'
        ? `<p>${escapeHtml(l)}</p>`
        : `<p><a href="${escapeHtml(l.url)}">${escapeHtml(fill(l.text, '').replace(/:\s*$/, ''))}</a></p>`,
    )
    .join('');
  return { to, subject: oneLine(subject), preview: '', html, lang };
}

/** The email of a step (the day before, the morning, the follow-up). */
export function sequenceEmail(
  event: CampaignEvent,
  slot: ShiftSlot,
  r: SequencePerson,
  step: SequenceStep,
): BulkEmail {
  const { w, shift } = sequenceWords(event, slot, r.lang);
  const title = toPublicEvent(event, r.lang).title;
  const link = (text: string, answer: 'confirm' | 'cancel' | 'attended' | 'absent'): Line => ({
    text,
    url: answerUrl(event.id, slot.id, r.id, answer, r.lang),
  });
  const hello = greeting(r.name, r.lang);
  if (step === 'dayBefore')
    return bulk(
      r.email,
      fill(w.dayBeforeSubject, title),
      [hello, fill(w.dayBeforeBody, shift), link(w.confirmLink, 'confirm'), link(w.cancelLink, 'cancel')],
      r.lang,
    );
  if (step === 'morning')
    return bulk(r.email, fill(w.morningSubject, title), [hello, fill(w.morningBody, shift)], r.lang);
  return bulk(
    r.email,
    fill(w.followUpSubject, title),
    [
      hello,
      fill(w.followUpBody, shift),
      link(w.attendedLink, 'attended'),
      link(w.absentLink, 'absent'),
      w.thanks,
    ],
    r.lang,
  );
}

/** The text of a step (the day before: reply 1 / SÍ or 2 / NO, or the link; shortly before the slot). */
export function sequenceText(
  event: CampaignEvent,
  slot: ShiftSlot,
  r: SequencePerson,
  step: SequenceStep,
): string {
  const { w, shift } = sequenceWords(event, slot, r.lang);
  if (step === 'dayBefore')
    return fill(w.dayBeforeText, shift, answerUrl(event.id, slot.id, r.id, 'confirm', r.lang));
  return fill(w.soonText, shift);
}
