import { key } from '../keys.ts';
import type { KV } from '../kv.ts';
import { mapLimit } from '../map-limit.ts';
import { kv } from '../stores.ts';
import { chunkBlob, pack } from './encoding.ts';
import { sortKey } from './ordering.ts';
import { CHUNK_TARGET, CONCURRENCY, type ChunkRef, type SummaryRecord, type SummarySpec } from './spec.ts';

/** Writing an index's immutable blobs: chunks and per-key counts, and deleting blobs no manifest needs. */

export interface Built {
  chunks: ChunkRef[];
  /** Blobs written (deleted again if the manifest swap loses). */
  written: string[];
  /** The chunks' stored bytes by key (for the bundle: bundle.ts). */
  bytes: Map<string, ArrayBuffer>;
}

export async function writeChunks<S extends SummaryRecord>(
  spec: SummarySpec<S>,
  gen: string,
  pieces: S[][],
): Promise<Built> {
  const store = kv(spec.store);
  const bytes = new Map<string, ArrayBuffer>();
  const refs = await mapLimit(
    pieces.map((rows, n) => ({ rows, n })),
    CONCURRENCY,
    async ({ rows, n }) => {
      const k = key('summary', 'chunk', `${gen}-${n}`);
      const blob = chunkBlob(spec, rows);
      if (!(await store.putBytes(k, blob, { format: '1' }))) throw new Error(`chunk ${k} exists`);
      bytes.set(k, blob);
      return {
        key: k,
        n: rows.length,
        listed: rows.filter((s) => spec.listed(s)).length,
        first: sortKey(spec, rows[0]!),
        last: sortKey(spec, rows[rows.length - 1]!),
      } satisfies ChunkRef;
    },
  );
  return { chunks: refs, written: refs.map((r) => r.key), bytes };
}

/** Cuts a sorted run into chunks of CHUNK_TARGET from the oldest end: the newest chunk keeps the remainder. */
export function cut<S>(rows: S[], fromOldest = true): S[][] {
  if (rows.length === 0) return [];
  const pieces: S[][] = [];
  if (!fromOldest) {
    for (let i = 0; i < rows.length; i += CHUNK_TARGET) pieces.push(rows.slice(i, i + CHUNK_TARGET));
    return pieces;
  }
  let end = rows.length;
  while (end - CHUNK_TARGET > 0) {
    pieces.unshift(rows.slice(end - CHUNK_TARGET, end));
    end -= CHUNK_TARGET;
  }
  pieces.unshift(rows.slice(0, end));
  return pieces;
}

export async function writeCounts<S extends SummaryRecord>(
  spec: SummarySpec<S>,
  gen: string,
  counts: Map<string, number>,
): Promise<string> {
  const k = key('summary', 'counts', gen);
  if (!(await kv(spec.store).putBytes(k, pack(Object.fromEntries(counts)), { format: '1' })))
    throw new Error(`counts ${k} exists`);
  return k;
}

export async function deleteAll(store: KV, keys: readonly string[]): Promise<void> {
  await mapLimit(keys, CONCURRENCY, async (k) => {
    try {
      await store.delete(k);
    } catch {
      // Left for the next run: whatever is not deleted is either unnamed (never read) or skipped.
    }
  });
}
