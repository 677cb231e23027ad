import { createHash } from 'node:crypto';
import { getDeployStore, getStore, type Store } from '@netlify/blobs';

/**
 * The storage layer. Netlify Blobs is last-write-wins and eventually
 * consistent by default, so every access here is strongly consistent, new
 * records are created with onlyIfNew, and every read-modify-write uses
 * onlyIfMatch with the record's ETag (see docs/decisions.md, "Storage").
 *
 * Repositories talk to the small KV interface below, not to Blobs directly, so
 * race logic can also be tested against an atomic in-memory store (the local
 * Blobs server's conditional writes are not atomic).
 */
export interface KV {
  /** Reads a JSON value with its ETag (strong consistency). */
  get<T = unknown>(key: string): Promise<{ value: T; etag: string } | null>;
  /** Creates only if the key is new. Returns false when it already existed. */
  create(key: string, value: unknown): Promise<boolean>;
  /** Replaces only if the ETag still matches. Returns the new ETag, or null on a conflict. */
  replace(key: string, value: unknown, etag: string): Promise<string | null>;
  /** Unconditional write: only for keys no one else writes (unique ids, own counters). */
  put(key: string, value: unknown): Promise<void>;
  putBytes(key: string, data: ArrayBuffer, metadata: Record<string, string>): Promise<boolean>;
  getBytes(key: string): Promise<{ data: ArrayBuffer; metadata: Record<string, unknown> } | null>;
  delete(key: string): Promise<void>;
  /** Every key under a prefix, page by page (the SDK pages at 1000). */
  keys(prefix?: string): AsyncIterable<string[]>;
}

/** The store is down, slow or refusing: answered as 503, never as a success. */
export class StoreUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('Storage is temporarily unavailable', { cause });
    this.name = 'StoreUnavailableError';
  }
}

export const STORE_NAMES = [
  'articles',
  'events',
  'social',
  'users',
  'progress',
  'signups',
  'volunteers',
  'contacts',
  'uploads',
  'auth',
  'ratelimit',
  'outbox',
  'meta',
] as const;
export type StoreName = (typeof STORE_NAMES)[number];

const MAX_KEY_BYTES = 600;

/**
 * The one way keys are built: parts joined by '/', each part restricted to a
 * safe alphabet, no leading '/', at most 600 bytes.
 */
export function key(...parts: (string | number)[]): string {
  const k = parts
    .map((p) => {
      const s = String(p);
      if (!/^[A-Za-z0-9._@:+-]+$/.test(s) || s === '.' || s === '..') {
        throw new Error(`Unsafe key part: ${JSON.stringify(s)}`);
      }
      return s;
    })
    .join('/');
  if (Buffer.byteLength(k) > MAX_KEY_BYTES) throw new Error('Key too long');
  return k;
}

/** Personal data (emails, phones) never appears in a key: normalised, then hashed. */
export function hashed(personal: string): string {
  return createHash('sha256').update(personal.trim().toLowerCase()).digest('hex');
}

// ---------------------------------------------------------------------------
// Blobs implementation

/** Each store request gets this long before it counts as a failure (function limit is 10 s). */
const REQUEST_TIMEOUT_MS = 4000;

const timedFetch: typeof fetch = (input, init) =>
  fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS) });

function isDeployScoped(): boolean {
  const ctx =
    (globalThis as { Netlify?: { context?: { deploy?: { context?: string } } } }).Netlify?.context?.deploy
      ?.context ?? process.env.CONTEXT;
  return ctx === 'deploy-preview' || ctx === 'branch-deploy';
}

async function guard<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    throw err instanceof StoreUnavailableError ? err : new StoreUnavailableError(err);
  }
}

export class BlobsKV implements KV {
  private readonly store: Store;

  constructor(name: StoreName, store?: Store) {
    const options = { consistency: 'strong' as const, fetch: timedFetch };
    this.store = store ?? (isDeployScoped() ? getDeployStore(name, options) : getStore(name, options));
  }

  async get<T>(k: string): Promise<{ value: T; etag: string } | null> {
    return guard(async () => {
      const res = await this.store.getWithMetadata(k, { type: 'json', consistency: 'strong' });
      if (!res) return null;
      if (res.etag) return { value: res.data as T, etag: res.etag };
      // The local Blobs server sends no ETag on GET: take it from a listing
      // first, then read the data. A write in between makes our later
      // onlyIfMatch fail, which is the safe direction.
      const etag = await this.etagFromListing(k);
      if (!etag) return null;
      const data = (await this.store.get(k, { type: 'json', consistency: 'strong' })) as T | null;
      return data === null ? null : { value: data, etag };
    });
  }

  private async etagFromListing(k: string): Promise<string | undefined> {
    const { blobs } = await this.store.list({ prefix: k });
    return blobs.find((b) => b.key === k)?.etag;
  }

  async create(k: string, value: unknown): Promise<boolean> {
    return guard(async () => {
      const res = await this.store.setJSON(k, value, { onlyIfNew: true });
      return writeSucceeded(res);
    });
  }

  async replace(k: string, value: unknown, etag: string): Promise<string | null> {
    // An undefined onlyIfMatch would be an unconditional write: refuse it.
    if (!etag) throw new Error('replace() needs an ETag');
    return guard(async () => {
      const res = await this.store.setJSON(k, value, { onlyIfMatch: etag });
      return writeSucceeded(res) ? res.etag! : null;
    });
  }

  async put(k: string, value: unknown): Promise<void> {
    await guard(() => this.store.setJSON(k, value));
  }

  async putBytes(k: string, data: ArrayBuffer, metadata: Record<string, string>): Promise<boolean> {
    return guard(async () => writeSucceeded(await this.store.set(k, data, { metadata, onlyIfNew: true })));
  }

  async getBytes(k: string): Promise<{ data: ArrayBuffer; metadata: Record<string, unknown> } | null> {
    return guard(async () => {
      const res = await this.store.getWithMetadata(k, { type: 'arrayBuffer', consistency: 'strong' });
      return res ? { data: res.data, metadata: res.metadata } : null;
    });
  }

  async delete(k: string): Promise<void> {
    await guard(() => this.store.delete(k));
  }

  async *keys(prefix?: string): AsyncIterable<string[]> {
    const pages = this.store.list({ prefix, paginate: true });
    try {
      for await (const page of pages) yield page.blobs.map((b) => b.key);
    } catch (err) {
      throw new StoreUnavailableError(err);
    }
  }
}

/**
 * A conditional write that failed with something other than 412 can report
 * `modified: true` with an empty etag (a known SDK trap): that is a failure.
 */
function writeSucceeded(res: { modified: boolean; etag?: string }): boolean {
  return res.modified && typeof res.etag === 'string' && res.etag.length > 0;
}

// ---------------------------------------------------------------------------
// Atomic in-memory implementation, for race tests and benchmarks.

export class MemoryKV implements KV {
  private readonly data = new Map<
    string,
    { json: string; etag: string; bytes?: ArrayBuffer; metadata?: Record<string, string> }
  >();
  private seq = 0;

  private nextEtag(): string {
    this.seq += 1;
    return `"m${this.seq}"`;
  }

  async get<T>(k: string): Promise<{ value: T; etag: string } | null> {
    await Promise.resolve();
    const e = this.data.get(k);
    return e ? { value: JSON.parse(e.json) as T, etag: e.etag } : null;
  }

  async create(k: string, value: unknown): Promise<boolean> {
    await Promise.resolve();
    if (this.data.has(k)) return false;
    this.data.set(k, { json: JSON.stringify(value), etag: this.nextEtag() });
    return true;
  }

  async replace(k: string, value: unknown, etag: string): Promise<string | null> {
    if (!etag) throw new Error('replace() needs an ETag');
    await Promise.resolve();
    const e = this.data.get(k);
    if (e?.etag !== etag) return null;
    const next = this.nextEtag();
    this.data.set(k, { json: JSON.stringify(value), etag: next });
    return next;
  }

  async put(k: string, value: unknown): Promise<void> {
    await Promise.resolve();
    this.data.set(k, { json: JSON.stringify(value), etag: this.nextEtag() });
  }

  async putBytes(k: string, data: ArrayBuffer, metadata: Record<string, string>): Promise<boolean> {
    await Promise.resolve();
    if (this.data.has(k)) return false;
    this.data.set(k, { json: 'null', etag: this.nextEtag(), bytes: data, metadata });
    return true;
  }

  async getBytes(k: string): Promise<{ data: ArrayBuffer; metadata: Record<string, unknown> } | null> {
    await Promise.resolve();
    const e = this.data.get(k);
    return e?.bytes ? { data: e.bytes, metadata: e.metadata ?? {} } : null;
  }

  async delete(k: string): Promise<void> {
    await Promise.resolve();
    this.data.delete(k);
  }

  async *keys(prefix = ''): AsyncIterable<string[]> {
    await Promise.resolve();
    const all = [...this.data.keys()].filter((k) => k.startsWith(prefix)).sort();
    for (let i = 0; i < all.length; i += 1000) yield all.slice(i, i + 1000);
    if (all.length === 0) yield [];
  }
}

// ---------------------------------------------------------------------------
// Store access. Handlers call kv(name); tests may swap the factory.

type Factory = (name: StoreName) => KV;
let factory: Factory = (name) => new BlobsKV(name);
const memo = new Map<StoreName, KV>();

export function kv(name: StoreName): KV {
  let s = memo.get(name);
  if (!s) {
    s = factory(name);
    memo.set(name, s);
  }
  return s;
}

/** Test and benchmark hook: use another KV implementation (e.g. MemoryKV). */
export function setStoreFactory(next: Factory | null): void {
  factory = next ?? ((name) => new BlobsKV(name));
  memo.clear();
}

// ---------------------------------------------------------------------------
// Read-modify-write helpers

export class ConflictError extends Error {
  constructor(message = 'This record was changed by someone else. Reload and try again.') {
    super(message);
    this.name = 'ConflictError';
  }
}

/**
 * Applies `change` to the current value under optimistic concurrency, retrying
 * when another writer got there first. `change` may throw (e.g. ConflictError
 * or an HttpError) to abort. Returns null when the key does not exist.
 */
export async function update<T>(
  store: KV,
  k: string,
  change: (current: T) => T | Promise<T>,
  attempts = 8,
): Promise<T | null> {
  for (let i = 0; i < attempts; i++) {
    const cur = await store.get<T>(k);
    if (!cur) return null;
    const next = await change(cur.value);
    if (await store.replace(k, next, cur.etag)) return next;
    await backoff(i);
  }
  throw new ConflictError('Too many concurrent changes. Please try again.');
}

/** Creates or updates a document (such as an index) under optimistic concurrency. */
export async function upsert<T>(
  store: KV,
  k: string,
  change: (current: T | null) => T,
  attempts = 10,
): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const cur = await store.get<T>(k);
    const next = change(cur ? cur.value : null);
    const ok = cur ? await store.replace(k, next, cur.etag) : await store.create(k, next);
    if (ok) return next;
    await backoff(i);
  }
  throw new ConflictError('Too many concurrent changes. Please try again.');
}

function backoff(attempt: number): Promise<void> {
  const ms = Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random());
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Allocates the next numeric id for a collection. The counter is a
 * compare-and-set document; the record itself is then created with onlyIfNew,
 * so even a non-atomic counter cannot make two records share an id.
 */
export async function nextId(counterName: string): Promise<number> {
  const n = await upsert<{ value: number }>(kv('meta'), key('counter', counterName), (cur) => ({
    value: (cur?.value ?? 0) + 1,
  }));
  return n.value;
}

/** Reads every JSON value under a prefix. O(n) reads: for rebuilds and exports, not hot paths. */
export async function readAll<T>(store: KV, prefix: string): Promise<T[]> {
  const out: T[] = [];
  for await (const page of store.keys(prefix)) {
    const values = await Promise.all(page.map((k) => store.get<T>(k)));
    for (const v of values) if (v) out.push(v.value);
  }
  return out;
}
