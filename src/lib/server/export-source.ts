/**
 * What a staff CSV export is made of (docs/decisions/156-exports.md): the one
 * contract every export implements, whichever list it comes from. The export mechanism
 * (exports.ts) writes any source the same way: UTF-8 with a byte-order mark, RFC 4180,
 * CSV-injection-safe cells, a campaign-time column beside each time column; answered
 * directly when small, else written into Blobs by the background function with progress
 * and an expiring download link.
 *
 * Zod-free and I/O-free: a source is built by the list's own module (the Inbox:
 * src/lib/server/inbox/lists.ts) and registered under a name in exports/registry.ts. It sits
 * outside exports/ so that imports run one way: exports/ (the mechanism and its registry)
 * imports the features, and a feature imports only this contract, never exports/
 * (tests/unit/exports-direction.test.ts).
 */

/** A column of the file. A time column holds ISO instants; the file gets `<name>_local` (campaign time) right after it. */
export interface ExportColumn {
  name: string;
  time?: boolean;
}

export interface ExportSource {
  /** The file's name, e.g. `volunteers-2026-11-27.csv` (plain characters; others become '-'). */
  filename: string;
  /** The columns, in order: a plain name, or a column with options. */
  columns: readonly (string | ExportColumn)[];
  /** How many rows there will be, when known before reading them (shown as progress). */
  total?: number;
  /** The rows, in order, one cell per column (times as ISO strings, '' when absent). */
  rows(): AsyncIterable<string[]>;
  /**
   * An export of several lists at once (every Inbox list): one whole CSV per source, each with its own header,
   * file name and signed link; this source's own `columns` and `rows` are then unused.
   */
  files?: readonly ExportSource[];
}

export const columnOf = (c: string | ExportColumn): ExportColumn => (typeof c === 'string' ? { name: c } : c);

/** Rows already in memory (a summary, read whole when its source is opened) as the contract's `rows`. */
export function rowsFrom(rows: readonly string[][]): () => AsyncIterable<string[]> {
  return () => ({
    [Symbol.asyncIterator]: () => {
      const it = rows[Symbol.iterator]();
      return { next: () => Promise.resolve(it.next()) };
    },
  });
}

/** Every row of a source, in order (a synchronous answer, the bench, the tests). */
export async function collectRows(source: ExportSource): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const row of source.rows()) rows.push(row);
  return rows;
}
