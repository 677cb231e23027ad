import { describe, expect, it } from 'vitest';
import {
  checkCalendar,
  dayAfter,
  fieldId,
  fieldOf,
  formFieldKeys,
  problemsFrom,
  withValue,
} from '../../src/admin/forms/election-form';
import { defaultElectionCalendar } from '../../src/content/election-calendar';
import type { ElectionCalendar } from '../../src/lib/election-stage';
import { ELECTION_MESSAGES } from '../../src/lib/schemas/election';
import { RUNOFF_2025 } from '../helpers/election';

/* The Election tab's form, its pure part (docs/decisions/157-election-calendar.md): each problem on its field. */
const cal: ElectionCalendar = defaultElectionCalendar;

describe('the Election tab form', () => {
  it('names each field by its path in the calendar', () => {
    const keys = formFieldKeys(cal);
    expect(keys.has('primary.registration.online.time')).toBe(true);
    expect(keys.has('primary.earlyVoting.6.sites')).toBe(true);
    expect(keys.has('primary.earlyVoting.7.date')).toBe(false);
    expect(keys.has('runoff.outcome')).toBe(false);
    expect(formFieldKeys({ ...cal, runoff: RUNOFF_2025 }).has('runoff.electionDay.close')).toBe(true);
    expect(fieldId('primary.earlyVoting.1.close')).toBe('election-primary-earlyVoting-1-close');
  });

  it('shows a problem on the nearest field its path is inside, or in the summary only', () => {
    const keys = formFieldKeys(cal);
    expect(fieldOf('primary.earlyVoting.0.sites.2', keys)).toBe('primary.earlyVoting.0.sites');
    expect(fieldOf('runoff', keys)).toBe('runoff');
    expect(fieldOf('sites.1.id', keys)).toBeNull();
  });

  it('checks with the server’s schema: a day’s closing before its opening is on that day’s closing time', () => {
    expect(checkCalendar(cal)).toEqual([]);
    const bad = withValue(cal, ['primary', 'earlyVoting', 1], {
      ...cal.primary.earlyVoting[1]!,
      open: '19:00',
      close: '08:00',
    });
    expect(checkCalendar(bad)).toEqual([
      { key: 'primary.earlyVoting.1.close', message: ELECTION_MESSAGES.hoursOrder },
    ]);
    // The calendar given is not changed.
    expect(cal.primary.earlyVoting[1]!.open).toBe('08:30');
    expect(checkCalendar({ ...cal, mode: 'runoff' })).toEqual([
      { key: 'runoff', message: ELECTION_MESSAGES.runoffNeeded },
    ]);
  });

  it('orders the server’s field problems as the form does', () => {
    expect(
      problemsFrom(
        {
          'primary.resultsDate': ELECTION_MESSAGES.resultsAfter,
          'sites.0.id': ELECTION_MESSAGES.duplicateSite,
          'primary.registration.inPerson.date': ELECTION_MESSAGES.beforeElectionDay,
        },
        cal,
      ),
    ).toEqual([
      { key: null, message: ELECTION_MESSAGES.duplicateSite },
      { key: 'primary.registration.inPerson.date', message: ELECTION_MESSAGES.beforeElectionDay },
      { key: 'primary.resultsDate', message: ELECTION_MESSAGES.resultsAfter },
    ]);
  });

  it('adds a day after the last one, across a month’s end', () => {
    expect(dayAfter('2025-09-30')).toBe('2025-10-01');
    expect(dayAfter('2025-12-31')).toBe('2026-01-01');
  });
});
