import type { KV } from './kv.ts';

/** The atomic in-memory KV adapter (kv.ts), for race tests and benchmarks. */

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
