import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';

/**
 * The atomic in-memory store with a network's worth of delay on every call (a random 1..`maxMs` ms
 * before and after the atomic step), so concurrent requests interleave at every store call as they do
 * against Netlify, not only where a request is short (docs/decisions/153-storage.md).
 */
export class LatencyKV implements KV {
  readonly inner: KV;
  private readonly maxMs: number;
  constructor(inner: KV = new MemoryKV(), maxMs = 6) {
    this.inner = inner;
    this.maxMs = maxMs;
  }
  private async delayed<T>(op: () => Promise<T>): Promise<T> {
    const pause = () => new Promise((r) => setTimeout(r, 1 + Math.random() * (this.maxMs - 1)));
    await pause();
    const out = await op();
    await pause();
    return out;
  }
  get<T>(k: string) {
    return this.delayed(() => this.inner.get<T>(k));
  }
  create(k: string, v: unknown) {
    return this.delayed(() => this.inner.create(k, v));
  }
  replace(k: string, v: unknown, etag: string) {
    return this.delayed(() => this.inner.replace(k, v, etag));
  }
  put(k: string, v: unknown) {
    return this.delayed(() => this.inner.put(k, v));
  }
  putBytes(k: string, d: ArrayBuffer, m: Record<string, string>) {
    return this.delayed(() => this.inner.putBytes(k, d, m));
  }
  getBytes(k: string) {
    return this.delayed(() => this.inner.getBytes(k));
  }
  delete(k: string) {
    return this.delayed(() => this.inner.delete(k));
  }
  async *keys(prefix?: string): AsyncIterable<string[]> {
    for await (const page of this.inner.keys(prefix)) {
      await new Promise((r) => setTimeout(r, 1 + Math.random() * (this.maxMs - 1)));
      yield page;
    }
  }
}

/** Points every store at its own atomic in-memory store with latency; `setStoreFactory(null)` goes back. */
export function useLatencyStores(maxMs = 6): Map<StoreName, LatencyKV> {
  const stores = new Map<StoreName, LatencyKV>();
  setStoreFactory((name) => {
    let s = stores.get(name);
    if (!s) stores.set(name, (s = new LatencyKV(new MemoryKV(), maxMs)));
    return s;
  });
  return stores;
}
