import { BlobsKV } from './blobs-kv.ts';
import type { KV, StoreName } from './kv.ts';

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
