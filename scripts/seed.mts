/**
 * npm run seed: writes the local demo content and the dev accounts (README)
 * into the dev server's Blobs store (.netlify/blobs-serve, or SEED_DIR), for
 * the site id the server reads (SEED_SITE_ID: astro dev's "0" by default;
 * `netlify serve` of an unlinked site reads "unlinked", npm run bench).
 * `npm run dev` runs it first (predev); the browser-test setup runs it on its
 * fresh store. Idempotent; only ever opens a local directory, never a site.
 * Ends by rebuilding every index (npm run reindex), so the seeded store never
 * starts in the repair path.
 */
import { withLocalBlobs } from './lib/local-blobs.mts';

await withLocalBlobs(async ({ directory, siteID }) => {
  const { seedLocalStore } = await import('./lib/seed.mts');
  const outcome = await seedLocalStore();
  const { reindexAll } = await import('./lib/reindex.mts');
  await reindexAll();
  console.log(`seed: ${outcome}, indexes rebuilt (${directory}, site ${siteID})`);
});
