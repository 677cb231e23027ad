import { randomBytes } from 'node:crypto';
import { Damaged, encodeChunk, type ChunkText } from './chunk-text.ts';
import { FORMAT, RETIRED_MS, type Manifest, type SummaryRecord, type SummarySpec } from './spec.ts';

/** How an index's blobs are encoded: packed JSON, rows of a spec's fields, chunks, the manifest's shape. */

const zlib = () => process.getBuiltinModule('node:zlib');

export function pack(value: unknown): ArrayBuffer {
  const gz = zlib().gzipSync(Buffer.from(JSON.stringify(value)), { level: 4 });
  return gz.buffer.slice(gz.byteOffset, gz.byteOffset + gz.byteLength);
}

export function unpack(data: ArrayBuffer): unknown {
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

export function toRow<S extends SummaryRecord>(spec: SummarySpec<S>, s: S): unknown[] {
  return spec.fields.map((f) => s[f]);
}

export function fromRow<S extends SummaryRecord>(spec: SummarySpec<S>, row: unknown): S {
  const width = spec.fields.length;
  if (!Array.isArray(row) || row.length !== width) throw new Damaged('row of the wrong shape');
  const s = {} as Record<string, unknown>;
  for (let i = 0; i < width; i++) s[spec.fields[i]!] = row[i];
  if (typeof s.key !== 'string') throw new Damaged('row without a key');
  s.id = spec.idOf(s.key);
  return s as S;
}

export function fromRows<S extends SummaryRecord>(spec: SummarySpec<S>, value: unknown): S[] {
  const rows = (value as { rows?: unknown } | null)?.rows;
  if (!Array.isArray(rows)) throw new Damaged('rows missing');
  return rows.map((row: unknown) => fromRow(spec, row));
}

/** A chunk as read: its rows decoded one at a time, as a page or a search's matches need them. */
export class Chunk<S extends SummaryRecord> {
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
export interface Query<S> {
  needle: string;
  /** The needle as searchableBytes gives it. */
  bytes: Buffer | null;
  test: ((s: S) => boolean) | null;
}

/** A chunk's stored form (chunk-text.ts): unlisted summaries get no searched text (a search never finds them). */
export function chunkBlob<S extends SummaryRecord>(spec: SummarySpec<S>, rows: readonly S[]): ArrayBuffer {
  return encodeChunk({
    texts: rows.map((s) => (spec.listed(s) ? searchText(spec, s) : '')),
    rows: rows.map((s) => toRow(spec, s)),
    hidden: rows.flatMap((s, i) => (spec.listed(s) ? [] : [i])),
    columns: Object.fromEntries(spec.columns.map((name) => [name, rows.map((s) => s[name])])),
  });
}

export function isManifest(value: unknown, version: number): value is Manifest {
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
    m.folded.every((k) => typeof k === 'string') &&
    (m.bundle === undefined ||
      m.bundle === null ||
      (typeof m.bundle.key === 'string' &&
        Array.isArray(m.bundle.chunks) &&
        m.bundle.chunks.every((k) => typeof k === 'string')))
  );
}

/** The manifest's retired blobs plus `keys`, and those past RETIRED_MS (to delete once the manifest is swapped). */
export function retire(previous: Manifest | null, keys: readonly string[], now = Date.now()) {
  const at = new Date(now).toISOString();
  const all = [...(previous?.retired ?? []), ...keys.map((key) => ({ key, at }))];
  return {
    keep: all.filter((r) => now - Date.parse(r.at) < RETIRED_MS),
    drop: all.filter((r) => now - Date.parse(r.at) >= RETIRED_MS).map((r) => r.key),
  };
}

export const newGen = () => `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
