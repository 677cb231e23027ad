import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import type { ElectionCalendar } from '../../src/lib/election-stage.ts';

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
