import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as news from '../../netlify/functions/news.mts';
import { seedScale } from '../../scripts/lib/scale-seed.mts';
import { resetEnv } from '../../src/lib/server/env.ts';
import { kv, setStoreFactory, type StoreName } from '../../src/lib/server/store.ts';
import { useCountingStores } from '../helpers/counting-store.ts';
import { call } from '../helpers/http.ts';

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
  }, 60_000);
});
