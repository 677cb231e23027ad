import type { Lang } from './lang.ts';

/*
 * THE ONE PLACE a supporter's words enter a message the campaign sends (docs/decisions/075-names-are-not-a-channel.md).
 * Whoever fills in a public form chooses the name, and often the address it is mailed to, so a name put into a
 * message verbatim lets a stranger write to anyone in the campaign's name ("Your ballot was REJECTED - fix it here",
 * a live link, a <style> that hides the campaign's paragraph). Every channel goes through here:
 *
 * - `fillMergeFields`: a broadcast's `{firstName}` (email subject, preview and HTML; texts), the composer's counter
 *   and preview, the estimate's segment count: what is counted is what is sent;
 * - `greeting`: the first line of every email to a visitor (RSVP confirmation, waitlist, promotion, status,
 *   reminder; plan-to-vote reminders);
 * - `staffShown`: what a form typed, in a notification to campaign staff: shown, but as inert data.
 *
 * A name is used only when it passes the greeting-name policy (`greetingName`); anything else takes the fallback.
 * Values are HTML-escaped in HTML and plain (one line) in subjects and texts. Pure and import-free (a type aside),
 * so the composer island uses the same code as the server.
 */

/** The longest name greeted by name, in characters (after spaces are collapsed). */
export const GREETING_NAME_MAX_CHARS = 50;
/** The most words (parts separated by spaces) a greeted name may have. */
export const GREETING_NAME_MAX_WORDS = 6;

/**
 * Invisible format characters (Unicode Cf: bidi embeddings, overrides and isolates U+202A-202E, U+2066-2069,
 * zero-width U+200B-200D, the byte-order mark U+FEFF, tags), control characters (Cc) and the line and paragraph
 * separators. Refused in names at intake (src/lib/schemas/forms.ts `personName`) and never greeted by.
 */
export const INVISIBLE_CHARACTERS = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/**
 * One word of a name: letters (any script, with their combining marks),
 * joined by single hyphens or apostrophes (Jean-Luc, O'Brien, D’Angelo), with
 * at most one period at the end (Jr., J.) or between initials (J.R.).
 */
const WORD = /^\p{L}\p{M}*(?:(?:[-‐'’ʼ]|\.(?=\p{L}))?\p{L}\p{M}*)*\.?$/u;
/** A letter, a period, two letters: a host name (bit.ly, evil.com, www.x.com), never a name (J.R. and Jr. stay). */
const DOMAIN_LIKE = /\p{L}\.\p{L}{2,}/u;
/** Words that make the line a link however it is spelled out. */
const LINK_WORDS = /^(?:https?|www|ftp|mailto|dot|com|net|org)$/iu;

/**
 * The name to greet by, or null when the greeting must be neutral: empty,
 * longer than GREETING_NAME_MAX_CHARS or GREETING_NAME_MAX_WORDS, or with
 * anything a name does not have (digits, @, slashes, colons, other
 * punctuation, markup, a host name, control or invisible characters).
 */
export function greetingName(raw: string): string | null {
  const typed = raw.normalize('NFC');
  // Checked before trimming: trim() drops a leading byte-order mark, which is still not part of a name.
  if (INVISIBLE_CHARACTERS.test(typed)) return null;
  const name = typed.trim().replace(/[ \u00a0]+/gu, ' ');
  if (!name || [...name].length > GREETING_NAME_MAX_CHARS) return null;
  const words = name.split(' ');
  if (words.length > GREETING_NAME_MAX_WORDS) return null;
  if (DOMAIN_LIKE.test(name)) return null;
  // "www", "http" and the like are refused as a word and as a part of one (www.x, http-evil).
  if (!words.every((w) => WORD.test(w) && !w.split(/[-‐'’ʼ.]/u).some((part) => LINK_WORDS.test(part))))
    return null;
  return name;
}

/** The first line of a visitor's email: "Hi Ana," or, when the name is not a name, "Hello,". */
export function greeting(name: string, lang: Lang = 'en'): string {
  const n = greetingName(name);
  if (lang === 'es') return n ? `Hola, ${n}:` : 'Hola:';
  return n ? `Hi ${n},` : 'Hello,';
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML text or attribute content: nothing in it is markup. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/**
 * Where a filled value goes: `html` (an email's body: escaped), `text` (a subject, a preheader, a text message:
 * plain, one line; a preheader is escaped where the email is put together, email-guard.ts).
 */
export type MergeFormat = 'html' | 'text';

/** The values a template may name; each is what a supporter typed (or the list holds) for one recipient. */
export interface MergeValues {
  firstName: string;
}

/** Every merge field a template may contain, as written in it. */
export const MERGE_FIELDS = { firstName: '{firstName}' } as const satisfies Record<keyof MergeValues, string>;

const MERGE_FIELD = /\{(firstName)\}/g;

/** A staff-written fallback on one line (it goes into subjects too). */
const oneLine = (s: string) => s.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();

/**
 * A template with its merge fields filled for one recipient: a name that passes `greetingName` as it is,
 * anything else (empty, markup, a link, a host name, digits, emoji, invisible characters, too long) the
 * staff-written fallback. HTML-escaped for `html`, plain for `text`.
 */
export function fillMergeFields(
  template: string,
  values: MergeValues,
  fallback: string,
  format: MergeFormat,
): string {
  const value = greetingName(values.firstName) ?? oneLine(fallback);
  const out = format === 'html' ? escapeHtml(value) : value;
  return template.replace(MERGE_FIELD, () => out);
}

/** A host name inside text: labels joined by periods, ending in two or more letters (evil.example, www.x.com). */
const HOST_LIKE = /[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)*\.\p{L}{2,}(?![\p{L}\p{N}])/gu;
/** A URL scheme's separator. */
const SCHEME = /:\/\//g;

/**
 * What a visitor typed, for a notification to campaign staff (the inbox email of the volunteer and contact forms):
 * the staff may read every word, but as inert data, never as a link a mail client makes live. Invisible
 * characters are shown by their code point ("[U+202E]"), a scheme's `://` as `[:]//` and a host name's periods as
 * `[.]` (evil[.]example), the usual way of quoting a link without making it one. The staff-only notification is
 * plain text, so no markup is rendered; the dashboard shows the record exactly as typed.
 */
export function staffShown(typed: string): string {
  return typed
    .replace(
      /[\p{Cf}\u2028\u2029]|[^\P{Cc}\n\r\t]/gu,
      (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`,
    )
    .replace(SCHEME, '[:]//')
    .replace(HOST_LIKE, (host) => host.replace(/\./g, '[.]'));
}
