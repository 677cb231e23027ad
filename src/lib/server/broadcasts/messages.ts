import type { Lang } from '../../lang.ts';
import type { StoredBroadcast } from '../../schemas/broadcasts.ts';
import { countSegments } from '../../sms-segments.ts';
import { compliantText, fillFirstName } from '../../text-compliance.ts';
import type { Recipient } from './audiences.ts';

/*
 * What each recipient is sent: `{firstName}` filled in (the fallback when the list has no name), the
 * Spanish variant for recipients whose stored language is Spanish when the broadcast has one.
 */

/** The text body for a recipient (before the guard adds what the body lacks; the same addition is counted). */
export function textFor(b: Pick<StoredBroadcast, 'text'>, r: Pick<Recipient, 'firstName' | 'lang'>): string {
  const t = b.text!;
  const template = r.lang === 'es' && t.bodyEs ? t.bodyEs : t.body;
  return fillFirstName(template, r.firstName, t.firstNameFallback);
}

/** Segments a text to this recipient costs, as sent (program name and opt-out line included). */
export function segmentsFor(
  b: Pick<StoredBroadcast, 'text'>,
  r: Pick<Recipient, 'firstName' | 'lang'>,
): number {
  return countSegments(compliantText(textFor(b, r), r.lang)).segments;
}

export interface EmailParts {
  subject: string;
  preview: string;
  html: string;
  lang: Lang;
}

/** The email for a recipient: the Spanish version when there is one and the recipient's language is Spanish. */
export function emailFor(
  b: Pick<StoredBroadcast, 'email'>,
  r: Pick<Recipient, 'firstName' | 'lang'>,
): EmailParts {
  const e = b.email!;
  const es = r.lang === 'es' && e.htmlEs.trim() !== '';
  const fill = (s: string) => fillFirstName(s, r.firstName, e.firstNameFallback);
  return {
    subject: fill(es && e.subjectEs ? e.subjectEs : e.subject),
    preview: fill(es ? e.previewEs : e.preview),
    html: fill(es ? e.htmlEs : e.html),
    lang: es ? 'es' : 'en',
  };
}
