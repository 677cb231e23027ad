import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as launchFn from '../../netlify/functions/admin-launch-check.mts';
import { LaunchCheckResponseSchema } from '../../src/lib/schemas/launch-check.ts';
import { DEV_SESSION_SECRET } from '../../src/lib/server/env.ts';
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
    expect(body.items.every((i) => i.area === 'settings')).toBe(true);
    // The secret in use: the configured one, or in local mode the development one.
    expect(JSON.stringify(body)).not.toContain(process.env.SESSION_SECRET ?? DEV_SESSION_SECRET);
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
