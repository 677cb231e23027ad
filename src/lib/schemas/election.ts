import { z } from './zod.ts';
import { isoDate, text, time24 } from './fields.ts';
import {
  OUTCOMES,
  POST_ELECTION_MODES,
  type Deadline,
  type ElectionCalendar,
  type ElectionRound,
} from '../election-stage.ts';

/*
 * The election calendar as staff edit it (docs/decisions/157-election-calendar.md): the shape is
 * src/lib/election-stage.ts's (this schema is typed by it), the rules are here, with messages that name the field.
 * Dates are campaign dates and hours campaign hours (src/lib/campaign-time.ts).
 */

/** Polls and early-voting sites open and close within these hours (campaign time). */
export const EARLY_HOUR = '05:00';
export const LATE_HOUR = '23:00';

export const ELECTION_MESSAGES = {
  hoursOrder: 'Opening time must be before closing time',
  hoursRange: `Hours must be between ${EARLY_HOUR} and ${LATE_HOUR}`,
  daysOrder: 'Early-voting days must be in date order, each once',
  beforeElectionDay: 'Must be before Election Day',
  notAfterElectionDay: 'Must be on or before Election Day',
  requestBeforeReturn: 'The request deadline must be on or before the return deadline',
  resultsAfter: 'The results date must be on or after Election Day',
  unknownSite: 'Unknown site',
  noSites: 'Choose at least one site for each early-voting day',
  duplicateSite: 'Each site needs its own id',
  runoffNeeded: 'A runoff needs its dates',
  runoffAfter: 'The runoff must come after the first election’s Election Day',
  nextAfterToday: 'The next Election Day must be after today',
  notOverYet: 'is not over yet: change its dates in the calendar instead of starting the next election',
} as const;

const deadline = z.object({ date: isoDate, time: time24 }) satisfies z.ZodType<Deadline>;
const siteId = z.string().regex(/^[a-z0-9-]{1,40}$/, 'Use lowercase letters, digits and hyphens');

export const SiteSchema = z.object({
  id: siteId,
  name: text(120).min(1, 'Required'),
  address: text(200).min(1, 'Required'),
  mapUrl: z.url({ protocol: /^https$/, error: 'Must be an https URL' }).max(2048),
  /** Optional: without it the address's trailing ZIP is the site's (election-stage.ts siteZip). */
  zip: z
    .string()
    .regex(/^\d{5}$/, 'A ZIP is 5 digits')
    .optional(),
});

const hours = { open: time24, close: time24 };

const RoundSchema = z.object({
  registration: z.object({ inPerson: deadline, byMail: deadline, online: deadline }),
  mailBallot: z.object({ request: deadline, return: deadline }),
  earlyVoting: z.array(z.object({ date: isoDate, ...hours, sites: z.array(siteId).max(50) })).max(60),
  electionDay: z.object({ date: isoDate, ...hours }),
  resultsDate: isoDate,
}) satisfies z.ZodType<ElectionRound>;

interface Issue {
  path: (string | number)[];
  message: string;
}

function checkHours(h: { open: string; close: string }, path: (string | number)[], issues: Issue[]) {
  if (h.open < EARLY_HOUR || h.open > LATE_HOUR)
    issues.push({ path: [...path, 'open'], message: ELECTION_MESSAGES.hoursRange });
  if (h.close < EARLY_HOUR || h.close > LATE_HOUR)
    issues.push({ path: [...path, 'close'], message: ELECTION_MESSAGES.hoursRange });
  if (h.open >= h.close) issues.push({ path: [...path, 'close'], message: ELECTION_MESSAGES.hoursOrder });
}

/** Every ordering and hours rule of one round; `path` is where the round sits in the calendar. */
function checkRound(round: ElectionRound, siteIds: Set<string>, path: string[], issues: Issue[]) {
  const ed = round.electionDay.date;
  for (const way of ['inPerson', 'byMail', 'online'] as const)
    if (round.registration[way].date >= ed)
      issues.push({
        path: [...path, 'registration', way, 'date'],
        message: ELECTION_MESSAGES.beforeElectionDay,
      });
  const { request, return: ret } = round.mailBallot;
  if (`${request.date}T${request.time}` > `${ret.date}T${ret.time}`)
    issues.push({
      path: [...path, 'mailBallot', 'request', 'date'],
      message: ELECTION_MESSAGES.requestBeforeReturn,
    });
  if (ret.date > ed)
    issues.push({
      path: [...path, 'mailBallot', 'return', 'date'],
      message: ELECTION_MESSAGES.notAfterElectionDay,
    });
  round.earlyVoting.forEach((day, i) => {
    const at = [...path, 'earlyVoting', i];
    if (i > 0 && day.date <= round.earlyVoting[i - 1]!.date)
      issues.push({ path: [...at, 'date'], message: ELECTION_MESSAGES.daysOrder });
    if (day.date >= ed) issues.push({ path: [...at, 'date'], message: ELECTION_MESSAGES.beforeElectionDay });
    checkHours(day, at, issues);
    if (day.sites.length === 0) issues.push({ path: [...at, 'sites'], message: ELECTION_MESSAGES.noSites });
    day.sites.forEach((id, j) => {
      if (!siteIds.has(id))
        issues.push({ path: [...at, 'sites', j], message: `${ELECTION_MESSAGES.unknownSite}: ${id}` });
    });
  });
  checkHours(round.electionDay, [...path, 'electionDay'], issues);
  if (round.resultsDate < ed)
    issues.push({ path: [...path, 'resultsDate'], message: ELECTION_MESSAGES.resultsAfter });
}

/** The whole calendar, validated: dates in order, hours sensible, sites known, a runoff when the mode says so. */
export const ElectionCalendarSchema = z
  .object({
    sites: z.array(SiteSchema).max(100),
    primary: RoundSchema,
    mode: z.enum(POST_ELECTION_MODES),
    runoff: RoundSchema.extend({ outcome: z.enum(OUTCOMES) }).nullable(),
  })
  .superRefine((calendar, ctx) => {
    const issues: Issue[] = [];
    const ids = new Set<string>();
    calendar.sites.forEach((site, i) => {
      if (ids.has(site.id))
        issues.push({ path: ['sites', i, 'id'], message: ELECTION_MESSAGES.duplicateSite });
      ids.add(site.id);
    });
    checkRound(calendar.primary, ids, ['primary'], issues);
    if (calendar.mode === 'runoff' && !calendar.runoff)
      issues.push({ path: ['runoff'], message: ELECTION_MESSAGES.runoffNeeded });
    if (calendar.runoff) {
      checkRound(calendar.runoff, ids, ['runoff'], issues);
      if (calendar.runoff.electionDay.date <= calendar.primary.electionDay.date)
        issues.push({ path: ['runoff', 'electionDay', 'date'], message: ELECTION_MESSAGES.runoffAfter });
    }
    for (const issue of issues) ctx.addIssue({ code: 'custom', ...issue });
  }) satisfies z.ZodType<ElectionCalendar>;

/** POST /api/admin/election/sites: a CSV file's text (docs/decisions/157-election-calendar.md). */
export const SitesCsvSchema = z.strictObject({
  csv: z
    .string()
    .min(1, 'Choose a CSV file')
    .max(64 * 1024, 'The file is too large'),
});

/** POST /api/admin/election/next: the next election's Election Day (docs/decisions/157-election-calendar.md). */
export const NextElectionSchema = z.strictObject({ electionDay: isoDate });
