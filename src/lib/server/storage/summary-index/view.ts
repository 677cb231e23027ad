import { HttpError } from '../../errors.ts';
import { listKeys } from '../listing.ts';
import { mapLimit } from '../map-limit.ts';
import { kv } from '../stores.ts';
import { readBundle, readChunk, readCounts, readRows, readSegments } from './blob-cache.ts';
import { Damaged, searchableBytes } from './chunk-text.ts';
import { foldInto } from './compaction.ts';
import { isManifest, searchText, type Chunk, type Query } from './encoding.ts';
import { coveringChunk, latestById, sortKey, sortNewestFirst } from './ordering.ts';
import { advanceRebuild } from './rebuild.ts';
import { SEGMENT_PREFIX } from './segments.ts';
import {
  CONCURRENCY,
  FOLD_AT,
  FORMAT,
  REBUILD_BATCH,
  type ChunkRef,
  type Manifest,
  IndexRebuildingError,
  MANIFEST,
  Moved,
  repairBudgetMs,
  type OpenState,
  type SummaryRecord,
  type SummarySpec,
} from './spec.ts';

/** What one request reads of a summary index (spec.ts has the overview): readIndex and its IndexView. */

interface Block<S> {
  /** Listed summaries in the block. */
  count: number;
  load(): Promise<S[]>;
  /** Its listed summaries a query selects. */
  select(query: Query<S>): Promise<Found<S>>;
}

/** Matches of a search in one block: how many, and some of them decoded. */
interface Found<S> {
  count: number;
  get(from: number, to: number): S[];
}

/** A search's matches over the whole list, newest first: the count, and a page decoded. */
export interface Matches<S> {
  total: number;
  slice(offset: number, size: number): S[];
}

const foundIn = <S>(rows: S[]): Found<S> => ({ count: rows.length, get: (from, to) => rows.slice(from, to) });

async function openOnce<S extends SummaryRecord>(spec: SummarySpec<S>): Promise<OpenState<S> | null> {
  const store = kv(spec.store);
  // The manifest and the segment listing at once (one round trip, not two).
  const [got, listed] = await Promise.all([store.get<unknown>(MANIFEST), listKeys(store, SEGMENT_PREFIX)]);
  if (!got || !isManifest(got.value, spec.version)) return null;
  const manifest = got.value;
  const folded = new Set(manifest.folded);
  const segmentKeys = listed.filter((k) => !folded.has(k));
  const pending = latestById(spec, await readSegments(spec, segmentKeys));
  const needed = new Set<number>();
  for (const s of pending.values()) {
    const i = coveringChunk(manifest.chunks, sortKey(spec, s));
    if (i >= 0) needed.add(i);
  }
  const loaded = new Map<number, S[]>();
  await mapLimit([...needed], CONCURRENCY, async (i) =>
    loaded.set(i, await readRows(spec, manifest.chunks[i]!)),
  );
  return { manifest, etag: got.etag, segmentKeys, pending, loaded };
}

/**
 * What one request sees of an index: the base and the outstanding segments merged.
 * Opening costs the manifest, the segment listing, each segment and the chunks that
 * hold a pending summary; `page` then reads only the chunks its rows come from,
 * `all` reads every chunk.
 */
export class IndexView<S extends SummaryRecord> {
  private readonly blocks: Block<S>[];
  private readonly state: OpenState<S>;
  private readonly spec: SummarySpec<S>;
  /** Pending summaries that are new records (not in the base), for the per-key counts. */
  private readonly added: S[];

  constructor(spec: SummarySpec<S>, state: OpenState<S>) {
    this.spec = spec;
    this.state = state;
    const { manifest, pending, loaded } = state;
    const chunks = manifest.chunks;
    // Pending summaries by the chunk that holds their record, or by the gap before chunk i (i = chunks.length:
    // after the last one) when no chunk does: a record the base has never seen.
    const into = new Map<number, S[]>();
    const gaps = new Map<number, S[]>();
    // Appended in place: a copy per summary made an index read from the records (100,000 summaries, one gap)
    // quadratic, minutes of copying (docs/benchmarks.md, "Less work per check, third step").
    const bucket = (m: Map<number, S[]>, i: number): S[] => {
      let rows = m.get(i);
      if (!rows) m.set(i, (rows = []));
      return rows;
    };
    for (const s of pending.values()) {
      const sk = sortKey(spec, s);
      const i = coveringChunk(chunks, sk);
      if (i >= 0) {
        bucket(into, i).push(s);
      } else {
        let g = 0;
        while (g < chunks.length && sk < chunks[g]!.last) g++;
        bucket(gaps, g).push(s);
      }
    }
    this.added = [...gaps.values()].flat();
    // A search or a filter reads the chunks from the bundle (one blob for them all), read once on first need;
    // a chunk the bundle does not hold (a reader's fold wrote it since) is read on its own.
    const bundle = manifest.bundle ?? null;
    let bundled: Promise<Map<string, Chunk<S>>> | null = null;
    const chunkToSearch = async (ref: ChunkRef): Promise<Chunk<S>> => {
      if (!bundle?.chunks.includes(ref.key)) return readChunk(spec, ref);
      const chunk = (await (bundled ??= readBundle(spec, bundle))).get(ref.key);
      if (chunk?.n !== ref.n) throw new Damaged('bundle without its chunk');
      return chunk;
    };
    const blocks: Block<S>[] = [];
    const listedOf = (rows: S[]) => rows.filter((s) => spec.listed(s));
    const selected = (rows: S[], { needle, test }: Query<S>) =>
      rows.filter((s) => (!needle || searchText(spec, s).includes(needle)) && (!test || test(s)));
    const inMemory = (rows: S[]): Block<S> => ({
      count: rows.length,
      load: () => Promise.resolve(rows),
      select: (query) => Promise.resolve(foundIn(selected(rows, query))),
    });
    const gapBlock = (g: number) => {
      const rows = listedOf(sortNewestFirst(spec, gaps.get(g) ?? []));
      if (rows.length) blocks.push(inMemory(rows));
    };
    for (let i = 0; i < chunks.length; i++) {
      gapBlock(i);
      const updates = into.get(i);
      if (updates) {
        const merged = new Map((loaded.get(i) ?? []).map((s) => [s.id, s]));
        for (const s of updates) {
          const had = merged.get(s.id);
          if (!had) this.added.push(s);
          if (!had || spec.v(s) > spec.v(had)) merged.set(s.id, s);
        }
        blocks.push(inMemory(listedOf(sortNewestFirst(spec, [...merged.values()]))));
      } else {
        const ref = chunks[i]!;
        blocks.push({
          count: ref.listed,
          load: async () => listedOf(await readRows(spec, ref)),
          async select(query) {
            const chunk = await chunkToSearch(ref);
            const hits = chunk.select(query);
            if (!hits) return foundIn(selected(listedOf(chunk.all()), query));
            return {
              count: hits.length,
              get(from, to) {
                const rows = hits.slice(from, to);
                // Many of the chunk's rows (an export, an audience): one parse of them all is quicker.
                if (rows.length > chunk.n / 4) {
                  const all = chunk.all();
                  return rows.map((r) => all[r]!);
                }
                return rows.map((r) => chunk.row(r));
              },
            };
          },
        });
      }
    }
    gapBlock(chunks.length);
    this.blocks = blocks;
  }

  /** Listed summaries in the whole list. */
  get total(): number {
    return this.blocks.reduce((n, b) => n + b.count, 0);
  }

  /** Outstanding segments (what the next compaction folds). */
  get outstanding(): number {
    return this.state.segmentKeys.length;
  }

  /** Listed summaries [offset, offset + size), newest first: reads only the chunks they come from. */
  async page(offset: number, size: number): Promise<S[]> {
    const out: S[] = [];
    let start = 0;
    for (const b of this.blocks) {
      const end = start + b.count;
      if (end > offset && start < offset + size) {
        const rows = await b.load();
        out.push(...rows.slice(Math.max(0, offset - start), offset + size - start));
      }
      start = end;
      if (start >= offset + size) break;
    }
    return out;
  }

  /** Every listed summary, newest first (reads every chunk, CONCURRENCY at a time). */
  async all(): Promise<S[]> {
    const loaded = await mapLimit(this.blocks, CONCURRENCY, (b) => b.load());
    return loaded.flat();
  }

  /**
   * The listed summaries whose searched text holds `needle` (lowercase; '' for any) and that pass `test`
   * (which must read only the spec's columns), newest first: reads every chunk, scans its searched texts and
   * columns, and decodes only the rows `slice` asks for.
   */
  async select({
    needle = '',
    test = null,
  }: {
    needle?: string;
    test?: ((s: S) => boolean) | null;
  }): Promise<Matches<S>> {
    const query: Query<S> = { needle, bytes: searchableBytes(needle), test };
    const found = await mapLimit(this.blocks, CONCURRENCY, (b) => b.select(query));
    return {
      total: found.reduce((n, f) => n + f.count, 0),
      slice(offset, size) {
        const out: S[] = [];
        let start = 0;
        for (const f of found) {
          const end = start + f.count;
          if (end > offset && start < offset + size)
            out.push(...f.get(Math.max(0, offset - start), offset + size - start));
          start = end;
          if (start >= offset + size) break;
        }
        return out;
      },
    };
  }

  /** Listed summaries, newest first, one block at a time (for exports and audiences). */
  async *iterate(): AsyncIterable<S> {
    for (const b of this.blocks) yield* await b.load();
  }

  /** How many listed summaries each count key has (base counts plus the records added since). */
  async counts(): Promise<(k: string) => number> {
    const { spec } = this;
    if (!spec.countKey) return () => 0;
    const countKey = spec.countKey.bind(spec);
    const ref = this.state.manifest.counts;
    const base: Record<string, number> = ref ? await readCounts(spec.store, ref) : {};
    const extra = new Map<string, number>();
    for (const s of this.added) {
      if (!spec.listed(s)) continue;
      const k = countKey(s);
      extra.set(k, (extra.get(k) ?? 0) + 1);
    }
    return (k) => (base[k] ?? 0) + (extra.get(k) ?? 0);
  }
}

/**
 * Opens an index for one request. A compaction landing in between (a segment gone) is
 * met by reading again; a damaged or missing index is rebuilt from the records within
 * this request's budget (IndexRebuildingError when the budget runs out first: the
 * progress is kept). More than FOLD_AT outstanding segments are folded in first, so the
 * next reader pays for none of them.
 */
/**
 * How a request reads an index. `fold` (default true): more than FOLD_AT outstanding segments are folded in
 * first. `readOnly`: the request writes nothing (docs/decisions/155-inbox-and-staff-lists.md, "Reads that read"): no
 * fold, and an index that is missing, of another version or damaged is not rebuilt but read from the records
 * in memory (viewFromRecords); the scheduled compaction, `npm run reindex` and the bulk path store it.
 */
export interface ReadOptions {
  fold?: boolean;
  readOnly?: boolean;
}

async function openIndex<S extends SummaryRecord>(
  spec: SummarySpec<S>,
  options: ReadOptions = {},
): Promise<IndexView<S>> {
  let rebuilt = false;
  for (let attempt = 0; attempt < 4; attempt++) {
    let state: OpenState<S> | null;
    try {
      state = await openOnce(spec);
    } catch (err) {
      if (err instanceof Moved && attempt < 2) continue;
      if (!(err instanceof Moved || err instanceof Damaged)) throw err;
      state = null;
    }
    if (!state) {
      if (options.readOnly) return viewFromRecords(spec);
      if (rebuilt) break;
      const done = await advanceRebuild(spec, Date.now() + repairBudgetMs());
      if (!done.finished) throw new IndexRebuildingError(spec.name, done.done, done.total);
      rebuilt = true;
      continue;
    }
    if (!options.readOnly && (options.fold ?? true) && state.segmentKeys.length > FOLD_AT) {
      if (await foldInto(spec, state).catch(() => false)) continue;
    }
    return new IndexView(spec, state);
  }
  throw unreadable(spec);
}

/**
 * Runs `read` over one consistent view of an index (see openIndex). A blob that vanished
 * under the read (an index rebuilt meanwhile: replaced chunks of a compaction stay
 * RETIRED_MS) opens the index again, twice at most; a damaged chunk is rebuilt (`readOnly`:
 * read from the records instead).
 */
export async function readIndex<S extends SummaryRecord, T>(
  spec: SummarySpec<S>,
  read: (view: IndexView<S>) => T | Promise<T>,
  options: ReadOptions = {},
): Promise<T> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const view = await openIndex(spec, options);
    try {
      return await read(view);
    } catch (err) {
      // A blob still missing after reading the index again is damage, like a corrupt one.
      if (err instanceof Damaged || (err instanceof Moved && attempt >= 2)) {
        if (options.readOnly) return await read(await viewFromRecords(spec));
        const done = await advanceRebuild(spec, Date.now() + repairBudgetMs());
        if (!done.finished) throw new IndexRebuildingError(spec.name, done.done, done.total);
        continue;
      }
      if (!(err instanceof Moved)) throw err;
    }
  }
  throw unreadable(spec);
}

/**
 * A list whose stored index cannot be read, seen by a read-only request (viewFromRecords): the records take longer
 * to read than the request may spend. The scheduled compaction (every minute) is rebuilding the stored index.
 */
export class IndexUnavailableError extends HttpError {
  constructor(name: string) {
    super(503, `The ${name} list is being re-indexed. Try again in a minute.`, {}, { 'Retry-After': '60' });
  }
}

/**
 * The list read from its records, in memory, storing nothing: what a read-only request sees while the stored index
 * is missing, of another version or damaged, until a repair path stores it (the scheduled compaction, `npm run
 * reindex`). The same summaries a rebuild makes (the spec's `fromRecord` and `enrich`), with any outstanding segment
 * of a record that is newer. Within the request's budget (repairBudgetMs), else IndexUnavailableError.
 */
async function viewFromRecords<S extends SummaryRecord>(spec: SummarySpec<S>): Promise<IndexView<S>> {
  const deadline = Date.now() + repairBudgetMs();
  const store = kv(spec.store);
  const [keys, segmentKeys] = await Promise.all([
    listKeys(store, spec.recordPrefix),
    listKeys(store, SEGMENT_PREFIX),
  ]);
  const summaries: S[] = [];
  for (let i = 0; i < keys.length; i += REBUILD_BATCH) {
    if (Date.now() > deadline) throw new IndexUnavailableError(spec.name);
    const got = await mapLimit(keys.slice(i, i + REBUILD_BATCH), CONCURRENCY, async (k) => {
      const r = await store.get<unknown>(k);
      return r ? spec.fromRecord(r.value, k) : null;
    });
    const rows = got.filter((x): x is S => x !== null);
    summaries.push(...(spec.enrich ? await spec.enrich(rows) : rows));
  }
  const ids = new Set(summaries.map((x) => x.id));
  const segments = await readSegments(spec, segmentKeys).catch((err: unknown) => {
    if (err instanceof Moved) return []; // folded meanwhile: the records hold what they said
    throw err;
  });
  const pending = latestById(spec, [...summaries, ...segments.filter((x) => ids.has(x.id))]);
  const manifest: Manifest = {
    format: FORMAT,
    version: spec.version,
    chunks: [],
    counts: null,
    builtAt: '',
    retired: [],
    folded: [],
  };
  return new IndexView(spec, { manifest, etag: '', segmentKeys: [], pending, loaded: new Map() });
}

const unreadable = (spec: { name: string }) =>
  new HttpError(
    503,
    `The ${spec.name} list could not be read. Try again in a minute.`,
    {},
    { 'Retry-After': '30' },
  );

/** Rebuilds an index from its records now, whatever it holds (npm run reindex). Returns the listed count. */
export async function reindex<S extends SummaryRecord>(spec: SummarySpec<S>): Promise<number> {
  const r = await advanceRebuild(spec, Number.POSITIVE_INFINITY, true);
  if (!r.finished) throw new Error(`${spec.name}: rebuild did not finish`);
  return (await openIndex(spec, { fold: false })).total;
}
