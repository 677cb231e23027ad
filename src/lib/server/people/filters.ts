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

const words = (s: string) => s.split(' ').filter(Boolean);

function has(s: PersonSummary, what: string): boolean {
  const [, kind, event] = HAS.exec(what)!;
  switch (kind) {
    case 'volunteered':
      return words(s.sources).includes('volunteer');
    case 'plan':
      return words(s.sources).includes('vote_plan');
    case 'donated':
      return words(s.sources).includes('donation');
    case 'rsvp':
      return event ? words(s.events).includes(event) : s.events !== '' || words(s.sources).includes('rsvp');
    default:
      return event ? words(s.attended).includes(event) : s.attended !== '';
  }
}

const consentIs = (state: string, want: (typeof CONSENT_FILTERS)[number]) =>
  want === 'none' ? state === '' : state === want;

/** The test a filter makes of a summary (null when it tests nothing). Reads only the index's columns. */
export function filterTest(f: PeopleFilter): ((s: PersonSummary) => boolean) | null {
  const tests: ((s: PersonSummary) => boolean)[] = [];
  if (f.source) tests.push((s) => words(s.sources).includes(f.source!));
  if (f.tag) tests.push((s) => words(s.tags).includes(f.tag!));
  if (f.lang) tests.push((s) => s.lang === f.lang);
  if (f.zip) tests.push((s) => s.zip === f.zip);
  if (f.email) tests.push((s) => consentIs(s.emailState, f.email!));
  if (f.text) tests.push((s) => consentIs(s.textState, f.text!));
  for (const h of f.has ?? []) tests.push((s) => has(s, h));
  for (const h of f.hasNot ?? []) tests.push((s) => !has(s, h));
  return tests.length ? (s) => tests.every((t) => t(s)) : null;
}
