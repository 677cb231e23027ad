import { listKeys } from '../listing.ts';
import { kv } from '../stores.ts';
import { readCounts, readRows, readSegments } from './blob-cache.ts';
import { Damaged } from './chunk-text.ts';
import { bundleCovers, writeBundle } from './bundle.ts';
import { cut, deleteAll, writeChunks, writeCounts } from './chunk-writer.ts';
import { isManifest, newGen, retire } from './encoding.ts';
import { coveringChunk, homeChunk, latestById, sortKey, sortNewestFirst } from './ordering.ts';
import { advanceRebuild } from './rebuild.ts';
import { SEGMENT_PREFIX } from './segments.ts';
import {
  CHUNK_TARGET,
  COMPACT_MAX,
  MANIFEST,
  Moved,
  type ChunkRef,
  type Manifest,
  type OpenState,
  type SummaryRecord,
  type SummarySpec,
} from './spec.ts';

export interface CompactionRun {
  folded: number;
  /** Segments left for the next run. */
  left: number;
  /** The manifest changed under this run (another compaction won): nothing was changed. */
  lost?: boolean;
  rebuilding?: { done: number; total: number; finished: boolean };
}

/**
 * Folds up to `max` outstanding segments into the base (oldest first). Safe to kill at
 * any point and to run twice at once; see the module comment.
 */
export async function compact<S extends SummaryRecord>(
  spec: SummarySpec<S>,
  { max = COMPACT_MAX, deadline = Date.now() + 20_000 } = {},
): Promise<CompactionRun> {
  const store = kv(spec.store);
  const got = await store.get<unknown>(MANIFEST);
  if (!got || !isManifest(got.value, spec.version)) {
    const r = await advanceRebuild(spec, deadline);
    return { folded: 0, left: 0, rebuilding: r };
  }
  const folded = new Set(got.value.folded);
  const listed = await listKeys(store, SEGMENT_PREFIX);
  const all = listed.filter((k) => !folded.has(k));
  const segmentKeys = all.slice(0, max);
  if (segmentKeys.length === 0) {
    // Nothing new: delete what earlier folds left, then forget it.
    const leftover = listed.filter((k) => folded.has(k));
    await deleteAll(store, leftover);
    const m = got.value;
    // A base without a bundle of all its chunks (an older manifest, a reader's fold since) gets one.
    const bundle = bundleCovers(m.bundle, m.chunks) ? null : await bundleOrNull(spec, m);
    if (m.folded.length || bundle) {
      const retiring = retire(m, bundle && m.bundle ? [m.bundle.key] : []);
      const next: Manifest = { ...m, folded: [], ...(bundle ? { bundle, retired: retiring.keep } : {}) };
      if (!(await store.replace(MANIFEST, next, got.etag))) {
        if (bundle) await deleteAll(store, [bundle.key]);
      } else if (bundle) await deleteAll(store, retiring.drop);
    }
    return { folded: 0, left: 0 };
  }
  let summaries: S[];
  try {
    summaries = await readSegments(spec, segmentKeys);
  } catch (err) {
    if (err instanceof Moved) return { folded: 0, left: all.length, lost: true };
    throw err;
  }
  const state: OpenState<S> = {
    manifest: got.value,
    etag: got.etag,
    segmentKeys,
    pending: latestById(spec, summaries),
    loaded: new Map(),
  };
  try {
    const ok = await foldInto(spec, state, true);
    return ok
      ? { folded: segmentKeys.length, left: all.length - segmentKeys.length }
      : { folded: 0, left: all.length, lost: true };
  } catch (err) {
    if (err instanceof Damaged) {
      const r = await advanceRebuild(spec, deadline);
      return { folded: 0, left: all.length, rebuilding: r };
    }
    throw err;
  }
}

/** A bundle of the manifest's chunks, or null when one of them vanished meanwhile (the next run tries again). */
async function bundleOrNull<S extends SummaryRecord>(spec: SummarySpec<S>, m: Manifest) {
  try {
    return await writeBundle(spec, newGen(), m.chunks);
  } catch (err) {
    if (err instanceof Moved) return null;
    throw err;
  }
}

/**
 * Folds the state's pending summaries into new chunks and swaps the manifest. True when
 * the swap won; false when another writer changed the manifest first (this run's blobs
 * are deleted again, the segments stay for the next run). The scheduled compaction (`deleteFolded`) also writes a
 * new bundle (bundle.ts); a reader's fold keeps the previous one (the chunks it replaced are read on their own).
 */
export async function foldInto<S extends SummaryRecord>(
  spec: SummarySpec<S>,
  state: OpenState<S>,
  deleteFolded = false,
): Promise<boolean> {
  const store = kv(spec.store);
  const { manifest, pending } = state;
  const chunks = manifest.chunks;
  // Each pending summary goes to the chunk that holds its record, else to the chunk just newer than it.
  const byChunk = new Map<number, S[]>();
  const loose: S[] = [];
  for (const s of pending.values()) {
    if (chunks.length === 0) {
      loose.push(s);
      continue;
    }
    const sk = sortKey(spec, s);
    const i = coveringChunk(chunks, sk);
    const home = i >= 0 ? i : homeChunk(chunks, sk);
    byChunk.set(home, [...(byChunk.get(home) ?? []), s]);
  }
  let counts: Map<string, number> | null = null;
  if (spec.countKey) {
    counts = new Map();
    if (manifest.counts) {
      let stored: Record<string, number>;
      try {
        stored = await readCounts(spec.store, manifest.counts);
      } catch (err) {
        throw err instanceof Moved ? new Damaged('counts missing') : err;
      }
      for (const [k, n] of Object.entries(stored)) counts.set(k, n);
    }
  }
  const bump = (s: S, by: number) => {
    if (!counts || !spec.countKey || !spec.listed(s)) return;
    const k = spec.countKey(s);
    const n = (counts.get(k) ?? 0) + by;
    if (n > 0) counts.set(k, n);
    else counts.delete(k);
  };
  const gen = newGen();
  const written: string[] = [];
  let drop: string[];
  try {
    const replaced = new Map<number, ChunkRef[]>();
    const fresh = new Map<string, ArrayBuffer>();
    const groups: [number, S[]][] = chunks.length === 0 ? [[0, loose]] : [...byChunk.entries()];
    for (const [i, updates] of groups) {
      const current = chunks.length === 0 ? [] : (state.loaded.get(i) ?? (await readRows(spec, chunks[i]!)));
      const merged = new Map(current.map((s) => [s.id, s]));
      for (const s of updates) {
        const had = merged.get(s.id);
        if (had && spec.v(s) <= spec.v(had)) continue;
        if (had) bump(had, -1);
        bump(s, +1);
        merged.set(s.id, s);
      }
      const rows = sortNewestFirst(spec, [...merged.values()]);
      // A chunk past twice the target is cut; the newest piece keeps the remainder (page 1 stays small).
      const pieces = rows.length === 0 ? [] : rows.length > 2 * CHUNK_TARGET ? cut(rows) : [rows];
      const built = await writeChunks(spec, `${gen}-${i}`, pieces);
      written.push(...built.written);
      for (const [k, b] of built.bytes) fresh.set(k, b);
      replaced.set(i, built.chunks);
    }
    const next: ChunkRef[] =
      chunks.length === 0 ? (replaced.get(0) ?? []) : chunks.flatMap((c, i) => replaced.get(i) ?? [c]);
    const countsKey = counts ? await writeCounts(spec, gen, counts) : null;
    if (countsKey) written.push(countsKey);
    const bundle = deleteFolded ? await writeBundle(spec, gen, next, fresh) : (manifest.bundle ?? null);
    if (deleteFolded && bundle) written.push(bundle.key);
    // What this manifest no longer names stays readable for RETIRED_MS (readers of the previous one).
    const retiring = retire(manifest, [
      ...chunks.filter((_, i) => replaced.has(i)).map((c) => c.key),
      ...(countsKey && manifest.counts ? [manifest.counts] : []),
      ...(deleteFolded && manifest.bundle ? [manifest.bundle.key] : []),
    ]);
    const swapped = await store.replace(
      MANIFEST,
      {
        ...manifest,
        chunks: next,
        counts: countsKey ?? manifest.counts,
        builtAt: new Date().toISOString(),
        retired: retiring.keep,
        folded: state.segmentKeys,
        bundle,
      } satisfies Manifest,
      state.etag,
    );
    if (!swapped) {
      await deleteAll(store, written);
      return false;
    }
    drop = retiring.drop;
  } catch (err) {
    await deleteAll(store, written);
    throw err;
  }
  // The new manifest is in place (its blobs are never deleted from here on). The previous fold's segments are
  // in the base and no longer named: delete them (this fold's are named `folded`, so readers skip them unread;
  // the compaction deletes them at once too).
  await deleteAll(store, [...manifest.folded, ...(deleteFolded ? state.segmentKeys : []), ...drop]);
  return true;
}
