import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import {
  cronMatches,
  DevScheduler,
  nextMinute,
  type ScheduledFunction,
} from '../../scripts/dev/scheduled-functions.mts';

/*
 * Local mode runs the scheduled functions on their schedules (docs/decisions/164-dev-server-and-local-mode.md).
 * Every moment below is written with an explicit UTC offset, as Netlify's cron reads UTC.
 */

describe('cronMatches (UTC, as Netlify)', () => {
  const at = (iso: string) => new Date(iso);
  it('every minute, every 5 and 15 minutes, hourly', () => {
    expect(cronMatches('* * * * *', at('2026-11-29T14:07:00Z'))).toBe(true);
    expect(cronMatches('*/5 * * * *', at('2026-11-29T14:05:00Z'))).toBe(true);
    expect(cronMatches('*/5 * * * *', at('2026-11-29T14:07:00Z'))).toBe(false);
    expect(cronMatches('*/15 * * * *', at('2026-11-29T14:45:00Z'))).toBe(true);
    expect(cronMatches('*/15 * * * *', at('2026-11-29T14:50:00Z'))).toBe(false);
    expect(cronMatches('@hourly', at('2026-11-29T15:00:00Z'))).toBe(true);
    expect(cronMatches('@hourly', at('2026-11-29T15:01:00Z'))).toBe(false);
  });

  it('reads the clock in UTC whatever the offset it was written with', () => {
    // 09:00 in New Orleans (CST, -06:00) is 15:00 UTC: an hourly job runs; 09:30 CST is 15:30 UTC.
    expect(cronMatches('0 15 * * *', at('2026-11-29T09:00:00-06:00'))).toBe(true);
    expect(cronMatches('@hourly', at('2026-11-29T09:30:00-06:00'))).toBe(false);
    // Across the end of daylight saving time (November 1, 2026, 2:00 CDT -> 1:00 CST) UTC hours go on evenly.
    expect(cronMatches('0 6 * * *', at('2026-11-01T01:00:00-05:00'))).toBe(true);
    expect(cronMatches('0 7 * * *', at('2026-11-01T01:00:00-06:00'))).toBe(true);
  });

  it('ranges, lists, steps, names of days, and cron’s either-day rule', () => {
    expect(cronMatches('0 9-17/4 * * 1-5', at('2026-11-30T13:00:00Z'))).toBe(true); // Monday 13:00
    expect(cronMatches('0 9-17/4 * * 1-5', at('2026-11-29T13:00:00Z'))).toBe(false); // Sunday
    expect(cronMatches('0 0 * * 7', at('2026-11-29T00:00:00Z'))).toBe(true); // 7 is Sunday too
    expect(cronMatches('0 0 1 * 1', at('2026-11-30T00:00:00Z'))).toBe(true); // a Monday, not the 1st
    expect(cronMatches('0 0 1 * 1', at('2026-12-01T00:00:00Z'))).toBe(true); // the 1st, a Tuesday
    expect(cronMatches('0 0 1 * 1', at('2026-12-02T00:00:00Z'))).toBe(false);
    expect(cronMatches('5,35 * * * *', at('2026-11-29T10:35:00Z'))).toBe(true);
  });

  it('refuses what it cannot read', () => {
    for (const bad of ['* * * *', '61 * * * *', '*/0 * * * *', 'every minute', '1-0 * * * *'])
      expect(() => cronMatches(bad, new Date('2026-11-29T00:00:00Z')), bad).toThrow(/Not a cron expression/);
  });

  it('reads every schedule the project declares', async () => {
    const dir = 'netlify/functions';
    const schedules: string[] = [];
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.mts'))) {
      const text = (await import('node:fs')).readFileSync(`${dir}/${f}`, 'utf8');
      const m = /schedule: '([^']+)'/.exec(text);
      if (m) schedules.push(m[1]!);
    }
    expect(schedules.length).toBeGreaterThanOrEqual(7);
    for (const s of schedules)
      expect(() => cronMatches(s, new Date('2026-11-29T00:00:00Z')), s).not.toThrow();
  });
});

describe('DevScheduler', () => {
  function fakes(): { fns: ScheduledFunction[]; calls: string[]; release: () => void } {
    const calls: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const fn = (name: string, schedule: string, wait = false): ScheduledFunction => ({
      name,
      schedule,
      run: async (nextRun) => {
        calls.push(`${name}@${nextRun.toISOString()}`);
        if (wait) await held;
        return 200;
      },
    });
    return {
      fns: [
        fn('broadcasts-worker', '* * * * *', true),
        fn('stage-rebuild', '*/5 * * * *'),
        fn('event-reminders', '@hourly'),
      ],
      calls,
      release: () => release(),
    };
  }

  it('starts what is due at each minute, with the next run Netlify would post, and never a run still going', async () => {
    const { fns, calls, release } = fakes();
    const lines: string[] = [];
    const scheduler = new DevScheduler(
      () => Promise.resolve(fns),
      (l) => lines.push(l),
    );
    const first = await scheduler.tick(new Date('2026-11-29T15:00:00Z'));
    expect(first.started).toEqual(['broadcasts-worker', 'stage-rebuild', 'event-reminders']);
    // The broadcast worker is still sending at the next minute: not started twice.
    const second = await scheduler.tick(new Date('2026-11-29T15:01:00Z'));
    expect(second.started).toEqual([]);
    expect(lines).toContain('[schedule] broadcasts-worker skipped: the last run is still going');
    release();
    await Promise.all(first.runs);
    const third = await scheduler.tick(new Date('2026-11-29T15:05:00Z'));
    expect(third.started).toEqual(['broadcasts-worker', 'stage-rebuild']);
    await Promise.all(third.runs);
    expect(calls).toEqual([
      'broadcasts-worker@2026-11-29T15:01:00.000Z',
      'stage-rebuild@2026-11-29T15:01:00.000Z',
      'event-reminders@2026-11-29T15:01:00.000Z',
      'broadcasts-worker@2026-11-29T15:06:00.000Z',
      'stage-rebuild@2026-11-29T15:06:00.000Z',
    ]);
    expect(lines.filter((l) => /^\[schedule\] \S+ 200 in \d+ ms$/.test(l))).toHaveLength(5);
  });

  it('a failing run is logged and does not block the next', async () => {
    const lines: string[] = [];
    let n = 0;
    const scheduler = new DevScheduler(
      () =>
        Promise.resolve([
          {
            name: 'summary-compaction',
            schedule: '* * * * *',
            run: () => (n++ === 0 ? Promise.reject(new Error('store unreachable')) : Promise.resolve(200)),
          },
        ]),
      (l) => lines.push(l),
    );
    await Promise.all((await scheduler.tick(new Date('2026-11-29T15:00:00Z'))).runs);
    await Promise.all((await scheduler.tick(new Date('2026-11-29T15:01:00Z'))).runs);
    expect(lines[0]).toBe('[schedule] summary-compaction failed: store unreachable');
    expect(lines[1]).toMatch(/^\[schedule\] summary-compaction 200 in \d+ ms$/);
  });

  it('the next minute boundary', () => {
    expect(nextMinute(Date.parse('2026-11-29T15:00:59.999Z'))).toBe(Date.parse('2026-11-29T15:01:00Z'));
    expect(nextMinute(Date.parse('2026-11-29T15:01:00.000Z'))).toBe(Date.parse('2026-11-29T15:02:00Z'));
  });
});
