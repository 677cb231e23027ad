import { execFileSync } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { pathToFileURL } from 'node:url';
import { completeDevBlobListings, devServerModule } from '../../scripts/dev/blobs-listing.mts';

/* docs/decisions/164-dev-server-and-local-mode.md; the listing itself: tests/api/local-blobs-listing.test.ts. */

describe('complete local Blobs listings', () => {
  it("astro dev's own copy of the local Blobs server is patched when the dev server starts", async () => {
    const warn = vi.fn();
    const plugin = completeDevBlobListings();
    const configure = plugin.configureServer as (server: unknown) => Promise<void>;
    await configure({ config: { logger: { warn }, root: process.cwd() } });
    expect(warn).not.toHaveBeenCalled();
    // The copy @astrojs/netlify -> @netlify/vite-plugin -> @netlify/dev resolves and starts.
    const file = devServerModule();
    expect(file).toMatch(/node_modules\/@netlify\/dev\/node_modules\/@netlify\/blobs\/dist\/server\.js$/);
    const { BlobsServer } = (await import(pathToFileURL(file!).href)) as {
      BlobsServer: Record<symbol, unknown>;
    };
    expect(BlobsServer[Symbol.for('campaign.completeListings')]).toBe(true);
  });

  it('every local server of the project is the patched one (imported from scripts/dev/blobs-listing.mts)', () => {
    const hits = execFileSync(
      'git',
      [
        'grep',
        '-l',
        '-e',
        "from '@netlify/blobs/server'",
        '--',
        'src',
        'scripts',
        'tests',
        'netlify',
        '*.mjs',
      ],
      { encoding: 'utf8' },
    )
      .split('\n')
      .filter((file) => file && file !== 'tests/unit/blobs-listing.test.ts');
    expect(hits).toEqual(['scripts/dev/blobs-listing.mts']);
  });
});
