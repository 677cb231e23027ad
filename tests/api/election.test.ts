import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as adminElection from '../../netlify/functions/admin-election.mts';
import * as publicCalendar from '../../netlify/functions/election-calendar.mts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import type { ElectionCalendar } from '../../src/lib/election-stage.ts';
import { ELECTION_MESSAGES } from '../../src/lib/schemas/election.ts';
import { auditPage } from '../../src/lib/server/audit/audit.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/* The election calendar record (docs/decisions/087-election-calendar.md): admins replace it, validated and audited. */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(() => blobs.stop());

const calendarNow = async () =>
  ((await (await call(publicCalendar, '/api/election-calendar')).json()) as { calendar: unknown }).calendar;

describe('election calendar', () => {
  it('answers the seeded calendar while none is stored', async () => {
    expect(await calendarNow()).toEqual(defaultElectionCalendar);
  });

  it('refuses a calendar out of order with each field’s message, storing nothing', async () => {
    const admin = await signedIn('admin');
    const bad = structuredClone<ElectionCalendar>(defaultElectionCalendar);
    bad.primary.electionDay = { date: '2025-10-11', open: '21:00', close: '20:00' };
    bad.primary.resultsDate = '2025-10-01';
    const res = await call(adminElection, '/api/admin/election', {
      method: 'PUT',
      json: bad,
      cookie: admin.cookie,
    });
    expect(res.status).toBe(400);
    const body = JSON.stringify(await res.json());
    expect(body).toContain(ELECTION_MESSAGES.hoursOrder);
    expect(body).toContain(ELECTION_MESSAGES.resultsAfter);
    expect(await calendarNow()).toEqual(defaultElectionCalendar);
  });

  it('is admin-only: an editor may read nothing and change nothing', async () => {
    const editor = await signedIn('editor');
    const put = await call(adminElection, '/api/admin/election', {
      method: 'PUT',
      json: { ...defaultElectionCalendar, mode: 'won' },
      cookie: editor.cookie,
    });
    expect(put.status).toBe(403);
    expect((await call(adminElection, '/api/admin/election', { cookie: editor.cookie })).status).toBe(403);
    expect(await calendarNow()).toEqual(defaultElectionCalendar);
  });

  it('stores an admin’s valid calendar, audits the change and serves it', async () => {
    const admin = await signedIn('admin');
    const res = await call(adminElection, '/api/admin/election', {
      method: 'PUT',
      json: { ...defaultElectionCalendar, mode: 'won' },
      cookie: admin.cookie,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      isDefault: false,
      updatedBy: admin.username,
      calendar: { mode: 'won' },
    });
    expect(await calendarNow()).toMatchObject({ mode: 'won' });
    const page = await auditPage({ page: 1, pageSize: 10, kind: 'settings.election_calendar' } as never);
    expect(page.entries[0]).toMatchObject({ kind: 'settings.election_calendar' });
    expect(JSON.stringify(page.entries[0])).toContain('changed: mode');
  });
});
