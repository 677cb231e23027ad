import type { CONSENT_FILTERS } from '../../schemas/people-filter.ts';
import { HAS, PeopleFilterSchema, type PeopleFilter } from '../../schemas/people-filter.ts';
import { HttpError } from '../errors.ts';
import type { PersonSummary } from './person.ts';

export { PeopleFilterSchema, type PeopleFilter };

/**
 * The People filters (docs/decisions/149-people.md, "Tags, notes and filters"): one definition for the People list,
 * its CSV export and broadcast audiences. Every test reads only the People summary index's columns (the person's
 * sources, tags, events, attended events, language, ZIP and consent states, kept on each person write), so a filter
 * costs the index's reads and never a person's.
 */

export const FILTER_PARAMS = ['q', 'source', 'tag', 'lang', 'zip', 'email', 'text', 'has', 'hasNot'] as const;

/** A filter from query parameters (`has` and `hasNot` comma-separated); 400 on anything it does not know. */
export function filterFromParams(params: Record<string, string | undefined>): PeopleFilter {
  const raw: Record<string, unknown> = {};
  for (const k of FILTER_PARAMS) {
    const v = params[k];
    if (v === undefined || v === '') continue;
    raw[k] = k === 'has' || k === 'hasNot' ? v.split(',').filter(Boolean) : v;
  }
  const r = PeopleFilterSchema.safeParse(raw);
  if (!r.success) throw new HttpError(400, r.error.issues[0]?.message ?? 'Invalid filter');
  return r.data;
}

/** The filter as query parameters (an export's or an audience's stored parameters). */
export function filterParams(f: PeopleFilter): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of FILTER_PARAMS) {
    const v = f[k];
    if (v === undefined) continue;
    out[k] = Array.isArray(v) ? v.join(',') : v;
  }
  return out;
}

/**
 * Whether a space-separated list holds `word` as a whole word. Allocates nothing: a filter runs it for every person
 * in the index (100,000 at a time), where splitting each list was most of the work.
 */
export function hasWord(list: string, word: string): boolean {
  if (!word) return false;
  for (let at = list.indexOf(word); at >= 0; at = list.indexOf(word, at + 1)) {
    const end = at + word.length;
    if ((at === 0 || list.charCodeAt(at - 1) === 32) && (end === list.length || list.charCodeAt(end) === 32))
      return true;
  }
  return false;
}

/** A has / has not test, its words parsed once (not once per person). */
function hasTest(what: string): (s: PersonSummary) => boolean {
  const [, kind, event] = HAS.exec(what)!;
  switch (kind) {
    case 'volunteered':
      return (s) => hasWord(s.sources, 'volunteer');
    case 'plan':
      return (s) => hasWord(s.sources, 'vote_plan');
    case 'donated':
      return (s) => hasWord(s.sources, 'donation');
    case 'shift':
      return (s) => hasWord(s.sources, 'shift');
    case 'rsvp':
      return event ? (s) => hasWord(s.events, event) : (s) => s.events !== '' || hasWord(s.sources, 'rsvp');
    default:
      return event ? (s) => hasWord(s.attended, event) : (s) => s.attended !== '';
  }
}

const consentIs = (state: string, want: (typeof CONSENT_FILTERS)[number]) =>
  want === 'none' ? state === '' : state === want;

/** The test a filter makes of a summary (null when it tests nothing). Reads only the index's columns. */
export function filterTest(f: PeopleFilter): ((s: PersonSummary) => boolean) | null {
  const tests: ((s: PersonSummary) => boolean)[] = [];
  if (f.source) tests.push((s) => hasWord(s.sources, f.source!));
  if (f.tag) tests.push((s) => hasWord(s.tags, f.tag!));
  if (f.lang) tests.push((s) => s.lang === f.lang);
  if (f.zip) tests.push((s) => s.zip === f.zip);
  if (f.email) tests.push((s) => consentIs(s.emailState, f.email!));
  if (f.text) tests.push((s) => consentIs(s.textState, f.text!));
  for (const h of f.has ?? []) tests.push(hasTest(h));
  for (const h of f.hasNot ?? []) {
    const test = hasTest(h);
    tests.push((s) => !test(s));
  }
  return tests.length ? (s) => tests.every((t) => t(s)) : null;
}
