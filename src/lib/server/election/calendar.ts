import { defaultElectionCalendar } from '../../../content/election-calendar.ts';
import type { ElectionCalendar } from '../../election-stage.ts';
import { ElectionCalendarSchema } from '../../schemas/election.ts';
import { key, kv, upsert } from '../store.ts';

/*
 * The election calendar record (docs/decisions/087-election-calendar.md): one small JSON document in the `meta`
 * store, replaced whole by an admin (validated, audited by the endpoint). When none is stored, or the stored one
 * no longer parses (a schema change), the seeded default is the calendar.
 */

const CALENDAR_KEY = key('election', 'calendar');

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
  return { before, after: { calendar, isDefault: false, updatedAt: record.updatedAt, updatedBy: by } };
}

/** What changed, for the audit entry: the top-level parts that differ ("primary, mode"). */
export function calendarChanges(before: ElectionCalendar, after: ElectionCalendar): string {
  const parts = (['sites', 'primary', 'mode', 'runoff'] as const).filter(
    (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
  );
  return parts.length ? parts.join(', ') : 'nothing';
}
