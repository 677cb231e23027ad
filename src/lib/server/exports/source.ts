import { toCsv } from '../forms/inbox.ts';

/**
 * A staff CSV export as a source of rows (docs/decisions/107-bounded-staff-lists.md): the file name, the
 * header, and the rows read in bounded pages, so an export of any size never holds every record in memory
 * at once and can be written by a background job as well as answered by today's endpoints.
 */
export interface CsvSource {
  filename: string;
  columns: string[];
  rows(): AsyncIterable<string[]>;
}

/** Every row of a source (today's synchronous endpoints, which answer the whole file at once). */
export async function collectRows(source: CsvSource): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const row of source.rows()) rows.push(row);
  return rows;
}

/** A source's whole CSV body (RFC 4180, formula cells neutralised), as the synchronous endpoints answer it. */
export async function csvBody(source: CsvSource): Promise<{ body: string; rows: number }> {
  const rows = await collectRows(source);
  return { body: toCsv(source.columns, rows), rows: rows.length };
}
