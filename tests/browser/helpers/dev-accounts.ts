import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { BlobsServer } from '@netlify/blobs/server';
import { getStore, setEnvironmentContext } from '@netlify/blobs';

/*
 * The dev server seeds the documented dev accounts only with APP_ENV=development
 * (src/lib/server/seed.ts); the browser harness runs it with APP_ENV=test. So the
 * admin end-to-end tests create them themselves, in the dev server's own Blobs
 * directory (.netlify/blobs-serve), the way scripts/outbox.mts reads it: a second
 * local Blobs server on the same directory, with the demo content of seed.ts. Idempotent. It also clears the login
 * rate-limit counters, so repeated runs within 15 minutes cannot lock the accounts.
 */
export async function ensureDevAccounts(): Promise<void> {
  const directory = resolve('.netlify/blobs-serve');
  const existing = await readdir(join(directory, 'entries')).catch(() => [] as string[]);
  const sites = existing.length > 0 ? existing : ['0'];
  const token = randomBytes(16).toString('hex');
  const server = new BlobsServer({ directory, token, logger: () => undefined });
  const { port } = await server.start();
  const url = `http://127.0.0.1:${port}`;
  process.env.APP_ENV ??= 'test';
  process.env.SITE_URL ??= 'http://localhost:4321';
  try {
    const { resetEnv } = await import('../../../src/lib/server/env.ts');
    const { setStoreFactory } = await import('../../../src/lib/server/store.ts');
    const { seedDevUsers } = await import('../../../src/lib/server/auth/dev-users.ts');
    const { seedContent } = await import('../../../src/lib/server/seed.ts');
    resetEnv();
    setStoreFactory(null);
    for (const siteID of sites) {
      setEnvironmentContext({ siteID, token, edgeURL: url, uncachedEdgeURL: url, apiURL: url });
      await seedDevUsers();
      // The demo social links and progress figures, so their edit dialogs can be opened and checked.
      await seedContent();
      const limits = getStore({ name: 'ratelimit', consistency: 'strong' });
      for (const blob of (await limits.list()).blobs) await limits.delete(blob.key);
    }
  } finally {
    await server.stop();
  }
}
