import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { carouselVideos } from '../../content/home.ts';
import { IDENTITY, SHIPPED_PLACEHOLDERS } from '../../content/identity.ts';
import type { LaunchContent } from './launch-check.ts';

const IMAGE = /\.(jpe?g|png|webp|avif|gif|svg)$/i;

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await files(path)));
    else if (IMAGE.test(entry.name)) out.push(path);
  }
  return out.sort();
}

/**
 * The site's real content for the launch check (src/lib/server/launch-check.ts):
 * the identity module, the carousel's video ids and the sha256 of every image
 * under src/assets. Reads the source tree, so it runs at build time and in
 * scripts only (a deployed function has no src/assets).
 */
export async function readLaunchContent(root: string = process.cwd()): Promise<LaunchContent> {
  const assets = join(root, 'src', 'assets');
  const images = await Promise.all(
    (await files(assets)).map(async (path) => ({
      path: relative(root, path).split(sep).join('/'),
      sha256: createHash('sha256')
        .update(await readFile(path))
        .digest('hex'),
    })),
  );
  return {
    identity: IDENTITY,
    placeholders: SHIPPED_PLACEHOLDERS,
    videoIds: carouselVideos.map((v) => v.videoId),
    images,
  };
}
