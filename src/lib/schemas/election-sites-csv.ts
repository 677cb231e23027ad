import { mapLink, type VotingSite } from '../election-stage.ts';
import { SiteSchema } from './election.ts';

/*
 * Early-voting sites from a CSV file (docs/decisions/157-election-calendar.md). Columns (a header row, any order, case
 * and spaces ignored): `id`, `name`, `address`, and optionally `map_url` (an https link; empty: a map search for the
 * address) and `zip` (5 digits; empty: the address's trailing ZIP, election-stage.ts siteZip). Every row is checked; one bad row refuses the whole file, with every bad row's number (as a spreadsheet
 * numbers it: the header is row 1) and reason, so nothing is half-imported.
 */

export const SITES_CSV_COLUMNS = ['id', 'name', 'address', 'map_url', 'zip'] as const;
export const SITES_CSV_MAX_BYTES = 64 * 1024;

export interface CsvProblem {
  row: number;
  message: string;
}

/** RFC 4180 records: quoted fields may hold commas, quotes ("") and line breaks; CRLF or LF. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const s = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && s[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

/** The sites of a CSV file, or every problem (row number and reason). */
export function sitesFromCsv(text: string): { sites: VotingSite[] } | { problems: CsvProblem[] } {
  const rows = parseCsv(text);
  const header = rows[0]?.map((h) => h.trim().toLowerCase().replace(/\s+/g, '_')) ?? [];
  const missing = SITES_CSV_COLUMNS.filter((c) => c !== 'map_url' && c !== 'zip' && !header.includes(c));
  if (rows.length === 0 || missing.length)
    return {
      problems: [
        {
          row: 1,
          message: `Missing column${missing.length === 1 ? '' : 's'}: ${missing.join(', ') || 'id, name, address'}`,
        },
      ],
    };
  if (rows.length === 1) return { problems: [{ row: 2, message: 'No sites in the file' }] };
  const col = (r: string[], name: string) => (header.includes(name) ? (r[header.indexOf(name)] ?? '') : '');
  const problems: CsvProblem[] = [];
  const sites: VotingSite[] = [];
  const seen = new Map<string, number>();
  rows.slice(1).forEach((r, i) => {
    const row = i + 2;
    if (r.length > header.length) {
      problems.push({ row, message: `Has ${r.length} fields; the header has ${header.length}` });
      return;
    }
    const address = col(r, 'address').trim();
    const parsed = SiteSchema.safeParse({
      id: col(r, 'id').trim(),
      name: col(r, 'name').trim(),
      address,
      mapUrl: col(r, 'map_url').trim() || (address ? mapLink(address) : ''),
      ...(col(r, 'zip').trim() ? { zip: col(r, 'zip').trim() } : {}),
    });
    if (!parsed.success) {
      // Every problem of the row at once ("name: …; address: …"), so one correction pass fixes the row.
      const message = parsed.error.issues
        .map((issue) => {
          const field = String(issue.path[0] ?? '');
          return `${field === 'mapUrl' ? 'map_url' : field}: ${issue.message}`;
        })
        .join('; ');
      problems.push({ row, message });
      return;
    }
    const first = seen.get(parsed.data.id);
    if (first) {
      problems.push({ row, message: `id: "${parsed.data.id}" is already on row ${first}` });
      return;
    }
    seen.set(parsed.data.id, row);
    sites.push(parsed.data);
  });
  if (sites.length + problems.length > 100) problems.push({ row: 102, message: 'At most 100 sites' });
  return problems.length ? { problems } : { sites };
}
