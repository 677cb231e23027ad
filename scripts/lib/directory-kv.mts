import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { INBOX_INDEX } from '../../src/lib/server/inbox/summary-shapes.ts';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';

/** The stores of the Inbox lists (the ones the scale seed's bulk path writes this way). */
export const INBOX_STORES: ReadonlySet<StoreName> = new Set(Object.values(INBOX_INDEX).map((i) => i.store));

/**
 * Development only: a KV over the local Blobs server's own directory
 * (.netlify/blobs-serve, the layout @netlify/blobs/server reads: `entries/<site>/site:<store>/<key>`,
 * metadata beside it under `metadata/`), for the scale seed's bulk path
 * (docs/decisions/168-benchmarks-and-scale.md). The local server handles about 400 writes a second
 * here (one HTTP request and half a dozen file operations each); writing the same files directly is
 * many times faster, so `npm run seed -- --scale 100000` takes minutes, not hours. The records are
 * built by the repositories exactly as the public paths build them; only the transport differs, and
 * tests/api/scale-seed.test.ts reads what this wrote back through the real local server.
 *
 * Writes to one key take turns in this process (as BlobsKV's local path does); nothing else may
 * write the directory meanwhile (the seed runs before the dev server starts).
 */
export class DirectoryKV implements KV {
  private readonly root: string;
  private readonly meta: string;
  private static readonly queues = new Map<string, Promise<unknown>>();

  constructor(directory: string, siteID: string, store: StoreName) {
    this.root = join(directory, 'entries', siteID, `site:${store}`);
    this.meta = join(directory, 'metadata', siteID, `site:${store}`);
  }

  private path(k: string): string {
    if (k.startsWith('/') || k.split('/').some((p) => p === '' || p === '.' || p === '..'))
      throw new Error(`Unsafe key: ${k}`);
    return join(this.root, ...k.split('/'));
  }

  private turn<T>(k: string, op: () => Promise<T>): Promise<T> {
    const id = `${this.root}\u0000${k}`;
    const previous = DirectoryKV.queues.get(id) ?? Promise.resolve();
    const next = previous.then(op, op);
    const tail = next.catch(() => undefined);
    DirectoryKV.queues.set(id, tail);
    void tail.then(() => {
      if (DirectoryKV.queues.get(id) === tail) DirectoryKV.queues.delete(id);
    });
    return next;
  }

  private static tag(text: string): string {
    return `"dir-${createHash('sha256').update(text).digest('hex')}"`;
  }

  /** Writes a file whole (a temporary file renamed over it), or creates it only if new (linked in). */
  private async write(file: string, data: string | Uint8Array, onlyIfNew: boolean): Promise<boolean> {
    await mkdir(dirname(file), { recursive: true });
    const temp = join(dirname(file), `.${randomBytes(6).toString('hex')}`);
    await writeFile(temp, data);
    if (!onlyIfNew) {
      await rename(temp, file);
      return true;
    }
    try {
      await link(temp, file);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }

  private async read(file: string): Promise<string | null> {
    try {
      return await readFile(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR') return null;
      throw err;
    }
  }

  async get<T>(k: string): Promise<{ value: T; etag: string } | null> {
    const text = await this.read(this.path(k));
    return text === null ? null : { value: JSON.parse(text) as T, etag: DirectoryKV.tag(text) };
  }

  create(k: string, value: unknown): Promise<boolean> {
    return this.turn(k, () => this.write(this.path(k), JSON.stringify(value), true));
  }

  replace(k: string, value: unknown, etag: string): Promise<string | null> {
    if (!etag) throw new Error('replace() needs an ETag');
    return this.turn(k, async () => {
      const current = await this.read(this.path(k));
      if (current === null || DirectoryKV.tag(current) !== etag) return null;
      const text = JSON.stringify(value);
      await this.write(this.path(k), text, false);
      return DirectoryKV.tag(text);
    });
  }

  async put(k: string, value: unknown): Promise<void> {
    await this.turn(k, () => this.write(this.path(k), JSON.stringify(value), false));
  }

  putBytes(k: string, data: ArrayBuffer, metadata: Record<string, string>): Promise<boolean> {
    return this.turn(k, async () => {
      if (!(await this.write(this.path(k), new Uint8Array(data), true))) return false;
      await this.write(join(this.meta, ...k.split('/')), JSON.stringify(metadata), false);
      return true;
    });
  }

  async getBytes(k: string): Promise<{ data: ArrayBuffer; metadata: Record<string, unknown> } | null> {
    let data: Buffer;
    try {
      data = await readFile(this.path(k));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const meta = await this.read(join(this.meta, ...k.split('/')));
    return {
      data: new Uint8Array(data).buffer,
      metadata: meta ? (JSON.parse(meta) as Record<string, unknown>) : {},
    };
  }

  async delete(k: string): Promise<void> {
    await rm(this.path(k), { force: true });
    await rm(join(this.meta, ...k.split('/')), { force: true });
  }

  async *keys(prefix = ''): AsyncIterable<string[]> {
    const all: string[] = [];
    // Walk from the deepest directory the prefix names, as the server's listing does.
    const dirPart = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    const walk = async (dir: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      for (const e of entries) {
        if (e.name.startsWith('.')) continue;
        const full = join(dir, e.name);
        const k = relative(this.root, full).split(sep).join('/');
        if (e.isDirectory()) {
          if (prefix.startsWith(k) || k.startsWith(prefix)) await walk(full);
        } else if (k.startsWith(prefix)) all.push(k);
      }
    };
    await walk(dirPart ? join(this.root, ...dirPart.split('/')) : this.root);
    all.sort();
    if (all.length === 0) yield [];
    for (let i = 0; i < all.length; i += 1000) yield all.slice(i, i + 1000);
  }
}
