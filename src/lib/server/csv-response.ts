import { toCsv } from './forms/inbox.ts';
import { SECURITY_HEADERS } from './security-headers.ts';

/**
 * A CSV download with the same headers as every API answer (no-store, the
 * security set, a CSP that lets the file do nothing). Cells are quoted and
 * defused against spreadsheet formulas by `toCsv`.
 */
export function csvResponse(filename: string, columns: string[], rows: string[][]): Response {
  const safeName = filename.replace(/[^A-Za-z0-9._-]/g, '-');
  return new Response(toCsv(columns, rows), {
    status: 200,
    headers: {
      ...SECURITY_HEADERS,
      'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${safeName}"`,
      'Cache-Control': 'no-store',
    },
  });
}
