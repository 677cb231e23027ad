import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as inbox from '../../netlify/functions/admin-inbox.mts';
import * as volunteers from '../../netlify/functions/volunteers-sendgrid.mts';
import { seedScale } from '../../scripts/lib/scale-seed.mts';
import { INBOX_KIND_NAMES, INBOX_ROUTES, type InboxKindName } from '../../src/lib/inbox-kinds.ts';
import { compactInbox, INBOX_SPECS, reindexInbox } from '../../src/lib/server/inbox/summaries.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { useCountingStores, type CountingStores, type Counts } from '../helpers/counting-store.ts';
import { localProviders, uniqueIp, validVolunteer } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';
import { forgetDecodedBlobs } from '../../src/lib/server/storage/summary-index/blob-cache.ts';
import { FOLD_AT } from '../../src/lib/server/storage/summary-index/spec.ts';

/*
 * Reads that read (docs/decisions/155-inbox-and-staff-lists.md): an Inbox list GET writes nothing to any store, whatever
 * state its index is in (stored, with outstanding segments past FOLD_AT, missing, of another version, damaged). A
 * list whose index cannot be read is answered from its records, in memory (the same page), and stays so until a
 * repair path stores the index: the scheduled compaction (compactInbox) or `npm run reindex` (reindexInbox).
 */

const N = 60;
const BOUND = 8; // a page once the index is stored (tests/api/inbox-store-calls.test.ts: BOUNDS.page)

let counting: CountingStores;
let editor: string;

beforeAll(async () => {
  process.env.APP_ENV ??= 'test';
  localProviders();
  counting = useCountingStores();
  await seedScale(N, { parts: ['inbox'], concurrency: 16, log: () => {} });
  editor = (await signedIn('editor')).cookie;
}, 120_000);
afterAll(() => setStoreFactory(null));

const writesOf = (c: Counts) => c.create + c.replace + c.put + c.putBytes + c.delete;

interface Page {
  items: Record<string, unknown>[];
  total: number;
}

/** One GET of a list as a fresh instance makes it: its answer, its store calls and its writes (every store). */
async function get(kind: InboxKindName, query = '') {
  forgetDecodedBlobs();
  const { calls, value: res } = await counting.cost(() =>
    call(inbox, `${INBOX_ROUTES[kind]}${query}`, { cookie: editor }),
  );
  const writes = writesOf(counting.counts());
  return { res, calls, writes, body: (await res.clone().json()) as Page };
}

const manifest = (kind: InboxKindName) => kv(INBOX_SPECS[kind].store).get<object>('summary/manifest');

describe('an Inbox GET writes nothing', () => {
  it.each(INBOX_KIND_NAMES)('%s: a page, a search and a filter: zero writes', async (kind) => {
    for (const query of ['', '?page=2&pageSize=10', '?q=a', '?lang=es']) {
      const { res, writes } = await get(kind, query);
      expect(res.status).toBe(200);
      expect(writes).toBe(0);
    }
  });

  it(`more than FOLD_AT (${FOLD_AT}) outstanding segments: listed, not folded by the GET; the compaction folds them`, async () => {
    for (let i = 0; i < FOLD_AT + 4; i++) {
      const res = await call(volunteers, '/api/volunteers-sendgrid', {
        json: validVolunteer({ email: `fold.${i}@example.org` }),
        ip: uniqueIp(),
      });
      expect(res.status).toBe(201);
    }
    const before = (await manifest('volunteers'))!.etag;
    const { body, writes } = await get('volunteers');
    expect(writes).toBe(0);
    expect(body.total).toBe(N + FOLD_AT + 4);
    // Newest first: the posts just made, ahead of the seeded sign-ups. Posts to an in-memory store can share a
    // millisecond (then they are in id order), so the check is the set and the order of the times, not post order.
    const posted = Array.from({ length: FOLD_AT + 4 }, (_, i) => `fold.${i}@example.org`);
    expect(
      body.items
        .slice(0, posted.length)
        .map((v) => v.email)
        .toSorted(),
    ).toEqual(posted.toSorted());
    const stamps = body.items.map((v) => String(v.createdAt));
    expect(stamps.every((t) => /^\d{4}-\d\d-\d\dT/.test(t))).toBe(true);
    expect(stamps).toEqual(stamps.toSorted().toReversed());
    expect((await manifest('volunteers'))!.etag).toBe(before);
    const run = await compactInbox(Date.now() + 60_000);
    expect(run.volunteers.folded).toBe(FOLD_AT + 4);
    const after = await get('volunteers');
    expect(after.body).toEqual(body);
    expect(after.calls).toBeLessThanOrEqual(BOUND);
  });
});

describe('an index missing, stale or damaged: the GET answers from the records and writes nothing; the repair path stores it', () => {
  /** The scheduled compaction (every minute) rebuilds a missing or stale index; `npm run reindex` any. */
  const compaction = async (kind: InboxKindName) =>
    expect((await compactInbox(Date.now() + 60_000))[kind].rebuilding?.finished).toBe(true);
  const reindex = async (kind: InboxKindName) => expect(await reindexInbox(kind)).toBeGreaterThan(0);
  for (const [what, damage, repair] of [
    ['missing', (kind: InboxKindName) => kv(INBOX_SPECS[kind].store).delete('summary/manifest'), compaction],
    [
      'of another version',
      async (kind: InboxKindName) => {
        const m = await manifest(kind);
        await kv(INBOX_SPECS[kind].store).put('summary/manifest', { ...m!.value, version: 0 });
      },
      compaction,
    ],
    [
      'with a corrupt chunk',
      async (kind: InboxKindName) => {
        const store = kv(INBOX_SPECS[kind].store);
        const m = await store.get<{ chunks: { key: string }[] }>('summary/manifest');
        const k = m!.value.chunks[0]!.key;
        await store.delete(k);
        await store.putBytes(k, new TextEncoder().encode('not gzip').buffer, {});
      },
      reindex,
    ],
  ] as const)
    it.each(INBOX_KIND_NAMES)(
      `%s, index ${what}: repaired by ${repair === compaction ? 'the scheduled compaction' : 'npm run reindex'}`,
      async (kind) => {
        await reindexInbox(kind);
        const stored = await get(kind, '?page=2&pageSize=20');
        const searched = await get(kind, '?q=example');
        await damage(kind);
        const error = console.error;
        console.error = () => {};
        try {
          // Twice: the first GET did not store the index, so the second reads the records again.
          for (let i = 0; i < 2; i++) {
            const page = await get(kind, '?page=2&pageSize=20');
            expect(page.res.status).toBe(200);
            expect(page.writes).toBe(0);
            expect(page.body).toEqual(stored.body);
            expect(page.calls).toBeGreaterThan(N); // one read per record
            const search = await get(kind, '?q=example');
            expect(search.writes).toBe(0);
            expect(search.body).toEqual(searched.body);
          }
        } finally {
          console.error = error;
        }
        await repair(kind);
        const repaired = await get(kind, '?page=2&pageSize=20');
        expect(repaired.body).toEqual(stored.body);
        expect(repaired.writes).toBe(0);
        expect(repaired.calls).toBeLessThanOrEqual(BOUND);
      },
    );
});
