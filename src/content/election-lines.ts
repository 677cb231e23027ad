import { LANG_TAGS } from '../lib/lang-paths.ts';
import type { Lang } from '../lib/lang.ts';
import { formatTime } from '../lib/campaign-time.ts';
import { longDate } from '../lib/format.ts';
import {
  electionStage,
  formsClosed,
  phaseStatuses,
  siteMode,
  siteVoice,
  GOTV_STAGES,
  type DerivedPhaseStatus,
  type ElectionCalendar,
  type ElectionStage,
  type SiteMode,
  type SiteVoice,
} from '../lib/election-stage.ts';
import { ElectionCalendarSchema } from '../lib/schemas/election.ts';
import { copyFor } from './copy.ts';
import { defaultElectionCalendar } from './election-calendar.ts';
import { campaignPhases } from './home.ts';

/*
 * What the pages say about the election at a moment, in a language (docs/decisions/157-election-calendar.md).
 * Pure functions of (calendar, now, lang), so tests walk the calendar with a fake clock; the pages call
 * `siteElection()` once per build, so every page of a build shows the same stage.
 */

/** One line of the footer's dates: a label and a date (or a period). */
export interface DateLine {
  label: string;
  value: string;
  /** The date for `<time datetime>` (a single day only). */
  iso?: string;
}

export interface ElectionLines {
  stage: ElectionStage;
  /** Footer: Election Day, then early voting (when the round has any). */
  footer: DateLine[];
  /** The Contact FAQ's election answer. */
  faqAnswer: string;
  /** "12 days to Election Day", or null when no countdown helps (after the polls close). */
  countdown: string | null;
  /** The one sentence that says where the election stands (home page, /vote). */
  headline: string;
  /** Whether the navigation links /vote (the get-out-the-vote stages). */
  voteInNav: boolean;
  /** Each campaign phase's status, in the order of the timeline. */
  phaseStatuses: DerivedPhaseStatus[];
  /** What the site is after the election (docs/decisions/157-election-calendar.md). */
  mode: SiteMode;
  /** Whether the volunteer and text sign-ups are closed (the mode "ended"). */
  formsClosed: boolean;
  /** How the campaigning pages speak (hero, about, volunteer, text sign-up, donate). */
  voice: SiteVoice;
}

const day = (iso: string, lang: Lang) => longDate(iso, lang);
const short = (iso: string, lang: Lang) => longDate(iso, lang, { year: undefined });
const hour = (time: string, lang: Lang) => formatTime(time, LANG_TAGS[lang].intl);

export function electionLines(calendar: ElectionCalendar, now: Date, lang: Lang): ElectionLines {
  const { contact, ui, vote } = copyFor(lang);
  const words = vote.electionWords;
  const stage = electionStage(calendar, now);
  const { dates } = stage;
  const ed = dates.electionDay;
  const runoff = stage.round === 'runoff';
  const days = dates.earlyVoting;
  const [first, last] = [days.at(0)?.date, days.at(-1)?.date];
  const range =
    !first || !last
      ? null
      : first === last
        ? short(first, lang)
        : words.range(short(first, lang), short(last, lang));

  const footer: DateLine[] = [
    {
      label: stage.pollsClosed
        ? runoff
          ? words.footer.runoffDayPast
          : words.footer.electionDayPast
        : runoff
          ? words.footer.runoffDay
          : ui.footerCopy.electionDay,
      value: day(ed.date, lang),
      iso: ed.date,
    },
  ];
  if (range)
    footer.push({
      label: stage.earlyVotingOver
        ? words.footer.earlyVotingPast
        : runoff
          ? words.footer.runoffEarlyVoting
          : ui.footerCopy.earlyVoting,
      value: stage.earlyVotingOver ? words.midSentence(range) : range,
    });

  const answer = contact.electionAnswer;
  const faqAnswer = [
    stage.pollsClosed ? answer.was(day(ed.date, lang)) : answer.is(day(ed.date, lang)),
    range ? (stage.earlyVotingOver ? answer.ran(range) : answer.runs(range)) : null,
  ]
    .filter(Boolean)
    .join(' ');

  let countdown: string | null = null;
  if (!stage.pollsClosed)
    countdown =
      stage.daysToElectionDay === 0
        ? words.countdown.today
        : runoff
          ? words.countdown.runoffDays(stage.daysToElectionDay)
          : words.countdown.days(stage.daysToElectionDay);

  return {
    stage,
    footer,
    faqAnswer,
    countdown,
    headline: headline(stage, lang),
    voteInNav: GOTV_STAGES.includes(stage.kind),
    phaseStatuses: phaseStatuses(campaignPhases, calendar, now),
    mode: siteMode(stage),
    formsClosed: formsClosed(siteMode(stage)),
    voice: siteVoice(stage),
  };
}

function headline(stage: ElectionStage, lang: Lang): string {
  const s = copyFor(lang).vote.electionWords.stage;
  const ed = stage.dates.electionDay;
  switch (stage.kind) {
    case 'registration-open': {
      const last = stage.registrationOpen
        .map((way) => stage.dates.registration[way].date)
        .sort()
        .at(-1)!;
      return s.registrationOpen(day(last, lang));
    }
    case 'registration-closed':
      return s.registrationClosed(day(stage.dates.earlyVoting[0]!.date, lang));
    case 'early-voting': {
      const next = stage.nextEarlyVotingDay;
      if (next?.date === stage.today)
        return s.earlyVotingToday(hour(next.open, lang), hour(next.close, lang));
      if (next) return s.earlyVotingNext(day(next.date, lang));
      return s.finalDays(day(ed.date, lang), hour(ed.open, lang), hour(ed.close, lang));
    }
    case 'final-days':
      return s.finalDays(day(ed.date, lang), hour(ed.open, lang), hour(ed.close, lang));
    case 'polls-open':
      return s.pollsOpen(hour(ed.close, lang));
    case 'polls-closed':
      return s.pollsClosed;
    case 'results':
      return stage.outcome === 'none' ? s.over(day(ed.date, lang)) : s[stage.outcome];
  }
}

// ---------------------------------------------------------------------------
// The build's calendar and clock

/**
 * The calendar a build uses: on Netlify, the one staff saved (read from the live site's public
 * GET /api/election-calendar, which answers the stored record or the default), else the seeded default. A build
 * that cannot read it uses the default and says so in the build log (docs/decisions/157-election-calendar.md).
 * Elsewhere (a local or test build, the dev server) ELECTION_BUILD_CALENDAR may name a JSON file holding a calendar,
 * to build the pages of any calendar (docs/decisions/157-election-calendar.md); a Netlify build ignores it, and a
 * file that is missing or not a valid calendar fails the build.
 */
async function calendarForBuild(env: Record<string, string | undefined>): Promise<ElectionCalendar> {
  if (env.NETLIFY !== 'true') return calendarFromFile(env.ELECTION_BUILD_CALENDAR);
  const site = env.URL;
  if (!site) return defaultElectionCalendar;
  try {
    const res = await fetch(new URL('/api/election-calendar', site), { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body = (await res.json()) as { calendar?: unknown };
    return ElectionCalendarSchema.parse(body.calendar);
  } catch (err) {
    console.warn('[election] could not read the stored calendar; building with the default', err);
    return defaultElectionCalendar;
  }
}

/** The calendar in ELECTION_BUILD_CALENDAR's file (not on Netlify), else the default. */
export function calendarFromFile(path: string | undefined): ElectionCalendar {
  if (!path) return defaultElectionCalendar;
  // Read at build time only; node:fs on first use keeps this module importable anywhere.
  const text = process.getBuiltinModule('node:fs').readFileSync(path, 'utf8');
  const parsed = ElectionCalendarSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new Error(
      `ELECTION_BUILD_CALENDAR (${path}) is not a valid election calendar: ${parsed.error.issues
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    );
  return parsed.data;
}

/**
 * The build's moment: now. A test or preview build may fix it with ELECTION_BUILD_NOW (an ISO date-time), to build
 * the pages of any stage; a Netlify build ignores it, so production always builds at its real moment
 * (docs/decisions/157-election-calendar.md).
 */
export function buildMoment(env: Record<string, string | undefined> = process.env, now = new Date()): Date {
  const fixed = env.ELECTION_BUILD_NOW;
  if (!fixed || env.NETLIFY === 'true') return now;
  const t = Date.parse(fixed);
  if (Number.isNaN(t))
    throw new Error('ELECTION_BUILD_NOW must be an ISO date-time, e.g. 2025-10-11T12:00:00-05:00');
  return new Date(t);
}

let building: { key: string; election: Promise<{ calendar: ElectionCalendar; now: Date }> } | null = null;

/**
 * The build's calendar and moment, read once per build: every page shows the same stage. Read again only when
 * ELECTION_BUILD_NOW or ELECTION_BUILD_CALENDAR change, which a build never sees (the page tests render one
 * process's pages at many moments: tests/pages/election-pages.test.ts).
 */
export function buildElection(): Promise<{ calendar: ElectionCalendar; now: Date }> {
  const env = process.env;
  const key = `${env.ELECTION_BUILD_NOW ?? ''}\n${env.ELECTION_BUILD_CALENDAR ?? ''}`;
  if (building?.key !== key)
    building = {
      key,
      election: calendarForBuild(env).then((calendar) => ({ calendar, now: buildMoment(env) })),
    };
  return building.election;
}
