import type { Lang } from '../../lang.ts';
import type { StoredBroadcast } from '../../schemas/broadcasts.ts';
import { countSegments } from '../../sms-segments.ts';
import { fillMergeFields, type MergeFormat } from '../../merge-fields.ts';
import { compliantText } from '../../text-compliance.ts';
import type { Recipient } from './audiences.ts';

/*
 * What each recipient is sent: `{firstName}` filled in by the one filler (src/lib/merge-fields.ts: the name only when
 * it passes the greeting-name policy, else the fallback; escaped in the HTML, plain in the subject, preview and
 * text), the Spanish variant for recipients whose stored language is Spanish when the broadcast has one. The
 * engine, the estimate's segment count, the staff preview and the test send all call these.
 */

/** The text body for a recipient (before the guard adds what the body lacks; the same addition is counted). */
export function textFor(b: Pick<StoredBroadcast, 'text'>, r: Pick<Recipient, 'firstName' | 'lang'>): string {
  const t = b.text!;
  const template = r.lang === 'es' && t.bodyEs ? t.bodyEs : t.body;
  return fillMergeFields(template, r, t.firstNameFallback, 'text');
}

/**
 * The text a recipient gets, as the guard sends it: `textFor` with the program name and opt-out line added by the
 * one compliance rule, in the recipient's language, the same language the engine hands the guard (`lang: r.lang`).
 * The cost (segmentsFor) and the staff preview count and show this.
 */
export function textAsSent(
  b: Pick<StoredBroadcast, 'text'>,
  r: Pick<Recipient, 'firstName' | 'lang'>,
): string {
  return compliantText(textFor(b, r), r.lang);
}

/** Segments a text to this recipient costs, as sent (program name and opt-out line included). */
export function segmentsFor(
  b: Pick<StoredBroadcast, 'text'>,
  r: Pick<Recipient, 'firstName' | 'lang'>,
): number {
  return countSegments(textAsSent(b, r)).segments;
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
  const fill = (s: string, format: MergeFormat) => fillMergeFields(s, r, e.firstNameFallback, format);
  return {
    subject: fill(es && e.subjectEs ? e.subjectEs : e.subject, 'text'),
    preview: fill(es ? e.previewEs : e.preview, 'text'),
    html: fill(es ? e.htmlEs : e.html, 'html'),
    lang: es ? 'es' : 'en',
  };
}
