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
 * repositories (scripts/lib/scale-seed.mts) and prints what it wrote and how
 * long it took. Not idempotent: each run adds another N contact messages and
 * audit entries (volunteers, sign-ups and subscribers are keyed by person).
 */
import { withLocalBlobs } from './lib/local-blobs.mts';

const args = process.argv.slice(2);
const at = args.indexOf('--scale');
const scale = at >= 0 ? Number(args[at + 1]) : null;
if (scale !== null && !(Number.isSafeInteger(scale) && scale > 0)) {
  console.error('Usage: npm run seed -- --scale N (N a whole number, e.g. 1000)');
  process.exit(2);
}

await withLocalBlobs(async ({ directory, siteID }) => {
  const { seedLocalStore } = await import('./lib/seed.mts');
  const outcome = await seedLocalStore();
  if (scale !== null) {
    const { seedScale } = await import('./lib/scale-seed.mts');
    console.log(`seed --scale ${scale}:`);
    const report = await seedScale(scale);
    const wrote = Object.entries(report.wrote)
      .map(([what, n]) => `${n} ${what}`)
      .join(', ');
    console.log(`seed --scale ${scale}: wrote ${wrote} in ${(report.totalMs / 1000).toFixed(1)} s`);
  }
  const { reindexAll } = await import('./lib/reindex.mts');
  await reindexAll();
  console.log(`seed: ${outcome}, indexes rebuilt (${directory}, site ${siteID})`);
});
