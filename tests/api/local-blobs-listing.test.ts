import { getStore } from '@netlify/blobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBlobs } from '../helpers/blobs.ts';

/*
 * The local Blobs server lists while it writes (docs/decisions/164-dev-server-and-local-mode.md). Unpatched, about
 * one listing in six taken beside writes left out keys that had been there all along (it stopped at a
 * temporary file renamed away and answered 200 with what it had), and one in nine named a temporary file
 * as a blob (measured: 100 listings beside 8 writers, 2026-11-28).
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(() => blobs?.stop());

const key = (i: number) => `log/${String(i).padStart(5, '0')}`;

describe('the local Blobs server the tests, seed and dev server use', () => {
  it('lists every key that was there, and no write in progress, while other keys are written', async () => {
    const store = getStore({ name: 'listing-race', consistency: 'strong' });
    const N = 100;
    for (let i = 0; i < N; i += 50)
      await Promise.all(Array.from({ length: 50 }, (_, j) => store.set(key(i + j), 'x')));
    let writing = true;
    let writes = 0;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; writing; i++) {
        await store.set(key(N + ((i * 4 + w) % 32)), 'y'.repeat(1_000));
        writes += 1;
      }
    });
    const problems: string[] = [];
    const LISTINGS = 40;
    try {
      for (let r = 0; r < LISTINGS; r++) {
        const { blobs: listed } = await store.list({ prefix: 'log/' });
        const keys = new Set(listed.map((b) => b.key));
        const missing = Array.from({ length: N }, (_, i) => key(i)).filter((k) => !keys.has(k));
        const strange = [...keys].filter((k) => !/^log\/\d{5}$/.test(k));
        if (missing.length) problems.push(`listing ${r}: ${missing.length} keys missing`);
        if (strange.length) problems.push(`listing ${r}: named ${strange.join(', ')}`);
      }
    } finally {
      writing = false;
      await Promise.all(writers);
    }
    console.log(`${LISTINGS} listings beside ${writes} writes`);
    expect(writes).toBeGreaterThan(LISTINGS);
    expect(problems).toEqual([]);
  });
});
