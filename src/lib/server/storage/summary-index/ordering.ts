import type { ChunkRef, SummaryRecord, SummarySpec } from './spec.ts';

/** Newest-first order of summaries, and which chunk's range a summary falls in. */

export const sortKey = <S extends SummaryRecord>(spec: SummarySpec<S>, s: S) => `${spec.at(s)}\u0000${s.id}`;

/**
 * Sorts `rows` newest first, in place (stable). Each row's sort key is made once: a comparator making
 * them made two strings a comparison, 3.4 million for a base of 100,000.
 */
export function sortNewestFirst<S extends SummaryRecord>(spec: SummarySpec<S>, rows: S[]): S[] {
  const keyed = rows.map((s) => ({ s, k: sortKey(spec, s) }));
  keyed.sort((a, b) => (a.k < b.k ? 1 : a.k > b.k ? -1 : 0));
  keyed.forEach(({ s }, i) => (rows[i] = s));
  return rows;
}

export function latestById<S extends SummaryRecord>(
  spec: SummarySpec<S>,
  summaries: Iterable<S>,
): Map<string, S> {
  const out = new Map<string, S>();
  for (const s of summaries) {
    const had = out.get(s.id);
    if (!had || spec.v(s) > spec.v(had)) out.set(s.id, s);
  }
  return out;
}

/** The chunk whose range holds a sort key, or -1 (between chunks, or outside them all). */
export function coveringChunk(chunks: readonly ChunkRef[], sk: string): number {
  // Chunks are newest first and do not overlap: binary search on `last`.
  let lo = 0;
  let hi = chunks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = chunks[mid]!;
    if (sk > c.first) hi = mid - 1;
    else if (sk < c.last) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** Where a summary no chunk covers goes: the chunk just newer than it (the first chunk if none). */
export function homeChunk(chunks: readonly ChunkRef[], sk: string): number {
  let i = 0;
  while (i < chunks.length - 1 && sk < chunks[i]!.last) i++;
  return i;
}
