import { afterAll, describe, expect, it } from 'vitest';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { useCountingStores } from '../helpers/counting-store.ts';

afterAll(() => setStoreFactory(null));

describe('counting store (tests/helpers/counting-store.ts)', () => {
  it('counts every call, and each listed page', async () => {
    const counting = useCountingStores();
    const s = kv('articles');
    for (let i = 0; i < 2500; i++) await s.put(`record/${i}`, { id: i });
    expect(counting.counts('articles').put).toBe(2500);
    counting.reset();
    await s.get('record/1');
    await s.create('record/1', {});
    const cur = await s.get('record/2');
    await s.replace('record/2', { id: 2 }, cur!.etag);
    await s.delete('record/3');
    const pages: number[] = [];
    for await (const page of s.keys('record/')) pages.push(page.length);
    expect(pages).toEqual([1000, 1000, 499]);
    expect(counting.counts()).toMatchObject({
      get: 2,
      create: 1,
      replace: 1,
      delete: 1,
      list: 1,
      listPages: 3,
    });
    expect(counting.calls()).toBe(8);
    expect(counting.calls('events')).toBe(0);
  });
});
