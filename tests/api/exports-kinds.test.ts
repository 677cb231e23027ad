import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as activityFn from '../../netlify/functions/admin-activity.mts';
import * as donationsFn from '../../netlify/functions/admin-donations.mts';
import * as rsvpsFn from '../../netlify/functions/admin-event-rsvps.mts';
import * as exportsFn from '../../netlify/functions/admin-exports.mts';
import * as votePlansFn from '../../netlify/functions/admin-vote-plans.mts';
import * as run from '../../netlify/functions/exports-run.mts';
import { seedScale } from '../../scripts/lib/scale-seed.mts';
import type { AuditKind } from '../../src/lib/schemas/audit-kinds.ts';
import type { ExportJobView } from '../../src/lib/schemas/exports.ts';
import { auditPage } from '../../src/lib/server/audit/audit.ts';
import { adminEvents } from '../../src/lib/server/content/events.ts';
import { setExportKicker, setExportLimits } from '../../src/lib/server/exports/exports.ts';
import { EXPORT_KINDS } from '../../src/lib/server/exports/registry.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { deliver, order, useWebhookCredentials } from '../helpers/donations.ts';
import { localProviders } from '../helpers/forms.ts';
import { call, type FunctionModule } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';
import { seedPlans } from '../helpers/vote-plans.ts';

/*
 * Every staff CSV is a registered export (docs/decisions/156-exports.md):
 * Activity, an event's attendees, donations and plans to vote, each through the real handlers on the local
 * Blobs server: POST /api/admin/exports answers a small one at once with the same bytes as the list's
 * `?format=csv`; past the direct limit (lowered here) the list's CSV is the mechanism's 413 and the export is
 * written by the background function, row for row the same file; each is audited with its own entry kind,
 * checks its parameters (400) and its list's permission (403).
 */

type Staff = Awaited<ReturnType<typeof signedIn>>;
let blobs: Awaited<ReturnType<typeof startBlobs>>;
let admin: Staff;
let editor: Staff;
let viewer: Staff;
let eventId = 0;
const background: Promise<Response>[] = [];

const PLANS = 7;

beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
  useWebhookCredentials();
  // 40 audit entries and an event with 4 RSVPs, by the scale seed's own paths.
  await seedScale(40, { parts: ['audit', 'rsvps'], log: () => {} });
  eventId = (await adminEvents())[0]!.id;
  for (let i = 0; i < 6; i++)
    expect((await deliver(order(500 + i, { refcode: `ref${i}`, day: `2025-09-0${i + 1}` }))).status).toBe(
      201,
    );
  await seedPlans(PLANS);
  [admin, editor, viewer] = [await signedIn('admin'), await signedIn('editor'), await signedIn('viewer')];
  setExportKicker((body) => {
    background.push(call(run, '/api/exports/run', { json: body, crossSite: true }));
    return Promise.resolve();
  });
}, 120_000);
afterEach(() => setExportLimits(null));
afterAll(async () => {
  setExportKicker(null);
  await blobs.stop();
});

/** Each new kind: the list route that answers its `?format=csv`, and parameters for both. */
const KINDS: Record<
  string,
  {
    fn: FunctionModule;
    list: () => string;
    params: () => Record<string, string>;
    audit: AuditKind;
    header: string;
    rows: number;
  }
> = {
  activity: {
    fn: activityFn,
    list: () => '/api/admin/activity?format=csv&kind=article.update',
    params: () => ({ kind: 'article.update' }),
    audit: 'audit.export',
    header: 'time_utc,time_utc_local,person,person_id,action,kind,',
    rows: 14,
  },
  attendees: {
    fn: rsvpsFn,
    list: () => `/api/admin/events/${eventId}/rsvps?format=csv`,
    params: () => ({ event: String(eventId) }),
    audit: 'rsvp.export',
    header:
      'name,email,phone,guests,status,waitlist_position,rsvp_at,rsvp_at_local,checked_in_at,checked_in_at_local,sms_reminder,reported_attendance',
    rows: 4,
  },
  donations: {
    fn: donationsFn,
    list: () => '/api/admin/donations?from=2025-09-01&to=2025-09-30&format=csv',
    params: () => ({ from: '2025-09-01', to: '2025-09-30' }),
    audit: 'donation.export',
    header: 'section,value,contributions,gross,refunds,refunded,net',
    // total, two kinds, 6 days, 6 refcodes and one group each of source, medium and campaign.
    rows: 18,
  },
  vote_plans: {
    fn: votePlansFn,
    list: () => '/api/admin/vote-plans?round=primary&format=csv',
    params: () => ({ round: 'primary' }),
    audit: 'vote_plan.export',
    header: 'round,day,method,time_of_day,bringing,name,phone,email,text_reminders,email_reminders,voted_at,',
    rows: PLANS,
  },
};

const start = (source: string, params: Record<string, string>, who: Staff = admin) =>
  call(exportsFn, '/api/admin/exports', { json: { source, params }, cookie: who.cookie });
const jobOf = async (res: Response) => ((await res.json()) as { job: ExportJobView }).job;

/** The bytes of a CSV answer, after its byte-order mark (checked). */
async function bytesOf(res: Response): Promise<string> {
  expect(res.status, await res.clone().text()).toBe(200);
  const raw = Buffer.from(await res.arrayBuffer());
  const bytes = res.headers.get('content-encoding') === 'gzip' ? gunzipSync(raw) : raw;
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return bytes.subarray(3).toString('utf8');
}
const download = async (job: ExportJobView) => {
  expect(job.status).toBe('done');
  expect(job.downloads).toHaveLength(1);
  return bytesOf(
    await call(exportsFn, job.downloads[0]!.url, {
      cookie: admin.cookie,
      headers: { 'accept-encoding': 'gzip' },
    }),
  );
};
const lines = (csv: string) => csv.split('\r\n').filter(Boolean);

async function exportsAudited(kind: AuditKind): Promise<number> {
  return (await auditPage({ kind, page: 1, pageSize: 100, format: 'json' })).total;
}

describe('every staff CSV is a registered export', () => {
  it('the registry holds the Inbox, the four lists, a broadcast’s report and People', () => {
    // People: tests/api/people-tags-filters.test.ts.
    expect(Object.keys(EXPORT_KINDS).sort()).toEqual([
      'activity',
      'attendees',
      'broadcast',
      'donations',
      'inbox',
      'inbox_all',
      'people',
      'shift_attendees',
      'vote_plans',
    ]);
  });

  for (const [name, k] of Object.entries(KINDS)) {
    it(`${name}: small, answered at once with the bytes of its ?format=csv; large, in the background, the same rows`, async () => {
      const audited = await exportsAudited(k.audit);
      const direct = await bytesOf(await call(k.fn, k.list(), { cookie: admin.cookie }));
      expect(lines(direct)[0]).toContain(k.header);
      expect(lines(direct)).toHaveLength(k.rows + 1);

      const res = await start(name, k.params());
      expect(res.status).toBe(201);
      const small = await jobOf(res);
      expect(small.total).toBe(k.rows);
      expect(await download(small)).toBe(direct);

      setExportLimits({ directRows: 2 });
      const tooLong = await call(k.fn, k.list(), { cookie: admin.cookie });
      expect(tooLong.status).toBe(413);
      expect(((await tooLong.json()) as { error: string }).error).toMatch(/Use Export CSV in the dashboard/);
      const queued = await start(name, k.params());
      expect(queued.status).toBe(202);
      const { id } = await jobOf(queued);
      await Promise.all(background.splice(0));
      const done = await jobOf(await call(exportsFn, `/api/admin/exports/${id}`, { cookie: admin.cookie }));
      expect(done.rows).toBe(k.rows);
      const file = await download(done);
      // Activity's own export entries are newer than the file answered first: compare the rows they share.
      expect(lines(file).slice(-k.rows)).toEqual(lines(direct).slice(-k.rows));
      // Three exports answered (the 413 is not): each audited with the list's entry kind.
      expect(await exportsAudited(k.audit)).toBe(audited + 3);
    });
  }
});

describe('parameters and permissions', () => {
  it('anything but the listed parameters is a 400, and so is a value out of range', async () => {
    for (const [source, params] of [
      ['activity', { q: 'x' }],
      ['activity', { kind: 'nope' }],
      ['activity', { actor: '-1' }],
      ['attendees', {}],
      ['attendees', { event: 'abc' }],
      ['attendees', { event: '1', q: 'x' }],
      ['donations', { from: '2025-09-30', to: '2025-09-01' }],
      ['donations', { from: 'yesterday' }],
      ['donations', { from: '2025-09-01', to: '2025-09-02', lang: 'es' }],
      ['vote_plans', {}],
      ['vote_plans', { round: 'general' }],
    ] as const) {
      const res = await start(source, params);
      expect(res.status, `${source} ${JSON.stringify(params)}`).toBe(400);
    }
  });

  it('an event that does not exist is a 404', async () => {
    expect((await start('attendees', { event: '999999' })).status).toBe(404);
  });

  it("each export has its list's permission: Activity admins only, plans to vote admins and editors, the rest all staff", async () => {
    const expected: Record<string, Record<string, number>> = {
      activity: { admin: 201, editor: 403, viewer: 403 },
      vote_plans: { admin: 201, editor: 201, viewer: 403 },
      attendees: { admin: 201, editor: 201, viewer: 201 },
      donations: { admin: 201, editor: 201, viewer: 201 },
    };
    for (const [name, want] of Object.entries(expected))
      for (const [role, who] of [
        ['admin', admin],
        ['editor', editor],
        ['viewer', viewer],
      ] as const) {
        const res = await start(name, KINDS[name]!.params(), who);
        expect(res.status, `${name} as ${role}`).toBe(want[role]);
      }
  });
});
