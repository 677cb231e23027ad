import { setEnvironmentContext } from '@netlify/blobs';
import { BlobsServer } from '../dev/blobs-listing.mts';
import { randomBytes } from 'node:crypto';
import { env } from 'node:process';

/**
 * Points the Blobs SDK at a store for a command-line script:
 * - `--local`: the dev server's emulated store under .netlify/blobs-serve (site id "0"),
 *   served by a temporary local Blobs server (stop `npm run dev` first);
 * - otherwise a deployed site: NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN (a personal access token).
 * BLOBS_EDGE_URL overrides the endpoint (tests against a local Blobs server).
 */
export async function connectBlobs(local: boolean): Promise<() => Promise<void>> {
  if (local) {
    const token = randomBytes(16).toString('hex');
    const server = new BlobsServer({ directory: '.netlify/blobs-serve', token, logger: () => {} });
    const { port } = await server.start();
    const url = `http://127.0.0.1:${port}`;
    setEnvironmentContext({ siteID: '0', token, edgeURL: url, uncachedEdgeURL: url });
    return () => server.stop();
  }
  const siteID = env.NETLIFY_SITE_ID;
  const token = env.NETLIFY_AUTH_TOKEN;
  if (!siteID || !token) {
    console.error(
      "Set NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN (a personal access token) to reach the site's Blobs, or pass --local.",
    );
    process.exit(2);
  }
  const edgeURL = env.BLOBS_EDGE_URL;
  setEnvironmentContext(edgeURL ? { siteID, token, edgeURL, uncachedEdgeURL: edgeURL } : { siteID, token });
  return async () => {};
}
