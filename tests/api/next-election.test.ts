import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as adminElection from '../../netlify/functions/admin-election.mts';
import * as publicCalendar from '../../netlify/functions/election-calendar.mts';
import * as launchFn from '../../netlify/functions/admin-launch-check.mts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import {
  electionStage,
  siteVoice,
  type ElectionCalendar,
  type ElectionRound,
} from '../../src/lib/election-stage.ts';
import { ELECTION_MESSAGES } from '../../src/lib/schemas/election.ts';
import { LaunchCheckResponseSchema } from '../../src/lib/schemas/launch-check.ts';
import { auditPage } from '../../src/lib/server/audit/audit.ts';
import { setElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * Starting the next election in one step (docs/decisions/157-election-calendar.md, "Starting the next
 * election"): POST /api/admin/election/next moves the last election's dates to the new Election Day, clears the
 * outcome and the runoff, and the site campaigns again. Every clock here is a fake one with an explicit UTC offset.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeEach(async () => {
  blobs = await startBlobs();
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(async () => {
  vi.useRealTimers();
  await blobs.stop();
});

/** The day after the seeded results date, thirteen months on: the seeded calendar is over. */
const AFTER = new Date('2026-11-29T09:00:00-06:00');

const stored = async () =>
  ((await (await call(publicCalendar, '/api/election-calendar')).json()) as { calendar: ElectionCalendar })
    .calendar;

async function startNext(electionDay: unknown, role: 'admin' | 'editor' = 'admin') {
  const { cookie } = await signedIn(role);
  return call(adminElection, '/api/admin/election/next', { json: { electionDay }, cookie });
}

/** The seeded election's round with its dates rewritten (a fixture independent of the code under test). */
function moved(from: string, to: string): ElectionRound {
  const round: ElectionRound = JSON.parse(
    JSON.stringify(defaultElectionCalendar.primary).replaceAll(from, to),
  ) as ElectionRound;
  return round;
}

const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

describe('POST /api/admin/election/next', () => {
  it('moves the site from the last election to the next one: campaign voice, every date at its distance, audited, and the launch check satisfied', async () => {
    vi.setSystemTime(AFTER);
    const calendarItems = async () => {
      const { cookie } = await signedIn('admin');
      const res = await call(launchFn, '/api/admin/launch-check', { cookie });
      return LaunchCheckResponseSchema.parse(await res.json()).items.filter((i) => i.area === 'calendar');
    };
    // Before: the seeded October 2025 election is over and the launch check says so.
    expect(siteVoice(electionStage(await stored(), AFTER))).toBe('awaiting');
    expect((await calendarItems()).map((i) => i.key)).toEqual(['calendar:election-day']);

    const res = await startNext('2027-11-06');
    expect(res.status).toBe(200);
    const after = await stored();
    expect(after.primary.electionDay).toEqual({
      ...defaultElectionCalendar.primary.electionDay,
      date: '2027-11-06',
    });
    expect(after.mode).toBe('none');
    expect(after.runoff).toBeNull();
    expect(after.sites).toEqual(defaultElectionCalendar.sites);
    // Each date keeps its distance from Election Day, each time and hour is kept.
    const old = defaultElectionCalendar.primary;
    const shift = days(old.electionDay.date, '2027-11-06');
    expect(days(old.registration.online.date, after.primary.registration.online.date)).toBe(shift);
    expect(days(old.mailBallot.return.date, after.primary.mailBallot.return.date)).toBe(shift);
    expect(days(old.resultsDate, after.primary.resultsDate)).toBe(shift);
    expect(after.primary.earlyVoting.map((d) => days(d.date, after.primary.electionDay.date))).toEqual(
      old.earlyVoting.map((d) => days(d.date, old.electionDay.date)),
    );
    expect(after.primary.registration.inPerson.time).toBe(old.registration.inPerson.time);
    // The site campaigns for the new date: registration is open again.
    const stage = electionStage(after, AFTER);
    expect(siteVoice(stage)).toBe('campaign');
    expect(stage.kind).toBe('registration-open');
    expect(stage.dates.electionDay.date).toBe('2027-11-06');
    // The launch check no longer flags the calendar.
    expect(await calendarItems()).toEqual([]);
    // Audited, saying what happened.
    const page = await auditPage({ page: 1, pageSize: 10, kind: 'settings.election_calendar' } as never);
    expect(JSON.stringify(page.entries[0])).toContain('next election started: Election Day 2027-11-06');
    expect(JSON.stringify(page.entries[0])).toContain('Election Day 2025-10-11');
  });

  it('clears a chosen outcome and a finished runoff', async () => {
    vi.setSystemTime(AFTER);
    const withRunoff: ElectionCalendar = {
      ...defaultElectionCalendar,
      mode: 'runoff',
      runoff: {
        ...moved('2025-10-', '2025-11-'),
        outcome: 'won',
      },
    };
    await setElectionCalendar(withRunoff, 'admin', AFTER);
    expect(electionStage(await stored(), AFTER)).toMatchObject({ round: 'runoff', kind: 'results' });
    expect((await startNext('2027-11-06')).status).toBe(200);
    expect(await stored()).toMatchObject({ mode: 'none', runoff: null });
  });

  it('refuses while the election the site follows is not over (409), up to the minute its polls close', async () => {
    const admin = await signedIn('admin');
    const post = () =>
      call(adminElection, '/api/admin/election/next', {
        json: { electionDay: '2027-11-06' },
        cookie: admin.cookie,
      });
    vi.setSystemTime(new Date('2025-10-11T19:59:00-05:00'));
    const res = await post();
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: string }).error).toBe(
      `The election of Saturday, October 11, 2025 ${ELECTION_MESSAGES.notOverYet}`,
    );
    expect(await stored()).toEqual(defaultElectionCalendar);
    // The polls closed: now it may start.
    vi.setSystemTime(new Date('2025-10-11T20:00:00-05:00'));
    expect((await post()).status).toBe(200);
  });

  it('refuses while a chosen runoff is still ahead, naming the runoff', async () => {
    vi.setSystemTime(AFTER);
    const runoff = {
      ...moved('2025-', '2027-'),
      outcome: 'none' as const,
    };
    await setElectionCalendar({ ...defaultElectionCalendar, mode: 'runoff', runoff }, 'admin', AFTER);
    const res = await startNext('2028-11-04');
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /^The runoff of Monday, October 11, 2027 is not over yet/,
    );
    expect((await stored()).runoff).toEqual(runoff);
  });

  it('refuses an Election Day that is not after today in the campaign’s time zone, or not a date (400), storing nothing', async () => {
    // 11:30 PM in New Orleans on November 29 is already November 30 in UTC.
    vi.setSystemTime(new Date('2026-11-29T23:30:00-06:00'));
    for (const bad of ['2026-11-29', '2026-11-01', '2025-10-11']) {
      const res = await startNext(bad);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(ELECTION_MESSAGES.nextAfterToday);
    }
    for (const bad of ['11/06/2027', '2027-02-30', '', 20271106, null]) {
      const res = await startNext(bad);
      expect(res.status).toBe(400);
    }
    expect(await stored()).toEqual(defaultElectionCalendar);
    // The campaign's tomorrow is accepted.
    expect((await startNext('2026-11-30')).status).toBe(200);
    expect((await stored()).primary.electionDay.date).toBe('2026-11-30');
  });

  it('is admin only', async () => {
    vi.setSystemTime(AFTER);
    expect((await startNext('2027-11-06', 'editor')).status).toBe(403);
    expect(
      (await call(adminElection, '/api/admin/election/next', { json: { electionDay: '2027-11-06' } })).status,
    ).toBe(401);
    expect(await stored()).toEqual(defaultElectionCalendar);
  });
});
