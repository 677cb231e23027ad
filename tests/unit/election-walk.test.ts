import { describe, expect, it } from 'vitest';
import { defaultElectionCalendar } from '../../src/content/election-calendar';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildElection,
  buildMoment,
  calendarFromFile,
  electionLines,
} from '../../src/content/election-lines';
import { planDayLabel } from '../../src/content/vote-plan-lines';
import { campaignWallClock } from '../../src/lib/campaign-time';
import type { ElectionCalendar, PostElectionMode } from '../../src/lib/election-stage';
import { planDays, reminderWindow } from '../../src/lib/vote-plan';
import { DST_2026, FUTURE_CALENDAR, RUNOFF_2025 } from '../helpers/election';

/*
 * The walk of the whole calendar that tests/unit/election-lines.test.ts does not already make
 * (docs/decisions/157-election-calendar.md): what the plan-to-vote form offers at each stage, each post-election
 * mode (won, lost, ended: the mode, the closed sign-ups, the words in English and Spanish), a runoff's plans, the
 * reminders' times across the end of daylight saving time, and the build's clock.
 */
const cal = defaultElectionCalendar as ElectionCalendar;
const cdt = (local: string) => new Date(`${local}:00-05:00`);
const days = (at: Date, method?: 'in-person' | 'mail', c = cal) => planDays(c, at, method).map((d) => d.date);

describe('the plan-to-vote form follows the stage', () => {
  it('offers every day before registration closes, drops each day once it closes, and nothing after the polls close', () => {
    const all = [...cal.primary.earlyVoting.map((d) => d.date), '2025-10-11'];
    expect(days(cdt('2025-09-17T12:00'))).toEqual(all);
    // Sunday September 28 (no early voting): Saturday is gone, Monday is first.
    expect(days(cdt('2025-09-28T12:00'))[0]).toBe('2025-09-29');
    // Saturday October 4 at 17:59 the last early day is still open; at 18:00 only Election Day is left.
    expect(days(cdt('2025-10-04T17:59'))).toEqual(['2025-10-04', '2025-10-11']);
    expect(days(cdt('2025-10-04T18:00'))).toEqual(['2025-10-11']);
    expect(days(cdt('2025-10-11T19:59'))).toEqual(['2025-10-11']);
    expect(days(cdt('2025-10-11T20:00'))).toEqual([]);
    expect(days(cdt('2025-10-12T08:00'))).toEqual([]);
  });

  it('by mail: only days on or before the return deadline', () => {
    expect(days(cdt('2025-10-05T12:00'), 'mail')).toEqual([]);
    expect(days(cdt('2025-10-03T12:00'), 'mail')).toEqual(['2025-10-03', '2025-10-04']);
  });

  it('labels its days in both languages', () => {
    const [first] = planDays(cal, cdt('2025-09-17T12:00'));
    expect(planDayLabel(first!, 'en')).toBe('Saturday, September 27, 2025 (early voting)');
    expect(planDayLabel(first!, 'es')).toBe('sábado, 27 de septiembre de 2025 (votación anticipada)');
  });

  it('a runoff takes plans again for its own days once the first election’s polls have closed', () => {
    const c: ElectionCalendar = { ...cal, mode: 'runoff', runoff: RUNOFF_2025 };
    expect(days(cdt('2025-10-11T21:00'), undefined, c)).toEqual(['2025-11-01', '2025-11-15']);
    expect(electionLines(c, cdt('2025-10-11T21:00'), 'en')).toMatchObject({
      mode: 'campaign',
      formsClosed: false,
    });
  });
});

describe('post-election modes', () => {
  const at = (mode: PostElectionMode, lang: 'en' | 'es', when = '2025-10-12T09:00') =>
    electionLines({ ...cal, mode }, cdt(when), lang);

  it.each([
    ['won', 'We won. Thank you to every voter and volunteer: now the work begins.', 'Ganamos.'],
    ['lost', 'The votes are counted and this time we came up short.', 'Los votos están contados'],
    ['ended', 'The campaign has ended. Thank you for being part of it.', 'La campaña ha terminado.'],
  ] as const)('"%s": its thank-you in both languages; only "ended" closes the sign-ups', (mode, en, es) => {
    expect(at(mode, 'en')).toMatchObject({
      mode,
      formsClosed: mode === 'ended',
      countdown: null,
      voteInNav: false,
    });
    expect(at(mode, 'en').headline).toContain(en);
    expect(at(mode, 'es').headline).toContain(es);
    expect(at(mode, 'en').phaseStatuses).toEqual(['completed', 'completed', 'completed']);
    expect(at(mode, 'en').footer[0]?.label).toBe('Election Day was');
    expect(at(mode, 'es').footer[0]?.label).toBe('La elección fue el');
  });

  it('a mode chosen early changes nothing while the polls are open; "none" stays a campaign after them', () => {
    expect(at('ended', 'en', '2025-10-11T12:00')).toMatchObject({ mode: 'campaign', formsClosed: false });
    expect(at('none', 'en')).toMatchObject({ mode: 'campaign', formsClosed: false });
    expect(at('none', 'en').headline).toBe(
      'The election was held on October 11, 2025. Thank you for voting.',
    );
  });
});

describe('the reminders’ times across the end of daylight saving time (November 1, 2026)', () => {
  const c: ElectionCalendar = { ...cal, primary: DST_2026 };
  it('the eve of Monday is Sunday 17:00 CST, the morning one 09:00 on Election Day; wall-clock, not offsets', () => {
    const plan = { round: 'primary' as const, day: '2026-11-02', method: 'in-person' as const };
    expect(reminderWindow(c, plan, 'eve')).toEqual({ due: '2026-11-01T17:00', lapses: '2026-11-02T00:00' });
    expect(reminderWindow(c, plan, 'morning')).toEqual({
      due: '2026-11-03T09:00',
      lapses: '2026-11-03T20:00',
    });
    expect(reminderWindow(c, { ...plan, method: 'mail' }, 'morning')).toBeNull();
    // 17:00 CST is 23:00 UTC; the same hour a day earlier (CDT) was 22:00 UTC.
    expect(campaignWallClock(new Date('2026-11-01T23:00:00Z'))).toBe('2026-11-01T17:00');
    expect(campaignWallClock(new Date('2026-10-31T22:00:00Z'))).toBe('2026-10-31T17:00');
  });
});

describe('the build’s clock (ELECTION_BUILD_NOW)', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  it('is now unless a test build fixes it; a Netlify build ignores it', () => {
    expect(buildMoment({}, now)).toBe(now);
    expect(buildMoment({ ELECTION_BUILD_NOW: '2025-10-11T12:00:00-05:00' }, now).toISOString()).toBe(
      '2025-10-11T17:00:00.000Z',
    );
    expect(buildMoment({ ELECTION_BUILD_NOW: '2025-10-11T12:00:00-05:00', NETLIFY: 'true' }, now)).toBe(now);
    expect(() => buildMoment({ ELECTION_BUILD_NOW: 'tomorrow' }, now)).toThrow(/ISO date-time/);
  });
});

describe('the build’s calendar (ELECTION_BUILD_CALENDAR)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'build-calendar-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  it('is the default unless a file is named; a file that is not a valid calendar fails the build', () => {
    expect(calendarFromFile(undefined)).toBe(defaultElectionCalendar);
    expect(calendarFromFile(file('future.json', JSON.stringify(FUTURE_CALENDAR)))).toEqual(FUTURE_CALENDAR);
    const bad = { ...FUTURE_CALENDAR, primary: { ...FUTURE_CALENDAR.primary, resultsDate: '2030-01-01' } };
    expect(() => calendarFromFile(file('bad.json', JSON.stringify(bad)))).toThrow(
      /primary\.resultsDate: The results date must be on or after Election Day/,
    );
    expect(() => calendarFromFile(join(dir, 'missing.json'))).toThrow(/ENOENT/);
  });
  it('a Netlify build ignores it (it reads the stored calendar from the live site)', async () => {
    const saved = { ...process.env };
    try {
      Object.assign(process.env, {
        NETLIFY: 'true',
        ELECTION_BUILD_CALENDAR: file('ignored.json', JSON.stringify(FUTURE_CALENDAR)),
      });
      delete process.env.URL;
      expect((await buildElection()).calendar).toBe(defaultElectionCalendar);
    } finally {
      process.env = saved;
    }
  });
});
