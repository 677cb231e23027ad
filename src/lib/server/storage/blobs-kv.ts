import { getDeployStore, getStore, type Store } from '@netlify/blobs';
import { appSettings, isLocalMode } from '../app-env.ts';
import { budgets } from '../time-budgets.ts';
import { sha256Hex } from './keys.ts';
import { StoreUnavailableError, type KV, type StoreName } from './kv.ts';

/** The KV adapter on Netlify Blobs (kv.ts): the service in production, the local Blobs server in dev and tests. */

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
  // (docs/decisions/153-storage.md).
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
 * The two ways BlobsKV uses Blobs (docs/decisions/153-storage.md):
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

/** True only for a BlobsKV on the local-server path: there work on a key may wait its turn in-process. */
export function queuesLocally(store: KV): boolean {
  return store instanceof BlobsKV && store.path === 'local-server';
}
