import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as exportsFn from '../../netlify/functions/admin-exports.mts';
import * as inbox from '../../netlify/functions/admin-inbox.mts';
import * as run from '../../netlify/functions/exports-run.mts';
import { seedScale } from '../../scripts/lib/scale-seed.mts';
import type { ExportJobView } from '../../src/lib/schemas/exports.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import { csvRow } from '../../src/lib/server/exports/csv.ts';
import {
  cleanExports,
  EXPORT_LIMITS,
  EXPORT_STALE_MS,
  FILE_TTL_MS,
  LINK_TTL_MS,
  runExport,
  setExportKicker,
  setExportLimits,
  viewOf,
} from '../../src/lib/server/exports/exports.ts';
import { auditPage } from '../../src/lib/server/audit/audit.ts';
import { StoredExportJobSchema } from '../../src/lib/schemas/exports.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { useMemoryStores } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * The one export mechanism of the staff CSVs (docs/decisions/156-exports.md): a small export
 * answered at once, a large one written by the background function into gzip files in Blobs with its
 * progress on the job, signed links that expire and work for the member who started it, a worker killed
 * or called twice that writes nothing twice, and every export audited. On the in-memory store, 6,000
 * records of each Inbox kind from the scale seed's bulk path.
 */

const N = 6000;
type Staff = Awaited<ReturnType<typeof signedIn>>;
let editor: Staff;
let otherEditor: Staff;
let viewer: Staff;
/** Background runs started by the kicker, awaited by the test. */
const background: Promise<Response>[] = [];
/** The background function, called as Netlify would after its 202. */
const toBackground = (body: { id: string; token: string }) => {
  background.push(call(run, '/api/exports/run', { json: body, crossSite: true }));
  return Promise.resolve();
};
/** Keeps the run's id and token instead (the test runs it), and restores the background afterwards. */
async function heldRun(work: (held: () => { id: string; token: string }) => Promise<void>): Promise<void> {
  let kicked: { id: string; token: string } | null = null;
  setExportKicker((body) => {
    kicked = body;
    return Promise.resolve();
  });
  try {
    await work(() => kicked!);
  } finally {
    setExportKicker(toBackground);
  }
}

beforeAll(async () => {
  process.env.APP_ENV ??= 'test';
  resetEnv();
  useMemoryStores();
  await seedScale(N, { parts: ['inbox'], log: () => {} });
  editor = await signedIn('editor');
  otherEditor = await signedIn('editor');
  viewer = await signedIn('viewer');
  setExportKicker(toBackground);
}, 120_000);
afterEach(() => setExportLimits(null));
afterAll(() => {
  setExportKicker(null);
  setStoreFactory(null);
});

const start = (params: Record<string, string>, who: Staff = editor) =>
  call(exportsFn, '/api/admin/exports', { json: { source: 'inbox', params }, cookie: who.cookie });

async function job(res: Response): Promise<ExportJobView> {
  return ((await res.json()) as { job: ExportJobView }).job;
}

async function status(id: string, who: Staff = editor): Promise<ExportJobView> {
  const res = await call(exportsFn, `/api/admin/exports/${id}`, { cookie: who.cookie });
  expect(res.status).toBe(200);
  return job(res);
}

async function finished(id: string): Promise<ExportJobView> {
  await Promise.all(background.splice(0));
  return status(id);
}

/** A download as the browser gets it (gzip content encoding, decoded here), checked for the byte-order mark. */
async function fetchCsv(url: string, who: Staff = editor, acceptGzip = true): Promise<string> {
  const res = await call(exportsFn, url, {
    cookie: who.cookie,
    headers: acceptGzip ? { 'accept-encoding': 'gzip, deflate, br' } : {},
  });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="[\w.-]+\.csv"$/);
  const raw = Buffer.from(await res.arrayBuffer());
  const bytes = acceptGzip ? gunzipSync(raw) : raw;
  expect(res.headers.get('content-encoding')).toBe(acceptGzip ? 'gzip' : null);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return bytes.subarray(3).toString('utf8');
}

const rowsOf = (csv: string) => csv.split('\r\n').filter(Boolean);

describe('small exports answer at once', () => {
  it('a search of a few rows: the job is done on the POST, and its file is the list CSV, byte for byte', async () => {
    const res = await start({ kind: 'volunteers', q: 'metairie', lang: 'es' });
    expect(res.status).toBe(201);
    const done = await job(res);
    expect(done.status).toBe('done');
    expect(done.filename).toMatch(/^volunteers-\d{4}-\d\d-\d\d\.csv$/);
    expect(done.downloads).toHaveLength(1);
    const file = await fetchCsv(done.downloads[0]!.url);
    const direct = await call(inbox, '/api/admin/volunteers?format=csv&q=metairie&lang=es', {
      cookie: editor.cookie,
    });
    expect(direct.status).toBe(200);
    expect(new TextDecoder().decode(await direct.arrayBuffer())).toBe(file);
    const rows = rowsOf(file);
    expect(rows[0]).toBe(
      'first_name,last_name,email,phone,address1,address2,city,state,zip,interests,language,created_at,created_at_local,updated_at,updated_at_local,email_status,status,status_at,status_at_local',
    );
    expect(rows.length - 1).toBe(done.rows);
    expect(rows.slice(1).every((r) => r.includes(',Metairie,') && r.includes(',es,'))).toBe(true);
    // Without gzip the same file, decompressed on the way.
    expect(await fetchCsv(done.downloads[0]!.url, editor, false)).toBe(file);
  });

  it(`a list's ?format=csv past ${EXPORT_LIMITS.directRows.toLocaleString('en-US')} rows is a 413 that points at Export CSV`, async () => {
    const res = await call(inbox, '/api/admin/contacts?format=csv', { cookie: editor.cookie });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toMatch(/6,000 rows.*Export CSV/);
  });
});

describe('large exports run in the background', () => {
  it('queued, then written by the background function: every row, in list order, with campaign times', async () => {
    const res = await start({ kind: 'text-signups' });
    expect(res.status).toBe(202);
    const queued = await job(res);
    expect(queued).toMatchObject({ status: 'queued', total: N, downloads: [] });
    const done = await finished(queued.id);
    expect(done).toMatchObject({ status: 'done', rows: N, total: N });
    expect(Date.parse(done.linksExpireAt!) - Date.now()).toBeLessThanOrEqual(LINK_TTL_MS);
    const rows = rowsOf(await fetchCsv(done.downloads[0]!.url));
    expect(rows[0]).toBe(
      'first_name,phone,email,sms_opt_in,consent_at,consent_at_local,consent_version,language,opted_out_at,opted_out_at_local,source_page,created_at,created_at_local,confirmation_status,status,status_at,status_at_local',
    );
    expect(rows).toHaveLength(N + 1);
    const created = rows.slice(1).map((r) => r.split(',')[11]!);
    expect([...created].sort().reverse()).toEqual(created);
    // The campaign's clock beside each time, daylight saving included: on 2 November 2025 the clocks in New
    // Orleans go back at 2:00, so 06:30Z and 07:30Z are both 1:30; on 9 March 2:00 does not exist.
    const source = { columns: [{ name: 'at', time: true }] };
    const local = (iso: string) => csvRow(source, [iso])[1];
    expect(local('2025-11-02T06:30:00.000Z')).toBe('2025-11-02 01:30:00');
    expect(local('2025-11-02T07:30:00.000Z')).toBe('2025-11-02 01:30:00');
    expect(local('2025-03-09T07:59:59.000Z')).toBe('2025-03-09 01:59:59');
    expect(local('2025-03-09T08:00:00.000Z')).toBe('2025-03-09 03:00:00');
    expect(local('2025-07-04T17:00:00.000Z')).toBe('2025-07-04 12:00:00');
    expect(csvRow(source, [''])).toEqual(['', '']);
  });

  it('past the size of one file, several files, each a whole CSV with its header and its own link', async () => {
    setExportLimits({ partMaxGz: 12_000 });
    const done = await finished((await job(await start({ kind: 'email-subscribers' }))).id);
    expect(done.status).toBe('done');
    expect(done.downloads.length).toBeGreaterThan(2);
    let total = 0;
    for (const [i, d] of done.downloads.entries()) {
      expect(d.filename).toMatch(new RegExp(`-part-${i + 1}-of-${done.downloads.length}\\.csv$`));
      const rows = rowsOf(await fetchCsv(d.url));
      expect(rows[0]).toMatch(/^email,subscribed_at,subscribed_at_local,/);
      expect(rows.length - 1).toBe(d.rows);
      total += d.rows;
    }
    expect(total).toBe(N);
  });

  it('the run is claimed once: a duplicated or retried call writes nothing twice', async () => {
    await heldRun(async (held) => {
      const queued = await job(await start({ kind: 'contacts' }));
      const kicked = held();
      // The second finds the first running (its heartbeat fresh) and leaves it alone.
      await Promise.all([runExport(kicked.id, kicked.token), runExport(kicked.id, kicked.token)]);
      const stored = StoredExportJobSchema.parse((await kv('exports').get(`job/${queued.id}`))!.value);
      expect(stored).toMatchObject({ status: 'done', attempt: 1, rows: N });
      const files: string[] = [];
      for await (const page of kv('exports').keys(`file/${queued.id}/`)) files.push(...page);
      expect(files).toEqual(stored.parts.map((p) => p.key));
      // A retry after it finished changes nothing.
      expect((await runExport(kicked.id, kicked.token)).attempt).toBe(1);
      // A wrong token runs nothing.
      const refused = await call(run, '/api/exports/run', {
        json: { id: kicked.id, token: 'x'.repeat(43) },
        crossSite: true,
      });
      expect(refused.status).toBe(403);
    });
  });

  it('a worker that died is taken over by the next run; a job nobody runs is reported as stopped', async () => {
    await heldRun(async (held) => {
      const queued = await job(await start({ kind: 'volunteers' }));
      const kicked = held();
      // As a killed worker leaves it: running, silent for longer than EXPORT_STALE_MS.
      const stale = new Date(Date.now() - EXPORT_STALE_MS - 1000).toISOString();
      const k = `job/${queued.id}`;
      const cur = (await kv('exports').get<Record<string, unknown>>(k))!;
      await kv('exports').replace(
        k,
        { ...cur.value, status: 'running', attempt: 1, heartbeatAt: stale },
        cur.etag,
      );
      const stored = StoredExportJobSchema.parse((await kv('exports').get(k))!.value);
      expect(viewOf(stored).status).toBe('failed');
      expect(viewOf(stored).error).toMatch(/stopped/);
      const done = await runExport(kicked.id, kicked.token);
      expect(done).toMatchObject({ status: 'done', attempt: 2, rows: N });
    });
  });
});

describe('links, owners and permissions', () => {
  // Each test its own finished export: the cleanup test deletes every job and file there is.
  let done: ExportJobView;
  beforeEach(async () => {
    done = await finished((await job(await start({ kind: 'contacts', q: 'press' }))).id);
  });

  it('a link works only as signed, only until it expires, only for the member who started the export', async () => {
    const url = new URL(done.downloads[0]!.url, 'http://localhost');
    const variant = (param: string, value: string) => {
      const u = new URL(url);
      u.searchParams.set(param, value);
      return `${u.pathname}${u.search}`;
    };
    const get = (path: string, who: Staff = editor) => call(exportsFn, path, { cookie: who.cookie });
    expect((await get(variant('sig', 'A'.repeat(43)))).status).toBe(403);
    expect((await get(variant('part', '2'))).status).toBe(403);
    expect((await get(variant('expires', String(Date.now() + 10 * LINK_TTL_MS)))).status).toBe(403);
    expect((await get(`${url.pathname}${url.search}`, otherEditor)).status).toBe(404);
    expect((await call(exportsFn, `${url.pathname}${url.search}`)).status).toBe(401);
    expect((await get(`${url.pathname}${url.search}`)).status).toBe(200);
    // Another member cannot see the job either.
    expect(
      (await call(exportsFn, `/api/admin/exports/${done.id}`, { cookie: otherEditor.cookie })).status,
    ).toBe(404);
    // Expired: the link a status gave an hour and a half ago.
    const stored = StoredExportJobSchema.parse((await kv('exports').get(`job/${done.id}`))!.value);
    const old = viewOf(stored, new Date(Date.now() - 90 * 60_000));
    expect((await get(old.downloads[0]!.url)).status).toBe(403);
  });

  it('a viewer may not export the Inbox; unknown exports and parameters are refused', async () => {
    expect((await start({ kind: 'volunteers' }, viewer)).status).toBe(403);
    const bad = (json: unknown) => call(exportsFn, '/api/admin/exports', { json, cookie: editor.cookie });
    expect((await bad({ source: 'everything', params: {} })).status).toBe(400);
    expect((await bad({ source: 'inbox', params: { kind: 'users' } })).status).toBe(400);
    expect((await bad({ source: 'inbox', params: { kind: 'volunteers', lang: 'fr' } })).status).toBe(400);
    expect((await bad({ source: 'inbox', params: { kind: 'volunteers', drop: 'x' } })).status).toBe(400);
    expect((await bad({ source: 'inbox' })).status).toBe(400);
  });

  it('every export is audited when it starts, with its list and search', async () => {
    // One of each list started here (held, none of them run): the audit is written when an export starts.
    await heldRun(async () => {
      for (const kind of ['volunteers', 'text-signups', 'email-subscribers'])
        expect((await start({ kind })).status).toBeLessThan(300);
    });
    const entries = (await auditPage({ page: 1, pageSize: 100, format: 'json' })).entries.filter(
      (e) => e.kind === 'inbox.export' && e.actorId === editor.user.id,
    );
    expect(entries.map((e) => e.target?.id)).toEqual(
      expect.arrayContaining(['volunteers', 'contacts', 'text-signups', 'email-subscribers']),
    );
    expect(entries.find((e) => e.details.search === 'press')?.target?.id).toBe('contacts');
  });

  it('files and jobs are deleted a day after they were made (export-cleanup)', async () => {
    const jobs = async () => {
      const out: string[] = [];
      for await (const page of kv('exports').keys('job/')) out.push(...page);
      return out;
    };
    const before = await jobs();
    expect(await cleanExports(new Date(Date.now() + FILE_TTL_MS - 60_000))).toBe(0);
    expect(await cleanExports(new Date(Date.now() + FILE_TTL_MS + 60_000))).toBe(before.length);
    expect(await jobs()).toEqual([]);
    const files: string[] = [];
    for await (const page of kv('exports').keys('file/')) files.push(...page);
    expect(files).toEqual([]);
    expect((await call(exportsFn, done.downloads[0]!.url, { cookie: editor.cookie })).status).toBe(404);
  });
});
