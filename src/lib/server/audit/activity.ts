import {
  AuditEntrySchema,
  AUDIT_KIND_LABELS,
  type AuditEntry,
  type AuditPage,
  type AuditProblem,
  type AuditQuery,
} from '../../schemas/audit.ts';
import type { ExportColumn, ExportSource } from '../export-source.ts';
import type { KV } from '../storage/kv.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { readCheckpoint, type Checkpoint } from './checkpoint.ts';
import {
  belongsTo,
  dayNumber,
  emptyList,
  listDocKey,
  listFor,
  ListSelection,
  parseListDoc,
  type DayRange,
} from './postings.ts';
import {
  auditStore,
  chainKey,
  DAY_MS,
  entryProblem,
  invTime,
  parseLogKey,
  RECENT,
  type Head,
  type KeyInfo,
} from './trail.ts';

/**
 * Reading the audit trail: Activity's pages and its CSV (docs/decisions/154-audit-trail.md).
 *
 * Entries up to the checkpoint (checkpoint.ts) are found in the postings lists
 * the check built from verified entries; the newer ones ("the tail", which the
 * scheduled check keeps short) from their index keys' names, listed newest
 * first until the listing passes the checkpoint's time. A page then reads
 * only the entries it shows, from the chain, and shows each one only if its
 * own HMAC holds and it is what the list or key said (kind, person, time):
 * an entry that fails is reported by position, never shown
 * (docs/decisions/154-audit-trail.md).
 *
 * Store calls for a page of N: the checkpoint (1), the tail's listing (1 per
 * 1,000 index keys newer than the checkpoint), the list (1, filters only), at
 * most 3 segments (filters only), and N entries.
 */

/**
 * How much older in time than the checkpoint's entry a newer entry's index key can be: an entry's time is
 * taken when its request starts, and a request runs at most 60 s (the function limit).
 */
const TAIL_MARGIN_MS = 5 * 60_000;

/** What a position must be: its kind, person and time (from an index key or the head's recent entries). */
type Known = Pick<KeyInfo, 'seq' | 'at' | 'kind' | 'actorId'> & { key?: string };

/**
 * The entries past the checkpoint, newest first (by position), from the head's list of the newest
 * entries (no listing) when it covers them all, which the scheduled check keeps so; otherwise from
 * the index keys' names, listed newest first until the listing passes the checkpoint's time. (The local
 * Blobs server reads every index key for any listing of them: at 100,000 entries, seconds a listing.)
 */
async function tail(s: KV, cp: Checkpoint): Promise<{ known: Known[]; newest: number }> {
  const head = (await s.get<Head>('head'))?.value;
  if (head && Number.isSafeInteger(head.seq) && head.seq >= cp.seq) {
    const wanted = head.seq - cp.seq;
    const recent = (head.recent ?? []).filter((r) => r[0] > cp.seq && r[0] <= head.seq);
    if (wanted <= RECENT && recent.length === wanted)
      return {
        known: recent.map(([seq, at, kind, actorId]) => ({ seq, at, kind, actorId })).reverse(),
        newest: head.seq,
      };
  }
  const known = await tailKeys(s, cp);
  return { known, newest: Math.max(cp.seq, known[0]?.seq ?? 0) };
}

/** Index keys of the entries past the checkpoint, newest first (by position). */
async function tailKeys(s: KV, cp: Checkpoint): Promise<KeyInfo[]> {
  const stopAt = cp.at ? Date.parse(cp.at) - TAIL_MARGIN_MS : null;
  const out: KeyInfo[] = [];
  for await (const page of s.keys('log/')) {
    let oldest = Infinity;
    for (const k of page) {
      const info = parseLogKey(k);
      if (!info) continue;
      oldest = Math.min(oldest, info.at);
      if (info.seq > cp.seq) out.push(info);
    }
    if (stopAt !== null && oldest < stopAt) break;
  }
  return out.sort((a, b) => b.seq - a.seq);
}

const dayStart = (d: string) => Date.parse(`${d}T00:00:00.000Z`);

function dayRangeOf(q: Pick<AuditQuery, 'from' | 'to'>): DayRange {
  return {
    from: q.from ? dayNumber(dayStart(q.from)) : null,
    to: q.to ? dayNumber(dayStart(q.to)) : null,
  };
}

const inDays = (r: DayRange, atMs: number) =>
  (r.from === null || dayNumber(atMs) >= r.from) && (r.to === null || dayNumber(atMs) <= r.to);

/** A position to show, and what it must be: what its index key or the head says, or the list and time it was listed under. */
interface Ref {
  seq: number;
  info?: Known;
  listed?: { list: string; atMs: number };
}

interface Selection {
  total: number;
  problems: AuditProblem[];
  window(start: number, n: number): Promise<Ref[]>;
  /** Forgets segments read so far (a long export). */
  release(): void;
}

type Filters = Pick<AuditQuery, 'actor' | 'kind' | 'from' | 'to'>;

/** The matching positions, newest first: the tail from index keys, then the list up to the checkpoint. */
async function select(q: Filters): Promise<Selection> {
  const s = auditStore();
  // A checkpoint that is not this server's counts as none: everything is read from the index keys (the check says so).
  const { cp } = await readCheckpoint(s);
  const { known: recent, newest } = await tail(s, cp);
  const range = dayRangeOf(q);
  const list = listFor(q);
  if (list === 'all' && range.from === null && range.to === null) {
    // Every position, newest first: no list needed.
    const infos = new Map(recent.map((i) => [i.seq, i]));
    return {
      total: newest,
      problems: [],
      window: (start, n) => {
        const out: Ref[] = [];
        for (let seq = newest - start; seq > 0 && out.length < n; seq--) {
          const info = infos.get(seq);
          out.push(info ? { seq, info } : { seq });
        }
        return Promise.resolve(out);
      },
      // Nothing read to forget.
      release: () => undefined,
    };
  }
  const fresh = recent.filter(
    (i) =>
      (q.kind === undefined || i.kind === q.kind) &&
      (q.actor === undefined || i.actorId === q.actor) &&
      inDays(range, i.at),
  );
  const problems: AuditProblem[] = [];
  let doc = emptyList(list);
  if (cp.seq > 0) {
    const raw = await s.get<unknown>(listDocKey(list));
    const parsed = raw ? parseListDoc(list, raw.value) : null;
    if (raw && !parsed) problems.push({ seq: cp.seq, reason: 'unreadable' });
    if (parsed) doc = parsed;
  }
  const indexed = await ListSelection.open(s, doc, cp.seq, range);
  return {
    get total() {
      return fresh.length + indexed.total;
    },
    problems: indexed.problems.length ? [...problems, ...indexed.problems] : problems,
    window: async (start, n) => {
      const out: Ref[] = fresh.slice(start, start + n).map((info) => ({ seq: info.seq, info }));
      if (out.length < n) {
        const from = Math.max(0, start - fresh.length);
        for (const [seq, atMs] of await indexed.window(from, n - out.length))
          out.push({ seq, listed: { list, atMs } });
      }
      return out;
    },
    release: () => indexed.release(),
  };
}

/** An entry fit to show at a position, or why not (docs/decisions/154-audit-trail.md). */
function checked(ref: Ref, raw: { value: unknown } | null): AuditEntry | AuditProblem {
  if (!raw) return { seq: ref.seq, reason: 'missing' };
  const parsed = AuditEntrySchema.safeParse(raw.value);
  if (!parsed.success) return { seq: ref.seq, reason: 'unreadable' };
  const e = parsed.data;
  const i = ref.info;
  const wrong =
    e.seq !== ref.seq ||
    entryProblem(e, i?.key ? (i as KeyInfo) : null) !== null ||
    (i !== undefined && (e.kind !== i.kind || (e.actorId ?? 0) !== i.actorId || Date.parse(e.at) !== i.at)) ||
    (ref.listed !== undefined && (!belongsTo(ref.listed.list, e) || Date.parse(e.at) !== ref.listed.atMs));
  return wrong ? { seq: ref.seq, reason: 'altered' } : e;
}

/** Reads the positions from the chain (`inFlight` at a time), in order, each checked. */
async function readChecked(refs: Ref[], inFlight = 16): Promise<(AuditEntry | AuditProblem)[]> {
  const s = auditStore();
  return mapLimit(refs, inFlight, async (ref) => checked(ref, await s.get<unknown>(chainKey(ref.seq))));
}

const isEntry = (x: AuditEntry | AuditProblem): x is AuditEntry => 'hash' in x;

/** One page of the Activity tab, newest first. Entries that fail their own check are listed in `problems`. */
export async function auditPage(q: AuditQuery): Promise<AuditPage> {
  const sel = await select(q);
  const shown = await readChecked(await sel.window((q.page - 1) * q.pageSize, q.pageSize));
  return {
    entries: shown.filter(isEntry),
    problems: [...sel.problems, ...shown.filter((x): x is AuditProblem => !isEntry(x))],
    total: sel.total,
    page: q.page,
    pageSize: q.pageSize,
  };
}

export const AUDIT_CSV_COLUMNS: readonly (string | ExportColumn)[] = [
  { name: 'time_utc', time: true },
  'person',
  'person_id',
  'action',
  'kind',
  'target_type',
  'target_id',
  'target',
  'details',
  'ip',
  'seq',
  'hash',
];

/** Rows read per window of an export (each window: at most 3 segment reads and this many entries). */
export const CSV_WINDOW = 500;

function csvRow(x: AuditEntry | AuditProblem): string[] {
  // An entry that fails its check is exported as a marked row, never with its (possibly forged) content.
  if (!isEntry(x))
    return [
      '',
      '',
      '',
      `Failed the integrity check (${x.reason})`,
      '',
      '',
      '',
      '',
      '',
      '',
      String(x.seq),
      '',
    ];
  const e = x;
  return [
    e.at,
    e.actorName,
    e.actorId === null ? '' : String(e.actorId),
    AUDIT_KIND_LABELS[e.kind],
    e.kind,
    e.target?.type ?? '',
    e.target?.id === null || e.target?.id === undefined ? '' : String(e.target.id),
    e.target?.label ?? '',
    Object.entries(e.details)
      .map(([k, v]) => `${k}: ${v}`)
      .join('; '),
    e.ip,
    String(e.seq),
    e.hash,
  ];
}

/**
 * Every matching entry as CSV rows, newest first, read CSV_WINDOW at a time: an export of any size holds
 * one window in memory (docs/decisions/155-inbox-and-staff-lists.md). The selection is made first, so the
 * export knows its row total (docs/decisions/156-exports.md).
 */
export async function auditExportSource(q: Filters, now = new Date()): Promise<ExportSource> {
  const sel = await select(q);
  return {
    filename: `activity-${now.toISOString().slice(0, 10)}.csv`,
    columns: AUDIT_CSV_COLUMNS,
    total: sel.total + sel.problems.length,
    async *rows() {
      for (let start = 0; start < sel.total; start += CSV_WINDOW) {
        const refs = await sel.window(start, CSV_WINDOW);
        for (const x of await readChecked(refs, 64)) yield csvRow(x);
        sel.release();
      }
      for (const p of sel.problems) yield csvRow(p);
    },
  };
}

// ---------------------------------------------------------------------------
// Key-name helpers kept for tools and tests

/**
 * The longest key prefix shared by every entry in [fromMs, toMs]: inverted
 * times of a range share their leading digits, so a date filter lists only a
 * slice of the index keys (a day lists at most ~1.2 days of keys).
 */
export function rangePrefix(fromMs: number | null, toMs: number | null): string {
  if (fromMs === null || toMs === null) return 'log/';
  const a = invTime(Math.max(0, toMs));
  const b = invTime(Math.max(0, fromMs));
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `log/${a.slice(0, i)}`;
}

/** Index keys of the matching entries, newest first, from key names alone (one listing of the range: O(n)). */
export async function matchingKeys(q: Filters): Promise<KeyInfo[]> {
  const fromMs = q.from ? dayStart(q.from) : null;
  const toMs = q.to ? dayStart(q.to) + DAY_MS - 1 : null;
  const prefix = rangePrefix(
    fromMs ?? (toMs !== null ? 0 : null),
    toMs ?? (fromMs !== null ? Date.now() + DAY_MS : null),
  );
  const out: KeyInfo[] = [];
  for await (const page of auditStore().keys(prefix)) {
    for (const k of page) {
      const info = parseLogKey(k);
      if (!info) continue;
      if (q.kind && info.kind !== q.kind) continue;
      if (q.actor !== undefined && info.actorId !== q.actor) continue;
      if (fromMs !== null && info.at < fromMs) continue;
      if (toMs !== null && info.at > toMs) continue;
      out.push(info);
    }
  }
  return out.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
}
