/**
 * npm run seed: writes the local demo content and the dev accounts (README)
 * into the dev server's Blobs store (.netlify/blobs-serve, or SEED_DIR), for
 * the site id the server reads (SEED_SITE_ID: astro dev's "0" by default;
 * `netlify serve` of an unlinked site reads "unlinked", npm run bench).
 * `npm run dev` runs it first (predev); the browser-test setup runs it on its
 * fresh store. Idempotent; only ever opens a local directory, never a site.
 * Ends by rebuilding every index (npm run reindex), so the seeded store never
 * starts in the repair path.
 *
 * `npm run seed -- --scale N` also writes a campaign-sized store through the
 * repositories (scripts/lib/scale-seed.mts; the Inbox lists by their bulk path,
 * straight into the local store's directory) and prints what it wrote and how
 * long it took. Not idempotent: each run adds another N contact messages and
 * audit entries (volunteers, sign-ups and subscribers are keyed by person).
 */
import { withLocalBlobs } from './lib/local-blobs.mts';

const args = process.argv.slice(2);
const at = args.indexOf('--scale');
const scale = at >= 0 ? Number(args[at + 1]) : null;
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? (args[onlyAt + 1] ?? '').split(',') : null;
const usage = (parts: readonly string[]) => {
  console.error(
    `Usage: npm run seed -- --scale N [--only ${parts.join(',')}] (N a whole number, e.g. 1000; --only: some parts)`,
  );
  process.exit(2);
};
if ((scale !== null && !(Number.isSafeInteger(scale) && scale > 0)) || (only !== null && scale === null))
  usage(['inbox', '...']);

await withLocalBlobs(async ({ directory, siteID }) => {
  const { seedLocalStore } = await import('./lib/seed.mts');
  const outcome = await seedLocalStore();
  if (scale !== null) {
    const { SCALE_PARTS, seedScale } = await import('./lib/scale-seed.mts');
    const isPart = (p: string): p is (typeof SCALE_PARTS)[number] =>
      (SCALE_PARTS as readonly string[]).includes(p);
    const parts = only?.filter(isPart) ?? SCALE_PARTS;
    if (only && parts.length !== only.length) usage(SCALE_PARTS);
    const { BlobsKV } = await import('../src/lib/server/storage/blobs-kv.ts');
    const { setStoreFactory } = await import('../src/lib/server/storage/stores.ts');
    const { DirectoryKV, INBOX_STORES } = await import('./lib/directory-kv.mts');
    // The Inbox stores are written straight into the local server's directory (many times faster than its
    // HTTP API; docs/decisions/168-benchmarks-and-scale.md); every other store through the server.
    setStoreFactory((name) =>
      INBOX_STORES.has(name) ? new DirectoryKV(directory, siteID, name) : new BlobsKV(name),
    );
    console.log(`seed --scale ${scale}:`);
    const report = await seedScale(scale, { parts });
    setStoreFactory(null);
    const wrote = Object.entries(report.wrote)
      .map(([what, n]) => `${n} ${what}`)
      .join(', ');
    console.log(`seed --scale ${scale}: wrote ${wrote} in ${(report.totalMs / 1000).toFixed(1)} s`);
  }
  const { reindexAll } = await import('./lib/reindex.mts');
  // The Inbox lists' indexes are checked (rebuilt only when missing, damaged or outdated): a rebuild reads every
  // record, minutes at 100,000, and this runs before every npm run dev.
  await reindexAll({ inbox: scale === null ? 'check' : 'skip' });
  console.log(`seed: ${outcome}, indexes rebuilt (${directory}, site ${siteID})`);
});
