import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as activityFn from '../../netlify/functions/admin-activity.mts';
import * as verificationFn from '../../netlify/functions/admin-activity-verification.mts';
import type { AuditEntry, AuditPage } from '../../src/lib/schemas/audit.ts';
import { appendAudit } from '../../src/lib/server/audit/audit.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/**
 * Tampering with what an entry SAYS, not only who did it (docs/decisions/154-audit-trail.md,
 * "Proofs"): its target, its details (a role before and after, a content hash, a detail added or
 * removed), on the oldest entry, a middle one and the newest one, and the newest entry removed. Each
 * case is checked by the quick integrity check (GET /verify, the Activity tab's "Check integrity") and
 * by the full verification job (POST /verification), and Activity must not show the forged text.
 * Someone with write access to the store but not the server secret: they keep the stored hash.
 */
let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeEach(async () => {
  blobs = await startBlobs();
});
afterEach(async () => {
  await blobs.stop();
});

const audit = () => kv('audit');
const chainKey = (seq: number) => `chain/${String(seq).padStart(10, '0')}`;

interface Report {
  ok: boolean;
  entries: number;
  brokenAt?: number;
  reason?: string;
}

/** The quick check, stepped until it has caught up or fails (each request verifies at most 16 entries). */
async function quick(cookie: string): Promise<Report> {
  for (let i = 0; i < 20; i++) {
    const res = await call(activityFn, '/api/admin/activity/verify', { cookie });
    expect(res.status).toBe(200);
    const r = (await res.json()) as Report & { pending: number };
    if (!r.ok || r.pending === 0)
      return { ok: r.ok, entries: r.entries, brokenAt: r.brokenAt, reason: r.reason };
  }
  throw new Error('the quick check did not catch up in 20 steps');
}

/** The full verification as the Activity tab runs it (the background function, awaited), read back. */
async function full(cookie: string): Promise<Report> {
  const started = await call(verificationFn, '/api/admin/activity/verification', { method: 'POST', cookie });
  expect(started.status).toBe(202);
  const res = await call(activityFn, '/api/admin/activity/verify?full', { cookie });
  expect(res.status).toBe(200);
  const { full: status } = (await res.json()) as { full: { state: string; result: Report } };
  expect(status.state).toBe('done');
  return status.result;
}

async function activity(cookie: string): Promise<AuditPage> {
  const res = await call(activityFn, '/api/admin/activity?pageSize=200', { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as AuditPage;
}

const CONTENT_HASH = 'a3'.repeat(32);

/**
 * The admin's sign-in (entry 1, the oldest), a role change with before and after (2), an approved
 * broadcast naming the content hash it approved (3), and an article saved (4, the newest).
 */
async function scene() {
  const boss = await signedIn('admin');
  const actor = { id: boss.user.id, username: boss.username };
  const ip = '203.0.113.9';
  await appendAudit({
    kind: 'user.update',
    actor,
    target: { type: 'user', id: 7, label: 'field-organiser' },
    details: { before: 'editor', after: 'admin' },
    ip,
  });
  await appendAudit({
    kind: 'broadcast.send',
    actor,
    target: { type: 'broadcast', id: 'b-early-vote', label: 'Early voting starts Saturday' },
    details: { contentHash: CONTENT_HASH, recipients: '1500' },
    ip,
  });
  await appendAudit({
    kind: 'article.update',
    actor,
    target: { type: 'article', id: 3, label: 'Town hall recap' },
    details: { changed: 'title, content' },
    ip,
  });
  const page = await activity(boss.cookie);
  expect(page.total).toBe(4);
  expect(page.problems).toEqual([]);
  const byKind = (k: AuditEntry['kind']) => page.entries.find((e) => e.kind === k)!.seq;
  // The positions the cases below name (the scene is the whole trail of a fresh site).
  expect([
    byKind('auth.sign_in'),
    byKind('user.update'),
    byKind('broadcast.send'),
    byKind('article.update'),
  ]).toEqual([1, 2, 3, 4]);
  return boss;
}

type Edit = (e: AuditEntry) => AuditEntry;

/** [what is changed, the position, the change, a string only the forgery contains]. */
const TAMPERED: [string, number, Edit, string][] = [
  [
    'the target label',
    2,
    (e) => ({ ...e, target: { ...e.target!, label: 'forged-target' } }),
    'forged-target',
  ],
  ['the target id', 2, (e) => ({ ...e, target: { ...e.target!, id: 99_001 } }), '99001'],
  ['the target type', 2, (e) => ({ ...e, target: { ...e.target!, type: 'forged-type' } }), 'forged-type'],
  [
    'the role after (details)',
    2,
    (e) => ({ ...e, details: { ...e.details, after: 'forged-role' } }),
    'forged-role',
  ],
  [
    'the role before (details)',
    2,
    (e) => ({ ...e, details: { ...e.details, before: 'forged-role' } }),
    'forged-role',
  ],
  [
    'the approved content hash (a hash-named detail)',
    3,
    (e) => ({ ...e, details: { ...e.details, contentHash: 'f0'.repeat(32) } }),
    'f0f0f0f0',
  ],
  ['a detail added', 3, (e) => ({ ...e, details: { ...e.details, forgedNote: 'x' } }), 'forgedNote'],
  [
    'a detail removed',
    3,
    (e) => ({ ...e, details: { recipients: e.details.recipients! } }),
    // The forgery is what it lacks; the entry is not shown at all, so neither is the hash.
    CONTENT_HASH,
  ],
  ['the newest entry’s details', 4, (e) => ({ ...e, details: { changed: 'forged-field' } }), 'forged-field'],
  [
    'the newest entry’s target',
    4,
    (e) => ({ ...e, target: { ...e.target!, label: 'forged-newest' } }),
    'forged-newest',
  ],
  [
    'the oldest entry’s details',
    1,
    (e) => ({ ...e, details: { ...e.details, forgedNote: 'x' } }),
    'forgedNote',
  ],
  ['the oldest entry’s actor', 1, (e) => ({ ...e, actorName: 'forged-actor' }), 'forged-actor'],
  ['the IP address', 3, (e) => ({ ...e, ip: '198.51.100.250' }), '198.51.100.250'],
  // What the index keys also name: the kind, the person, the time.
  ['the kind', 3, (e) => ({ ...e, kind: 'broadcast.cancel' }), 'broadcast.cancel'],
  ['the person’s id', 2, (e) => ({ ...e, actorId: 99_002 }), '99002'],
  ['the time', 2, (e) => ({ ...e, at: '2020-01-01T00:00:00.000Z' }), '2020-01-01'],
];

/** [the check, how it runs, its reason for the newest entry removed]. */
const CHECKS = [
  ['the quick check (GET /verify)', quick, 'missing entry'],
  ['the full verification job', full, 'entries missing at the end'],
] as const;

describe.each(CHECKS)('%s', (_name, check, removedReason) => {
  it.each(TAMPERED)('fails on %s (entry %i)', async (_what, seq, edit, forged) => {
    const boss = await scene();
    const k = chainKey(seq);
    const cur = (await audit().get<AuditEntry>(k))!.value;
    await audit().put(k, edit(cur));
    expect(await check(boss.cookie)).toMatchObject({ ok: false, brokenAt: seq, reason: 'entry altered' });
    // Activity never shows the altered entry, only its position.
    const page = await activity(boss.cookie);
    expect(page.problems).toEqual([{ seq, reason: 'altered' }]);
    expect(page.entries.map((e) => e.seq)).not.toContain(seq);
    expect(JSON.stringify(page)).not.toContain(forged);
  });

  it('fails when the newest entry is removed (chain and index key), the head left naming it', async () => {
    const boss = await scene();
    await audit().delete(chainKey(4));
    for await (const page of audit().keys('log/'))
      for (const k of page.filter((x) => x.includes('+article.update+'))) await audit().delete(k);
    expect(await check(boss.cookie)).toMatchObject({ ok: false, brokenAt: 4, reason: removedReason });
  });

  it('fails on an entry spliced in from another trail under the same secret, its links rewritten to fit', async () => {
    const boss = await scene();
    // Another site with the same secret (a staging copy, a restored backup): its entry 2 is genuine there.
    const other = await startBlobs();
    let foreign: AuditEntry;
    try {
      await scene();
      foreign = (await audit().get<AuditEntry>(chainKey(2)))!.value;
    } finally {
      // Back to this test's site (stores are memoised per site: forget the other's).
      blobs.use();
      setStoreFactory(null);
      await other.stop();
    }
    const [one, three] = await Promise.all(
      [1, 3].map(async (seq) => (await audit().get<AuditEntry>(chainKey(seq)))!.value),
    );
    expect(foreign.hash).not.toBe((await audit().get<AuditEntry>(chainKey(2)))!.value.hash);
    // Each link made to fit: the spliced entry points at entry 1, entry 3 points at the spliced one.
    await audit().put(chainKey(2), { ...foreign, prevHash: one!.hash });
    await audit().put(chainKey(3), { ...three!, prevHash: foreign.hash });
    expect(await check(boss.cookie)).toMatchObject({ ok: false, brokenAt: 2, reason: 'entry altered' });
  });

  it('holds on the untouched scene (the cases above fail for their change alone)', async () => {
    const boss = await scene();
    expect(await check(boss.cookie)).toMatchObject({ ok: true, entries: 4 });
  });
});
