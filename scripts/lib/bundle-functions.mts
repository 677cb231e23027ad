/**
 * Bundles netlify/functions the way Netlify does at deploy time
 * (@netlify/zip-it-and-ship-it, the bundler netlify-cli and the build system
 * use, with this site's netlify.toml settings), unzipped into `outDir`. For the
 * test that no function carries development code, and for the bench's
 * function sizes and import times.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { zipFunctions } from '@netlify/zip-it-and-ship-it';
import { parse } from 'smol-toml';

export interface FunctionBundle {
  name: string;
  /** The unzipped bundle: what the platform loads. */
  dir: string;
  /** Its entry module (imported to start the function). */
  entry: string;
  /** Every file in it, relative to `dir`. */
  files: string[];
  bytes: number;
}

interface FunctionsToml {
  functions?: { node_bundler?: string; external_node_modules?: string[]; included_files?: string[] };
}

/** The site-wide [functions] settings of `root`'s netlify.toml, in zip-it-and-ship-it's terms. */
async function functionsConfig(root: string) {
  const toml = parse(await readFile(join(root, 'netlify.toml'), 'utf8')) as FunctionsToml;
  const f = toml.functions ?? {};
  return {
    nodeBundler: (f.node_bundler ?? 'esbuild') as 'esbuild',
    externalNodeModules: f.external_node_modules ?? [],
    includedFiles: f.included_files ?? [],
  };
}

export async function bundleFunctions(root: string, outDir: string): Promise<FunctionBundle[]> {
  const results = await zipFunctions([join(root, 'netlify', 'functions')], outDir, {
    archiveFormat: 'none',
    basePath: root,
    repositoryRoot: root,
    // netlify.toml [functions], as the build reads it.
    config: { '*': await functionsConfig(root) },
  });
  const bundles: FunctionBundle[] = [];
  for (const r of results) {
    const dir = r.path;
    const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
    let bytes = 0;
    for (const f of files) bytes += (await stat(join(dir, f))).size;
    bundles.push({
      name: r.name,
      dir,
      entry: join(dir, r.entryFilename ?? '___netlify-entry-point.mjs'),
      files,
      bytes,
    });
  }
  return bundles.sort((a, b) => a.name.localeCompare(b.name));
}
