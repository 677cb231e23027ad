import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgetDecodedBlobs } from '../../src/lib/server/storage/summary-index/blob-cache.ts';
import { compact } from '../../src/lib/server/storage/summary-index/compaction.ts';
import { advanceRebuild, writeBase } from '../../src/lib/server/storage/summary-index/rebuild.ts';
import { CHUNK_TARGET, FOLD_AT, type SummarySpec } from '../../src/lib/server/storage/summary-index/spec.ts';
import { readIndex, reindex } from '../../src/lib/server/storage/summary-index/view.ts';
import { appendSummary } from '../../src/lib/server/storage/summary-index/segments.ts';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';

/*
 * The summary index itself (docs/decisions/155-inbox-and-staff-lists.md), on the atomic in-memory
 * store, with a small spec of its own: segments merged on read, a newer summary superseding
 * an older one, compaction (concurrent, killed at each step), repair and the resumable rebuild.
 */

interface Item {
  id: string;
  key: string;
  name: string;
  email: string;
  at: string;
  v: string;
  shown: boolean;
}

const spec: SummarySpec<Item> = {
  name: 'test items',
  store: 'contacts',
  recordPrefix: 'rec/',
  version: 1,
  fields: ['key', 'name', 'email', 'at', 'v', 'shown'],
  idOf: (key) => `i${key.slice('rec/'.length).padStart(7, '0')}`,
  fromRecord: (raw, key) => {
    const r = raw as Partial<Item> | null;
    return typeof r?.id === 'string' ? ({ ...(r as Item), key } satisfies Item) : null;
  },
  at: (s) => s.at,
  v: (s) => s.v,
  listed: (s) => s.shown,
  searched: (s) => `${s.name} ${s.email}`,
  columns: ['email'],
  countKey: (s) => s.email,
};

const T0 = Date.UTC(2025, 0, 1);
const iso = (n: number) => new Date(T0 + n * 60_000).toISOString();
const item = (n: number, over: Partial<Item> = {}): Item => ({
  id: `i${String(n).padStart(7, '0')}`,
  key: `rec/${n}`,
  name: `Name ${n}`,
  email: `p${n % 97}@example.org`,
  at: iso(n),
  v: iso(n),
  shown: true,
  ...over,
});

/** Writes the record and its segment, as a write path does. */
async function write(s: Item): Promise<void> {
  const { key: k, ...record } = s;
  await kv('contacts').put(k, record);
  await appendSummary('contacts', spec.version, s);
}

/** Writes records only (what the base is built from), many at once. */
async function records(items: Item[]): Promise<void> {
  const store = kv('contacts');
  await Promise.all(items.map(({ key: k, ...record }) => store.put(k, record)));
}

const ids = (rows: Item[]) => rows.map((s) => s.id);
const segments = async () => {
  let n = 0;
  for await (const page of kv('contacts').keys('summary/seg/')) n += page.length;
  return n;
};
const newest = (n: number, from = n) => Array.from({ length: n }, (_, i) => item(from - 1 - i).id);

/** The in-memory store, killed (a throw) at the first call of one kind on one prefix while `fail` is set. */
class FlakyKV implements KV {
  readonly inner: KV;
  fail: { op: keyof KV; prefix: string } | null = null;
  constructor(inner: KV) {
    this.inner = inner;
  }
  private check(op: keyof KV, k: string) {
    if (this.fail?.op === op && k.startsWith(this.fail.prefix)) throw new Error(`killed at ${op} ${k}`);
  }
  get<T>(k: string) {
    this.check('get', k);
    return this.inner.get<T>(k);
  }
  create(k: string, v: unknown) {
    this.check('create', k);
    return this.inner.create(k, v);
  }
  replace(k: string, v: unknown, e: string) {
    this.check('replace', k);
    return this.inner.replace(k, v, e);
  }
  put(k: string, v: unknown) {
    this.check('put', k);
    return this.inner.put(k, v);
  }
  putBytes(k: string, d: ArrayBuffer, m: Record<string, string>) {
    this.check('putBytes', k);
    return this.inner.putBytes(k, d, m);
  }
  getBytes(k: string) {
    this.check('getBytes', k);
    return this.inner.getBytes(k);
  }
  delete(k: string) {
    this.check('delete', k);
    return this.inner.delete(k);
  }
  keys(prefix?: string) {
    return this.inner.keys(prefix);
  }
}

let base: MemoryKV;
let flaky: FlakyKV;
beforeEach(() => {
  // Each test as a fresh function instance: nothing decoded kept from another.
  forgetDecodedBlobs();
  base = new MemoryKV();
  flaky = new FlakyKV(base);
  const others = new Map<StoreName, KV>();
  setStoreFactory((name) => {
    if (name === 'contacts') return flaky;
    let s = others.get(name);
    if (!s) others.set(name, (s = new MemoryKV()));
    return s;
  });
});
afterEach(() => setStoreFactory(null));

describe('reading', () => {
  it('an empty store is an empty list (the index is built once)', async () => {
    expect(await readIndex(spec, async (v) => [v.total, await v.page(0, 10)])).toEqual([0, []]);
    expect((await kv('contacts').get('summary/manifest'))?.value).toMatchObject({ chunks: [] });
  });

  it('merges outstanding segments with the base, newest first; a later version supersedes', async () => {
    await records(Array.from({ length: 30 }, (_, i) => item(i)));
    await reindex(spec);
    await write(item(30));
    await write(item(31, { shown: false }));
    await write(item(5, { name: 'Renamed', v: iso(100) }));
    await write(item(5, { name: 'Older change', v: iso(50) }));
    const [total, page, all] = await readIndex(spec, async (v) => [
      v.total,
      await v.page(0, 3),
      await v.all(),
    ]);
    expect(total).toBe(31);
    expect(ids(page)).toEqual([item(30).id, item(29).id, item(28).id]);
    expect(all.find((s) => s.id === item(5).id)?.name).toBe('Renamed');
    expect(ids(all)).toEqual([item(30).id, ...newest(30)]);
  });

  it('per-key counts: the base and the records added since, listed ones only', async () => {
    await records([item(1, { email: 'a@x' }), item(2, { email: 'a@x' }), item(3, { email: 'b@x' })]);
    await reindex(spec);
    await write(item(4, { email: 'a@x' }));
    await write(item(5, { email: 'a@x', shown: false }));
    await write(item(1, { email: 'a@x', v: iso(99) })); // a change, not a new record
    const count = await readIndex(spec, (v) => v.counts());
    expect([count('a@x'), count('b@x'), count('c@x')]).toEqual([3, 1, 0]);
  });

  it(`a reader that finds more than ${FOLD_AT} segments folds them in; the next reads none of them`, async () => {
    await reindex(spec);
    for (let i = 0; i < FOLD_AT + 4; i++) await write(item(i));
    await readIndex(spec, (v) => v.total);
    expect(await readIndex(spec, (v) => [v.outstanding, v.total])).toEqual([0, FOLD_AT + 4]);
  });
});

describe('decoded blobs kept by a warm instance', () => {
  it('a second search reads no chunk again; a new base (new keys) is read afresh', async () => {
    await records(Array.from({ length: 12_000 }, (_, i) => item(i)));
    await reindex(spec);
    const all = () => readIndex(spec, async (v) => (await v.all()).length);
    expect(await all()).toBe(12_000);
    const counted: string[] = [];
    const inner = flaky.inner;
    flaky = new FlakyKV({
      ...inner,
      get: (k) => inner.get(k),
      create: (k, v) => inner.create(k, v),
      replace: (k, v, e) => inner.replace(k, v, e),
      put: (k, v) => inner.put(k, v),
      putBytes: (k, d, m) => inner.putBytes(k, d, m),
      getBytes: (k) => {
        counted.push(k);
        return inner.getBytes(k);
      },
      delete: (k) => inner.delete(k),
      keys: (p) => inner.keys(p),
    });
    setStoreFactory((name) => (name === 'contacts' ? flaky : new MemoryKV()));
    expect(await all()).toBe(12_000);
    expect(counted).toEqual([]);
    await reindex(spec);
    expect(await all()).toBe(12_000);
    expect(counted.filter((k) => k.startsWith('summary/chunk/')).length).toBe(3);
  });
});

describe('search by the searched texts', () => {
  /** What a search must answer: the listed summaries, newest first, whose lowercased text holds the needle. */
  const slow = (all: Item[], needle: string) =>
    all.filter((s) => `${s.name} ${s.email}`.toLowerCase().includes(needle));

  it('finds what decoding every summary finds, pending segments and superseded rows included', async () => {
    // A seeded generator: names from a few words (English, Spanish, Vietnamese, a line break, a NUL, a lone
    // surrogate), so needles match often, across chunks and segments.
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    const words = [
      'Ana',
      'NGUYỄN',
      'Peña',
      'metairie',
      'Kenner',
      'a\nb',
      'x\u0000y',
      'bad\ud800',
      'İstanbul',
    ];
    const name = () => `${words[rand(words.length)]} ${words[rand(words.length)]}`;
    const n = 2 * CHUNK_TARGET + 1_500;
    await records(Array.from({ length: n }, (_, i) => item(i, { name: name(), shown: rand(9) > 0 })));
    await reindex(spec);
    // Three chunks, newest first: records n - 1 to 6,500, 6,499 to 1,500, 1,499 to 0. Pending: changes that
    // supersede base rows of the oldest chunk (hiding some, showing others), an older change that loses, new
    // records (the newest, one between the first two chunks); the other two chunks are searched by their text.
    for (let i = 0; i < 12; i++) {
      const at = rand(1_500);
      await write(item(at, { name: name(), v: iso(n + 100 + i), shown: rand(4) > 0 }));
    }
    await write(item(n + 5, { name: 'Ana new' }));
    const between = n - CHUNK_TARGET - 0.5;
    await write(item(between, { id: spec.idOf('rec/between'), key: 'rec/between', name: 'metairie b' }));
    await write(item(3, { name: 'loses', v: iso(-1) }));
    const needles = [
      'ana',
      'metairie',
      'peña',
      'nguyễn',
      'a\nb',
      'x\u0000y',
      '\ufffd',
      'bad',
      'İstanbul'.toLowerCase(),
      'n',
      'zzz',
      ' ',
    ];
    forgetDecodedBlobs();
    for (const needle of needles) {
      const [fast, all] = await readIndex(spec, async (v) => {
        const found = await v.select({ needle });
        return [
          { total: found.total, rows: found.slice(0, found.total), page: found.slice(37, 50) },
          await v.all(),
        ];
      });
      const expected = slow(all, needle);
      expect(fast.total, needle).toBe(expected.length);
      expect(ids(fast.rows), needle).toEqual(ids(expected));
      expect(ids(fast.page), needle).toEqual(ids(expected.slice(37, 87)));
    }
  });

  it('a search reads the bundle once, no chunk on its own, and answers its page from the rows it found', async () => {
    await records(Array.from({ length: 2 * CHUNK_TARGET + 10 }, (_, i) => item(i)));
    await reindex(spec);
    forgetDecodedBlobs();
    const blobs: string[] = [];
    class Reads extends FlakyKV {
      override getBytes(k: string) {
        blobs.push(k);
        return super.getBytes(k);
      }
    }
    const reads = new Reads(base);
    setStoreFactory((name) => (name === 'contacts' ? reads : new MemoryKV()));
    const found = await readIndex(spec, async (v) => {
      const f = await v.select({ needle: 'name 1' });
      return { total: f.total, page: f.slice(0, 3) };
    });
    // "Name 1", "Name 10".."Name 19", "Name 100".., "Name 1000".., "Name 10000".. of 10,010.
    expect(found.total).toBe(1 + 10 + 100 + 1000 + 10);
    expect(found.page.map((s) => s.name)).toEqual(['Name 10009', 'Name 10008', 'Name 10007']);
    expect(blobs.filter((k) => k.startsWith('summary/chunk/'))).toEqual([]);
    expect(blobs.filter((k) => k.startsWith('summary/bundle/'))).toHaveLength(1);
  });

  it('a search and a filter cost the same store calls at 1,000 and at 100,000 summaries', async () => {
    const counted = { n: 0 };
    class Counted extends FlakyKV {
      override get<T>(k: string) {
        counted.n++;
        return super.get<T>(k);
      }
      override getBytes(k: string) {
        counted.n++;
        return super.getBytes(k);
      }
      override keys(prefix?: string) {
        counted.n++;
        return super.keys(prefix);
      }
    }
    const reads = new Counted(base);
    const costAt = async (n: number) => {
      setStoreFactory((name) => (name === 'contacts' ? base : new MemoryKV()));
      await writeBase(
        spec,
        Array.from({ length: n }, (_, i) => item(i)),
      );
      forgetDecodedBlobs();
      setStoreFactory((name) => (name === 'contacts' ? reads : new MemoryKV()));
      const cost = async (query: { needle?: string; test?: (s: Item) => boolean }) => {
        forgetDecodedBlobs();
        counted.n = 0;
        const total = await readIndex(spec, async (v) => (await v.select(query)).total);
        return { calls: counted.n, total: total > 0 };
      };
      return [
        await cost({ needle: 'name 99' }),
        await cost({ test: (s) => s.email === 'p7@example.org' }),
        await cost({ needle: 'name 1', test: (s) => s.email !== 'p7@example.org' }),
      ];
    };
    const small = await costAt(1000);
    const large = await costAt(100_000);
    expect(large).toEqual(small);
    expect(small.map((c) => c.calls)).toEqual([3, 3, 3]);
  }, 120_000);

  it("a reader's fold keeps the bundle (its new chunks read on their own); the next compaction bundles them", async () => {
    await records(Array.from({ length: 3 * CHUNK_TARGET }, (_, i) => item(i)));
    await reindex(spec);
    // An old record changed: its chunk is replaced by the reader that folds (past FOLD_AT segments).
    for (let i = 0; i <= FOLD_AT; i++)
      await write(item(i * 7, { name: `Renamed ${i}`, v: iso(10_000_000 + i) }));
    const blobs: string[] = [];
    class Reads extends FlakyKV {
      override getBytes(k: string) {
        blobs.push(k);
        return super.getBytes(k);
      }
    }
    const reads = new Reads(base);
    setStoreFactory((name) => (name === 'contacts' ? reads : new MemoryKV()));
    await readIndex(spec, (v) => v.total);
    forgetDecodedBlobs();
    blobs.length = 0;
    const found = await readIndex(spec, async (v) => (await v.select({ needle: 'renamed' })).total);
    expect(found).toBe(FOLD_AT + 1);
    expect(blobs.filter((k) => k.startsWith('summary/bundle/'))).toHaveLength(1);
    expect(blobs.filter((k) => k.startsWith('summary/chunk/')).length).toBeGreaterThan(0);
    await compact(spec);
    forgetDecodedBlobs();
    blobs.length = 0;
    expect(await readIndex(spec, async (v) => (await v.select({ needle: 'renamed' })).total)).toBe(
      FOLD_AT + 1,
    );
    expect(blobs.filter((k) => k.startsWith('summary/chunk/'))).toEqual([]);
    expect(blobs.filter((k) => k.startsWith('summary/bundle/'))).toHaveLength(1);
  });
});

describe('compaction', () => {
  it('folds segments into chunks of at most twice the target, and pages across them', async () => {
    await reindex(spec);
    const n = 2 * CHUNK_TARGET + 700;
    const all = Array.from({ length: n }, (_, i) => item(i));
    await Promise.all(all.map((s) => appendSummary('contacts', 1, s)));
    const run = await compact(spec, { max: n });
    expect(run).toMatchObject({ folded: n, left: 0 });
    expect(await segments()).toBe(0);
    const manifest = (await kv('contacts').get<{ chunks: { n: number }[] }>('summary/manifest'))!.value;
    expect(manifest.chunks.map((c) => c.n)).toEqual([700, CHUNK_TARGET, CHUNK_TARGET]);
    const [total, p1, p2] = await readIndex(spec, async (v) => [
      v.total,
      await v.page(690, 20),
      await v.page(n - 5, 50),
    ]);
    expect(total).toBe(n);
    expect(ids(p1)).toEqual(newest(20, n - 690));
    expect(ids(p2)).toEqual(newest(5, 5));
  });

  it('a fold writes a new bundle with its chunks: a search after it reads the bundle and no chunk', async () => {
    await records(Array.from({ length: 2 * CHUNK_TARGET }, (_, i) => item(i)));
    await reindex(spec);
    const before = (await kv('contacts').get<{ bundle: { key: string } }>('summary/manifest'))!.value.bundle;
    for (let i = 0; i < 5; i++) await write(item(i * 3, { name: `Changed ${i}`, v: iso(10_000_000 + i) }));
    expect(await compact(spec)).toMatchObject({ folded: 5, left: 0 });
    const after = (await kv('contacts').get<{ bundle: { key: string } }>('summary/manifest'))!.value.bundle;
    expect(after.key).not.toBe(before.key);
    const blobs: string[] = [];
    class Reads extends FlakyKV {
      override getBytes(k: string) {
        blobs.push(k);
        return super.getBytes(k);
      }
    }
    setStoreFactory((name) => (name === 'contacts' ? new Reads(base) : new MemoryKV()));
    forgetDecodedBlobs();
    expect(await readIndex(spec, async (v) => (await v.select({ needle: 'changed' })).total)).toBe(5);
    expect(blobs).toEqual([after.key]);
  });

  it('two compactions at once: one folds, the other changes nothing; nothing lost or doubled', async () => {
    await records(Array.from({ length: 50 }, (_, i) => item(i)));
    await reindex(spec);
    for (let i = 50; i < 60; i++) await write(item(i));
    const runs = await Promise.all([compact(spec), compact(spec)]);
    expect(runs.map((r) => r.folded).sort()).toEqual([0, 10]);
    const [total, all, count] = await readIndex(spec, async (v) => [
      v.total,
      await v.all(),
      await v.counts(),
    ]);
    expect(total).toBe(60);
    expect(ids(all)).toEqual(newest(60));
    expect(count('p3@example.org')).toBe(1);
  });

  for (const [op, prefix, what] of [
    ['putBytes', 'summary/chunk/', 'before its chunks are written'],
    ['replace', 'summary/manifest', 'before the manifest is swapped'],
    ['delete', 'summary/seg/', 'after the swap, before the segments are deleted'],
  ] as const)
    it(`killed ${what}: the list reads the same, and the next run finishes`, async () => {
      await records(Array.from({ length: 20 }, (_, i) => item(i, { email: 'same@x' })));
      await reindex(spec);
      for (let i = 20; i < 25; i++) await write(item(i, { email: 'same@x' }));
      await write(item(3, { email: 'same@x', name: 'Changed', v: iso(500) }));
      flaky.fail = { op, prefix };
      await compact(spec).catch(() => undefined);
      flaky.fail = null;
      const read = () =>
        readIndex(spec, async (v) => [
          v.total,
          ids(await v.all()),
          (await v.counts())('same@x'),
          (await v.all()).find((s) => s.id === item(3).id)?.name,
        ]);
      expect(await read()).toEqual([25, newest(25), 25, 'Changed']);
      await compact(spec);
      await compact(spec);
      expect(await segments()).toBe(0);
      expect(await read()).toEqual([25, newest(25), 25, 'Changed']);
    });
});

describe('repair', () => {
  for (const [what, damage] of [
    ['a missing manifest', (s: KV) => s.delete('summary/manifest')],
    ['a manifest that is not one', (s: KV) => s.put('summary/manifest', { chunks: 'x' })],
    [
      'a manifest of another version',
      async (s: KV) => {
        const m = await s.get<object>('summary/manifest');
        await s.put('summary/manifest', { ...m!.value, version: 0 });
      },
    ],
    [
      'a missing chunk',
      async (s: KV) => {
        const m = await s.get<{ chunks: { key: string }[] }>('summary/manifest');
        await s.delete(m!.value.chunks[0]!.key);
      },
    ],
    [
      'a chunk that is not gzip',
      async (s: KV) => {
        const m = await s.get<{ chunks: { key: string }[] }>('summary/manifest');
        await s.delete(m!.value.chunks[0]!.key);
        await s.putBytes(m!.value.chunks[0]!.key, new TextEncoder().encode('garbage').buffer, {});
      },
    ],
  ] as const)
    it(`${what} is rebuilt from the records once, then read as stored`, async () => {
      await records(Array.from({ length: 40 }, (_, i) => item(i)));
      await reindex(spec);
      await write(item(40));
      await damage(base);
      expect(await readIndex(spec, async (v) => [v.total, ids(await v.all())])).toEqual([41, newest(41)]);
      const m1 = (await kv('contacts').get('summary/manifest'))!.etag;
      expect(await readIndex(spec, (v) => v.total)).toBe(41);
      expect((await kv('contacts').get('summary/manifest'))!.etag).toBe(m1);
    });

  it('the rebuild is resumable: each step stores its progress, the last one swaps the index in', async () => {
    await records(Array.from({ length: 12_000 }, (_, i) => item(i)));
    const first = await advanceRebuild(spec, Date.now() + 1);
    expect(first).toEqual({ finished: false, done: 5000, total: 12_000 });
    await write(item(12_000)); // a sign-up while the index is being rebuilt
    expect(await advanceRebuild(spec, Date.now() + 1)).toMatchObject({ done: 10_000 });
    expect(await advanceRebuild(spec, Number.POSITIVE_INFINITY)).toEqual({
      finished: true,
      done: 12_000,
      total: 12_000,
    });
    expect(await readIndex(spec, (v) => v.total)).toBe(12_001);
    expect(await kv('contacts').get('summary/rebuild')).toBeNull();
  });

  it('writeBase stores a base built elsewhere, as a rebuild would', async () => {
    const all = Array.from({ length: 30 }, (_, i) => item(i));
    await records(all);
    await writeBase(spec, all);
    expect(await readIndex(spec, async (v) => [v.total, ids(await v.page(0, 2))])).toEqual([
      30,
      newest(2, 30),
    ]);
  });
});
