/**
 * npm run reindex: rebuilds every index and view (articles, events, social
 * links, metrics, goals, milestones) from the records in the local store
 * (.netlify/blobs-serve, or SEED_DIR; site SEED_SITE_ID, "0" by default), per
 * docs/decisions/089-article-summaries-and-self-repairing-indexes.md.
 */
import { withLocalBlobs } from './lib/local-blobs.mts';

await withLocalBlobs(async ({ directory, siteID }) => {
  const started = performance.now();
  const { reindexAll } = await import('./lib/reindex.mts');
  const counts = await reindexAll();
  const what = Object.entries(counts)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
  console.log(
    `reindex: ${what} (${Math.round(performance.now() - started)} ms; ${directory}, site ${siteID})`,
  );
});
