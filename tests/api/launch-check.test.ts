import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as launchFn from '../../netlify/functions/admin-launch-check.mts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import type { ElectionCalendar } from '../../src/lib/election-stage.ts';
import { LaunchCheckResponseSchema } from '../../src/lib/schemas/launch-check.ts';
import { setElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/** The dashboard's launch checklist, settings half (docs/decisions/085-launch-gate.md). */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(async () => {
  await blobs.stop();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('GET /api/admin/launch-check', () => {
  it('lists the missing settings for an admin, without a secret value', async () => {
    const { cookie } = await signedIn('admin');
    const res = await call(launchFn, '/api/admin/launch-check', { cookie });
    expect(res.status).toBe(200);
    const body = LaunchCheckResponseSchema.parse(await res.json());
    const keys = body.items.map((i) => i.key);
    // The tests run in local mode: APP_ENV=test and no provider is configured.
    expect(keys).toContain('setting:APP_ENV');
    expect(keys).toContain('setting:SENDGRID_API_KEY');
    expect(keys).toContain('setting:CAMPAIGN_VERIFY_TOKEN');
    expect(keys).toContain('setting:BUILD_HOOK_URL');
    expect(body.items.filter((i) => i.key.startsWith('setting:')).every((i) => i.area === 'settings')).toBe(
      true,
    );
    const secrets = [process.env.SESSION_SECRET, process.env.DONOR_KEY_SECRET].filter(
      (v): v is string => !!v,
    );
    expect(secrets.filter((v) => JSON.stringify(body).includes(v))).toEqual([]);
  });

  it('flags the stored election calendar while its Election Day is past (read through the calendar module)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-29T09:00:00-06:00'));
    const calendarKeys = async () => {
      // Signed in at the fake clock's moment (a session from a year before has expired).
      const { cookie } = await signedIn('admin');
      const res = await call(launchFn, '/api/admin/launch-check', { cookie });
      return LaunchCheckResponseSchema.parse(await res.json()).items.filter((i) => i.area === 'calendar');
    };
    // Nothing stored: the seed, October 11, 2025.
    const seeded = await calendarKeys();
    expect(seeded.map((i) => i.key)).toEqual(['calendar:election-day']);
    expect(seeded[0]!.message).toContain('October 11, 2025');
    // The coming election entered: nothing to flag.
    const coming = JSON.parse(
      JSON.stringify(defaultElectionCalendar).replaceAll('2025-', '2027-'),
    ) as ElectionCalendar;
    await setElectionCalendar(coming, 'admin');
    expect(await calendarKeys()).toEqual([]);
    // The clock past that one too: flagged again.
    vi.setSystemTime(new Date('2027-10-12T08:00:00-05:00'));
    expect((await calendarKeys()).map((i) => i.message)).toEqual([
      expect.stringContaining('October 11, 2027'),
    ]);
    await setElectionCalendar(defaultElectionCalendar, 'admin');
  });

  it('is admin only and read only', async () => {
    expect((await call(launchFn, '/api/admin/launch-check')).status).toBe(401);
    for (const role of ['editor', 'viewer'] as const) {
      const { cookie } = await signedIn(role);
      expect((await call(launchFn, '/api/admin/launch-check', { cookie })).status).toBe(403);
    }
    const { cookie } = await signedIn('admin');
    expect((await call(launchFn, '/api/admin/launch-check', { cookie, method: 'POST' })).status).toBe(405);
  });
});
