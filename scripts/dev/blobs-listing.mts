import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BlobsServer } from '@netlify/blobs/server';
import type { Plugin } from 'vite';

/**
 * Complete listings from the local Blobs server (docs/decisions/164-dev-server-and-local-mode.md). Development
 * and tests only: production Blobs lists from the service, not from a directory.
 *
 * The local server (`@netlify/blobs/server`, also inside astro dev's Netlify emulation) writes a blob as a
 * temporary file `.<random>` beside it, then renames it into place. Its listing walks the directory: a
 * listing that runs during a write can name that temporary file as a blob, or, when the file is renamed
 * between the directory read and its stat, stop at the error and answer 200 with the keys found so far,
 * silently leaving out the rest. Staff working beside the audit trail's full verification made it report
 * "entry not listed" for an entry that was there (a CI run, 2026-11-28).
 *
 * `completeListings(BlobsServer)` replaces the server's walk with the same walk that skips the server's
 * temporary files and takes an entry that vanished between the directory read and its stat as a write in
 * progress (skipped, like the blob it becomes, which the listing could equally have missed by starting a
 * moment earlier), instead of ending the listing there.
 *
 * Every local server of the project's own (tests, seed, scripts, the bench) comes from here, patched: import
 * `BlobsServer` from this module, never from '@netlify/blobs/server' (tests/unit/blobs-listing.test.ts).
 */

interface Listed {
  etag: string;
  key: string;
  last_modified: string;
  size: number;
}
interface WalkOptions {
  directories: boolean;
  path: string;
  prefix: string;
  rootPath: string;
  result: { blobs?: Listed[]; directories?: string[] };
}
/** What the server class exposes (static methods), as of @netlify/blobs 10 and 11. */
export interface LocalBlobsServerClass {
  walk(options: WalkOptions): Promise<void>;
  generateETag(path: string): Promise<string>;
}

const PATCHED = Symbol.for('campaign.completeListings');

const vanished = (error: unknown) =>
  error instanceof Error && ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

export function completeListings(server: LocalBlobsServerClass): void {
  const target = server as LocalBlobsServerClass & { [PATCHED]?: true };
  if (target[PATCHED]) return;
  const etagOf = server.generateETag.bind(server);
  const walk = async (options: WalkOptions): Promise<void> => {
    const { directories, path, prefix, result, rootPath } = options;
    let entries: string[];
    try {
      entries = await readdir(path);
    } catch (error) {
      if (vanished(error) && path !== rootPath) return;
      throw error;
    }
    for (const entry of entries) {
      // The server's temporary file of a write in progress (a key never starts a segment with a dot here).
      if (entry.startsWith('.')) continue;
      const entryPath = join(path, entry);
      const key = relative(rootPath, entryPath).split(sep).join('/');
      if (!prefix.startsWith(key.slice(0, prefix.length))) continue;
      try {
        const info = await stat(entryPath);
        if (!info.isDirectory()) {
          const etag = await etagOf(entryPath);
          result.blobs?.push({ etag, key, last_modified: info.mtime.toISOString(), size: info.size });
          continue;
        }
      } catch (error) {
        if (vanished(error)) continue;
        throw error;
      }
      if (directories && key.startsWith(prefix)) {
        result.directories?.push(key);
        continue;
      }
      await walk({ ...options, path: entryPath });
    }
  };
  target.walk = walk;
  target[PATCHED] = true;
}

/** The folder of package `name` as Node resolves it from `dir` (node_modules upwards), or null. */
function packageDir(name: string, dir: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    const candidate = join(d, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(d) === d) return null;
  }
}

/**
 * The copy of `@netlify/blobs/server` astro dev's Netlify emulation starts (@astrojs/netlify, then
 * @netlify/vite-plugin, then @netlify/dev, each resolving its own dependency), or null when the chain no
 * longer resolves (a dependency update: the plugin then says so). Exported for its test.
 */
export function devServerModule(root = process.cwd()): string | null {
  let dir: string | null = root;
  for (const name of ['@astrojs/netlify', '@netlify/vite-plugin', '@netlify/dev', '@netlify/blobs']) {
    dir = packageDir(name, dir);
    if (!dir) return null;
  }
  return join(dir, 'dist', 'server.js');
}

/** Development only: astro dev's local Blobs answer complete listings (see completeListings). */
export function completeDevBlobListings(): Plugin {
  return {
    name: 'campaign-complete-blob-listings',
    async configureServer(server) {
      const file = devServerModule(server.config.root);
      try {
        if (!file) throw new Error('@netlify/dev no longer resolves from @astrojs/netlify');
        const { BlobsServer } = (await import(pathToFileURL(file).href)) as {
          BlobsServer: LocalBlobsServerClass;
        };
        completeListings(BlobsServer);
      } catch (error) {
        server.config.logger.warn(
          `[blobs] local listings may miss keys during writes (scripts/dev/blobs-listing.mts): ${String(error)}`,
        );
      }
    },
  };
}

completeListings(BlobsServer as unknown as LocalBlobsServerClass);
/** `@netlify/blobs/server`'s BlobsServer, its listings complete (see completeListings). */
export { BlobsServer };
