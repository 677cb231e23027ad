import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import type { ElectionCalendar, ElectionRound } from '../../src/lib/election-stage.ts';

/**
 * A calendar whose election is still ahead (January 2031), for tests that need plans to vote open at the real
 * clock: early voting Saturday January 4 and Monday January 6 (no voting Sunday), Election Day Saturday January 11.
 */
export const FUTURE_CALENDAR: ElectionCalendar = {
  sites: defaultElectionCalendar.sites,
  mode: 'none',
  runoff: null,
  primary: {
    registration: {
      inPerson: { date: '2030-12-11', time: '16:30' },
      byMail: { date: '2030-12-11', time: '23:59' },
      online: { date: '2030-12-21', time: '23:59' },
    },
    mailBallot: {
      request: { date: '2031-01-07', time: '16:30' },
      return: { date: '2031-01-10', time: '16:30' },
    },
    earlyVoting: ['2031-01-04', '2031-01-06'].map((date) => ({
      date,
      open: '08:30',
      close: '18:00',
      sites: ['city-hall', 'algiers-courthouse'],
    })),
    electionDay: { date: '2031-01-11', open: '07:00', close: '20:00' },
    resultsDate: '2031-01-12',
  },
};

/** A runoff after the seeded 2025 primary: registration to October 25, early voting November 1, Election Day November 15. */
export const RUNOFF_2025: NonNullable<ElectionCalendar['runoff']> = {
  ...defaultElectionCalendar.primary,
  registration: {
    inPerson: { date: '2025-10-15', time: '16:30' },
    byMail: { date: '2025-10-15', time: '23:59' },
    online: { date: '2025-10-25', time: '23:59' },
  },
  mailBallot: {
    request: { date: '2025-11-11', time: '16:30' },
    return: { date: '2025-11-14', time: '16:30' },
  },
  earlyVoting: [{ date: '2025-11-01', open: '08:30', close: '18:00', sites: ['city-hall'] }],
  electionDay: { date: '2025-11-15', open: '07:00', close: '20:00' },
  resultsDate: '2025-11-16',
  outcome: 'none',
};

/**
 * An election across the end of daylight saving time (Sunday November 1, 2026): registration to October 13, early
 * voting Saturday October 31 and Monday November 2 (8:30 AM - 6:00 PM, City Hall and Lake Vista), Election Day Tuesday
 * November 3.
 */
export const DST_2026: ElectionRound = {
  registration: {
    inPerson: { date: '2026-10-05', time: '16:30' },
    byMail: { date: '2026-10-05', time: '23:59' },
    online: { date: '2026-10-13', time: '23:59' },
  },
  mailBallot: {
    request: { date: '2026-10-30', time: '16:30' },
    return: { date: '2026-11-02', time: '16:30' },
  },
  earlyVoting: ['2026-10-31', '2026-11-02'].map((date) => ({
    date,
    open: '08:30',
    close: '18:00',
    sites: ['city-hall', 'lake-vista'],
  })),
  electionDay: { date: '2026-11-03', open: '07:00', close: '20:00' },
  resultsDate: '2026-11-04',
};
