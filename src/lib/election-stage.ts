import { campaignWallClock, daysBetween } from './campaign-time.ts';

/*
 * The election calendar's shape and the stage of the election it gives at a moment
 * (docs/decisions/157-election-calendar.md). zod-free and free of Node APIs: the pages (at build time), the
 * scheduled rebuild check and the browser may all import it. The zod schema that validates an edited calendar
 * (src/lib/schemas/election.ts) is typed by these interfaces, so the shape is declared here once.
 *
 * Every date is a campaign date (YYYY-MM-DD) and every hour a campaign hour (HH:MM, 24-hour) in the campaign's
 * time zone (src/lib/campaign-time.ts); they are compared with the campaign's wall clock, never converted.
 */

/** A deadline: closes at `time` (campaign time) on `date`; "23:59" means through the end of that day. */
export interface Deadline {
  date: string;
  time: string;
}

/** A place to vote early (shared by the days it is open). */
export interface VotingSite {
  /** A short stable slug the days refer to. */
  id: string;
  name: string;
  address: string;
  /** A map link for the address (https). */
  mapUrl: string;
  /** Its 5-digit ZIP (optional: `siteZip` then takes a trailing ZIP from the address); recruiting orders by it. */
  zip?: string;
}

/** A trailing 5-digit ZIP (or ZIP+4) at the end of an address ("…, New Orleans, LA 70112" -> "70112"), or null. */
export function zipOfAddress(address: string): string | null {
  return /(?:^|[^\d])(\d{5})(?:-\d{4})?[\s.,]*$/.exec(address)?.[1] ?? null;
}

/** A site's ZIP (docs/decisions/181-shifts.md): the one given, else the address's trailing ZIP, else null. */
export const siteZip = (site: Pick<VotingSite, 'address' | 'zip'>): string | null =>
  site.zip || zipOfAddress(site.address);

/** A map link for an address (a search, so no place id has to be looked up). */
export const mapLink = (address: string) =>
  `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;

/** One day of early voting: its hours and the sites open that day (by id). */
export interface EarlyVotingDay {
  date: string;
  open: string;
  close: string;
  sites: string[];
}

/** One election (the primary, or a runoff): its deadlines, early voting, Election Day and results. */
export interface ElectionRound {
  registration: { inPerson: Deadline; byMail: Deadline; online: Deadline };
  mailBallot: { request: Deadline; return: Deadline };
  earlyVoting: EarlyVotingDay[];
  electionDay: { date: string; open: string; close: string };
  /** From this date on, results are in even when no post-election mode is chosen yet. */
  resultsDate: string;
}

/** What the campaign says once the results are in (an admin chooses it). */
export const OUTCOMES = ['none', 'won', 'lost', 'ended'] as const;
export type Outcome = (typeof OUTCOMES)[number];
/** The primary's post-election mode: an outcome, or a runoff (which then needs the runoff's dates). */
export const POST_ELECTION_MODES = ['none', 'won', 'lost', 'runoff', 'ended'] as const;
export type PostElectionMode = (typeof POST_ELECTION_MODES)[number];

export interface ElectionCalendar {
  sites: VotingSite[];
  primary: ElectionRound;
  /** The post-election mode an admin chose after the primary. */
  mode: PostElectionMode;
  /** The runoff's own dates (used when `mode` is "runoff") and its outcome. */
  runoff: (ElectionRound & { outcome: Outcome }) | null;
}

/** The stages, in the order a round walks through them (docs/decisions/157-election-calendar.md). */
export const STAGE_KINDS = [
  'registration-open',
  'registration-closed',
  'early-voting',
  'final-days',
  'polls-open',
  'polls-closed',
  'results',
] as const;
export type StageKind = (typeof STAGE_KINDS)[number];

/** Stages during which the site pushes voters to vote (the navigation links /vote). */
export const GOTV_STAGES: readonly StageKind[] = [
  'registration-closed',
  'early-voting',
  'final-days',
  'polls-open',
];

export type RegistrationWay = keyof ElectionRound['registration'];

/** An early-voting day with its sites resolved. */
export interface EarlyVotingDayView {
  date: string;
  open: string;
  close: string;
  sites: VotingSite[];
}

export interface ElectionStage {
  kind: StageKind;
  round: 'primary' | 'runoff';
  /** The round the stage belongs to (its dates are the ones to show). */
  dates: ElectionRound;
  /** Today's campaign date. */
  today: string;
  /** Days from today to this round's Election Day (0 on the day, negative after it). */
  daysToElectionDay: number;
  /** The registration ways still open (registration-open only; else empty). */
  registrationOpen: RegistrationWay[];
  /** Early voting: today's day when today is one (sites resolved), else null. */
  earlyVotingToday: EarlyVotingDayView | null;
  /** Early voting: the next day at or after today that has not closed yet (today's if still open), else null. */
  nextEarlyVotingDay: EarlyVotingDayView | null;
  /** Whether the last early-voting day has closed. */
  earlyVotingOver: boolean;
  /** Whether this round's polls have closed. */
  pollsClosed: boolean;
  /** The outcome shown once the results are in ("none" before, or when no mode is chosen). */
  outcome: Outcome;
}

const at = (d: Deadline | { date: string; time: string }) => `${d.date}T${d.time}`;

function resolveDay(calendar: ElectionCalendar, day: EarlyVotingDay): EarlyVotingDayView {
  const sites = day.sites
    .map((id) => calendar.sites.find((s) => s.id === id))
    .filter((s): s is VotingSite => s !== undefined);
  return { date: day.date, open: day.open, close: day.close, sites };
}

/** The moment registration closes: the last of the round's registration deadlines. */
export function registrationCloses(round: ElectionRound): string {
  return Object.values(round.registration).map(at).sort().at(-1)!;
}

function roundStage(
  calendar: ElectionCalendar,
  round: ElectionRound,
  which: 'primary' | 'runoff',
  outcome: Outcome,
  clock: string,
): ElectionStage {
  const today = clock.slice(0, 10);
  const ed = round.electionDay;
  const days = round.earlyVoting;
  const last = days.at(-1);
  const earlyVotingOver = last ? clock >= `${last.date}T${last.close}` : true;
  const todays = days.find((d) => d.date === today);
  const next = days.find((d) => clock < `${d.date}T${d.close}`);
  const pollsClosed = clock >= `${ed.date}T${ed.close}`;
  const base = {
    round: which,
    dates: round,
    today,
    daysToElectionDay: daysBetween(today, ed.date),
    registrationOpen: [] as RegistrationWay[],
    earlyVotingToday: todays ? resolveDay(calendar, todays) : null,
    nextEarlyVotingDay: next ? resolveDay(calendar, next) : null,
    earlyVotingOver,
    pollsClosed,
    outcome: 'none' as Outcome,
  };
  if (pollsClosed) {
    // Results are in once an admin has chosen the outcome, or from the results date on.
    const resultsIn = outcome !== 'none' || today >= round.resultsDate;
    return resultsIn ? { ...base, kind: 'results', outcome } : { ...base, kind: 'polls-closed' };
  }
  if (clock >= `${ed.date}T${ed.open}`) return { ...base, kind: 'polls-open' };
  if (earlyVotingOver && days.length > 0) return { ...base, kind: 'final-days' };
  if (days.length > 0 && today >= days[0]!.date) return { ...base, kind: 'early-voting' };
  if (clock < registrationCloses(round)) {
    const open = (Object.keys(round.registration) as RegistrationWay[]).filter(
      (way) => clock < at(round.registration[way]),
    );
    return { ...base, kind: 'registration-open', registrationOpen: open };
  }
  return { ...base, kind: days.length > 0 ? 'registration-closed' : 'final-days' };
}

/**
 * The stage of the election at `now`. The primary's stages run until its polls close; then, when the admin chose
 * a runoff (and entered its dates), the runoff's stages start again from its own registration; otherwise the
 * primary's results with the chosen mode.
 */
export function electionStage(calendar: ElectionCalendar, now: Date): ElectionStage {
  const clock = campaignWallClock(now);
  const primaryOutcome: Outcome = calendar.mode === 'runoff' ? 'none' : calendar.mode;
  const primary = roundStage(calendar, calendar.primary, 'primary', primaryOutcome, clock);
  if (calendar.mode === 'runoff' && calendar.runoff && primary.pollsClosed)
    return roundStage(calendar, calendar.runoff, 'runoff', calendar.runoff.outcome, clock);
  return primary;
}

/** A stable name of a stage for comparing two builds: the stage changes the pages when this changes. */
export function stageKey(stage: ElectionStage): string {
  const parts: string[] = [stage.round, stage.kind];
  if (stage.kind === 'results') parts.push(stage.outcome);
  if (stage.kind === 'registration-open') parts.push(stage.registrationOpen.join('+'));
  // The home page and /vote show today's early-voting sites and the countdown: each new day is a new page.
  if (stage.kind !== 'results' && stage.kind !== 'polls-closed') parts.push(stage.today);
  return parts.join(':');
}

// ---------------------------------------------------------------------------
// The next election

/** A campaign date (YYYY-MM-DD) moved by whole days. */
function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Every date of a round moved by `days` (deadline times and hours kept, so their offsets from Election Day hold). */
export function shiftRound(round: ElectionRound, days: number): ElectionRound {
  const d = <T extends { date: string }>(x: T): T => ({ ...x, date: shiftDate(x.date, days) });
  return {
    registration: {
      inPerson: d(round.registration.inPerson),
      byMail: d(round.registration.byMail),
      online: d(round.registration.online),
    },
    mailBallot: { request: d(round.mailBallot.request), return: d(round.mailBallot.return) },
    earlyVoting: round.earlyVoting.map(d),
    electionDay: d(round.electionDay),
    resultsDate: shiftDate(round.resultsDate, days),
  };
}

/**
 * The calendar of the next election (docs/decisions/157-election-calendar.md, "Starting the next election"):
 * the last election's dates moved so its Election Day falls on `electionDay` (every deadline and early-voting day
 * keeps its distance from Election Day, the sites are kept), no outcome chosen and no runoff. From it the stage is
 * the new election's (a campaign again), so the site stops speaking of the last one; staff then check each date.
 */
export function nextElectionCalendar(calendar: ElectionCalendar, electionDay: string): ElectionCalendar {
  const days = daysBetween(calendar.primary.electionDay.date, electionDay);
  return { sites: calendar.sites, primary: shiftRound(calendar.primary, days), mode: 'none', runoff: null };
}

// ---------------------------------------------------------------------------
// Campaign phases

/** A campaign phase's period as dates (inclusive). */
export interface PhasePeriod {
  start: { iso: string };
  end: { iso: string };
}

export type DerivedPhaseStatus = 'completed' | 'active' | 'upcoming' | 'planned';

/**
 * Each phase's status on `now`'s campaign date: completed once its last day has passed (and every phase once the
 * election's results are in), active during its period, upcoming for the next one to start, planned for the later
 * ones. Derived, never stored (docs/decisions/157-election-calendar.md).
 */
export function phaseStatuses(
  phases: readonly PhasePeriod[],
  calendar: ElectionCalendar,
  now: Date,
): DerivedPhaseStatus[] {
  const stage = electionStage(calendar, now);
  const today = stage.today;
  const over = stage.kind === 'results' || stage.kind === 'polls-closed';
  let upcomingGiven = false;
  return phases.map((phase) => {
    if (over || today > phase.end.iso) return 'completed';
    if (today >= phase.start.iso) return 'active';
    if (!upcomingGiven) {
      upcomingGiven = true;
      return 'upcoming';
    }
    return 'planned';
  });
}

// ---------------------------------------------------------------------------
// After the election

/**
 * What the site is, from the stage (docs/decisions/157-election-calendar.md): a campaign until the results are in
 * with an outcome an admin chose; then "won" (thank you, what comes next), "lost" (thank you) or "ended" (the
 * campaign is over: donations retire its debt, volunteer and text sign-ups are closed, "stay in touch" by the
 * newsletter). A runoff is a campaign again until its own results.
 */
export type SiteMode = 'campaign' | Exclude<Outcome, 'none'>;

export function siteMode(stage: ElectionStage): SiteMode {
  return stage.kind === 'results' && stage.outcome !== 'none' ? stage.outcome : 'campaign';
}

/**
 * How the site speaks, from the stage (docs/decisions/157-election-calendar.md, "One voice at every stage"):
 * a campaign until this round's polls close; then, until an admin sets the outcome, making no claim either way
 * ("awaiting": the election is over, nothing says who won); then the outcome. A runoff is a campaign again until its
 * own polls close.
 */
export type SiteVoice = 'campaign' | 'awaiting' | Exclude<Outcome, 'none'>;

export function siteVoice(stage: ElectionStage): SiteVoice {
  if (!stage.pollsClosed) return 'campaign';
  return stage.kind === 'results' && stage.outcome !== 'none' ? stage.outcome : 'awaiting';
}

/** The sign-ups a mode closes (pages show "stay in touch" instead; the endpoints refuse them: 410). */
export const CLOSED_FORMS = ['volunteer', 'text-signup'] as const;
export type ClosableForm = (typeof CLOSED_FORMS)[number];

export const formsClosed = (mode: SiteMode): boolean => mode === 'ended';
