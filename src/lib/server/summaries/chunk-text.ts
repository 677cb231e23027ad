/**
 * The layout of a summary index's chunk (docs/decisions/128-search-by-text-columns.md): one
 * UTF-8 text (gzipped in the store) of lines, so that a search scans bytes and decodes only
 * the rows it shows:
 *
 *     {"n":5000}                   the header
 *     <searched text of row 0>     n lines: each summary's searched text, lowercased
 *     ...                          ('' for a summary the list does not show)
 *     ["<key>","Ana",...]          n lines: each summary's row (its fields), as JSON
 *     ...
 *
 * A searched text's line breaks are stored as NUL, and JSON never holds a raw line break, so
 * every line is one row. A needle is searched as its UTF-8 bytes: UTF-8 is self-synchronizing,
 * so a byte match is a match of whole characters, the same as the string's `includes`, for any
 * needle without a line break, a NUL or U+FFFD (what a lone surrogate becomes) and that is
 * well formed (`searchableBytes`; any other needle is searched in the decoded summaries).
 */

/** The stored index is not an index of this format: rebuild it. */
export class Damaged extends Error {}

const NL = 0x0a;

/** A chunk's text: the header, each row's searched text (line breaks stored as NUL), each row as JSON. */
export function encodeChunk(texts: readonly string[], rows: readonly unknown[][]): Buffer {
  if (texts.length !== rows.length) throw new Error('one searched text per row');
  const lines = [
    JSON.stringify({ n: rows.length }),
    ...texts.map((t) => t.replaceAll('\n', '\0')),
    ...rows.map((r) => JSON.stringify(r)),
  ];
  return Buffer.from(lines.join('\n'));
}

/** A needle's UTF-8 bytes when a byte search of the stored texts finds exactly what `includes` would; else null. */
export function searchableBytes(needle: string): Buffer | null {
  if (!needle || /[\n\0\uFFFD]/.test(needle)) return null;
  const bytes = Buffer.from(needle);
  return bytes.toString('utf8') === needle ? bytes : null;
}

/** A decoded chunk's text: its rows found by their searched text, each row's JSON parsed on demand. */
export class ChunkText {
  readonly n: number;
  private readonly buf: Buffer;
  /** Where each of the 2n lines after the header starts, and one past the end (a line ends 1 byte before the next starts). */
  private readonly starts: Int32Array;

  constructor(buf: Buffer) {
    const first = buf.indexOf(NL);
    let header: unknown;
    try {
      header = JSON.parse(buf.toString('utf8', 0, first < 0 ? buf.length : first));
    } catch {
      throw new Damaged('chunk without a header');
    }
    const n = (header as { n?: unknown } | null)?.n;
    if (!Number.isInteger(n) || (n as number) < 0) throw new Damaged('chunk header without a count');
    this.n = n as number;
    this.buf = buf;
    const lines = 2 * this.n;
    this.starts = new Int32Array(lines + 1);
    let pos = first + 1;
    for (let i = 0; i < lines; i++) {
      if (pos <= 0 || pos > buf.length) throw new Damaged('chunk shorter than its count');
      this.starts[i] = pos;
      const end = buf.indexOf(NL, pos);
      pos = end < 0 ? buf.length + 1 : end + 1;
    }
    if (lines > 0 && pos !== buf.length + 1) throw new Damaged('chunk longer than its count');
    this.starts[lines] = pos;
  }

  /** The rows (0 to n - 1, in order) whose searched text holds `needle` (from searchableBytes). */
  find(needle: Buffer): number[] {
    const out: number[] = [];
    if (this.n === 0) return out;
    const base = this.starts[0]!;
    // The searched texts only (a view, not a copy): the scan never runs on into the rows.
    const text = this.buf.subarray(base, this.starts[this.n]! - 1);
    let line = 0;
    let at = 0;
    for (;;) {
      const hit = text.indexOf(needle, at);
      if (hit < 0) return out;
      while (this.starts[line + 1]! - base <= hit) line++;
      out.push(line);
      // The next match in a later row: one row is listed once however often it matches.
      at = this.starts[line + 1]! - base;
      if (++line >= this.n) return out;
    }
  }

  /** Row i's fields, as stored (JSON). */
  row(i: number): unknown {
    if (!(i >= 0 && i < this.n)) throw new RangeError(`row ${i} of ${this.n}`);
    const line = this.n + i;
    try {
      return JSON.parse(this.buf.toString('utf8', this.starts[line]!, this.starts[line + 1]! - 1));
    } catch {
      throw new Damaged('row not JSON');
    }
  }
}
