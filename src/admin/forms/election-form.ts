import type { ElectionCalendar, ElectionRound } from '../../lib/election-stage.ts';
import { ElectionCalendarSchema } from '../../lib/schemas/election.ts';

/*
 * The Election tab's field-by-field form (docs/decisions/157-election-calendar.md), its pure part: each field
 * is named by its path in the calendar ("primary.earlyVoting.1.close"), the path the shared schema's issues and the
 * server's 400 answer use, so each problem lands on its field.
 */

/** A field's key: its path in the calendar, dotted. */
export const fieldKey = (path: readonly (string | number)[]) => path.join('.');

/** A field's element id. */
export const fieldId = (key: string) => `election-${key.replaceAll('.', '-')}`;

/** Every key the form has a field for (a problem elsewhere is shown in the summary only). */
export function formFieldKeys(calendar: ElectionCalendar): Set<string> {
  const keys = new Set<string>(['mode', 'runoff']);
  const round = (r: ElectionRound, at: string) => {
    for (const way of ['inPerson', 'byMail', 'online'] as const)
      for (const part of ['date', 'time']) keys.add(`${at}.registration.${way}.${part}`);
    for (const which of ['request', 'return'] as const)
      for (const part of ['date', 'time']) keys.add(`${at}.mailBallot.${which}.${part}`);
    r.earlyVoting.forEach((_, i) => {
      for (const part of ['date', 'open', 'close', 'sites']) keys.add(`${at}.earlyVoting.${i}.${part}`);
    });
    for (const part of ['date', 'open', 'close']) keys.add(`${at}.electionDay.${part}`);
    keys.add(`${at}.resultsDate`);
  };
  round(calendar.primary, 'primary');
  if (calendar.runoff) {
    round(calendar.runoff, 'runoff');
    keys.add('runoff.outcome');
  }
  return keys;
}

export interface Problem {
  /** The field it is shown on (the nearest one its path is inside), or null: the summary only. */
  key: string | null;
  message: string;
}

/** The nearest field a path is inside: "primary.earlyVoting.0.sites.2" is shown on "primary.earlyVoting.0.sites". */
export function fieldOf(path: string, keys: Set<string>): string | null {
  const parts = path.split('.');
  for (let n = parts.length; n > 0; n--) {
    const key = parts.slice(0, n).join('.');
    if (keys.has(key)) return key;
  }
  return null;
}

/** Problems from the server's 400 (`fields`: dotted path → message) or from the shared schema, in the form's order. */
export function problemsFrom(fields: Record<string, string>, calendar: ElectionCalendar): Problem[] {
  const keys = formFieldKeys(calendar);
  const order = [...keys];
  return Object.entries(fields)
    .map(([path, message]) => ({ key: fieldOf(path, keys), message, path }))
    .sort((a, b) => (a.key ? order.indexOf(a.key) : -1) - (b.key ? order.indexOf(b.key) : -1))
    .map(({ key, message }) => ({ key, message }));
}

/** The calendar checked with the schema the server uses: its problems (first per path), none when it is valid. */
export function checkCalendar(calendar: ElectionCalendar): Problem[] {
  const parsed = ElectionCalendarSchema.safeParse(calendar);
  if (parsed.success) return [];
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues)
    fields[fieldKey(issue.path as (string | number)[])] ??= issue.message;
  return problemsFrom(fields, calendar);
}

/** The day after a campaign date. */
export function dayAfter(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** A calendar with `value` at `path` (copied along the way, nothing else changed). */
export function withValue<T>(calendar: T, path: readonly (string | number)[], value: unknown): T {
  if (path.length === 0) return value as T;
  const [head, ...rest] = path;
  const copy = (Array.isArray(calendar) ? [...calendar] : { ...calendar }) as Record<
    string | number,
    unknown
  >;
  copy[head!] = withValue(copy[head!], rest, value);
  return copy as T;
}
