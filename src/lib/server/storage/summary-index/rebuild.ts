import { key } from '../keys.ts';
import { listKeys } from '../listing.ts';
import { mapLimit } from '../map-limit.ts';
import { kv } from '../stores.ts';
import { readRows } from './blob-cache.ts';
import { Damaged } from './chunk-text.ts';
import { writeBundle } from './bundle.ts';
import { cut, deleteAll, writeChunks, writeCounts } from './chunk-writer.ts';
import { fromRows, isManifest, newGen, pack, retire, toRow, unpack } from './encoding.ts';
import { latestById, sortNewestFirst } from './ordering.ts';
import { SUMMARY_PREFIX } from './segments.ts';
import {
  CONCURRENCY,
  FORMAT,
  MANIFEST,
  Moved,
  REBUILD,
  REBUILD_BATCH,
  type Manifest,
  type RebuildState,
  type SummaryRecord,
  type SummarySpec,
} from './spec.ts';

export interface RebuildProgress {
  finished: boolean;
  done: number;
  total: number;
}

function isRebuildState(value: unknown, version: number): value is RebuildState {
  const r = value as Partial<RebuildState> | null;
  return (
    !!r &&
    r.version === version &&
    typeof r.keys === 'string' &&
    typeof r.startedAt === 'string' &&
    Number.isInteger(r.total) &&
    Number.isInteger(r.done) &&
    Array.isArray(r.parts)
  );
}

/** A rebuild nobody advanced for this long is started again (its progress may be of another time). */
const REBUILD_ABANDONED_MS = 60 * 60_000;

async function startRebuild<S extends SummaryRecord>(spec: SummarySpec<S>): Promise<void> {
  const store = kv(spec.store);
  const keys = (await listKeys(store, spec.recordPrefix)).filter((k) => !k.startsWith(SUMMARY_PREFIX));
  const gen = newGen();
  const keysBlob = key('summary', 'rebuild-keys', gen);
  await store.putBytes(keysBlob, pack(keys), { format: '1' });
  const state: RebuildState = {
    version: spec.version,
    startedAt: new Date().toISOString(),
    keys: keysBlob,
    total: keys.length,
    done: 0,
    parts: [],
  };
  if (!(await store.create(REBUILD, state))) await store.delete(keysBlob);
}

/**
 * Advances the rebuild of an index from its records until `deadline`: lists the record
 * keys once (stored), reads them REBUILD_BATCH at a time (each batch's summaries stored,
 * the progress swapped in by compare-and-set, so concurrent workers never lose or repeat
 * a batch), and when every record is read, writes the chunks and the counts and swaps the
 * manifest in. `restart` forces a fresh start (npm run reindex, a damaged chunk).
 */
export async function advanceRebuild<S extends SummaryRecord>(
  spec: SummarySpec<S>,
  deadline: number,
  restart = false,
): Promise<RebuildProgress> {
  const store = kv(spec.store);
  if (restart) await dropRebuild(spec);
  // Every call reads at least one batch, so each request that waits on a rebuild moves it on.
  let stepped = false;
  const keysOf = { blob: '', keys: [] as string[] };
  for (;;) {
    const got = await store.get<unknown>(REBUILD);
    if (
      !got ||
      !isRebuildState(got.value, spec.version) ||
      Date.now() - Date.parse(got.value.startedAt) > REBUILD_ABANDONED_MS
    ) {
      if (got) await dropRebuild(spec);
      await startRebuild(spec);
      continue;
    }
    const st = got.value;
    if (st.done >= st.total) {
      await finishRebuild(spec, st, got.etag);
      return { finished: true, done: st.total, total: st.total };
    }
    if (stepped && Date.now() >= deadline) return { finished: false, done: st.done, total: st.total };
    stepped = true;
    if (keysOf.blob !== st.keys) {
      const keysBlob = await store.getBytes(st.keys);
      if (!keysBlob) {
        await dropRebuild(spec);
        continue;
      }
      keysOf.blob = st.keys;
      keysOf.keys = unpack(keysBlob.data) as string[];
    }
    const keys = keysOf.keys;
    const batch = keys.slice(st.done, st.done + REBUILD_BATCH);
    const values = await mapLimit(batch, CONCURRENCY, (k) => store.get<unknown>(k));
    const summaries: S[] = [];
    values.forEach((v, i) => {
      if (!v) return; // deleted since the listing
      const s = spec.fromRecord(v.value, batch[i]!);
      if (s) summaries.push(s);
      else console.error(`[summaries] ${spec.name}: skipped a record that does not fit its schema`);
    });
    const complete = spec.enrich ? await spec.enrich(summaries) : summaries;
    const part = key('summary', 'rebuild-part', newGen());
    await store.putBytes(part, pack({ rows: complete.map((s) => toRow(spec, s)) }), { format: '1' });
    const next: RebuildState = { ...st, done: st.done + batch.length, parts: [...st.parts, part] };
    if (!(await store.replace(REBUILD, next, got.etag))) await store.delete(part);
  }
}

async function dropRebuild<S extends SummaryRecord>(spec: SummarySpec<S>): Promise<void> {
  const store = kv(spec.store);
  const got = await store.get<unknown>(REBUILD);
  if (!got) return;
  await store.delete(REBUILD);
  const st = got.value as Partial<RebuildState>;
  await deleteAll(store, [
    ...(typeof st.keys === 'string' ? [st.keys] : []),
    ...(Array.isArray(st.parts) ? st.parts.filter((p): p is string => typeof p === 'string') : []),
  ]);
}

async function finishRebuild<S extends SummaryRecord>(
  spec: SummarySpec<S>,
  st: RebuildState,
  rebuildEtag: string,
): Promise<void> {
  const store = kv(spec.store);
  const parts = await mapLimit(st.parts, CONCURRENCY, async (p) => {
    const blob = await store.getBytes(p);
    if (!blob) throw new Moved(p);
    return fromRows(spec, unpack(blob.data));
  });
  const byId = latestById(spec, parts.flat());
  // What the current index knows that the records read did not: a change written after its record was read
  // (a later version of a record in the set), or a record created since the rebuild began. Older entries of
  // records that are gone are dropped.
  const current = await store.get<unknown>(MANIFEST);
  const old = current && isManifest(current.value, spec.version) ? current.value : null;
  if (old) {
    const since = new Date(Date.parse(st.startedAt) - 60_000).toISOString();
    try {
      const chunks = await mapLimit(old.chunks, CONCURRENCY, (c) => readRows(spec, c));
      for (const s of chunks.flat()) {
        const had = byId.get(s.id);
        if (had ? spec.v(s) > spec.v(had) : spec.v(s) >= since) byId.set(s.id, s);
      }
    } catch (err) {
      if (!(err instanceof Moved || err instanceof Damaged)) throw err;
    }
  }
  // One worker finishes: the one whose claim on the rebuild's progress wins.
  if (!(await store.replace(REBUILD, { ...st, claimedAt: new Date().toISOString() }, rebuildEtag))) return;
  const gen = newGen();
  const { manifest, written, drop } = await writeIndex(spec, gen, [...byId.values()], old);
  const swapped = current
    ? await store.replace(MANIFEST, manifest, current.etag)
    : await store.create(MANIFEST, manifest);
  if (!swapped) {
    // A compaction swapped the manifest meanwhile: the progress stays, the next step finishes again.
    await deleteAll(store, written);
    return;
  }
  await store.delete(REBUILD);
  await deleteAll(store, [
    st.keys,
    ...st.parts,
    ...drop,
    ...(current && !old ? staleKeysOf(current.value) : []),
  ]);
}

/** Writes the chunks and counts of a whole base; the manifest naming them (the previous one's blobs retired). */
async function writeIndex<S extends SummaryRecord>(
  spec: SummarySpec<S>,
  gen: string,
  summaries: S[],
  previous: Manifest | null,
): Promise<{ manifest: Manifest; written: string[]; drop: string[] }> {
  const rows = sortNewestFirst(spec, summaries);
  const built = await writeChunks(spec, gen, cut(rows, false));
  const written = [...built.written];
  let countsKey: string | null = null;
  if (spec.countKey) {
    const counts = new Map<string, number>();
    for (const s of rows)
      if (spec.listed(s)) counts.set(spec.countKey(s), (counts.get(spec.countKey(s)) ?? 0) + 1);
    countsKey = await writeCounts(spec, gen, counts);
    written.push(countsKey);
  }
  const bundle = await writeBundle(spec, gen, built.chunks, built.bytes);
  written.push(bundle.key);
  const { keep, drop } = retire(previous, [
    ...(previous?.chunks.map((c) => c.key) ?? []),
    ...(previous?.counts ? [previous.counts] : []),
    ...(previous?.bundle ? [previous.bundle.key] : []),
  ]);
  return {
    manifest: {
      format: FORMAT,
      version: spec.version,
      chunks: built.chunks,
      counts: countsKey,
      builtAt: new Date().toISOString(),
      retired: keep,
      bundle,
      // A base rebuilt from the records holds every record whose segment was written before: readers merging
      // such a segment again change nothing, so no segment needs naming here.
      folded: [],
    },
    written,
    drop,
  };
}

/** The blobs a damaged manifest still names, if it names any (deleted once replaced). */
function staleKeysOf(value: unknown): string[] {
  const m = value as { chunks?: unknown; counts?: unknown; bundle?: { key?: unknown } | null } | null;
  const out: string[] = [];
  if (m && Array.isArray(m.chunks))
    for (const c of m.chunks) {
      const k = (c as { key?: unknown } | null)?.key;
      if (typeof k === 'string' && k.startsWith(SUMMARY_PREFIX)) out.push(k);
    }
  if (m && typeof m.counts === 'string' && m.counts.startsWith(SUMMARY_PREFIX)) out.push(m.counts);
  const b = m?.bundle?.key;
  if (typeof b === 'string' && b.startsWith(SUMMARY_PREFIX)) out.push(b);
  return out;
}

/**
 * Writes a base built elsewhere (the scale seed's bulk path, which made every summary as
 * it wrote the records): the same chunks and counts a rebuild writes, without reading the
 * records back. Replaces whatever index there was.
 */
export async function writeBase<S extends SummaryRecord>(
  spec: SummarySpec<S>,
  summaries: S[],
): Promise<void> {
  const store = kv(spec.store);
  await dropRebuild(spec);
  const current = await store.get<unknown>(MANIFEST);
  const old = current && isManifest(current.value, spec.version) ? current.value : null;
  const { manifest, drop } = await writeIndex(spec, newGen(), [...latestById(spec, summaries).values()], old);
  if (current) await store.replace(MANIFEST, manifest, current.etag);
  else await store.create(MANIFEST, manifest);
  await deleteAll(store, [...drop, ...(current && !old ? staleKeysOf(current.value) : [])]);
}
