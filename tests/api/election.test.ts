import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as adminElection from '../../netlify/functions/admin-election.mts';
import * as publicCalendar from '../../netlify/functions/election-calendar.mts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import type { ElectionCalendar } from '../../src/lib/election-stage.ts';
import { ELECTION_MESSAGES } from '../../src/lib/schemas/election.ts';
import { auditPage } from '../../src/lib/server/audit/audit.ts';
import { pageElection } from '../../src/lib/server/election/page-election.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/* The election calendar record (docs/decisions/157-election-calendar.md): admins replace it, validated and audited. */

// A fresh store for each test: each starts with no calendar stored, whatever another test saved.
let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeEach(async () => {
  blobs = await startBlobs();
});
afterEach(() => blobs.stop());

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

  it('a page rendered on request shows an admin’s save at once; otherwise one read serves it for 2 seconds', async () => {
    // The clock stands still unless moved: the 2 seconds are the clock's, not the machine's speed.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-29T09:00:00-06:00'));
    try {
      const admin = await signedIn('admin');
      const save = async (mode: ElectionCalendar['mode']) =>
        expect(
          (
            await call(adminElection, '/api/admin/election', {
              method: 'PUT',
              json: { ...defaultElectionCalendar, mode },
              cookie: admin.cookie,
            })
          ).status,
        ).toBe(200);
      const shown = async () => (await pageElection('en', false)).calendar.mode;
      await save('won');
      expect(await shown()).toBe('won');
      // The next save: the page right after it shows it, in the same instant.
      await save('lost');
      expect(await shown()).toBe('lost');
      // A change that did not come through this process's save (another instance's) is read once the 2 seconds
      // are over: until then the header, footer and body of a request share one read.
      const stored = await kv('meta').get<{ calendar: ElectionCalendar }>('election/calendar');
      const replaced = await kv('meta').replace(
        'election/calendar',
        { ...stored!.value, calendar: { ...stored!.value.calendar, mode: 'ended' } },
        stored!.etag,
      );
      expect(replaced).toBeTruthy();
      vi.setSystemTime(new Date('2026-11-29T09:00:02-06:00'));
      expect(await shown()).toBe('lost');
      vi.setSystemTime(new Date('2026-11-29T09:00:02.001-06:00'));
      expect(await shown()).toBe('ended');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('early-voting sites from a CSV file (docs/decisions/157-election-calendar.md)', () => {
  const upload = async (csv: string, role: 'admin' | 'editor' = 'admin') =>
    call(adminElection, '/api/admin/election/sites', {
      json: { csv },
      cookie: (await signedIn(role)).cookie,
    });
  const keep = defaultElectionCalendar.sites.map((s) => `${s.id},"${s.name}","${s.address}",`).join('\r\n');

  it('refuses every bad row with its number and reason, and imports nothing', async () => {
    const before = await calendarNow();
    const csv = [
      'id,name,address,map_url',
      keep,
      'new-site,"Mid-City Library, Room 2","4140 Canal St., New Orleans, LA 70119",',
      'Bad Id,Somewhere,"1 Main St",',
      'no-address,Nowhere,,',
      'city-hall,Duplicate,"2 Main St",',
      'map,Map,"3 Main St",http://insecure.example.org',
      'Two Problems,,"4 Main St",',
    ].join('\r\n');
    const res = await upload(csv);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { rows: { row: number; message: string }[] };
    expect(body.rows.map((r) => r.row)).toEqual([7, 8, 9, 10, 11]);
    expect(body.rows[0]?.message).toMatch(/^id: /);
    expect(body.rows[1]?.message).toMatch(/^address: Required/);
    expect(body.rows[2]?.message).toMatch(/already on row 2/);
    expect(body.rows[3]?.message).toMatch(/^map_url: /);
    // Every problem of a row at once, not only the first.
    expect(body.rows[4]?.message).toMatch(/^id: .+; name: /);
    expect(await calendarNow()).toEqual(before);
  });

  it('refuses a file that drops a site an early-voting day still names', async () => {
    const before = await calendarNow();
    const res = await upload('id,name,address\r\nnew-site,New,"1 Main St"\r\n');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/Unknown site: city-hall/);
    expect(await calendarNow()).toEqual(before);
  });

  it('imports a good file (map links made for rows without one), audited; admins only', async () => {
    expect((await upload(`id,name,address\r\n${keep}`, 'editor')).status).toBe(403);
    const res = await upload(
      `ID, Name ,Address,Map URL\r\n${keep}\r\nnew-site,"Mid-City Library, Room 2","4140 Canal St., New Orleans, LA 70119",\r\n`,
    );
    expect(res.status).toBe(200);
    const sites = ((await calendarNow()) as { sites: { id: string; name: string; mapUrl: string }[] }).sites;
    expect(sites.at(-1)).toMatchObject({ id: 'new-site', name: 'Mid-City Library, Room 2' });
    expect(sites.at(-1)?.mapUrl).toMatch(/^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=4140/);
    const page = await auditPage({ page: 1, pageSize: 10, kind: 'settings.election_calendar' } as never);
    expect(JSON.stringify(page.entries[0])).toContain('5 sites imported from a CSV file');
  });
});
