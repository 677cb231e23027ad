import type { AuditEntry, AuditProblem } from '../../schemas/audit.ts';
import { key } from '../storage/keys.ts';
import type { KV } from '../storage/kv.ts';
import { DAY_MS } from './trail.ts';

/**
 * The per-filter lists of the audit trail ("postings"), built by the
 * incremental check from entries it has just verified (checkpoint.ts), so
 * Activity's filtered pages read only the positions they show
 * (docs/decisions/154-audit-trail.md).
 *
 * Every entry is in four lists: `all`, `kind:<kind>`, `actor:<id>` and
 * `actor:<id>:<kind>` (id 0: nobody signed in). A list is one small document
 * (`postings/<list>`: its count, its newest items, and a reference per sealed
 * segment with how many items fall on each UTC day) plus immutable segments of
 * SEGMENT_ITEMS items (`segments/<list>/<n>`). An item is `[seq, time in ms]`,
 * never the entry: the chain keeps the one copy, and a page reads the entries
 * it shows from there and checks each one.
 *
 * The lists are an index, not evidence: a page checks every entry it shows
 * against the list it came from (kind, person, time), and the full
 * verification (verification.ts) checks the lists against the chain, so a list
 * that leaves an entry out is found there, as a deleted index key always was.
 */

export const SEGMENT_ITEMS = 1000;

/** `[seq, time in ms]`, ascending by seq. */
export type Item = [seq: number, atMs: number];

/** A sealed segment: its number, first and last position, and its items per UTC day (day number, count). */
export interface SealedRef {
  n: number;
  first: number;
  last: number;
  days: [day: number, count: number][];
}

export interface ListDoc {
  v: 1;
  list: string;
  count: number;
  sealed: SealedRef[];
  /** The newest items, fewer than SEGMENT_ITEMS. */
  open: Item[];
}

export interface Segment {
  list: string;
  n: number;
  items: Item[];
}

export const listDocKey = (list: string) => key('postings', list);
// Segments under their own prefix: a key is never both a document and a folder (the local Blobs server keeps
// each key as a file).
export const segmentKey = (list: string, n: number) => key('segments', list, String(n).padStart(7, '0'));
export const emptyList = (list: string): ListDoc => ({ v: 1, list, count: 0, sealed: [], open: [] });
export const dayNumber = (ms: number) => Math.floor(ms / DAY_MS);

/** The lists an entry belongs to. */
export function listsOf(e: Pick<AuditEntry, 'kind' | 'actorId'>): string[] {
  const actor = e.actorId ?? 0;
  return ['all', `kind:${e.kind}`, `actor:${actor}`, `actor:${actor}:${e.kind}`];
}

/** The one list that answers a person and/or kind filter. */
export function listFor(q: { actor?: number | undefined; kind?: string | undefined }): string {
  if (q.actor !== undefined && q.kind) return `actor:${q.actor}:${q.kind}`;
  if (q.actor !== undefined) return `actor:${q.actor}`;
  if (q.kind) return `kind:${q.kind}`;
  return 'all';
}

/** Whether an entry belongs in a list (what a page checks of every entry it shows). */
export const belongsTo = (list: string, e: Pick<AuditEntry, 'kind' | 'actorId'>) => listsOf(e).includes(list);

const isItem = (x: unknown): x is Item =>
  Array.isArray(x) && x.length === 2 && Number.isSafeInteger(x[0]) && x[0] > 0 && Number.isSafeInteger(x[1]);

/** A stored list document, or null when it is not one (missing or damaged). */
export function parseListDoc(list: string, raw: unknown): ListDoc | null {
  const d = raw as Partial<ListDoc> | null;
  if (d?.v !== 1 || d.list !== list || !Number.isSafeInteger(d.count)) return null;
  if (!Array.isArray(d.open) || !d.open.every(isItem) || !Array.isArray(d.sealed)) return null;
  const refsOk = d.sealed.every(
    (r, i) =>
      r !== null &&
      typeof r === 'object' &&
      r.n === i &&
      Number.isSafeInteger(r.first) &&
      Number.isSafeInteger(r.last) &&
      Array.isArray(r.days),
  );
  return refsOk ? (d as ListDoc) : null;
}

/** A stored segment's items when it is the one its reference names, else null. */
export function parseSegment(list: string, ref: SealedRef, raw: unknown): Item[] | null {
  const s = raw as Partial<Segment> | null;
  if (s?.list !== list || s.n !== ref.n || !Array.isArray(s.items)) return null;
  const items = s.items;
  if (items.length !== SEGMENT_ITEMS || !items.every(isItem)) return null;
  if (items[0]![0] !== ref.first || items.at(-1)![0] !== ref.last) return null;
  return items;
}

export const lastSeqOf = (d: ListDoc): number => d.open.at(-1)?.[0] ?? d.sealed.at(-1)?.last ?? 0;

function dayCounts(items: readonly Item[]): [number, number][] {
  const m = new Map<number, number>();
  for (const [, at] of items) m.set(dayNumber(at), (m.get(dayNumber(at)) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => a[0] - b[0]);
}

/**
 * Adds items to a list (pure): those past the list's last position, in order;
 * full segments are sealed off. Idempotent: items already there are skipped, so
 * two checks folding the same entries agree. Null when nothing changes.
 */
export function mergeItems(
  doc: ListDoc,
  items: readonly Item[],
): { doc: ListDoc; segments: Segment[] } | null {
  const last = lastSeqOf(doc);
  const fresh = items.filter(([seq]) => seq > last).sort((a, b) => a[0] - b[0]);
  if (!fresh.length) return null;
  const open = [...doc.open, ...fresh];
  const sealed = [...doc.sealed];
  const segments: Segment[] = [];
  while (open.length >= SEGMENT_ITEMS) {
    const part = open.splice(0, SEGMENT_ITEMS);
    const n = sealed.length;
    segments.push({ list: doc.list, n, items: part });
    sealed.push({ n, first: part[0]![0], last: part.at(-1)![0], days: dayCounts(part) });
  }
  return { doc: { ...doc, count: doc.count + fresh.length, sealed, open }, segments };
}

// ---------------------------------------------------------------------------
// Reading a list: a count and any window of it, newest first, reading only the
// segments the window touches.

/** Whole UTC days, both ends included (day numbers); null ends are open. */
export interface DayRange {
  from: number | null;
  to: number | null;
}

const inRange = (r: DayRange, atMs: number) => {
  const d = dayNumber(atMs);
  return (r.from === null || d >= r.from) && (r.to === null || d <= r.to);
};

interface Part {
  /** Matching items, newest first, once known. */
  items: Item[] | null;
  count: number;
  ref?: SealedRef;
}

/**
 * The items of a list up to `through` (the checkpoint: items past it are
 * still shown from their index keys) in a day range, newest first. Counting
 * reads nothing beyond the list document (a sealed segment's items per day are
 * in its reference); a window reads the segments it touches (at most three for
 * any window of up to SEGMENT_ITEMS items). A segment that is missing or not
 * what its reference names is reported, and its items are left out.
 */
export class ListSelection {
  private readonly parts: Part[] = [];
  readonly problems: AuditProblem[] = [];
  segmentReads = 0;

  private readonly store: KV;
  private readonly doc: ListDoc;
  private readonly through: number;
  private readonly range: DayRange;

  private constructor(store: KV, doc: ListDoc, through: number, range: DayRange) {
    this.store = store;
    this.doc = doc;
    this.through = through;
    this.range = range;
  }

  static async open(store: KV, doc: ListDoc, through: number, range: DayRange): Promise<ListSelection> {
    const sel = new ListSelection(store, doc, through, range);
    await sel.build();
    return sel;
  }

  private keep = ([seq, at]: Item) => seq <= this.through && inRange(this.range, at);

  private async build(): Promise<void> {
    const open = this.doc.open.filter(this.keep).reverse();
    this.parts.push({ items: open, count: open.length });
    for (const ref of [...this.doc.sealed].reverse()) {
      if (ref.first > this.through) continue;
      if (ref.last <= this.through) {
        const count = ref.days.reduce(
          (n, [d, c]) =>
            (this.range.from === null || d >= this.range.from) &&
            (this.range.to === null || d <= this.range.to)
              ? n + c
              : n,
          0,
        );
        if (count) this.parts.push({ items: null, count, ref });
        continue;
      }
      // Partly past the checkpoint (a check that stopped between its writes): counted from its items.
      const items = await this.load(ref);
      if (items.length) this.parts.push({ items, count: items.length, ref });
    }
  }

  get total(): number {
    return this.parts.reduce((n, p) => n + p.count, 0);
  }

  private async load(ref: SealedRef): Promise<Item[]> {
    this.segmentReads += 1;
    const raw = await this.store.get<unknown>(segmentKey(this.doc.list, ref.n));
    const items = raw ? parseSegment(this.doc.list, ref, raw.value) : null;
    if (!items) {
      this.problems.push({ seq: ref.first, reason: raw ? 'unreadable' : 'missing' });
      return [];
    }
    return items.filter(this.keep).reverse();
  }

  /** Items `start` .. `start + n - 1` (newest first). */
  async window(start: number, n: number): Promise<Item[]> {
    const out: Item[] = [];
    let offset = 0;
    for (const part of this.parts) {
      if (out.length >= n) break;
      const end = offset + part.count;
      if (end > start) {
        part.items ??= await this.load(part.ref!);
        const from = Math.max(0, start - offset);
        out.push(...part.items.slice(from, from + (n - out.length)));
      }
      offset = end;
    }
    return out;
  }

  /** Drops materialised sealed segments (a long export keeps only what it is reading). */
  release(): void {
    for (const p of this.parts) if (p.ref) p.items = null;
  }
}
