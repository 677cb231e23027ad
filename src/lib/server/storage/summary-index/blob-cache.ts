import type { StoreName } from '../kv.ts';
import { mapLimit } from '../map-limit.ts';
import { kv } from '../stores.ts';
import { decodeBundle } from './bundle.ts';
import { ChunkText, Damaged } from './chunk-text.ts';
import { Chunk, unpack } from './encoding.ts';
import type { Segment } from './segments.ts';
import {
  CONCURRENCY,
  Moved,
  type BundleRef,
  type ChunkRef,
  type SummaryRecord,
  type SummarySpec,
} from './spec.ts';

/**
 * Chunks and counts are written once under a key never reused (a new base gets new keys), so a warm
 * function instance may keep what it decoded: a second search, or the next page, reads the manifest and the
 * segments, not the chunks again. Bounded by rows held (about 100 MB at the bound), least recently used first out.
 */
export const BLOB_CACHE_ROWS = 250_000;
const decoded = new Map<string, { rows: number; value: unknown }>();
let decodedRows = 0;

async function cachedBlob<T>(
  store: StoreName,
  k: string,
  decode: (data: ArrayBuffer) => { value: T; rows: number },
): Promise<T> {
  const id = `${store}\u0000${k}`;
  const hit = decoded.get(id);
  if (hit) {
    decoded.delete(id);
    decoded.set(id, hit);
    return hit.value as T;
  }
  const blob = await kv(store).getBytes(k);
  if (!blob) throw new Moved(k);
  const { value, rows } = decode(blob.data);
  decoded.set(id, { value, rows });
  decodedRows += rows;
  for (const [old, e] of decoded) {
    if (decodedRows <= BLOB_CACHE_ROWS) break;
    decoded.delete(old);
    decodedRows -= e.rows;
  }
  return value;
}

/** Forgets every decoded blob, as a fresh function instance starts (tests of a cold read, of a damaged chunk). */
export function forgetDecodedBlobs(): void {
  decoded.clear();
  decodedRows = 0;
}

export function readChunk<S extends SummaryRecord>(spec: SummarySpec<S>, ref: ChunkRef): Promise<Chunk<S>> {
  return cachedBlob(spec.store, ref.key, (data) => {
    const chunk = new Chunk(spec, new ChunkText(data));
    if (chunk.n !== ref.n) throw new Damaged('chunk size differs from its manifest entry');
    return { value: chunk, rows: chunk.n };
  });
}

/** A bundle's chunks by key (bundle.ts): one blob for a search over every chunk it holds. */
export function readBundle<S extends SummaryRecord>(
  spec: SummarySpec<S>,
  ref: BundleRef,
): Promise<Map<string, Chunk<S>>> {
  return cachedBlob(spec.store, ref.key, (data) => {
    const chunks = new Map<string, Chunk<S>>();
    let rows = 0;
    for (const [k, bytes] of decodeBundle(data)) {
      const chunk = new Chunk(spec, new ChunkText(bytes));
      chunks.set(k, chunk);
      rows += chunk.n;
    }
    return { value: chunks, rows };
  });
}

export const readRows = async <S extends SummaryRecord>(spec: SummarySpec<S>, ref: ChunkRef): Promise<S[]> =>
  (await readChunk(spec, ref)).all();

export function readCounts(store: StoreName, k: string): Promise<Record<string, number>> {
  return cachedBlob(store, k, (data) => {
    const value = unpack(data);
    if (!value || typeof value !== 'object') throw new Damaged('counts');
    return { value: value as Record<string, number>, rows: Object.keys(value).length / 4 };
  });
}

export async function readSegments<S extends SummaryRecord>(
  spec: SummarySpec<S>,
  keys: readonly string[],
): Promise<S[]> {
  const store = kv(spec.store);
  const values = await mapLimit(keys, CONCURRENCY, (k) => store.get<Segment<S>>(k));
  const out: S[] = [];
  for (const v of values) {
    if (!v) throw new Moved('segment');
    const seg = v.value;
    // A segment of another format is covered by the rebuild that format change causes.
    if (seg?.version !== spec.version || typeof seg.s?.id !== 'string' || typeof seg.s.key !== 'string')
      continue;
    out.push(seg.s);
  }
  return out;
}
