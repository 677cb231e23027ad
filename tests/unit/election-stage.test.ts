import { describe, expect, it } from 'vitest';
import { campaignWallClock } from '../../src/lib/campaign-time';
import { electionStage, phaseStatuses, stageKey, type ElectionCalendar } from '../../src/lib/election-stage';
import { ElectionCalendarSchema, ELECTION_MESSAGES } from '../../src/lib/schemas/election';
import { defaultElectionCalendar } from '../../src/content/election-calendar';
import { campaignPhases } from '../../src/content/home';
import { DST_2026 } from '../helpers/election';

/*
 * The stage of the election walked with a fake clock across every boundary, in America/Chicago
 * (docs/decisions/157-election-calendar.md). `chicago(local, offset)` builds the instant of a campaign wall-clock
 * time: offset -05:00 in daylight time (CDT), -06:00 in standard time (CST).
 */
const chicago = (local: string, offset: '-05:00' | '-06:00') => new Date(`${local}:00${offset}`);

/**
 * A calendar spanning the first Sunday of November 2026 (November 1: clocks go back at 2:00 CDT): early voting
 * Oct 31 - Nov 2 (across the change), Election Day Tuesday November 3, results November 4, and a runoff in December.
 */
const site = (id: string) => ({
  id,
  name: `Site ${id}`,
  address: `${id} St., New Orleans, LA`,
  mapUrl: 'https://maps.example/x',
});
const dst: ElectionCalendar = {
  sites: [site('a'), site('b')],
  primary: {
    ...DST_2026,
    earlyVoting: [
      { date: '2026-10-31', open: '08:30', close: '18:00', sites: ['a', 'b'] },
      { date: '2026-11-01', open: '12:00', close: '17:00', sites: ['b'] },
      { date: '2026-11-02', open: '08:30', close: '18:00', sites: ['a'] },
    ],
  },
  mode: 'none',
  runoff: null,
};
const runoff = {
  registration: {
    inPerson: { date: '2026-11-10', time: '16:30' },
    byMail: { date: '2026-11-10', time: '23:59' },
    online: { date: '2026-11-14', time: '23:59' },
  },
  mailBallot: {
    request: { date: '2026-11-27', time: '16:30' },
    return: { date: '2026-11-30', time: '16:30' },
  },
  earlyVoting: [{ date: '2026-11-21', open: '08:30', close: '18:00', sites: ['a'] }],
  electionDay: { date: '2026-12-05', open: '07:00', close: '20:00' },
  resultsDate: '2026-12-06',
  outcome: 'none' as const,
};

const kind = (cal: ElectionCalendar, at: Date) => electionStage(cal, at).kind;

describe('the campaign wall clock', () => {
  it('reads the same wall-clock time on both sides of the daylight-saving change', () => {
    expect(campaignWallClock(chicago('2026-10-31T23:59', '-05:00'))).toBe('2026-10-31T23:59');
    // 1:30 happens twice on November 1; both read 01:30.
    expect(campaignWallClock(new Date('2026-11-01T06:30:00Z'))).toBe('2026-11-01T01:30');
    expect(campaignWallClock(new Date('2026-11-01T07:30:00Z'))).toBe('2026-11-01T01:30');
    expect(campaignWallClock(chicago('2026-11-01T12:00', '-06:00'))).toBe('2026-11-01T12:00');
    expect(campaignWallClock(new Date('2026-11-04T02:00:00Z'))).toBe('2026-11-03T20:00');
  });
});

describe('electionStage walks every boundary', () => {
  it('registration: each deadline closes at its minute', () => {
    const before = electionStage(dst, chicago('2026-10-05T16:29', '-05:00'));
    expect(before.kind).toBe('registration-open');
    expect(before.registrationOpen).toEqual(['inPerson', 'byMail', 'online']);
    expect(electionStage(dst, chicago('2026-10-05T16:30', '-05:00')).registrationOpen).toEqual([
      'byMail',
      'online',
    ]);
    expect(electionStage(dst, chicago('2026-10-06T00:00', '-05:00')).registrationOpen).toEqual(['online']);
    expect(kind(dst, chicago('2026-10-13T23:58', '-05:00'))).toBe('registration-open');
    expect(kind(dst, chicago('2026-10-13T23:59', '-05:00'))).toBe('registration-closed');
    expect(kind(dst, chicago('2026-10-30T23:59', '-05:00'))).toBe('registration-closed');
  });

  it('early voting day by day, across the change to standard time, with each day’s sites and hours', () => {
    const first = electionStage(dst, chicago('2026-10-31T00:00', '-05:00'));
    expect(first.kind).toBe('early-voting');
    expect(first.earlyVotingToday?.sites.map((s) => s.id)).toEqual(['a', 'b']);
    expect(first.nextEarlyVotingDay?.date).toBe('2026-10-31');
    // After the first day closes, the next day is the one to show.
    expect(electionStage(dst, chicago('2026-10-31T18:00', '-05:00')).nextEarlyVotingDay?.date).toBe(
      '2026-11-01',
    );
    // November 1 (the change): 11:59 CST is before noon's opening; the day's own sites.
    const sunday = electionStage(dst, chicago('2026-11-01T11:59', '-06:00'));
    expect(sunday.kind).toBe('early-voting');
    expect(sunday.earlyVotingToday).toMatchObject({ date: '2026-11-01', open: '12:00', close: '17:00' });
    expect(sunday.earlyVotingToday?.sites.map((s) => s.id)).toEqual(['b']);
    // 17:00 CST is 23:00 UTC: read as CDT it would be 18:00 and still open; the wall clock says closed.
    expect(electionStage(dst, new Date('2026-11-01T23:00:00Z')).nextEarlyVotingDay?.date).toBe('2026-11-02');
    expect(electionStage(dst, new Date('2026-11-01T22:59:00Z')).nextEarlyVotingDay?.date).toBe('2026-11-01');
    expect(kind(dst, chicago('2026-11-02T17:59', '-06:00'))).toBe('early-voting');
    expect(kind(dst, chicago('2026-11-02T18:00', '-06:00'))).toBe('final-days');
  });

  it('Election Day: polls open at their hour and close at the minute', () => {
    expect(kind(dst, chicago('2026-11-03T06:59', '-06:00'))).toBe('final-days');
    const open = electionStage(dst, chicago('2026-11-03T07:00', '-06:00'));
    expect(open.kind).toBe('polls-open');
    expect(open.daysToElectionDay).toBe(0);
    expect(kind(dst, chicago('2026-11-03T19:59', '-06:00'))).toBe('polls-open');
    const closed = electionStage(dst, chicago('2026-11-03T20:00', '-06:00'));
    expect(closed.kind).toBe('polls-closed');
    expect(closed.pollsClosed).toBe(true);
    expect(kind(dst, chicago('2026-11-03T23:59', '-06:00'))).toBe('polls-closed');
  });

  it('the morning after: results (no mode chosen), then each post-election mode', () => {
    const after = electionStage(dst, chicago('2026-11-04T00:00', '-06:00'));
    expect(after).toMatchObject({ kind: 'results', outcome: 'none' });
    for (const mode of ['won', 'lost', 'ended'] as const) {
      // A chosen mode shows at once, even before the results date.
      const s = electionStage({ ...dst, mode }, chicago('2026-11-03T21:00', '-06:00'));
      expect(s).toMatchObject({ kind: 'results', outcome: mode, round: 'primary' });
    }
  });

  it('a runoff: the stages start again with the runoff’s dates', () => {
    const cal: ElectionCalendar = { ...dst, mode: 'runoff', runoff };
    // Before the primary's polls close, the primary's stages.
    expect(electionStage(cal, chicago('2026-11-03T19:59', '-06:00'))).toMatchObject({
      kind: 'polls-open',
      round: 'primary',
    });
    const r = electionStage(cal, chicago('2026-11-03T20:00', '-06:00'));
    expect(r).toMatchObject({ kind: 'registration-open', round: 'runoff' });
    expect(r.daysToElectionDay).toBe(32);
    expect(electionStage(cal, chicago('2026-11-15T00:00', '-06:00'))).toMatchObject({
      kind: 'registration-closed',
      round: 'runoff',
    });
    expect(kind(cal, chicago('2026-11-21T09:00', '-06:00'))).toBe('early-voting');
    expect(kind(cal, chicago('2026-11-21T18:00', '-06:00'))).toBe('final-days');
    expect(kind(cal, chicago('2026-12-05T07:00', '-06:00'))).toBe('polls-open');
    expect(kind(cal, chicago('2026-12-05T20:00', '-06:00'))).toBe('polls-closed');
    expect(electionStage(cal, chicago('2026-12-06T08:00', '-06:00'))).toMatchObject({
      kind: 'results',
      round: 'runoff',
      outcome: 'none',
    });
    const won = { ...cal, runoff: { ...runoff, outcome: 'won' as const } };
    expect(electionStage(won, chicago('2026-12-05T21:00', '-06:00'))).toMatchObject({
      kind: 'results',
      outcome: 'won',
    });
  });

  it('the seeded 2025 calendar: over today (2026-11-25), GOTV on the spec’s day', () => {
    expect(electionStage(defaultElectionCalendar, new Date('2026-11-25T12:00:00Z'))).toMatchObject({
      kind: 'results',
      outcome: 'none',
    });
    expect(kind(defaultElectionCalendar, chicago('2025-09-17T12:00', '-05:00'))).toBe('registration-open');
    expect(kind(defaultElectionCalendar, chicago('2025-09-28T12:00', '-05:00'))).toBe('early-voting');
    expect(
      electionStage(defaultElectionCalendar, chicago('2025-09-28T12:00', '-05:00')).earlyVotingToday,
    ).toBeNull();
  });

  it('stageKey changes at each boundary and each early-voting day, not within a stage’s day', () => {
    const keys = [
      chicago('2026-10-30T10:00', '-05:00'),
      chicago('2026-10-30T11:00', '-05:00'),
      chicago('2026-10-31T10:00', '-05:00'),
      chicago('2026-11-01T13:00', '-06:00'),
      chicago('2026-11-03T19:00', '-06:00'),
      chicago('2026-11-03T20:00', '-06:00'),
    ].map((t) => stageKey(electionStage(dst, t)));
    expect(keys[0]).toBe(keys[1]);
    expect(new Set(keys).size).toBe(5);
  });
});

describe('phase statuses are derived', () => {
  it('give the spec’s statuses on the spec’s day and all completed once the election is over', () => {
    const cal = defaultElectionCalendar;
    expect(phaseStatuses(campaignPhases, cal, chicago('2025-09-17T12:00', '-05:00'))).toEqual([
      'completed',
      'completed',
      'active',
    ]);
    expect(phaseStatuses(campaignPhases, cal, chicago('2025-07-01T12:00', '-05:00'))).toEqual([
      'upcoming',
      'planned',
      'planned',
    ]);
    expect(phaseStatuses(campaignPhases, cal, chicago('2025-08-10T23:59', '-05:00'))).toEqual([
      'active',
      'upcoming',
      'planned',
    ]);
    expect(phaseStatuses(campaignPhases, cal, new Date('2026-11-25T12:00:00Z'))).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
  });
});

describe('the calendar schema', () => {
  const issues = (cal: unknown) =>
    ElectionCalendarSchema.safeParse(cal).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

  it('accepts the seed and the test calendars', () => {
    expect(issues(defaultElectionCalendar)).toEqual([]);
    expect(issues(dst)).toEqual([]);
    expect(issues({ ...dst, mode: 'runoff', runoff })).toEqual([]);
  });

  it('refuses dates out of order and hours that make no sense, naming the field', () => {
    const bad = structuredClone(dst);
    bad.primary.electionDay = { date: '2026-11-03', open: '20:00', close: '07:00' };
    bad.primary.earlyVoting[1]!.date = '2026-10-30';
    bad.primary.earlyVoting[2]!.open = '04:00';
    bad.primary.earlyVoting[2]!.sites = ['nowhere'];
    bad.primary.registration.online.date = '2026-11-03';
    bad.primary.resultsDate = '2026-11-02';
    expect(issues(bad)).toEqual(
      expect.arrayContaining([
        ['primary.electionDay.close', ELECTION_MESSAGES.hoursOrder],
        ['primary.earlyVoting.1.date', ELECTION_MESSAGES.daysOrder],
        ['primary.earlyVoting.2.open', ELECTION_MESSAGES.hoursRange],
        ['primary.earlyVoting.2.sites.0', `${ELECTION_MESSAGES.unknownSite}: nowhere`],
        ['primary.registration.online.date', ELECTION_MESSAGES.beforeElectionDay],
        ['primary.resultsDate', ELECTION_MESSAGES.resultsAfter],
      ]),
    );
    expect(issues({ ...dst, mode: 'runoff' })).toEqual([['runoff', ELECTION_MESSAGES.runoffNeeded]]);
    const early = { ...runoff, electionDay: { ...runoff.electionDay, date: '2026-11-02' }, earlyVoting: [] };
    expect(issues({ ...dst, runoff: early })).toContainEqual([
      'runoff.electionDay.date',
      ELECTION_MESSAGES.runoffAfter,
    ]);
  });
});
