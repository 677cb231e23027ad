/**
 * The storage engine's floor (docs/decisions/153-storage.md): the small KV interface every
 * repository talks to, the error a store fault becomes, and the stores there are. Netlify Blobs is
 * last-write-wins and eventually consistent by default, so every access is strongly consistent, new
 * records are created with onlyIfNew, and every read-modify-write uses onlyIfMatch with the record's
 * ETag (compare-and-set.ts).
 *
 * Repositories talk to this interface, not to Blobs directly, so race logic can also be tested
 * against an atomic in-memory store (memory-kv.ts; the local Blobs server's conditional writes are
 * not atomic). The adapters: blobs-kv.ts (production and the local server) and memory-kv.ts; which one
 * a store name gets: stores.ts.
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
  /** Staff CSV exports prepared in the background: jobs and their files (docs/decisions/156-exports.md). */
  'exports',
  /** Plans to vote and their reminder queue (src/lib/server/vote-plans/). */
  'vote-plans',
  /** Staff broadcasts, their queues, deliveries and pacing (src/lib/server/broadcasts/). */
  'broadcasts',
  /** Supporters as people across every form: records, lookup keys, timelines, the merge queue (src/lib/server/people/). */
  'people',
  /** Daily rollups of what supporters did, for the Overview (src/lib/server/overview/). */
  'overview',
] as const;
export type StoreName = (typeof STORE_NAMES)[number];
