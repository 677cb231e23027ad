import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contact from '../../netlify/functions/contact.mts';
import * as exportsFn from '../../netlify/functions/admin-exports.mts';
import { seedScale } from '../../scripts/lib/scale-seed.mts';
import { INBOX_KIND_NAMES, INBOX_KINDS } from '../../src/lib/inbox-kinds.ts';
import type { ExportJobView } from '../../src/lib/schemas/exports.ts';
import { auditPage } from '../../src/lib/server/audit/audit.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import { setExportKicker } from '../../src/lib/server/exports/exports.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { useMemoryStores } from '../helpers/blobs.ts';
import { localProviders, uniqueIp, validContact } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * Every Inbox list at once (docs/decisions/156-exports.md): one action, one CSV per list through the
 * one export mechanism, each with its own signed, expiring link; the Inbox's role rules (admin and editor, not a
 * viewer); cells that are data, never formulas (exports/csv.ts `csvCell`); audited once.
 */

const N = 12;
type Staff = Awaited<ReturnType<typeof signedIn>>;
let editor: Staff;
let viewer: Staff;
const FORMULA = '=HYPERLINK("http://evil.example","click")';

beforeAll(async () => {
  process.env.APP_ENV ??= 'test';
  resetEnv();
  localProviders();
  useMemoryStores();
  await seedScale(N, { parts: ['inbox'], log: () => {} });
  const res = await call(contact, '/api/contact', {
    json: validContact({ message: FORMULA, email: 'formula@example.org' }),
    ip: uniqueIp(),
  });
  expect(res.status).toBe(201);
  editor = await signedIn('editor');
  viewer = await signedIn('viewer');
  // Nothing goes to the background at this size (every list's rows fit a direct export): a kick is a failure.
  setExportKicker(() => Promise.reject(new Error('not expected')));
}, 120_000);
afterAll(() => {
  setExportKicker(null);
  setStoreFactory(null);
});

const startAll = (who: Staff, params: Record<string, string> = {}) =>
  call(exportsFn, '/api/admin/exports', { json: { source: 'inbox_all', params }, cookie: who.cookie });

async function csvOf(url: string, who: Staff): Promise<{ res: Response; text: string }> {
  const res = await call(exportsFn, url, { cookie: who.cookie, headers: { 'accept-encoding': 'gzip' } });
  if (res.status !== 200) return { res, text: await res.text() };
  const bytes = gunzipSync(Buffer.from(await res.arrayBuffer()));
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return { res, text: bytes.subarray(3).toString('utf8') };
}

describe('Export all lists', () => {
  it('one CSV per Inbox list, each named for its list, with its header and every listed row', async () => {
    const res = await startAll(editor);
    expect(res.status).toBe(201);
    const { job } = (await res.json()) as { job: ExportJobView };
    expect(job.status).toBe('done');
    expect(job.downloads.map((d) => d.filename.replace(/-\d{4}-\d\d-\d\d\.csv$/, ''))).toEqual(
      INBOX_KIND_NAMES.map((k) => INBOX_KINDS[k].csv.filename),
    );
    for (const d of job.downloads) expect(d.filename).toMatch(/-\d{4}-\d\d-\d\d\.csv$/);
    for (const [i, kind] of INBOX_KIND_NAMES.entries()) {
      const d = job.downloads[i]!;
      const { res: file, text } = await csvOf(d.url, editor);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${d.filename}"`);
      const [header, ...lines] = text.trimEnd().split('\r\n');
      const first: string | { name: string } = INBOX_KINDS[kind].csv.cells[0]!.column;
      expect(header!.split(',')[0]).toBe(typeof first === 'string' ? first : first.name);
      expect(lines.length).toBe(d.rows);
    }
    // The seed's N of each kind, and the contact message posted above.
    expect(job.downloads.map((d) => d.rows)).toEqual([N, N + 1, N, N]);
  });

  it('a formula typed into a form is a text cell in the file, never a formula', async () => {
    const { job } = (await (await startAll(editor)).json()) as { job: ExportJobView };
    const contacts = job.downloads[INBOX_KIND_NAMES.indexOf('contacts')]!;
    const { text } = await csvOf(contacts.url, editor);
    expect(text).toContain(`"'${FORMULA.replaceAll('"', '""')}"`);
    expect(text).not.toMatch(/(^|,)"?=HYPERLINK/m);
  });

  it("the Inbox's role rules: a viewer may not; links work only for their owner; parameters are refused", async () => {
    expect((await startAll(viewer)).status).toBe(403);
    expect((await startAll(editor, { kind: 'volunteers' })).status).toBe(400);
    const { job } = (await (await startAll(editor)).json()) as { job: ExportJobView };
    const other = await signedIn('editor');
    expect((await csvOf(job.downloads[0]!.url, other)).res.status).toBe(404);
    const forged = job.downloads[0]!.url.replace(/sig=[^&]+/, 'sig=x');
    expect((await csvOf(forged, editor)).res.status).toBe(403);
  });

  it('audited once, as an export of all lists', async () => {
    const before = await auditPage({ page: 1, pageSize: 100, format: 'json' });
    const count = (entries: typeof before.entries) =>
      entries.filter((e) => e.kind === 'inbox.export' && e.target?.id === 'all').length;
    await startAll(editor);
    const after = await auditPage({ page: 1, pageSize: 100, format: 'json' });
    expect(count(after.entries)).toBe(count(before.entries) + 1);
  });
});
