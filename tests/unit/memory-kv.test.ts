import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';

/*
 * The in-memory store's listing keeps its keys in order as they come and go (src/lib/server/storage/memory-kv.ts,
 * MemoryKV): whatever the writes and deletes in between, a listing yields exactly the keys a sort of
 * every stored key under the prefix gives, in pages of 1,000.
 */

const listed = async (store: MemoryKV, prefix: string) => {
  const pages: string[][] = [];
  for await (const page of store.keys(prefix)) pages.push(page);
  return pages;
};
const pagesOf = (keys: string[]) => {
  const pages: string[][] = [];
  for (let i = 0; i < keys.length; i += 1000) pages.push(keys.slice(i, i + 1000));
  return pages.length ? pages : [[]];
};

/** Few keys, so a key is often written, listed, deleted and written again in one run. */
const KEY = fc.constantFrom('a', 'a/1', 'a/10', 'b/é', 'b/😀', '');
const PREFIX = fc.constantFrom('', 'a', 'a/', 'a/1', 'b/', 'c', 'd', 'b/\uFFFF');
const OP = fc.oneof(
  fc.record({ op: fc.constantFrom('create', 'put', 'putBytes', 'replace', 'delete'), key: KEY }),
  fc.record({ op: fc.constant('list'), key: PREFIX }),
  // Many writes or deletes before the next listing (a bulk write; more than a listing puts in place one by one).
  fc.record({ op: fc.constantFrom('createMany', 'deleteMany'), key: KEY }),
);
const MANY = 100;

describe('MemoryKV listing', () => {
  it('lists every stored key under a prefix in order, whatever was written and deleted before', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(OP, { minLength: 10, maxLength: 60 }), async (ops) => {
        const store = new MemoryKV();
        const model = new Set<string>();
        // What each listing gave and should have, whether a key to replace was there, each replace: asserted after.
        const listings: { got: unknown; want: unknown }[] = [];
        const replaced: (string | null)[] = [];
        const found: { got: boolean; want: boolean }[] = [];
        for (const { op, key } of ops) {
          if (op === 'list') {
            const want = [...model].filter((k) => k.startsWith(key)).sort();
            listings.push({ got: await listed(store, key), want: pagesOf(want) });
          } else if (op === 'createMany') {
            for (let i = 0; i < MANY; i++) {
              await store.create(`${key}/${i}`, 1);
              model.add(`${key}/${i}`);
            }
          } else if (op === 'deleteMany') {
            for (const k of [...model].filter((m) => m.startsWith(key))) {
              await store.delete(k);
              model.delete(k);
            }
          } else if (op === 'delete') {
            await store.delete(key);
            model.delete(key);
          } else if (op === 'replace') {
            const cur = await store.get(key);
            found.push({ got: cur !== null, want: model.has(key) });
            if (cur) replaced.push(await store.replace(key, 1, cur.etag));
          } else {
            if (op === 'create') await store.create(key, 1);
            else if (op === 'put') await store.put(key, 1);
            else await store.putBytes(key, new ArrayBuffer(1), {});
            model.add(key);
          }
        }
        expect(listings.map((l) => l.got)).toEqual(listings.map((l) => l.want));
        expect(found.map((f) => f.got)).toEqual(found.map((f) => f.want));
        expect(replaced).not.toContain(null);
        expect(await listed(store, '')).toEqual(pagesOf([...model].sort()));
      }),
      {
        numRuns: 300,
        // Listed, deleted, written again: listed again.
        examples: [
          [
            [
              { op: 'create', key: 'a' },
              { op: 'list', key: '' },
              { op: 'delete', key: 'a' },
              { op: 'create', key: 'a' },
            ],
          ],
        ],
      },
    );
  });

  it('pages of 1,000 at scale, and a listing is what the store held when it began', async () => {
    const store = new MemoryKV();
    const keys = Array.from({ length: 2500 }, (_, i) => `r/${String((i * 7919) % 2500).padStart(5, '0')}`);
    await Promise.all(keys.map((k) => store.create(k, 1)));
    await store.create('q', 1);
    await store.delete('r/00003');
    const want = keys.filter((k) => k !== 'r/00003').sort();
    const pages: string[][] = [];
    for await (const page of store.keys('r/')) {
      pages.push(page);
      await store.create(`r/${pages.length}-later`, 1);
    }
    expect(pages).toEqual(pagesOf(want));
    expect((await listed(store, 'r/'))[2]).toContain('r/1-later');
  });
});
