import { getDeployStore, getStore, type Store } from '@netlify/blobs';
import { appSettings, isLocalMode } from './app-env.ts';
import { budgets } from './time-budgets.ts';

/**
 * The storage layer. Netlify Blobs is last-write-wins and eventually
 * consistent by default, so every access here is strongly consistent, new
 * records are created with onlyIfNew, and every read-modify-write uses
 * onlyIfMatch with the record's ETag (see docs/decisions/078-store-paths.md).
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
  /** Email newsletter subscribers (the blog's newsletter box). */
  'subscribers',
  /** Short-lived outcome records of refused browser form posts (form-post.ts). */
  'forms',
  'uploads',
  'auth',
  'ratelimit',
  'outbox',
  'meta',
  'audit',
  'donations',
  'rsvps',
  /** Staff CSV exports prepared in the background: jobs and their files (docs/decisions/101-exports-of-any-size.md). */
  'exports',
  /** Plans to vote and their reminder queue (src/lib/server/vote-plans/). */
  'vote-plans',
  /** Staff broadcasts, their queues, deliveries and pacing (src/lib/server/broadcasts/). */
  'broadcasts',
  /** Daily rollups of what supporters did, for the Overview (src/lib/server/overview/). */
  'overview',
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

/**
 * SHA-256 hex. node:crypto takes about as long to load as the rest of a public
 * read function together, and only key hashing and the local store use it, so
 * it is loaded on first use (docs/decisions/061-functions-that-start-fast.md).
 */
const sha256Hex = (text: string) =>
  process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex');

/** Personal data (emails, phones) never appears in a key: normalised, then hashed. */
export function hashed(personal: string): string {
  return sha256Hex(personal.trim().toLowerCase());
}

// ---------------------------------------------------------------------------
// Blobs implementation

/**
 * What the SDK sees instead of a 5xx/429/network failure. Not retryable for it
 * (see below), so it throws at once and the request answers 503.
 */
const GAVE_UP_STATUS = 424;

/**
 * The fetch the Blobs SDK uses. The SDK's own policy retries 429/5xx and
 * network errors five times, 5 s apart: a storm would then outlive the 10 s
 * function limit. Here one store call has one time budget (storeRequestMs in
 * time-budgets.ts) shared by its first attempt and at most one quick retry;
 * then the SDK is handed a non-retryable failure, so the endpoint answers a
 * clean 503 well inside the limit (SECURITY.md, "Storage that loses nothing").
 */
export const storeFetch: typeof fetch = async (input, init) => {
  const { storeRequestMs, storeRetryDelayMs } = budgets();
  const deadline = Date.now() + storeRequestMs;
  const attempt = (ms: number) => fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(ms) });
  const failed = (res: Response) => res.status === 429 || res.status >= 500;
  // A conditional write may have been applied before a 5xx or a dropped connection: sent
  // again it meets its own change (412), and a compare-and-set loop would apply the change
  // a second time on top of itself. So it is retried only after a 429 (refused before any
  // write); otherwise the SDK gets the non-retryable failure and the request answers 503
  // (docs/decisions/078-store-paths.md).
  const headers = new Headers(init?.headers);
  const conditional = headers.has('if-match') || headers.has('if-none-match');
  try {
    const first = await attempt(storeRequestMs);
    if (!failed(first)) return first;
    if (conditional && first.status !== 429) return new Response(null, { status: GAVE_UP_STATUS });
  } catch (err) {
    // A timeout has used the whole budget: no second wait.
    if ((err as Error).name === 'TimeoutError') return new Response(null, { status: GAVE_UP_STATUS });
    if (conditional) return new Response(null, { status: GAVE_UP_STATUS });
  }
  await new Promise((r) => setTimeout(r, storeRetryDelayMs));
  const left = deadline - Date.now();
  if (left > 0) {
    try {
      const second = await attempt(left);
      if (!failed(second)) return second;
    } catch {
      // fall through
    }
  }
  return new Response(null, { status: GAVE_UP_STATUS });
};

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

/**
 * The two ways BlobsKV uses Blobs (docs/decisions/078-store-paths.md):
 *
 * - `service`: Netlify's service, which applies onlyIfMatch / onlyIfNew
 *   atomically and returns an ETag with every read. Reads use getWithMetadata
 *   and every conditional write is the service's own. Production's path.
 * - `local-server`: the local Blobs server (`npm run dev`, most tests, the
 *   bench), whose conditional writes are not safe under concurrency: it checks,
 *   then writes, with awaits in between; its GET returns no ETag; and its ETag
 *   is a hash of the file's path and millisecond mtime, so two writes in one
 *   millisecond share an ETag and a stale onlyIfMatch passes. Locally every
 *   function runs in one process, so there writes to a key are queued one at a
 *   time and compare-and-set compares a hash of the content instead.
 *
 * The local path is taken only when BOTH hold: APP_ENV is development or test,
 * AND the SDK is pointed at a loopback address (a server on this machine).
 * Production (APP_ENV unset or production) always takes the service path, and so
 * does any process pointed at Netlify's endpoints whatever its APP_ENV (a
 * script run against a deployed site), because the local path's assumptions
 * (one process, one machine) cannot hold there. Tests force the service path
 * with `new BlobsKV(name, { path: 'service' })`; nothing can force the local one.
 */
export type BlobsPath = 'service' | 'local-server';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The edge URL the SDK will use, from the context it reads (NETLIFY_BLOBS_CONTEXT, base64 JSON). */
function blobsEdgeUrl(): string | undefined {
  const raw =
    (globalThis as { netlifyBlobsContext?: unknown }).netlifyBlobsContext ??
    process.env.NETLIFY_BLOBS_CONTEXT;
  if (typeof raw !== 'string' || raw === '') return undefined;
  try {
    const ctx = JSON.parse(Buffer.from(raw, 'base64').toString('utf8')) as {
      edgeURL?: unknown;
      uncachedEdgeURL?: unknown;
    };
    const url = ctx.uncachedEdgeURL ?? ctx.edgeURL;
    return typeof url === 'string' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The path for an environment: pure, so every combination is tested (tests/unit/store-path.test.ts). */
export function blobsPathFor(appEnv: string, edgeUrl: string | undefined): BlobsPath {
  if (appEnv !== 'development' && appEnv !== 'test') return 'service';
  if (!edgeUrl) return 'service';
  try {
    return LOOPBACK.has(new URL(edgeUrl).hostname) ? 'local-server' : 'service';
  } catch {
    return 'service';
  }
}

/** The path this process takes by default (APP_ENV and the SDK's configured endpoint). */
export function blobsPath(): BlobsPath {
  // APP_ENV production never looks further (isLocalMode() is false).
  return isLocalMode() ? blobsPathFor(appSettings().APP_ENV, blobsEdgeUrl()) : 'service';
}

// On globalThis: the dev server loads each function as its own module instance
// in one process, and the queue must be shared by all of them.
const QUEUES = Symbol.for('campaign.blobs.keyQueues');
const keyQueues = ((globalThis as Record<symbol, unknown>)[QUEUES] ??= new Map()) as Map<
  string,
  Promise<unknown>
>;
function serialized<T>(id: string, op: () => Promise<T>): Promise<T> {
  const previous = keyQueues.get(id) ?? Promise.resolve();
  const next = previous.then(op, op);
  const tail = next.catch(() => undefined);
  keyQueues.set(id, tail);
  void tail.then(() => {
    if (keyQueues.get(id) === tail) keyQueues.delete(id);
  });
  return next;
}

const contentTag = (text: string) => `"local-${sha256Hex(text)}"`;

export interface BlobsKVOptions {
  /** A store to use instead of the SDK's getStore (tests). */
  store?: Store;
  /** Only 'service' may be forced (tests of the production path); the local path is never forced. */
  path?: 'service';
}

export class BlobsKV implements KV {
  private readonly store: Store;
  private readonly name: string;
  /** Fixed at construction: the path cannot change under a store in use. */
  readonly path: BlobsPath;

  constructor(name: StoreName, options: BlobsKVOptions = {}) {
    const sdk = { consistency: 'strong' as const, fetch: storeFetch };
    this.name = name;
    this.path = options.path ?? blobsPath();
    this.store = options.store ?? (isDeployScoped() ? getDeployStore(name, sdk) : getStore(name, sdk));
  }

  private get local(): boolean {
    return this.path === 'local-server';
  }

  private write<T>(k: string, op: () => Promise<T>): Promise<T> {
    return guard(() => (this.local ? serialized(`${this.name}\u0000${k}`, op) : op()));
  }

  async get<T>(k: string): Promise<{ value: T; etag: string } | null> {
    return guard(async () => {
      if (this.local) {
        const text = await this.store.get(k, { type: 'text', consistency: 'strong' });
        return text === null ? null : { value: JSON.parse(text) as T, etag: contentTag(text) };
      }
      const res = await this.store.getWithMetadata(k, { type: 'json', consistency: 'strong' });
      if (!res) return null;
      // Without an ETag no safe update is possible: treat it as a store fault.
      if (!res.etag) throw new Error(`No ETag returned for ${k}`);
      return { value: res.data as T, etag: res.etag };
    });
  }

  async create(k: string, value: unknown): Promise<boolean> {
    return this.write(k, async () => writeSucceeded(await this.store.setJSON(k, value, { onlyIfNew: true })));
  }

  async replace(k: string, value: unknown, etag: string): Promise<string | null> {
    // An undefined onlyIfMatch would be an unconditional write: refuse it.
    if (!etag) throw new Error('replace() needs an ETag');
    return this.write(k, async () => {
      if (this.local) {
        const current = await this.store.get(k, { type: 'text', consistency: 'strong' });
        if (current === null || contentTag(current) !== etag) return null;
        const text = JSON.stringify(value);
        await this.store.set(k, text);
        return contentTag(text);
      }
      const res = await this.store.setJSON(k, value, { onlyIfMatch: etag });
      return writeSucceeded(res) ? res.etag! : null;
    });
  }

  async put(k: string, value: unknown): Promise<void> {
    await this.write(k, () => this.store.setJSON(k, value));
  }

  async putBytes(k: string, data: ArrayBuffer, metadata: Record<string, string>): Promise<boolean> {
    return this.write(k, async () =>
      writeSucceeded(await this.store.set(k, data, { metadata, onlyIfNew: true })),
    );
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
 * The outcome of a conditional write. A real precondition failure (412) is
 * `modified: false`. Any other failure comes back from the SDK as
 * `modified: true` with an empty etag (a known SDK trap): that is a store
 * fault, raised as such, never mistaken for "already exists" or "changed".
 */
function writeSucceeded(res: { modified: boolean; etag?: string }): boolean {
  if (!res.modified) return false;
  if (!res.etag)
    throw new StoreUnavailableError(new Error('Conditional write failed without a precondition answer'));
  return true;
}

// ---------------------------------------------------------------------------
// Atomic in-memory implementation, for race tests and benchmarks.

/** Changes a MemoryKV listing puts in place one by one; more are merged in one pass. */
const FEW_CHANGES = 64;

/** The first index of a sorted array whose key is at or after `k` (its length if none). */
function lowerBound(sorted: readonly string[], k: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class MemoryKV implements KV {
  private readonly data = new Map<
    string,
    { json: string; etag: string; bytes?: ArrayBuffer; metadata?: Record<string, string> }
  >();
  private seq = 0;
  /**
   * Every key in order (as a listing yields them), kept as keys come and go: the keys added since the
   * last listing and those deleted are folded in by the next one. A listing then reads its prefix's keys
   * only, not every key of the store sorted again (100,000 records, a listing a request).
   */
  private sorted: string[] = [];
  private added: string[] = [];
  private readonly deleted = new Set<string>();

  private nextEtag(): string {
    this.seq += 1;
    return `"m${this.seq}"`;
  }

  private set(
    k: string,
    entry: { json: string; etag: string; bytes?: ArrayBuffer; metadata?: Record<string, string> },
  ) {
    if (!this.data.has(k)) {
      if (this.deleted.has(k)) this.deleted.delete(k);
      else this.added.push(k);
    }
    this.data.set(k, entry);
  }

  /** The keys in order, the changes since the last listing folded in. */
  private inOrder(): string[] {
    const sorted = this.sorted;
    const added = this.added.filter((k) => this.data.has(k));
    if (this.deleted.size + added.length <= FEW_CHANGES) {
      // A few writes since the last listing (a request's): each put in its place.
      for (const k of this.deleted) {
        const i = lowerBound(sorted, k);
        if (sorted[i] === k) sorted.splice(i, 1);
      }
      for (const k of added) sorted.splice(lowerBound(sorted, k), 0, k);
    } else {
      // Many (a bulk write): one merge of the two sorted runs.
      const kept = this.deleted.size ? sorted.filter((k) => !this.deleted.has(k)) : sorted;
      added.sort();
      const merged: string[] = [];
      let i = 0;
      let j = 0;
      while (i < kept.length && j < added.length)
        merged.push(kept[i]! < added[j]! ? kept[i++]! : added[j++]!);
      while (i < kept.length) merged.push(kept[i++]!);
      while (j < added.length) merged.push(added[j++]!);
      this.sorted = merged;
    }
    this.added = [];
    this.deleted.clear();
    return this.sorted;
  }

  async get<T>(k: string): Promise<{ value: T; etag: string } | null> {
    await Promise.resolve();
    const e = this.data.get(k);
    return e ? { value: JSON.parse(e.json) as T, etag: e.etag } : null;
  }

  async create(k: string, value: unknown): Promise<boolean> {
    await Promise.resolve();
    if (this.data.has(k)) return false;
    this.set(k, { json: JSON.stringify(value), etag: this.nextEtag() });
    return true;
  }

  async replace(k: string, value: unknown, etag: string): Promise<string | null> {
    if (!etag) throw new Error('replace() needs an ETag');
    await Promise.resolve();
    const e = this.data.get(k);
    if (e?.etag !== etag) return null;
    const next = this.nextEtag();
    this.set(k, { json: JSON.stringify(value), etag: next });
    return next;
  }

  async put(k: string, value: unknown): Promise<void> {
    await Promise.resolve();
    this.set(k, { json: JSON.stringify(value), etag: this.nextEtag() });
  }

  async putBytes(k: string, data: ArrayBuffer, metadata: Record<string, string>): Promise<boolean> {
    await Promise.resolve();
    if (this.data.has(k)) return false;
    this.set(k, { json: 'null', etag: this.nextEtag(), bytes: data, metadata });
    return true;
  }

  async getBytes(k: string): Promise<{ data: ArrayBuffer; metadata: Record<string, unknown> } | null> {
    await Promise.resolve();
    const e = this.data.get(k);
    return e?.bytes ? { data: e.bytes, metadata: e.metadata ?? {} } : null;
  }

  async delete(k: string): Promise<void> {
    await Promise.resolve();
    if (this.data.delete(k)) this.deleted.add(k);
  }

  async *keys(prefix = ''): AsyncIterable<string[]> {
    await Promise.resolve();
    const sorted = this.inOrder();
    // The first key at or after the prefix, then every key that starts with it.
    const lo = lowerBound(sorted, prefix);
    let end = lo;
    while (end < sorted.length && sorted[end]!.startsWith(prefix)) end++;
    const all = sorted.slice(lo, end);
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

/**
 * A 409. Either someone else changed the record since the person loaded it
 * (they must reload and decide), or, `retryable`, a burst of writers kept one
 * shared document busy past the retry budget: the request changed nothing and
 * may simply be sent again (answered with Retry-After).
 */
export class ConflictError extends Error {
  readonly retryable: boolean;
  constructor(message = 'This record was changed by someone else. Reload and try again.', retryable = false) {
    super(message);
    this.name = 'ConflictError';
    this.retryable = retryable;
  }
}

/** Contention on a shared document outlasted the retry budget; nothing was written. */
export const BUSY_MESSAGE = 'Too many concurrent changes. Please try again.';

/**
 * Applies `change` to the current value under optimistic concurrency, retrying
 * when another writer got there first. `change` may throw (e.g. ConflictError
 * or an HttpError) to abort. Returns null when the key does not exist.
 */
export async function update<T>(
  store: KV,
  k: string,
  change: (current: T) => T | Promise<T>,
  budgetMs = budgets().casRetryMs,
): Promise<T | null> {
  const deadline = Date.now() + budgetMs;
  for (let i = 0; ; i++) {
    const cur = await store.get<T>(k);
    if (!cur) return null;
    const next = await change(cur.value);
    if (await store.replace(k, next, cur.etag)) return next;
    if (!(await backoff(i, deadline))) break;
  }
  throw new ConflictError(BUSY_MESSAGE, true);
}

/** Returned by an upsert `change` when nothing needs writing (e.g. an idempotent replay). */
export const UNCHANGED: unique symbol = Symbol('unchanged');

/**
 * Creates or updates a shared document (a counter, an index) under optimistic
 * concurrency. `change` may return UNCHANGED to skip the write; the current
 * value is then returned (null if there is none).
 */
export async function upsert<T>(
  store: KV,
  k: string,
  change: (current: T | null) => T | typeof UNCHANGED | Promise<T | typeof UNCHANGED>,
  budgetMs = budgets().casRetryMs,
): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let i = 0; ; i++) {
    const cur = await store.get<T>(k);
    const next = await change(cur ? cur.value : null);
    if (next === UNCHANGED) return cur ? cur.value : (null as T);
    const ok = cur ? await store.replace(k, next, cur.etag) : await store.create(k, next);
    if (ok) return next;
    if (!(await backoff(i, deadline))) break;
  }
  throw new ConflictError(BUSY_MESSAGE, true);
}

/** Jittered exponential backoff; false when the next wait would pass the deadline. */
async function backoff(attempt: number, deadline: number): Promise<boolean> {
  const ms = Math.min(150, 5 * 2 ** attempt) * (0.5 + Math.random());
  if (Date.now() + ms > deadline) return false;
  await new Promise((r) => setTimeout(r, ms));
  return true;
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

/**
 * Raises a collection's id counter to at least `atLeast` (after records were
 * created with fixed ids, e.g. by the seed), so nextId never hands them out again.
 */
export async function bumpCounter(counterName: string, atLeast: number): Promise<void> {
  const k = key('counter', counterName);
  const cur = await kv('meta').get<{ value: number }>(k);
  if (cur && cur.value.value >= atLeast) return;
  await upsert<{ value: number }>(kv('meta'), k, (c) => ({ value: Math.max(c?.value ?? 0, atLeast) }));
}

/** True only for a BlobsKV on the local-server path: there work on a key may wait its turn in-process. */
export function queuesLocally(store: KV): boolean {
  return store instanceof BlobsKV && store.path === 'local-server';
}

/** Maps with at most `limit` calls in flight, keeping the order (bounded parallel store reads). */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (t: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
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
