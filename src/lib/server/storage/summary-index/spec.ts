import { isLocalMode } from '../../app-env.ts';
import { HttpError } from '../../errors.ts';
import type { StoreName } from '../kv.ts';
import { SUMMARY_PREFIX } from './segments.ts';

/**
 * Summary indexes kept in Blobs beside the records (docs/decisions/155-inbox-and-staff-lists.md).
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
 *   shows: docs/decisions/155-inbox-and-staff-lists.md).
 * - `summary/bundle/<gen>` (immutable, created once): every chunk's bytes in one blob (bundle.ts), what a search
 *   or a filter reads instead of each chunk, so it costs the same calls at any size.
 * - `summary/counts/<gen>` (gzip, immutable): how many listed summaries each count key
 *   (an email) has in the base.
 * - `summary/seg/<time>-<random>` (JSON, created once): one summary written with a
 *   record's change (segments.ts). A newer summary of the same record (a later `v`)
 *   supersedes the older one.
 *
 * A read costs the manifest, one key listing of the outstanding segments and each of
 * them, the chunks the answer needs (page 1: the newest; a search: the bundle) and, for the
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
 * and stored; every later read uses it.


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
   * Fields also stored column by column in each chunk (docs/decisions/155-inbox-and-staff-lists.md): a
   * `select` test that reads only these is answered without decoding a row.
   */
  columns: readonly Exclude<keyof S & string, 'id'>[];
  /** What per-key counts count by (volunteers and contacts: the email). */
  countKey?(s: S): string;
  /**
   * What a rebuild adds to a batch of summaries made from records, from other blobs of the store (the email
   * lists: the suppression ledger; docs/decisions/155-inbox-and-staff-lists.md).
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
export const REBUILD_BATCH = 5000;
/** Reads in flight. */
export const CONCURRENCY = 32;

/** How long replaced chunks stay readable: longer than a background export runs (15 minutes). */
export const RETIRED_MS = 20 * 60_000;

export const MANIFEST = `${SUMMARY_PREFIX}manifest`;
export const REBUILD = `${SUMMARY_PREFIX}rebuild`;

/** How long a request may spend rebuilding a lost index before answering 503 (the rest is kept for later). */
export function repairBudgetMs(): number {
  return isLocalMode() ? 120_000 : 6_000;
}

export interface ChunkRef {
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
 * (docs/decisions/155-inbox-and-staff-lists.md). A manifest of another format is rebuilt.
 */
export const FORMAT = 2;

export interface Manifest {
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
  /**
   * The bundle (bundle.ts): the chunks it holds, in one blob, for searches and filters. Absent or null: none yet
   * (the next scheduled compaction writes one). Chunks a reader's fold wrote since are not in it.
   */
  bundle?: BundleRef | null;
}

/** A bundle blob and the chunk keys it holds. */
export interface BundleRef {
  key: string;
  chunks: string[];
}

export interface RebuildState {
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
export class Moved extends Error {}

export interface OpenState<S extends SummaryRecord> {
  manifest: Manifest;
  etag: string;
  /** Outstanding segment keys (oldest first) and their summaries (latest per record). */
  segmentKeys: string[];
  pending: Map<string, S>;
  /** Chunks read while opening (those that hold a pending summary), by index. */
  loaded: Map<number, S[]>;
}
