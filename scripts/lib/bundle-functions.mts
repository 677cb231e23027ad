/**
 * Bundles netlify/functions the way Netlify does at deploy time
 * (@netlify/zip-it-and-ship-it, the bundler netlify-cli and the build system
 * use, with this site's netlify.toml settings), unzipped into `outDir`. For the
 * test that no function carries development code, and for the bench's
 * function sizes and import times. A v2 function (default export) is bundled
 * with esbuild through Node File Trace whatever node_bundler says: our own
 * source in one module, every npm package left external, its files copied
 * into the bundle's node_modules and loaded at run time.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { zipFunctions } from '@netlify/zip-it-and-ship-it';

export interface FunctionBundle {
  name: string;
  /** The unzipped bundle: what the platform loads. */
  dir: string;
  /** The platform's entry module (a Lambda bootstrap: it needs the AWS runtime to import). */
  entry: string;
  /** The function's own module, as bundled: what a cold start imports after the bootstrap. */
  module: string;
  /** Every file in it, relative to `dir`. */
  files: string[];
  bytes: number;
}

export async function bundleFunctions(root: string, outDir: string): Promise<FunctionBundle[]> {
  const results = await zipFunctions([join(root, 'netlify', 'functions')], outDir, {
    archiveFormat: 'none',
    basePath: root,
    repositoryRoot: root,
    // As netlify.toml [functions]: esbuild, argon2's native binary kept as a module.
    config: { '*': { nodeBundler: 'esbuild', externalNodeModules: ['argon2'] } },
  });
  const bundles: FunctionBundle[] = [];
  for (const r of results) {
    const dir = r.path;
    const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
    let bytes = 0;
    for (const f of files) bytes += (await stat(join(dir, f))).size;
    const own = files.find((f) => new RegExp(`^netlify[\\\\/]functions[\\\\/]${r.name}\\.m?js$`).test(f));
    if (!own) throw new Error(`No bundled module for function ${r.name} in ${dir}`);
    bundles.push({
      name: r.name,
      dir,
      entry: join(dir, r.entryFilename ?? '___netlify-entry-point.mjs'),
      module: join(dir, own),
      files,
      bytes,
    });
  }
  return bundles.sort((a, b) => a.name.localeCompare(b.name));
}
