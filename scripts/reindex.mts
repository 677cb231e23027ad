/**
 * npm run reindex: rebuilds every index and view (articles, events, social
 * links, metrics, goals, milestones, the Inbox lists' summary indexes) from the
 * records in the local store (.netlify/blobs-serve, or SEED_DIR; site
 * SEED_SITE_ID, "0" by default), per
 * docs/decisions/153-storage.md and
 * docs/decisions/155-inbox-and-staff-lists.md.
 */
import { withLocalBlobs } from './lib/local-blobs.mts';

await withLocalBlobs(async ({ directory, siteID }) => {
  const started = performance.now();
  const { BlobsKV } = await import('../src/lib/server/storage/blobs-kv.ts');
  const { setStoreFactory } = await import('../src/lib/server/storage/stores.ts');
  const { DirectoryKV, INBOX_STORES } = await import('./lib/directory-kv.mts');
  // The Inbox lists' records are read straight from the local store's directory: a rebuild reads every record,
  // and the local server's HTTP API manages a few hundred a second (docs/decisions/168-benchmarks-and-scale.md).
  setStoreFactory((name) =>
    INBOX_STORES.has(name) ? new DirectoryKV(directory, siteID, name) : new BlobsKV(name),
  );
  const { reindexAll } = await import('./lib/reindex.mts');
  const counts = await reindexAll();
  const what = Object.entries(counts)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
  console.log(
    `reindex: ${what} (${Math.round(performance.now() - started)} ms; ${directory}, site ${siteID})`,
  );
});
