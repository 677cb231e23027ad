import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setEnvironmentContext } from '@netlify/blobs';
import { BlobsServer } from '../../scripts/dev/blobs-listing.mts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as inbox from '../../netlify/functions/admin-inbox.mts';
import * as news from '../../netlify/functions/news.mts';
import { DirectoryKV } from '../../scripts/lib/directory-kv.mts';
import { seedScale } from '../../scripts/lib/scale-seed.mts';
import { INBOX_ROUTES, type InboxKindName } from '../../src/lib/inbox-kinds.ts';
import {
  ConsentEventSchema,
  StoredContactSchema,
  StoredSubscriberSchema,
  StoredTextSignupSchema,
  StoredVolunteerSchema,
} from '../../src/lib/schemas/inbox.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import { BlobsKV } from '../../src/lib/server/storage/blobs-kv.ts';
import type { StoreName } from '../../src/lib/server/storage/kv.ts';
import { readAll } from '../../src/lib/server/storage/listing.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { useCountingStores } from '../helpers/counting-store.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/** Keys under a prefix. */
async function count(store: StoreName, prefix: string): Promise<number> {
  let n = 0;
  for await (const page of kv(store).keys(prefix)) n += page.length;
  return n;
}

beforeAll(() => {
  process.env.APP_ENV ??= 'test';
  resetEnv();
});
afterAll(() => setStoreFactory(null));

describe('npm run seed -- --scale N (scripts/lib/scale-seed.mts)', () => {
  it('writes N of each kind through the repositories, 2N audit entries, N/10 RSVPs, N/20 articles, then indexes', async () => {
    const counting = useCountingStores();
    const lines: string[] = [];
    const report = await seedScale(40, { log: (l) => lines.push(l) });
    expect(report.wrote).toMatchObject({
      volunteers: 40,
      contacts: 40,
      'text sign-ups': 40,
      'email subscribers': 40,
      'audit entries': 80,
      event: 1,
      RSVPs: 4,
      articles: 2,
    });
    expect(await count('volunteers', 'volunteer/')).toBe(40);
    expect(await count('contacts', 'message/')).toBe(40);
    expect(await count('subscribers', 'subscriber/')).toBe(40);
    expect(await count('signups', 'person/')).toBe(40);
    expect(await count('audit', 'chain/')).toBe(80);
    expect(await count('rsvps', '')).toBeGreaterThanOrEqual(4);
    expect(lines.some((l) => l.includes('indexes rebuilt'))).toBe(true);
    // Indexed at the end: the public feed is one read.
    await call(news, '/api/news');
    counting.reset();
    const res = await call(news, '/api/news');
    expect(counting.calls()).toBe(1);
    expect(((await res.json()) as { articles: unknown[] }).articles).toHaveLength(2);

    // The Inbox kinds (the bulk path): every record exactly what its schema stores, each list read from its index.
    const schemas = {
      volunteers: ['volunteers', 'volunteer/', StoredVolunteerSchema],
      contacts: ['contacts', 'message/', StoredContactSchema],
      'text-signups': ['signups', 'person/', StoredTextSignupSchema],
      'email-subscribers': ['subscribers', 'subscriber/', StoredSubscriberSchema],
    } as const;
    for (const [store, prefix, schema] of Object.values(schemas))
      for (const r of await readAll(kv(store), prefix)) expect(schema.safeParse(r).success).toBe(true);
    const consent = await readAll(kv('signups'), 'consent/');
    expect(consent.filter((e) => ConsentEventSchema.parse(e).type === 'web_opt_in')).toHaveLength(40);
    const { cookie } = await signedIn('editor');
    for (const kind of Object.keys(INBOX_ROUTES) as InboxKindName[]) {
      counting.reset();
      const page = (await (await call(inbox, INBOX_ROUTES[kind], { cookie })).json()) as {
        total: number;
        items: { createdAt: string }[];
      };
      expect(page.total, kind).toBe(40);
      expect(page.items[0]!.createdAt > page.items[39]!.createdAt).toBe(true);
      // Read from the index: no record is read.
      const store = schemas[kind][0];
      expect(counting.store(store).reads.filter((k) => k.startsWith(schemas[kind][1]))).toEqual([]);
    }
  }, 60_000);
});

describe('the bulk path writes the local store directly (scripts/lib/directory-kv.mts)', () => {
  it('what it writes, the real local Blobs server reads: values, bytes with metadata, listings', async () => {
    setStoreFactory(null);
    const directory = await mkdtemp(join(tmpdir(), 'blobs-dir-'));
    const server = new BlobsServer({ directory, token: 'token', logger: () => {} });
    const { port } = await server.start();
    const url = `http://127.0.0.1:${port}`;
    setEnvironmentContext({ siteID: 'site-dir', token: 'token', edgeURL: url, uncachedEdgeURL: url });
    try {
      const direct = new DirectoryKV(directory, 'site-dir', 'volunteers');
      const served = new BlobsKV('volunteers');
      expect(await direct.create('volunteer/a/1', { n: 1 })).toBe(true);
      expect(await direct.create('volunteer/a/1', { n: 2 })).toBe(false);
      await direct.put('volunteer/b/2', { n: 3 });
      const bytes = new TextEncoder().encode('gzip or not').buffer;
      expect(await direct.putBytes('summary/chunk/x', bytes, { format: '1' })).toBe(true);
      expect((await served.get('volunteer/a/1'))?.value).toEqual({ n: 1 });
      expect((await served.get('volunteer/b/2'))?.value).toEqual({ n: 3 });
      const got = await served.getBytes('summary/chunk/x');
      expect(new TextDecoder().decode(got!.data)).toBe('gzip or not');
      expect(got!.metadata).toEqual({ format: '1' });
      const listed: string[] = [];
      for await (const page of served.keys('volunteer/')) listed.push(...page);
      expect(listed.sort()).toEqual(['volunteer/a/1', 'volunteer/b/2']);
      const mine: string[] = [];
      for await (const page of direct.keys('volunteer/')) mine.push(...page);
      expect(mine).toEqual(listed.sort());
      // And the other way round: the server's writes, read directly; a replace by ETag.
      await served.put('volunteer/c/3', { n: 4 });
      const cur = await direct.get<{ n: number }>('volunteer/c/3');
      expect(cur?.value).toEqual({ n: 4 });
      expect(await direct.replace('volunteer/c/3', { n: 5 }, cur!.etag)).toBeTruthy();
      expect(await direct.replace('volunteer/c/3', { n: 6 }, cur!.etag)).toBeNull();
      expect((await served.get('volunteer/c/3'))?.value).toEqual({ n: 5 });
    } finally {
      await server.stop();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
