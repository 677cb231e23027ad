import { randomBytes } from 'node:crypto';
import { isLocalMode } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { key, kv, type KV, type StoreName } from '../store.ts';
import { ChunkText, Damaged, encodeChunk, searchableBytes } from './chunk-text.ts';
import { SEGMENT_PREFIX, SUMMARY_PREFIX, type Segment } from './segments.ts';

/**
 * Summary indexes kept in Blobs beside the records (docs/decisions/100-summary-indexes.md).
 *
 * One index per list, in the list's own store, under `summary/`:
 *
 * - `summary/manifest` (JSON, compare-and-set): the base: its chunks in order, newest
 *   first, each with its count, its listed count and the sort keys of its first and last
 *   summary; the key of the per-email counts; the index format version; the segments
 *   already folded in (skipped unread until deleted) and the replaced blobs kept a while.
 * - `summary/chunk/<gen>-<n>` (gzip members, immutable, created once): up to a few thousand
 *   summaries, newest first, as rows of the spec's fields, with each listed summary's
 *   searched text beside them (a search scans that text, and decodes only the rows it
 *   shows: docs/decisions/128-search-by-text-columns.md).
 * - `summary/counts/<gen>` (gzip, immutable): how many listed summaries each count key
 *   (an email) has in the base.
 * - `summary/seg/<time>-<random>` (JSON, created once): one summary written with a
 *   record's change (segments.ts). A newer summary of the same record (a later `v`)
 *   supersedes the older one.
 *
 * A read costs the manifest, one key listing of the outstanding segments and each of
 * them, the chunks the answer needs (page 1: the newest; a search: all) and, for the
 * per-email counts, one more blob (the manifest with the listing, and a page's chunk with
 * the counts, at once). The compaction (scheduled, and by a reader that finds more than
 * FOLD_AT segments) folds segments into new chunks, swaps the manifest by compare-and-set
 * and only then deletes what it folded: killed at any point, or run twice at once, it
 * loses nothing (a loser's chunks are deleted; a folded segment read again changes
 * nothing, being the same version).
 *
 * A manifest or chunk that is missing, not what it should be, or of another format
 * version is rebuilt from the records (resumable, within a time budget per request:
 * the progress is stored, so the next request or the next compaction run continues it)
 * and stored; every later read uses it. A `readOnly` reader (every Inbox read) neither
 * folds nor rebuilds: it reads a lost index's records in memory and stores nothing.
 */

/** The fields every summary has: the record's id and its key in the store. */
export interface SummaryRecord {
  id: string;
  key: string;
}

export interface SummarySpec<S extends SummaryRecord> {
  /** For logs. */
  name: string;
  store: StoreName;
  /** Where the records are (the rebuild lists and reads them). */
  recordPrefix: string;
  /** Format of the summaries: a change makes every stored index stale (rebuilt). */
  version: number;
  /** The summary's fields, in the order rows store them (`id` left out: it is derived from the key, `idOf`). */
  fields: readonly Exclude<keyof S & string, 'id'>[];
  /** The record's id from its key (the rows do not store it twice: smaller chunks, faster to read). */
  idOf(key: string): string;
  /** A stored record as its summary, or null when it does not fit its schema (skipped, logged). */
  fromRecord(raw: unknown, key: string): S | null;
  /** Sort time (newest first): the record's creation time, which never changes. */
  at(s: S): string;
  /** Version stamp: a later one supersedes an earlier summary of the same record. */
  v(s: S): string;
  /** Which summaries the list shows (and counts). */
  listed(s: S): boolean;
  /** What a search (case-insensitive substring) looks in: a listed summary's searched text. */
  searched(s: S): string;
  /**
   * Fields also stored column by column in each chunk (docs/decisions/128-search-by-text-columns.md): a
   * `select` test that reads only these is answered without decoding a row.
   */
  columns: readonly Exclude<keyof S & string, 'id'>[];
  /** What per-key counts count by (volunteers and contacts: the email). */
  countKey?(s: S): string;
  /**
   * What a rebuild adds to a batch of summaries made from records, from other blobs of the store (the email
   * lists: the suppression ledger; docs/decisions/136-one-suppression-state-shown-everywhere.md).
   */
  enrich?(summaries: S[]): Promise<S[]>;
}

/** Summaries per chunk: a search reads total / CHUNK_TARGET chunks, page 1 reads one. */
export const CHUNK_TARGET = 5000;
/** A reader that finds more outstanding segments than this folds them in itself. */
export const FOLD_AT = 16;
/** Segments one compaction folds at most. */
export const COMPACT_MAX = 2000;
/** Records one rebuild step reads before it stores its progress. */
const REBUILD_BATCH = 5000;
/** Reads in flight. */
const CONCURRENCY = 32;

/** How long replaced chunks stay readable: longer than a background export runs (15 minutes). */
export const RETIRED_MS = 20 * 60_000;

const MANIFEST = `${SUMMARY_PREFIX}manifest`;
const REBUILD = `${SUMMARY_PREFIX}rebuild`;

/** How long a request may spend rebuilding a lost index before answering 503 (the rest is kept for later). */
export function repairBudgetMs(): number {
  return isLocalMode() ? 120_000 : 6_000;
}

interface ChunkRef {
  key: string;
  /** Summaries in the chunk. */
  n: number;
  /** Listed summaries in the chunk. */
  listed: number;
  /** Sort keys of its newest and oldest summary. */
  first: string;
  last: string;
}

/**
 * The stored index's layout: 2 since chunks carry the searched text beside their rows
 * (docs/decisions/128-search-by-text-columns.md). A manifest of another format is rebuilt.
 */
const FORMAT = 2;

interface Manifest {
  format: typeof FORMAT;
  version: number;
  chunks: ChunkRef[];
  /** The counts blob (null when the spec counts nothing). */
  counts: string | null;
  builtAt: string;
  /**
   * Blobs a newer manifest replaced, kept RETIRED_MS so a reader still holding the
   * previous manifest (an export iterating for minutes) can finish; then deleted.
   */
  retired: { key: string; at: string }[];
  /**
   * Segments already folded into this base that may not be deleted yet: readers skip them
   * unread. The next fold deletes them (a reader's fold deletes only these, so a folding
   * request stays bounded; the scheduled compaction also deletes what it just folded).
   */
  folded: string[];
}

interface RebuildState {
  version: number;
  startedAt: string;
  /** Blob holding every record key, listed once at the start. */
  keys: string;
  total: number;
  done: number;
  /** Blobs of the summaries read so far. */
  parts: string[];
}

/** The index is being rebuilt and this request ran out of its budget first. */
export class IndexRebuildingError extends HttpError {
  constructor(name: string, done: number, total: number) {
    super(
      503,
      `The ${name} list is being re-indexed (${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} records). Try again in a few seconds.`,
      { done, total },
      { 'Retry-After': '5' },
    );
  }
}

/** A referenced blob vanished: a compaction landed meanwhile (read again) or the index is damaged. */
class Moved extends Error {}

// ---------------------------------------------------------------------------
// Encoding

const zlib = () => process.getBuiltinModule('node:zlib');

function pack(value: unknown): ArrayBuffer {
  const gz = zlib().gzipSync(Buffer.from(JSON.stringify(value)), { level: 4 });
  return gz.buffer.slice(gz.byteOffset, gz.byteOffset + gz.byteLength);
}

function unpack(data: ArrayBuffer): unknown {
  try {
    return JSON.parse(zlib().gunzipSync(Buffer.from(data)).toString('utf8'));
  } catch {
    throw new Damaged('not a packed blob');
  }
}

/**
 * A summary's searched text, lowercased: what a search (a lowercased needle) looks in. Kept per summary
 * object, so the decoded summaries a warm function keeps are searched again without building it again.
 */
const searchTexts = new WeakMap<object, string>();
export function searchText<S extends SummaryRecord>(spec: SummarySpec<S>, s: S): string {
  let text = searchTexts.get(s);
  if (text === undefined) searchTexts.set(s, (text = spec.searched(s).toLowerCase()));
  return text;
}

const sortKey = <S extends SummaryRecord>(spec: SummarySpec<S>, s: S) => `${spec.at(s)}\u0000${s.id}`;

/**
 * Sorts `rows` newest first, in place (stable). Each row's sort key is made once: a comparator making
 * them made two strings a comparison, 3.4 million for a base of 100,000.
 */
function sortNewestFirst<S extends SummaryRecord>(spec: SummarySpec<S>, rows: S[]): S[] {
  const keyed = rows.map((s) => ({ s, k: sortKey(spec, s) }));
  keyed.sort((a, b) => (a.k < b.k ? 1 : a.k > b.k ? -1 : 0));
  keyed.forEach(({ s }, i) => (rows[i] = s));
  return rows;
}

function toRow<S extends SummaryRecord>(spec: SummarySpec<S>, s: S): unknown[] {
  return spec.fields.map((f) => s[f]);
}

function fromRow<S extends SummaryRecord>(spec: SummarySpec<S>, row: unknown): S {
  const width = spec.fields.length;
  if (!Array.isArray(row) || row.length !== width) throw new Damaged('row of the wrong shape');
  const s = {} as Record<string, unknown>;
  for (let i = 0; i < width; i++) s[spec.fields[i]!] = row[i];
  if (typeof s.key !== 'string') throw new Damaged('row without a key');
  s.id = spec.idOf(s.key);
  return s as S;
}

function fromRows<S extends SummaryRecord>(spec: SummarySpec<S>, value: unknown): S[] {
  const rows = (value as { rows?: unknown } | null)?.rows;
  if (!Array.isArray(rows)) throw new Damaged('rows missing');
  return rows.map((row: unknown) => fromRow(spec, row));
}

/** A chunk as read: its rows decoded one at a time, as a page or a search's matches need them. */
class Chunk<S extends SummaryRecord> {
  private readonly spec: SummarySpec<S>;
  private readonly text: ChunkText;
  private readonly rows: (S | undefined)[];
  private every: S[] | null = null;

  constructor(spec: SummarySpec<S>, text: ChunkText) {
    this.spec = spec;
    this.text = text;
    this.rows = new Array<S | undefined>(text.n);
  }

  get n(): number {
    return this.text.n;
  }

  row(i: number): S {
    return (this.rows[i] ??= fromRow(this.spec, this.text.row(i)));
  }

  all(): S[] {
    if (!this.every) {
      // One parse of every row, unless some were decoded already (a page's): those objects are kept.
      const rows = this.rows.some(Boolean) ? null : this.text.all();
      this.every = Array.from(
        { length: this.n },
        (_, i) => (this.rows[i] ??= fromRow(this.spec, rows ? rows[i] : this.text.row(i))),
      );
    }
    return this.every;
  }

  /** The listed rows a query selects, in order; null when its needle cannot be searched as bytes. */
  select(query: Query<S>): number[] | null {
    const { text } = this;
    let rows: number[];
    if (query.needle) {
      if (!query.bytes) return null;
      rows = text.find(query.bytes);
    } else {
      rows = [];
      for (let i = 0; i < text.n; i++) if (text.shown[i]) rows.push(i);
    }
    const test = query.test;
    if (!test) return rows;
    // The test reads only the columns: one object, refilled for each row.
    const columns = this.spec.columns.map((name) => [name, text.column(name)] as const);
    const probe = {} as Record<string, unknown>;
    return rows.filter((i) => {
      for (const [name, values] of columns) probe[name] = values[i];
      return test(probe as unknown as S);
    });
  }
}

/**
 * Which listed summaries a `select` wants: those whose searched text holds `needle` (lowercase; '' for any),
 * and that pass `test`, which must read only the spec's columns.
 */
interface Query<S> {
  needle: string;
  /** The needle as searchableBytes gives it. */
  bytes: Buffer | null;
  test: ((s: S) => boolean) | null;
}

/** A chunk's stored form (chunk-text.ts): unlisted summaries get no searched text (a search never finds them). */
function chunkBlob<S extends SummaryRecord>(spec: SummarySpec<S>, rows: readonly S[]): ArrayBuffer {
  return encodeChunk({
    texts: rows.map((s) => (spec.listed(s) ? searchText(spec, s) : '')),
    rows: rows.map((s) => toRow(spec, s)),
    hidden: rows.flatMap((s, i) => (spec.listed(s) ? [] : [i])),
    columns: Object.fromEntries(spec.columns.map((name) => [name, rows.map((s) => s[name])])),
  });
}

function isManifest(value: unknown, version: number): value is Manifest {
  const m = value as Partial<Manifest> | null;
  return (
    !!m &&
    m.format === FORMAT &&
    m.version === version &&
    Array.isArray(m.chunks) &&
    m.chunks.every(
      (c) =>
        !!c &&
        typeof c.key === 'string' &&
        Number.isInteger(c.n) &&
        Number.isInteger(c.listed) &&
        typeof c.first === 'string' &&
        typeof c.last === 'string',
    ) &&
    (m.counts === null || typeof m.counts === 'string') &&
    Array.isArray(m.retired) &&
    m.retired.every((r) => !!r && typeof r.key === 'string' && typeof r.at === 'string') &&
    Array.isArray(m.folded) &&
    m.folded.every((k) => typeof k === 'string')
  );
}

/** The manifest's retired blobs plus `keys`, and those past RETIRED_MS (to delete once the manifest is swapped). */
function retire(previous: Manifest | null, keys: readonly string[], now = Date.now()) {
  const at = new Date(now).toISOString();
  const all = [...(previous?.retired ?? []), ...keys.map((key) => ({ key, at }))];
  return {
    keep: all.filter((r) => now - Date.parse(r.at) < RETIRED_MS),
    drop: all.filter((r) => now - Date.parse(r.at) >= RETIRED_MS).map((r) => r.key),
  };
}

/** Runs `work` over items, CONCURRENCY at a time, keeping the order of the answers. */
async function mapBounded<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return out;
}

async function listAll(store: KV, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const page of store.keys(prefix)) out.push(...page);
  return out.sort();
}

const newGen = () => `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;

// ---------------------------------------------------------------------------
// Reading

/** Keeps, per record id, the summary with the latest version. */
function latestById<S extends SummaryRecord>(spec: SummarySpec<S>, summaries: Iterable<S>): Map<string, S> {
  const out = new Map<string, S>();
  for (const s of summaries) {
    const had = out.get(s.id);
    if (!had || spec.v(s) > spec.v(had)) out.set(s.id, s);
  }
  return out;
}

/** The chunk whose range holds a sort key, or -1 (between chunks, or outside them all). */
function coveringChunk(chunks: readonly ChunkRef[], sk: string): number {
  // Chunks are newest first and do not overlap: binary search on `last`.
  let lo = 0;
  let hi = chunks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = chunks[mid]!;
    if (sk > c.first) hi = mid - 1;
    else if (sk < c.last) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** Where a summary no chunk covers goes: the chunk just newer than it (the first chunk if none). */
function homeChunk(chunks: readonly ChunkRef[], sk: string): number {
  let i = 0;
  while (i < chunks.length - 1 && sk < chunks[i]!.last) i++;
  return i;
}

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

interface OpenState<S extends SummaryRecord> {
  manifest: Manifest;
  etag: string;
  /** Outstanding segment keys (oldest first) and their summaries (latest per record). */
  segmentKeys: string[];
  pending: Map<string, S>;
  /** Chunks read while opening (those that hold a pending summary), by index. */
  loaded: Map<number, S[]>;
}

// ---------------------------------------------------------------------------
// Decoded blobs kept by a warm function instance

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

function readChunk<S extends SummaryRecord>(spec: SummarySpec<S>, ref: ChunkRef): Promise<Chunk<S>> {
  return cachedBlob(spec.store, ref.key, (data) => {
    const chunk = new Chunk(spec, new ChunkText(data));
    if (chunk.n !== ref.n) throw new Damaged('chunk size differs from its manifest entry');
    return { value: chunk, rows: chunk.n };
  });
}

const readRows = async <S extends SummaryRecord>(spec: SummarySpec<S>, ref: ChunkRef): Promise<S[]> =>
  (await readChunk(spec, ref)).all();

function readCounts(store: StoreName, k: string): Promise<Record<string, number>> {
  return cachedBlob(store, k, (data) => {
    const value = unpack(data);
    if (!value || typeof value !== 'object') throw new Damaged('counts');
    return { value: value as Record<string, number>, rows: Object.keys(value).length / 4 };
  });
}

async function readSegments<S extends SummaryRecord>(
  spec: SummarySpec<S>,
  keys: readonly string[],
): Promise<S[]> {
  const store = kv(spec.store);
  const values = await mapBounded(keys, (k) => store.get<Segment<S>>(k));
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

async function openOnce<S extends SummaryRecord>(spec: SummarySpec<S>): Promise<OpenState<S> | null> {
  const store = kv(spec.store);
  // The manifest and the segment listing at once (one round trip, not two).
  const [got, listed] = await Promise.all([store.get<unknown>(MANIFEST), listAll(store, SEGMENT_PREFIX)]);
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
  await mapBounded([...needed], async (i) => loaded.set(i, await readRows(spec, manifest.chunks[i]!)));
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
    for (const s of pending.values()) {
      const sk = sortKey(spec, s);
      const i = coveringChunk(chunks, sk);
      if (i >= 0) {
        into.set(i, [...(into.get(i) ?? []), s]);
      } else {
        let g = 0;
        while (g < chunks.length && sk < chunks[g]!.last) g++;
        gaps.set(g, [...(gaps.get(g) ?? []), s]);
      }
    }
    this.added = [...gaps.values()].flat();
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
            const chunk = await readChunk(spec, ref);
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
    const loaded = await mapBounded(this.blocks, (b) => b.load());
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
    const found = await mapBounded(this.blocks, (b) => b.select(query));
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
 * How a request reads an index. `fold` (default true): more than FOLD_AT outstanding segments are folded in
 * first. `readOnly`: the request writes nothing (docs/decisions/100-summary-indexes.md, "Reads that read"): no
 * fold, and an index that is missing, of another version or damaged is not rebuilt but read from the records
 * in memory (viewFromRecords); the scheduled compaction, `npm run reindex` and the bulk path store it.
 */
export interface ReadOptions {
  fold?: boolean;
  readOnly?: boolean;
}

/**
 * Opens an index for one request. A compaction landing in between (a segment gone) is
 * met by reading again; a damaged or missing index is rebuilt from the records within
 * this request's budget (IndexRebuildingError when the budget runs out first: the
 * progress is kept), or, `readOnly`, read from the records without storing anything.
 * More than FOLD_AT outstanding segments are folded in first (not `readOnly`), so the
 * next reader pays for none of them.
 */
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
    listAll(store, spec.recordPrefix),
    listAll(store, SEGMENT_PREFIX),
  ]);
  const summaries: S[] = [];
  for (let i = 0; i < keys.length; i += REBUILD_BATCH) {
    if (Date.now() > deadline) throw new IndexUnavailableError(spec.name);
    const got = await mapBounded(keys.slice(i, i + REBUILD_BATCH), async (k) => {
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

// ---------------------------------------------------------------------------
// Writing chunks

interface Built {
  chunks: ChunkRef[];
  /** Blobs written (deleted again if the manifest swap loses). */
  written: string[];
}

async function writeChunks<S extends SummaryRecord>(
  spec: SummarySpec<S>,
  gen: string,
  pieces: S[][],
): Promise<Built> {
  const store = kv(spec.store);
  const refs = await mapBounded(
    pieces.map((rows, n) => ({ rows, n })),
    async ({ rows, n }) => {
      const k = key('summary', 'chunk', `${gen}-${n}`);
      if (!(await store.putBytes(k, chunkBlob(spec, rows), { format: '1' })))
        throw new Error(`chunk ${k} exists`);
      return {
        key: k,
        n: rows.length,
        listed: rows.filter((s) => spec.listed(s)).length,
        first: sortKey(spec, rows[0]!),
        last: sortKey(spec, rows[rows.length - 1]!),
      } satisfies ChunkRef;
    },
  );
  return { chunks: refs, written: refs.map((r) => r.key) };
}

/** Cuts a sorted run into chunks of CHUNK_TARGET from the oldest end: the newest chunk keeps the remainder. */
function cut<S>(rows: S[], fromOldest = true): S[][] {
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

async function writeCounts<S extends SummaryRecord>(
  spec: SummarySpec<S>,
  gen: string,
  counts: Map<string, number>,
): Promise<string> {
  const k = key('summary', 'counts', gen);
  if (!(await kv(spec.store).putBytes(k, pack(Object.fromEntries(counts)), { format: '1' })))
    throw new Error(`counts ${k} exists`);
  return k;
}

async function deleteAll(store: KV, keys: readonly string[]): Promise<void> {
  await mapBounded(keys, async (k) => {
    try {
      await store.delete(k);
    } catch {
      // Left for the next run: whatever is not deleted is either unnamed (never read) or skipped.
    }
  });
}

// ---------------------------------------------------------------------------
// Compaction

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
  const listed = await listAll(store, SEGMENT_PREFIX);
  const all = listed.filter((k) => !folded.has(k));
  const segmentKeys = all.slice(0, max);
  if (segmentKeys.length === 0) {
    // Nothing new: delete what earlier folds left, then forget it.
    const leftover = listed.filter((k) => folded.has(k));
    await deleteAll(store, leftover);
    if (got.value.folded.length)
      await store.replace(MANIFEST, { ...got.value, folded: [] } satisfies Manifest, got.etag);
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

/**
 * Folds the state's pending summaries into new chunks and swaps the manifest. True when
 * the swap won; false when another writer changed the manifest first (this run's blobs
 * are deleted again, the segments stay for the next run).
 */
async function foldInto<S extends SummaryRecord>(
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
      replaced.set(i, built.chunks);
    }
    const next: ChunkRef[] =
      chunks.length === 0 ? (replaced.get(0) ?? []) : chunks.flatMap((c, i) => replaced.get(i) ?? [c]);
    const countsKey = counts ? await writeCounts(spec, gen, counts) : null;
    if (countsKey) written.push(countsKey);
    // What this manifest no longer names stays readable for RETIRED_MS (readers of the previous one).
    const retiring = retire(manifest, [
      ...chunks.filter((_, i) => replaced.has(i)).map((c) => c.key),
      ...(countsKey && manifest.counts ? [manifest.counts] : []),
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

// ---------------------------------------------------------------------------
// Rebuild from the records

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
  const keys = (await listAll(store, spec.recordPrefix)).filter((k) => !k.startsWith(SUMMARY_PREFIX));
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
    const values = await mapBounded(batch, (k) => store.get<unknown>(k));
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
  const parts = await mapBounded(st.parts, async (p) => {
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
      const chunks = await mapBounded(old.chunks, (c) => readRows(spec, c));
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
  const { keep, drop } = retire(previous, [
    ...(previous?.chunks.map((c) => c.key) ?? []),
    ...(previous?.counts ? [previous.counts] : []),
  ]);
  return {
    manifest: {
      format: FORMAT,
      version: spec.version,
      chunks: built.chunks,
      counts: countsKey,
      builtAt: new Date().toISOString(),
      retired: keep,
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
  const m = value as { chunks?: unknown; counts?: unknown } | null;
  const out: string[] = [];
  if (m && Array.isArray(m.chunks))
    for (const c of m.chunks) {
      const k = (c as { key?: unknown } | null)?.key;
      if (typeof k === 'string' && k.startsWith(SUMMARY_PREFIX)) out.push(k);
    }
  if (m && typeof m.counts === 'string' && m.counts.startsWith(SUMMARY_PREFIX)) out.push(m.counts);
  return out;
}

/** Rebuilds an index from its records now, whatever it holds (npm run reindex). Returns the listed count. */
export async function reindex<S extends SummaryRecord>(spec: SummarySpec<S>): Promise<number> {
  const r = await advanceRebuild(spec, Number.POSITIVE_INFINITY, true);
  if (!r.finished) throw new Error(`${spec.name}: rebuild did not finish`);
  return (await openIndex(spec, { fold: false })).total;
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
