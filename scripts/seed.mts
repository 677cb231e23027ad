/**
 * npm run seed: writes the local demo content and the dev accounts (README)
 * into the dev server's Blobs store (.netlify/blobs-serve, or SEED_DIR), for
 * the site id the server reads (SEED_SITE_ID: astro dev's "0" by default;
 * `netlify serve` of an unlinked site reads "unlinked", npm run bench).
 * `npm run dev` runs it first (predev); the browser-test setup runs it on its
 * fresh store. Idempotent; only ever opens a local directory, never a site.
 */
import { setEnvironmentContext } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

process.env.APP_ENV ??= 'development';
const directory = resolve(process.env.SEED_DIR ?? '.netlify/blobs-serve');

const token = randomBytes(16).toString('hex');
const server = new BlobsServer({ directory, token, logger: () => {} });
const { port } = await server.start();
const url = `http://127.0.0.1:${port}`;
// Site "0": the id astro dev's Netlify emulation gives an unlinked site.
const siteID = process.env.SEED_SITE_ID ?? '0';
setEnvironmentContext({ siteID, token, edgeURL: url, uncachedEdgeURL: url });
try {
  const { seedLocalStore } = await import('./lib/seed.mts');
  const outcome = await seedLocalStore();
  console.log(`seed: ${outcome} (${directory}, site ${siteID})`);
} finally {
  await server.stop();
}
