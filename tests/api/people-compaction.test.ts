import type { Context } from '@netlify/functions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as compaction from '../../netlify/functions/summary-compaction.mts';
import { link } from '../../src/lib/server/people/link.ts';
import { PEOPLE_SPEC } from '../../src/lib/server/people/staff.ts';
import { forgetDecodedBlobs } from '../../src/lib/server/storage/summary-index/blob-cache.ts';
import { readIndex } from '../../src/lib/server/storage/summary-index/view.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { useCountingStores, type CountingStores } from '../helpers/counting-store.ts';
import { localProviders } from '../helpers/forms.ts';

/*
 * The scheduled compaction keeps the People index's bundle (docs/decisions/149-people.md, "Bounded reads"): it folds
 * the segments people writes leave, so a search then reads the manifest, the listing and one bundle, no segment and
 * no chunk on its own.
 */

let counting: CountingStores;
beforeAll(() => {
  process.env.APP_ENV ??= 'test';
  localProviders();
  counting = useCountingStores();
});
afterAll(() => setStoreFactory(null));

describe('the scheduled compaction and the People index', () => {
  it('folds the people segments and bundles the index: a search then reads one blob', async () => {
    await readIndex(PEOPLE_SPEC, (v) => v.total);
    for (let i = 0; i < 3; i++)
      await link({
        source: 'volunteer',
        store: 'volunteers',
        key: `volunteer/fold/${i}`,
        at: new Date(`2026-10-0${i + 1}T12:00:00-05:00`),
        email: `fold${i}@example.org`,
        phone: `+1504333000${i}`,
        name: `Fold Person ${i}`,
      });
    const res = await compaction.default(
      new Request('http://localhost/.netlify/functions/summary-compaction', { method: 'POST' }),
      {} as Context,
    );
    expect(res.status).toBe(200);
    const run = (await res.json()) as { people: { folded: number; left: number } };
    expect(run.people).toEqual({ folded: 3, left: 0 });
    forgetDecodedBlobs();
    counting.reset();
    const total = await readIndex(
      PEOPLE_SPEC,
      async (v) => (await v.select({ needle: 'fold person' })).total,
    );
    expect(total).toBe(3);
    const people = counting.store('people');
    expect(people.counts).toMatchObject({ get: 1, getBytes: 1, list: 1 });
  });
});
