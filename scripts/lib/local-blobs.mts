import { setEnvironmentContext } from '@netlify/blobs';
import { BlobsServer } from '../dev/blobs-listing.mts';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

/**
 * Runs `work` against the dev server's local Blobs store (.netlify/blobs-serve,
 * or SEED_DIR) for the site id the server reads (SEED_SITE_ID: astro dev's "0"
 * by default). Only ever opens a local directory, never a site.
 */
export async function withLocalBlobs<T>(
  work: (where: { directory: string; siteID: string }) => Promise<T>,
): Promise<T> {
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
    return await work({ directory, siteID });
  } finally {
    await server.stop();
  }
}
