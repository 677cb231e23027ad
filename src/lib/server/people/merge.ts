import { HttpError } from '../errors.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { refreshEffective } from './consent.ts';
import { mergeKey, personKey, QUEUE_PREFIX, queueKey } from './keys.ts';
import { getPerson, notePerson, people, retries, type Person } from './person.ts';

/**
 * The merge queue, merge and undo (docs/decisions/149-people.md). A merge moves nothing: the merged person keeps
 * its record, lookups and timeline and points at the person kept (`mergedInto`), who lists it (`merged`); the kept
 * person's timeline and consent read both. Undo clears the two pointers, so both timelines are exactly as before.
 * `merge/<merged id>` is the journal: created first (one merge of a person at a time), deleted last by undo.
 */

export interface QueueEntry {
  key: string;
  a: string;
  b: string;
  at: string;
  reason: string;
}

/** The merge queue, oldest first, a page at a time (one listing per 1,000 entries, a read per entry shown). */
export async function mergeQueue(page = 1, size = 50): Promise<{ entries: QueueEntry[]; total: number }> {
  const keys: string[] = [];
  for await (const p of people().keys(QUEUE_PREFIX)) keys.push(...p);
  const shown = keys.slice((page - 1) * size, page * size);
  const read = await mapLimit(shown, 16, async (k) => {
    const r = await people().get<Omit<QueueEntry, 'key'>>(k);
    return r ? { key: k, ...r.value } : null;
  });
  return { entries: read.filter((e) => e !== null), total: keys.length };
}

interface MergeJournal {
  into: string;
  at: string;
  by: number;
}

async function setPerson(id: string, change: (p: Person) => Person): Promise<Person> {
  const again = retries();
  for (let attempt = 0; await again(attempt); attempt++) {
    const cur = await getPerson(id);
    if (!cur) throw new HttpError(404, 'Person not found');
    const next = { ...change(cur.value), rev: cur.value.rev + 1 };
    if (await people().replace(personKey(id), next, cur.etag)) return next;
  }
  throw new HttpError(409, 'This person was changed by someone else. Reload and try again.');
}

/** Merges `mergeId` into `keepId`. */
export async function mergePeople(keepId: string, mergeId: string, by: number, now = new Date()) {
  if (keepId === mergeId) throw new HttpError(400, 'Choose two different people to merge');
  const [keep, gone] = await Promise.all([getPerson(keepId), getPerson(mergeId)]);
  if (!keep || !gone) throw new HttpError(404, 'Person not found');
  if (keep.value.mergedInto || gone.value.mergedInto)
    throw new HttpError(409, 'One of these people is already merged into someone else');
  if (gone.value.merged.length)
    throw new HttpError(409, 'Undo the merges into this person first, or keep this person instead');
  const journal: MergeJournal = { into: keepId, at: now.toISOString(), by };
  if (!(await people().create(mergeKey(mergeId), journal)))
    throw new HttpError(409, 'This person is already being merged');
  const merged = await setPerson(mergeId, (p) => ({ ...p, mergedInto: keepId }));
  const kept = await setPerson(keepId, (p) => ({
    ...p,
    merged: p.merged.includes(mergeId) ? p.merged : [...p.merged, mergeId],
  }));
  await refreshEffective(keepId);
  await Promise.all([people().delete(queueKey(keepId, mergeId)), people().delete(queueKey(mergeId, keepId))]);
  await notePerson(merged);
  await notePerson((await getPerson(keepId))?.value ?? kept);
  return { kept: keepId, merged: mergeId };
}

/** Undoes the merge of `mergedId`: both people as they were, timelines untouched. */
export async function undoMerge(mergedId: string) {
  const j = await people().get<MergeJournal>(mergeKey(mergedId));
  if (!j) throw new HttpError(404, 'This person is not merged');
  const keepId = j.value.into;
  await setPerson(keepId, (p) => ({ ...p, merged: p.merged.filter((x) => x !== mergedId) }));
  const merged = await setPerson(mergedId, (p) => ({ ...p, mergedInto: null }));
  await refreshEffective(keepId);
  await people().delete(mergeKey(mergedId));
  await notePerson(merged);
  const kept = await getPerson(keepId);
  if (kept) await notePerson(kept.value);
  return { kept: keepId, restored: mergedId };
}
