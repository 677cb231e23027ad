import type { Context } from '@netlify/functions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as stageRebuild from '../../netlify/functions/stage-rebuild.mts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import type { ElectionCalendar } from '../../src/lib/election-stage.ts';
import { setElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import { checkStage, decideRebuild, type BuiltStage } from '../../src/lib/server/election/rebuild.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';

/*
 * The scheduled stage check (docs/decisions/157-election-calendar.md), with a fake clock: it asks for a build
 * exactly when the pages' stage or the calendar changed, once per change; in local mode the build request goes to
 * the outbox.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(() => blobs.stop());

const cal = defaultElectionCalendar as ElectionCalendar;
/** Campaign wall-clock time in October 2025 (CDT, UTC-5). */
const cdt = (local: string) => new Date(`${local}:00-05:00`);

async function builds(): Promise<string[]> {
  const out: string[] = [];
  for await (const page of kv('outbox').keys('build/'))
    for (const k of page.sort()) out.push((await kv('outbox').get<{ reason: string }>(k))!.value.reason);
  return out;
}

describe('decideRebuild', () => {
  it('builds on the first check, then only when the stage changes: each minute of Election Day walked', () => {
    let last: BuiltStage | null = null;
    const requested: string[] = [];
    // Every 5 minutes from the evening before Election Day to the morning after.
    for (let t = cdt('2025-10-10T18:00').getTime(); t <= cdt('2025-10-12T09:00').getTime(); t += 5 * 60_000) {
      const d = decideRebuild(cal, new Date(t), last);
      if (d.rebuild) {
        requested.push(`${new Date(t).toISOString()} ${d.reason}`);
        last = d.next;
      }
    }
    expect(requested).toEqual([
      '2025-10-10T23:00:00.000Z first check (primary:final-days:2025-10-10)',
      // Midnight: a new day (the countdown changes).
      '2025-10-11T05:00:00.000Z primary:final-days:2025-10-10 -> primary:final-days:2025-10-11',
      // 7:00 CDT: polls open.
      '2025-10-11T12:00:00.000Z primary:final-days:2025-10-11 -> primary:polls-open:2025-10-11',
      // 20:00 CDT: the minute the polls close.
      '2025-10-12T01:00:00.000Z primary:polls-open:2025-10-11 -> primary:polls-closed',
      // Midnight of the results date.
      '2025-10-12T05:00:00.000Z primary:polls-closed -> primary:results:none',
    ]);
  });

  it('a calendar edit is a change even when the stage is not', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const first = decideRebuild(cal, now, null);
    expect(decideRebuild(cal, now, first.next).rebuild).toBe(false);
    const edited = { ...cal, sites: cal.sites.slice(1) };
    expect(decideRebuild(edited, now, first.next)).toMatchObject({ rebuild: true });
    expect(decideRebuild({ ...cal, mode: 'won' }, now, first.next).reason).toBe(
      'calendar changed (primary:results:won)',
    );
  });
});

describe('the scheduled function (local mode)', () => {
  it('asks for one build per change, recorded in the outbox', async () => {
    expect(await checkStage(cdt('2025-10-11T19:59'))).toMatchObject({ rebuild: true });
    expect(await checkStage(cdt('2025-10-11T19:59'))).toMatchObject({ rebuild: false });
    expect(await checkStage(cdt('2025-10-11T20:00'))).toMatchObject({ rebuild: true });
    await setElectionCalendar({ ...cal, mode: 'ended' }, 'admin', cdt('2025-10-11T20:01'));
    expect(await checkStage(cdt('2025-10-11T20:02'))).toMatchObject({
      rebuild: true,
      reason: 'calendar changed (primary:results:ended)',
    });
    expect(await builds()).toEqual([
      'first check (primary:polls-open:2025-10-11)',
      'primary:polls-open:2025-10-11 -> primary:polls-closed',
      'calendar changed (primary:results:ended)',
    ]);
    // The function itself runs the same check: today the stored election is long over, with the same stage.
    const res = await stageRebuild.default(
      new Request('http://localhost:4321/.netlify/functions/stage-rebuild', {
        method: 'POST',
        body: JSON.stringify({ next_run: new Date().toISOString() }),
      }),
      {} as Context,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ rebuild: false, reason: 'unchanged (primary:results:ended)' });
  });
});
