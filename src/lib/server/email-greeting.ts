import type { Lang } from '../lang.ts';

/*
 * The greeting line of every email the site sends to an address a visitor
 * typed (RSVP confirmation, waitlist, promotion, reminder, status). Whoever
 * types the form chooses both the name and the address, so a name mailed back
 * verbatim lets a stranger write to anyone in the campaign's name ("Your
 * ballot was rejected, fix it at http://..."). The name is used only when it
 * looks like a name; anything else gets the neutral greeting. Pure and
 * import-free. Rule and limits: docs/decisions/075-names-are-not-a-channel.md.
 */

/** The longest name greeted by name, in characters (after spaces are collapsed). */
export const GREETING_NAME_MAX_CHARS = 50;
/** The most words (parts separated by spaces) a greeted name may have. */
export const GREETING_NAME_MAX_WORDS = 6;

/**
 * One word of a name: letters (any script, with their combining marks),
 * joined by single hyphens or apostrophes (Jean-Luc, O'Brien, D’Angelo), with
 * at most one period at the end (Jr., J.) or between initials (J.R.).
 */
const WORD = /^\p{L}\p{M}*(?:(?:[-‐'’ʼ]|\.(?=\p{L}))?\p{L}\p{M}*)*\.?$/u;
/** Two letters, a period, two letters: a host name (bit.ly, evil.com), never a name. */
const DOMAIN_LIKE = /\p{L}{2,}\.\p{L}{2,}/u;
/** Words that make the line a link however it is spelled out. */
const LINK_WORDS = /^(?:https?|www|ftp|mailto|dot|com|net|org)$/iu;

/**
 * The name to greet by, or null when the greeting must be neutral: empty,
 * longer than GREETING_NAME_MAX_CHARS or GREETING_NAME_MAX_WORDS, or with
 * anything a name does not have (digits, @, slashes, colons, other
 * punctuation, a host name, control or invisible characters).
 */
export function greetingName(raw: string): string | null {
  const trimmed = raw.normalize('NFC').trim();
  // A line break, tab or invisible format character (zero-width, bidi override) inside: not a name.
  if (/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(trimmed)) return null;
  const name = trimmed.replace(/[ \u00a0]+/gu, ' ');
  if (!name || [...name].length > GREETING_NAME_MAX_CHARS) return null;
  const words = name.split(' ');
  if (words.length > GREETING_NAME_MAX_WORDS) return null;
  if (DOMAIN_LIKE.test(name)) return null;
  if (!words.every((w) => WORD.test(w) && !LINK_WORDS.test(w))) return null;
  return name;
}

/** The first line of a visitor's email: "Hi Ana," or, when the name is not a name, "Hello,". */
export function greeting(name: string, lang: Lang = 'en'): string {
  const n = greetingName(name);
  if (lang === 'es') return n ? `Hola, ${n}:` : 'Hola:';
  return n ? `Hi ${n},` : 'Hello,';
}
