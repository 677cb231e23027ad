/**
 * Cold and warm Inbox searches and filters at scale, several cold samples each (the scale section of `npm run
 * bench` makes one cold request an operation, right after seeding, and its cold times swing by a second here):
 *   flock /tmp/campaign-heavy.lock npm exec -- node --expose-gc scripts/bench/inbox-cold.mts
 * (N=100000 records of each Inbox kind by default; RUNS=7 cold requests a path). Seeds with the scale seed's own
 * code into a fresh local Blobs server, then serves admin-inbox on loopback as the scale section does; before each
 * cold request nothing decoded is kept (as a fresh function instance). Prints the medians and every sample.
 */
import { benchBlobsStore, serveFunctions } from './serve.mts';

const N = Number(process.env.N ?? 100_000);
const RUNS = Number(process.env.RUNS ?? 7);
const PATHS = [
  '/api/admin/volunteers?q=metairie',
  '/api/admin/text-signups?lang=es',
  '/api/admin/volunteers?q=metairie&lang=es',
  '/api/admin/volunteers',
];

// The local adapters log what they store: kept quiet; the figures go to stderr.
const log = console.log;
console.log = () => {};
console.info = () => {};
const store = await benchBlobsStore();
const { setStoreFactory } = await import('../../src/lib/server/storage/stores.ts');
const { DirectoryKV } = await import('../lib/directory-kv.mts');
const { seedScale } = await import('../lib/scale-seed.mts');
const { forgetDecodedBlobs } = await import('../../src/lib/server/storage/summary-index/blob-cache.ts');
setStoreFactory((name) => new DirectoryKV(store.directory, store.siteID, name));
const seed = await seedScale(N, { parts: ['inbox'], log: () => {} });
setStoreFactory(null);
console.error(
  `seeded ${N.toLocaleString('en-US')} of each Inbox kind in ${(seed.totalMs / 1000).toFixed(0)} s`,
);
const { createUser } = await import('../../src/lib/server/auth/users.ts');
const { createSessionCookie } = await import('../../src/lib/server/auth/session.ts');
const admin = await createUser({
  username: 'cold-admin',
  email: 'cold-admin@example.org',
  password: 'cold-admin-password',
  role: 'admin',
});
const cookie = (await createSessionCookie(admin)).split(';')[0]!;
const server = await serveFunctions([await import('../../netlify/functions/admin-inbox.mts')]);
const timed = async (path: string) => {
  const t = performance.now();
  const res = await fetch(`${server.url}${path}`, {
    headers: { cookie, origin: server.url, 'sec-fetch-site': 'same-origin' },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  const { total } = (await res.json()) as { total: number };
  return { ms: performance.now() - t, total };
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${Math.round(x)} ms`;
try {
  // The seed's garbage collected first, when node runs with --expose-gc.
  (globalThis as { gc?: () => void }).gc?.();
  for (const path of PATHS) {
    await timed(path);
    const cold: number[] = [];
    const warm: number[] = [];
    let total = 0;
    for (let i = 0; i < RUNS; i++) {
      forgetDecodedBlobs();
      const c = await timed(path);
      cold.push(c.ms);
      total = c.total;
      warm.push((await timed(path)).ms);
    }
    console.error(
      `${path} (total ${total.toLocaleString('en-US')}): cold median ${ms(median(cold))} ` +
        `[${cold.map(Math.round).join(', ')}]; warm median ${ms(median(warm))}`,
    );
  }
} finally {
  await server.close();
  await store.stop();
  console.log = log;
}
