import { defaultElectionCalendar } from '../../../content/election-calendar.ts';
import { formatEventDate } from '../../campaign-time.ts';
import { electionStage, nextElectionCalendar, type ElectionCalendar } from '../../election-stage.ts';
import { ELECTION_MESSAGES, ElectionCalendarSchema } from '../../schemas/election.ts';
import { sitesFromCsv } from '../../schemas/election-sites-csv.ts';
import { HttpError } from '../errors.ts';
import { upsert } from '../storage/compare-and-set.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';

/*
 * The election calendar record (docs/decisions/157-election-calendar.md): one small JSON document in the `meta`
 * store, replaced whole by an admin (validated, audited by the endpoint). When none is stored, or the stored one
 * no longer parses (a schema change), the seeded default is the calendar.
 */

const CALENDAR_KEY = key('election', 'calendar');

/*
 * How many times this process has stored the calendar: a page's reused read of it ends at the next write
 * (page-election.ts), so the staff member who saves it sees it on the next page. On globalThis: locally the pages
 * and the functions are module instances of their own in one process.
 */
const WRITES = Symbol.for('campaign.election.calendarWrites');
const writes = globalThis as { [WRITES]?: number };
export const calendarWrites = (): number => writes[WRITES] ?? 0;

export interface StoredCalendar {
  calendar: ElectionCalendar;
  /** Whether this is the seeded default (nothing stored yet). */
  isDefault: boolean;
  updatedAt: string | null;
  updatedBy: string | null;
}

interface Record {
  calendar: unknown;
  updatedAt: string;
  updatedBy: string;
}

export async function getElectionCalendar(): Promise<StoredCalendar> {
  const r = await kv('meta').get<Record>(CALENDAR_KEY);
  const parsed = r ? ElectionCalendarSchema.safeParse(r.value.calendar) : null;
  if (!r || !parsed?.success)
    return { calendar: defaultElectionCalendar, isDefault: true, updatedAt: null, updatedBy: null };
  return {
    calendar: parsed.data,
    isDefault: false,
    updatedAt: r.value.updatedAt,
    updatedBy: r.value.updatedBy,
  };
}

/** Replaces the calendar (already validated); answers the one before and the one now stored. */
export async function setElectionCalendar(
  calendar: ElectionCalendar,
  by: string,
  now = new Date(),
): Promise<{ before: ElectionCalendar; after: StoredCalendar }> {
  const before = (await getElectionCalendar()).calendar;
  const record: Record = { calendar, updatedAt: now.toISOString(), updatedBy: by };
  await upsert<Record>(kv('meta'), CALENDAR_KEY, () => record);
  writes[WRITES] = calendarWrites() + 1;
  return { before, after: { calendar, isDefault: false, updatedAt: record.updatedAt, updatedBy: by } };
}

/** What changed, for the audit entry: the top-level parts that differ ("primary, mode"). */
export function calendarChanges(before: ElectionCalendar, after: ElectionCalendar): string {
  const parts = (['sites', 'primary', 'mode', 'runoff'] as const).filter(
    (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
  );
  return parts.length ? parts.join(', ') : 'nothing';
}

/**
 * Replaces the calendar's early-voting sites with a CSV file's (docs/decisions/157-election-calendar.md): every row
 * checked (400 with each bad row's number and reason), then the whole calendar checked with the new sites (a site
 * an early-voting day still names must stay: 400), then stored at once. Nothing is written on any refusal.
 */
export async function importSitesCsv(
  csv: string,
  by: string,
  now = new Date(),
): Promise<{ before: ElectionCalendar; after: StoredCalendar; count: number }> {
  const read = sitesFromCsv(csv);
  if ('problems' in read)
    throw new HttpError(400, `Row ${read.problems[0]!.row}: ${read.problems[0]!.message}`, {
      rows: read.problems,
    });
  const current = (await getElectionCalendar()).calendar;
  const checked = ElectionCalendarSchema.safeParse({ ...current, sites: read.sites });
  if (!checked.success) {
    const problems = checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new HttpError(400, `The calendar would not be valid with these sites: ${problems[0]}`, {
      problems,
    });
  }
  const { before, after } = await setElectionCalendar(checked.data, by, now);
  return { before, after, count: read.sites.length };
}

/**
 * Starts the next election (docs/decisions/157-election-calendar.md, "Starting the next election"): only once
 * the election the site follows is over (its polls closed: 409 before, so a live calendar is never moved by
 * mistake), to an Election Day after today (400); the last election's dates move to it, the outcome and runoff
 * are cleared, and the result is checked by the calendar's own schema before it is stored.
 */
export async function startNextElection(
  electionDay: string,
  by: string,
  now = new Date(),
): Promise<{ before: ElectionCalendar; after: StoredCalendar }> {
  const current = (await getElectionCalendar()).calendar;
  const stage = electionStage(current, now);
  if (!stage.pollsClosed)
    throw new HttpError(
      409,
      `The ${stage.round === 'runoff' ? 'runoff' : 'election'} of ${formatEventDate(stage.dates.electionDay.date)} ${ELECTION_MESSAGES.notOverYet}`,
    );
  if (electionDay <= stage.today)
    throw new HttpError(400, ELECTION_MESSAGES.nextAfterToday, {
      fields: { electionDay: ELECTION_MESSAGES.nextAfterToday },
    });
  const checked = ElectionCalendarSchema.safeParse(nextElectionCalendar(current, electionDay));
  if (!checked.success) {
    const problems = checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new HttpError(400, `The next election's calendar would not be valid: ${problems[0]}`, { problems });
  }
  return setElectionCalendar(checked.data, by, now);
}
