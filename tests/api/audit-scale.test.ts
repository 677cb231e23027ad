import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as activityFn from '../../netlify/functions/admin-activity.mts';
import type { AuditKind, AuditPage } from '../../src/lib/schemas/audit.ts';
import { appendAudit, appendAuditBatch, type AuditInput } from '../../src/lib/server/audit/audit.ts';
import { auditExportSource } from '../../src/lib/server/audit/activity.ts';
import { readCheckpoint } from '../../src/lib/server/audit/checkpoint.ts';
import { listDocKey } from '../../src/lib/server/audit/postings.ts';
import { runFullVerification, verifyChain } from '../../src/lib/server/audit/verification.ts';
import { collectRows } from '../../src/lib/server/export-source.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { useCountingStores, type CountingStores } from '../helpers/counting-store.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * The audit trail at 100,000 entries (docs/decisions/154-audit-trail.md), on the atomic in-memory
 * store behind a counting wrapper: every Activity page, filtered or not, the incremental check and an
 * append cost a bounded number of store calls, and the answers are the right ones.
 */

/** Store calls per request, whatever the trail holds (the session, its user and the refused sign-ins' listing included). */
const BOUNDS = {
  /**
   * An Activity page of 50, any filter, any page: the user and the two-factor policy (2), the refused
   * sign-ins' listing (1), the checkpoint (1), the index keys newer than it (1 per 1,000), the list (1)
   * and at most 3 of its segments (filters only), and the 50 entries.
   */
  activityPage: 60,
  /** One step of the incremental check (REQUEST_STEP: 16 entries, 16 lists), with the job status: see checkpoint.ts. */
  incrementalCheck: 60,
  /** An append: the head, the position's create, the index key, the day's anchor (read, write) and the head's write. */
  append: 7,
} as const;

const ENTRIES = 100_000;
const TAIL = 150;
const KINDS: AuditKind[] = [
  'auth.sign_in',
  'article.update',
  'event.update',
  'inbox.export',
  'auth.sign_out',
  'metric.update',
  'rsvp.check_in',
];
const ACTORS = [11, 12, 13, 14, 15];
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const STEP_MS = 150_000;
const kindOf = (i: number) => KINDS[i % KINDS.length]!;
/** Actor 15 is rare: one entry in 97. */
const actorOf = (i: number) => (i % 97 === 0 ? 15 : ACTORS[i % 4]!);
const atOf = (i: number) => new Date(T0 + i * STEP_MS);
const input = (i: number): AuditInput => ({
  kind: kindOf(i),
  actor: { id: actorOf(i), username: `staff${actorOf(i)}` },
  target: { type: 'article', id: i % 500, label: `Report ${i}` },
  details: {},
  ip: `198.51.100.${i % 250}`,
});
const day = (i: number) => atOf(i).toISOString().slice(0, 10);

let counting: CountingStores;
let admin: string;
/** Entries before the seeded ones (the admin's sign-in). */
let before = 0;

beforeAll(async () => {
  process.env.APP_ENV ??= 'test';
  resetEnv();
  counting = useCountingStores();
  admin = (await signedIn('admin')).cookie;
  before = (await kv('audit').get<{ seq: number }>('head'))!.value.seq;
  for (let i = 0; i < ENTRIES; i += 5000)
    await appendAuditBatch(
      Array.from({ length: Math.min(5000, ENTRIES - i) }, (_, j) => ({
        input: input(i + j),
        now: atOf(i + j),
      })),
    );
  // A tail the check has not reached yet, written one by one as staff actions are.
  for (let i = ENTRIES; i < ENTRIES + TAIL; i++) await appendAudit(input(i), atOf(i));
}, 600_000);
afterAll(() => setStoreFactory(null));

const cost = <T>(work: () => Promise<T>) => counting.cost(work);

async function page(query: string): Promise<{ calls: number; value: AuditPage }> {
  return cost(async () => {
    const res = await call(activityFn, `/api/admin/activity?pageSize=50${query}`, { cookie: admin });
    expect(res.status).toBe(200);
    return (await res.json()) as AuditPage;
  });
}

/** The seeded positions (and the tail's) that match, newest first. */
function expected(match: (i: number) => boolean): number[] {
  const out: number[] = [];
  for (let i = ENTRIES + TAIL - 1; i >= 0; i--) if (match(i)) out.push(before + 1 + i);
  return out;
}

describe(`Activity with ${ENTRIES.toLocaleString('en-US')} entries (counting store)`, () => {
  it('the seeded entries are verified and listed by the check; the newest are its tail', async () => {
    expect((await readCheckpoint()).cp.seq).toBe(before + ENTRIES);
    expect((await kv('audit').get<{ count: number }>(listDocKey('all')))?.value.count).toBe(before + ENTRIES);
  });

  it(`a page costs at most ${BOUNDS.activityPage} calls, unfiltered and filtered, first page or deep`, async () => {
    const cases: [string, (i: number) => boolean][] = [
      ['', () => true],
      ['&page=900', () => true],
      ['&kind=article.update', (i) => kindOf(i) === 'article.update'],
      ['&kind=article.update&page=200', (i) => kindOf(i) === 'article.update'],
      ['&actor=15', (i) => actorOf(i) === 15],
      ['&actor=15&page=20', (i) => actorOf(i) === 15],
      ['&actor=12&kind=event.update&page=30', (i) => actorOf(i) === 12 && kindOf(i) === 'event.update'],
      [`&from=${day(30_000)}&to=${day(30_000)}`, (i) => day(i) === day(30_000)],
      [`&from=${day(30_000)}&to=${day(30_000)}&page=3`, (i) => day(i) === day(30_000)],
      [
        `&kind=inbox.export&from=${day(20_000)}&to=${day(60_000)}&page=5`,
        (i) => kindOf(i) === 'inbox.export' && day(i) >= day(20_000) && day(i) <= day(60_000),
      ],
      [`&actor=11&from=${day(ENTRIES + 10)}`, (i) => actorOf(i) === 11 && day(i) >= day(ENTRIES + 10)],
    ];
    for (const [query, match] of cases) {
      const { calls, value } = await page(query);
      const want = expected(match);
      const n = Number(/page=(\d+)/.exec(query)?.[1] ?? 1);
      expect(value.problems, query).toEqual([]);
      expect(value.total, query).toBe(
        query === '' || query === '&page=900' ? before + ENTRIES + TAIL : want.length,
      );
      // Filtered: exactly the matching page; unfiltered: the page starts at its place from the newest.
      const filtered = query.includes('actor') || query.includes('kind') || query.includes('from');
      const seqs = value.entries.map((e) => e.seq);
      expect(filtered ? seqs : seqs.slice(0, 1), query).toEqual(
        filtered ? want.slice((n - 1) * 50, n * 50) : [before + ENTRIES + TAIL - (n - 1) * 50],
      );
      expect(calls, query).toBeLessThanOrEqual(BOUNDS.activityPage);
    }
  }, 120_000);

  it(`an append costs at most ${BOUNDS.append} calls`, async () => {
    const { calls } = await cost(() => appendAudit(input(ENTRIES + TAIL), atOf(ENTRIES + TAIL)));
    expect(calls).toBeLessThanOrEqual(BOUNDS.append);
  });

  it(`the incremental check: at most ${BOUNDS.incrementalCheck} calls a request, until it has caught up; then pages read no index keys past it`, async () => {
    let pending = Infinity;
    let requests = 0;
    while (pending > 0) {
      const { calls, value } = await cost(async () => {
        const res = await call(activityFn, '/api/admin/activity/verify', { cookie: admin });
        expect(res.status).toBe(200);
        return (await res.json()) as { ok: boolean; entries: number; pending: number };
      });
      expect(value.ok).toBe(true);
      expect(calls).toBeLessThanOrEqual(BOUNDS.incrementalCheck);
      pending = value.pending;
      requests += 1;
      expect(requests).toBeLessThan(80);
    }
    const { calls, value } = await page('&kind=auth.sign_in');
    expect(value.total).toBe(expected((i) => kindOf(i) === 'auth.sign_in').length + 1);
    expect(calls).toBeLessThanOrEqual(BOUNDS.activityPage);
  }, 120_000);

  it('an entry edited behind the checkpoint is never shown, and the full verification finds it', async () => {
    const seq = before + 1 + 42_000;
    const k = `chain/${String(seq).padStart(10, '0')}`;
    const cur = (await kv('audit').get<Record<string, unknown>>(k))!.value;
    await kv('audit').put(k, { ...cur, actorName: 'framed-colleague' });
    const newest = (await kv('audit').get<{ seq: number }>('head'))!.value.seq;
    const { value } = await page(`&page=${Math.floor((newest - seq) / 50) + 1}`);
    expect(value.problems).toEqual([{ seq, reason: 'altered' }]);
    expect(JSON.stringify(value)).not.toContain('framed-colleague');
    // The incremental check only looks past its checkpoint; the full verification reads everything.
    expect(await verifyChain()).toMatchObject({ ok: false, brokenAt: seq, reason: 'entry altered' });
    await kv('audit').put(k, cur);
    expect(await verifyChain()).toMatchObject({ ok: true });
  }, 300_000);

  it('the CSV source reads in windows: every matching row, each window a bounded number of calls', async () => {
    const want = expected((i) => actorOf(i) === 15);
    const { calls, value: rows } = await cost(async () =>
      collectRows(await auditExportSource({ actor: 15 })),
    );
    expect(rows.map((r) => Number(r[10]))).toEqual(want);
    expect(calls).toBeLessThan(want.length + 20);
  });

  it('the full verification as a stored job: stopped at any point and resumed, it reaches the same answer', async () => {
    // A budget of zero: every run moves the job one step and stops (as a killed run would), the next one goes on.
    let runs = 0;
    let status = await runFullVerification({ by: 'test', start: true, budgetMs: 0 });
    while (status.state !== 'done') {
      const job = (await kv('audit').get<{ updatedAt: string }>('verify/job'))!;
      // Make it look abandoned, so the next run takes it over.
      await kv('audit').put('verify/job', { ...job.value, updatedAt: '2000-01-01T00:00:00.000Z' });
      status = await runFullVerification({ by: 'schedule', start: false, budgetMs: 0 });
      runs += 1;
      expect(runs).toBeLessThan(200);
    }
    expect(runs).toBeGreaterThan(100);
    expect(status.result).toEqual(await verifyChain());
    expect(status.result?.ok).toBe(true);
  }, 600_000);
});
