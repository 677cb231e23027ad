/**
 * The stored form of a summary index's chunk (docs/decisions/155-inbox-and-staff-lists.md), made so
 * that a search scans bytes and decodes only the rows it shows. Two gzip members, the first's length
 * ahead of them (4 bytes, big-endian):
 *
 *     texts: {"n":5000,"texts":[<byte length of each text>],"rows":[<byte length of each row>],
 *             "hidden":[<rows the list does not show>],"columns":{"lang":["en","es",...],...}}
 *            then each summary's searched text, lowercased ('' for one the list does not show),
 *            one a line
 *     rows:  every summary's row (its fields) as one JSON array, a row a line
 *
 * A search unzips only the texts (a fraction of the chunk) and finds its rows by the lengths; a filter
 * on the columns (a few fields stored again column by column: language, sign-up time, city...) reads
 * them there; a row
 * is cut out by its length and parsed when a page shows it (all of them at once, one parse, when every
 * summary is needed). A searched text's line breaks are stored as NUL, so a
 * match never runs from one text into the next. A needle is searched as its UTF-8 bytes: UTF-8 is
 * self-synchronizing, so a byte match is a match of whole characters, the same as the string's
 * `includes`, for any needle without a line break, a NUL or U+FFFD (what a lone surrogate becomes)
 * that is well formed (`searchableBytes`; any other needle is searched in the decoded summaries).
 */

/** The stored index is not an index of this format: rebuild it. */
export class Damaged extends Error {}

const zlib = () => process.getBuiltinModule('node:zlib');
const NL = '\n';

function gunzip(data: Uint8Array): Buffer {
  try {
    return zlib().gunzipSync(data);
  } catch {
    throw new Damaged('not a gzip member');
  }
}

/** What a chunk stores of each row: its searched text ('' unless listed), its fields, its columns' values. */
export interface ChunkInput {
  texts: readonly string[];
  rows: readonly unknown[][];
  hidden: readonly number[];
  columns: Readonly<Record<string, readonly unknown[]>>;
}

/** A chunk's stored bytes: the texts (line breaks stored as NUL) with the lengths, then the rows (a JSON array). */
export function encodeChunk({ texts, rows, hidden, columns }: ChunkInput): ArrayBuffer {
  if (texts.length !== rows.length || Object.values(columns).some((c) => c.length !== rows.length))
    throw new Error('one searched text and one value of each column per row');
  // Each line once as a string, the lines joined once: byte lengths from the strings (the UTF-8 bytes the
  // joined text has of each: a separator sits between any two, so no surrogate pairs across a line's end).
  const textLines = texts.map((t) => t.replaceAll('\n', '\0'));
  const rowLines = rows.map((r) => JSON.stringify(r));
  const lengths = (lines: string[]) => lines.map((l) => Buffer.byteLength(l));
  const header = JSON.stringify({
    n: rows.length,
    texts: lengths(textLines),
    rows: lengths(rowLines),
    hidden,
    columns,
  });
  const head = zlib().gzipSync(Buffer.from(header + NL + textLines.join(NL)), { level: 4 });
  const body = zlib().gzipSync(Buffer.from(`[${rowLines.join(',\n')}]`), { level: 4 });
  const size = Buffer.alloc(4);
  size.writeUInt32BE(head.length);
  const out = Buffer.concat([size, head, body]);
  return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength);
}

/** A needle's UTF-8 bytes when a byte search of the stored texts finds exactly what `includes` would; else null. */
export function searchableBytes(needle: string): Buffer | null {
  if (!needle || /[\n\0\uFFFD]/.test(needle)) return null;
  const bytes = Buffer.from(needle);
  return bytes.toString('utf8') === needle ? bytes : null;
}

/**
 * Where each of `lengths`' lines starts after `from` (a separator of `gap` bytes between), and where the
 * next would start.
 */
function starts(lengths: unknown, n: number, from: number, gap = 1): Int32Array {
  if (!Array.isArray(lengths) || lengths.length !== n) throw new Damaged('chunk lengths of another count');
  const out = new Int32Array(n + 1);
  let at = from;
  for (let i = 0; i < n; i++) {
    const len = lengths[i] as unknown;
    if (!Number.isInteger(len) || (len as number) < 0) throw new Damaged('chunk length not a count');
    out[i] = at;
    at += (len as number) + gap;
  }
  out[n] = at;
  return out;
}

function parse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    throw new Damaged('rows not JSON');
  }
}

/** A stored chunk: its rows found by their searched text, each row unzipped and parsed on demand. */
export class ChunkText {
  readonly n: number;
  private readonly texts: Buffer;
  private readonly textStarts: Int32Array;
  private readonly body: Uint8Array;
  private readonly rowLengths: unknown;
  private readonly columns: Record<string, unknown>;
  /** Whether row i is one the list shows. */
  readonly shown: Uint8Array;
  private rows: { data: Buffer; starts: Int32Array } | null = null;

  constructor(stored: ArrayBuffer | Uint8Array) {
    const bytes = stored instanceof Uint8Array ? stored : new Uint8Array(stored);
    if (bytes.length < 4) throw new Damaged('chunk too short');
    const headSize = Buffer.from(bytes.buffer, bytes.byteOffset, 4).readUInt32BE(0);
    if (4 + headSize > bytes.length) throw new Damaged('chunk shorter than its texts');
    const head = gunzip(bytes.subarray(4, 4 + headSize));
    this.body = bytes.subarray(4 + headSize);
    const end = head.indexOf(NL);
    let header: { n?: unknown; texts?: unknown; rows?: unknown; hidden?: unknown; columns?: unknown } | null;
    try {
      header = JSON.parse(head.toString('utf8', 0, end < 0 ? head.length : end)) as typeof header;
    } catch {
      throw new Damaged('chunk without a header');
    }
    const n = header?.n;
    if (!Number.isInteger(n) || (n as number) < 0) throw new Damaged('chunk header without a count');
    this.n = n as number;
    this.textStarts = starts(header!.texts, this.n, end + 1);
    if (this.n > 0 && this.textStarts[this.n] !== head.length + 1)
      throw new Damaged('texts of other lengths');
    this.texts = head;
    this.rowLengths = header!.rows;
    const columns = header!.columns;
    if (!columns || typeof columns !== 'object') throw new Damaged('chunk without columns');
    this.columns = columns as Record<string, unknown>;
    this.shown = new Uint8Array(this.n).fill(1);
    const hidden = header!.hidden;
    if (!Array.isArray(hidden)) throw new Damaged('chunk without its hidden rows');
    for (const i of hidden as unknown[]) {
      if (!Number.isInteger(i) || (i as number) < 0 || (i as number) >= this.n)
        throw new Damaged('hidden row');
      this.shown[i as number] = 0;
    }
  }

  /** A column's values, one per row (rows 0 to n - 1). */
  column(name: string): unknown[] {
    const values = this.columns[name];
    if (!Array.isArray(values) || values.length !== this.n) throw new Damaged(`column ${name} missing`);
    return values;
  }

  /** The rows (0 to n - 1, in order) whose searched text holds `needle` (from searchableBytes). */
  find(needle: Buffer): number[] {
    const out: number[] = [];
    if (this.n === 0) return out;
    const starts = this.textStarts;
    let line = 0;
    let at = starts[0]!;
    for (;;) {
      const hit = this.texts.indexOf(needle, at);
      if (hit < 0) return out;
      while (starts[line + 1]! <= hit) line++;
      out.push(line);
      // The next match in a later row: a row is found once however often it matches.
      if (++line >= this.n) return out;
      at = starts[line]!;
    }
  }

  private unzipped(): { data: Buffer; starts: Int32Array } {
    if (!this.rows) {
      const data = gunzip(this.body);
      // "[" row ",\n" row ... "]": a next row would start one past the "]" (at the "]" of an empty "[]").
      const rowStarts = starts(this.rowLengths, this.n, 1, 2);
      if (rowStarts[this.n] !== data.length + (this.n ? 1 : -1)) throw new Damaged('rows of other lengths');
      this.rows = { data, starts: rowStarts };
    }
    return this.rows;
  }

  /** Row i's fields, as stored (JSON). */
  row(i: number): unknown {
    if (!(i >= 0 && i < this.n)) throw new RangeError(`row ${i} of ${this.n}`);
    const { data, starts: at } = this.unzipped();
    return parse(data.toString('utf8', at[i], at[i + 1]! - 2));
  }

  /** Every row's fields, in order (one parse). */
  all(): unknown[] {
    const rows = parse(this.unzipped().data.toString('utf8'));
    if (!Array.isArray(rows) || rows.length !== this.n) throw new Damaged('rows of another count');
    return rows;
  }
}
