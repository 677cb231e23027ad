import { campaignLocalTime } from '../../campaign-time.ts';
import { columnOf, type ExportSource } from '../export-source.ts';

/**
 * The staff CSV format, for every export (docs/decisions/156-exports.md,
 * docs/decisions/155-inbox-and-staff-lists.md): RFC 4180 quoting, CRLF lines, and a UTF-8
 * byte-order mark so Excel reads accented names as written.
 */

export const BOM = '\uFEFF';

/**
 * One CSV cell: a value a spreadsheet would run as a formula (= + - @, tab,
 * CR) gets a leading quote (OWASP CSV injection). A strict E.164 phone number
 * ('+' then digits only) is left as is: it cannot be a formula, and voter-contact
 * tools import it. Then RFC 4180 quoting.
 */
export function csvCell(value: string): string {
  let v = value;
  if (/^[=+\-@\t\r]/.test(v) && !/^\+\d{8,15}$/.test(v)) v = `'${v}`;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function toCsv(columns: string[], rows: string[][]): string {
  return [columns, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** The header of a source's file: each time column followed by its campaign-time column. */
export function csvHeader(source: Pick<ExportSource, 'columns'>): string[] {
  return source.columns.flatMap((c) => {
    const col = columnOf(c);
    return col.time ? [col.name, `${col.name}_local`] : [col.name];
  });
}

/** A source row as file cells: each time followed by the same instant on the campaign's clock. */
export function csvRow(source: Pick<ExportSource, 'columns'>, row: readonly string[]): string[] {
  const out: string[] = [];
  source.columns.forEach((c, i) => {
    const v = row[i] ?? '';
    out.push(v);
    if (columnOf(c).time) out.push(campaignLocalTime(v));
  });
  return out;
}

/** The file as lines (each ending CRLF), the byte-order mark first: what both export paths write. */
export async function* csvLines(source: ExportSource, onRow?: (rows: number) => void): AsyncIterable<string> {
  yield BOM + csvHeader(source).map(csvCell).join(',') + '\r\n';
  let n = 0;
  for await (const row of source.rows()) {
    yield csvRow(source, row).map(csvCell).join(',') + '\r\n';
    onRow?.(++n);
  }
}
