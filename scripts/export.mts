/**
 * Backs up every Blobs store to plain files: `<out>/<store>/<key>.json` for JSON
 * records and `<key>` + `<key>.meta.json` for uploads.
 *
 *   npm run export -- --out backups/2025-10-01            (deployed site: NETLIFY_SITE_ID, NETLIFY_AUTH_TOKEN)
 *   npm run export -- --local --out backups/dev           (the dev server's store; stop npm run dev first)
 *   npm run export -- --restore --in backups/2025-10-01   (writes back only keys that do not exist: never overwrites)
 */
import { parseArgs } from 'node:util';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { getStore } from '@netlify/blobs';
import { STORE_NAMES } from '../src/lib/server/storage/kv.ts';
import { connectBlobs } from './lib/connect.mts';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    in: { type: 'string' },
    local: { type: 'boolean', default: false },
    restore: { type: 'boolean', default: false },
  },
});

async function exportAll(out: string): Promise<void> {
  let total = 0;
  for (const name of STORE_NAMES) {
    const store = getStore({ name, consistency: 'strong' });
    let count = 0;
    for await (const page of store.list({ paginate: true })) {
      for (const { key } of page.blobs) {
        const res = await store.getWithMetadata(key, { type: 'arrayBuffer' });
        if (!res) continue;
        const bytes = Buffer.from(res.data);
        const isUpload = name === 'uploads';
        const file = join(out, name, isUpload ? key : `${key}.json`);
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, bytes);
        if (Object.keys(res.metadata).length > 0)
          await writeFile(`${file}.meta.json`, JSON.stringify(res.metadata));
        count++;
      }
    }
    console.log(`${name}: ${count} entries`);
    total += count;
  }
  console.log(`Exported ${total} entries to ${out}`);
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

async function restoreAll(input: string): Promise<void> {
  let written = 0;
  let skipped = 0;
  for (const name of STORE_NAMES) {
    const store = getStore({ name, consistency: 'strong' });
    const root = join(input, name);
    for await (const file of walk(root)) {
      if (file.endsWith('.meta.json')) continue;
      const rel = relative(root, file);
      const key = name === 'uploads' ? rel : rel.replace(/\.json$/, '');
      const metadata = JSON.parse(await readFile(`${file}.meta.json`, 'utf8').catch(() => '{}')) as Record<
        string,
        unknown
      >;
      const data = await readFile(file);
      const res = await store.set(key, new Blob([data]), { onlyIfNew: true, metadata });
      if (res.modified) written++;
      else skipped++;
    }
  }
  console.log(`Restored ${written} entries (${skipped} already present and left as they are)`);
}

const disconnect = await connectBlobs(values.local);
try {
  if (values.restore) {
    if (!values.in) throw new Error('--restore needs --in <folder>');
    await restoreAll(values.in);
  } else {
    await exportAll(values.out ?? join('backups', new Date().toISOString().slice(0, 19).replace(/:/g, '-')));
  }
} finally {
  await disconnect();
}
