import { ArticleInputSchema, ArticleSchema, type Article } from '../../schemas/article.ts';
import { EventInputSchema, EventSchema, type CampaignEvent } from '../../schemas/event.ts';
import {
  RevisionSchema,
  TRASH_DAYS,
  TrashEntrySchema,
  type HistoryKind,
  type Revision,
  type RevisionAction,
  type RevisionSummary,
  type TrashEntry,
  type TrashSummary,
} from '../../schemas/history.ts';
import type { Actor } from '../audit/audit.ts';
import { HttpError } from '../errors.ts';
import { PAGE_SIZE_MAX, type Page, type PageQuery } from '../../schemas/paging.ts';
import { key } from '../storage/keys.ts';
import type { KV, StoreName } from '../storage/kv.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { kv } from '../storage/stores.ts';
import { articles, deleteArticle, laterStamp, restoreDeletedArticle, updateArticle } from './articles.ts';
import { deleteEvent, events, updateEvent } from './events.ts';
import { BUSY_MESSAGE } from '../storage/compare-and-set.ts';

/**
 * Revisions and Trash for articles and events (docs/decisions/161-content-and-editor.md), kept in the
 * record's own store:
 * - `rev/<id>/<n>`: every saved version (whole record, who, when, what
 *   changed), created with onlyIfNew so two saves never share a number.
 * - `trash/<id>`: a deleted record, restorable by an admin for TRASH_DAYS.
 * Records are never reused under another id (ids come from a counter), so
 * a restored record keeps its id and its history.
 */

type AnyRecord = Article | CampaignEvent;

const STORES: Record<HistoryKind, StoreName> = { article: 'articles', event: 'events' };
const store = (kind: HistoryKind): KV => kv(STORES[kind]);
const N_DIGITS = 6;
const revKey = (id: number, n: number) => key('rev', id, String(n).padStart(N_DIGITS, '0'));
const trashKey = (id: number) => key('trash', id);
export const TRASH_MS = TRASH_DAYS * 24 * 60 * 60 * 1000;

/** Fields that say nothing about the content: left out of "what changed". */
const BOOKKEEPING = new Set(['id', 'createdAt', 'updatedAt']);

export function changedFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown>,
): string[] {
  if (!before) return [];
  return Object.keys(after)
    .filter((k) => !BOOKKEEPING.has(k))
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}

async function revisionNumbers(kind: HistoryKind, id: number): Promise<number[]> {
  const out: number[] = [];
  for await (const page of store(kind).keys(`${key('rev', id)}/`)) {
    for (const k of page) {
      const n = Number(k.split('/').pop());
      if (Number.isSafeInteger(n) && n > 0) out.push(n);
    }
  }
  return out.sort((a, b) => a - b);
}

export async function getRevision(kind: HistoryKind, id: number, n: number): Promise<Revision | null> {
  const r = await store(kind).get<unknown>(revKey(id, n));
  const parsed = r ? RevisionSchema.safeParse(r.value) : null;
  return parsed?.success ? parsed.data : null;
}

/**
 * Keeps a saved version. When the record has no history yet (it predates
 * revisions) and the version before is known, that one is kept first, so
 * the first save under history loses nothing.
 */
export async function recordRevision(
  kind: HistoryKind,
  record: AnyRecord,
  actor: Actor | null,
  action: RevisionAction,
  before: AnyRecord | null = null,
  restoredFrom: number | null = null,
  now = new Date(),
): Promise<Revision> {
  const s = store(kind);
  // A new record has no history yet: skip the listing (a taken number still falls back to it below).
  const numbers = action === 'create' ? [] : await revisionNumbers(kind, record.id);
  let last = numbers.at(-1) ?? 0;
  let previous: Record<string, unknown> | null = last
    ? ((await getRevision(kind, record.id, last))?.snapshot ?? null)
    : null;
  if (!last && before) {
    const baseline: Revision = {
      n: 1,
      at: before.updatedAt,
      actorId: null,
      actorName: '',
      action: 'baseline',
      restoredFrom: null,
      changed: [],
      snapshot: { ...before },
    };
    if (await s.create(revKey(record.id, 1), baseline)) last = 1;
    previous = { ...before };
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    const rev: Revision = {
      n: last + 1,
      at: now.toISOString(),
      actorId: actor?.id ?? null,
      actorName: actor?.username ?? '',
      action,
      restoredFrom,
      changed: changedFields(previous, record),
      snapshot: { ...record },
    };
    if (await s.create(revKey(record.id, rev.n), rev)) return rev;
    last += 1; // someone else saved in between: take the next number
    previous = (await getRevision(kind, record.id, last))?.snapshot ?? previous;
  }
  throw new HttpError(409, BUSY_MESSAGE);
}

/**
 * One page of the kept versions, newest first, without the record bodies: a listing of the version
 * numbers (one call per 1,000) and the page's versions (docs/decisions/155-inbox-and-staff-lists.md).
 */
export async function listRevisions(
  kind: HistoryKind,
  id: number,
  query: PageQuery = { page: 1, pageSize: PAGE_SIZE_MAX },
): Promise<Page<'revisions', RevisionSummary>> {
  const numbers = (await revisionNumbers(kind, id)).reverse();
  const start = (query.page - 1) * query.pageSize;
  const revs = await mapLimit(numbers.slice(start, start + query.pageSize), 16, (n) =>
    getRevision(kind, id, n),
  );
  return {
    revisions: revs
      .filter((r): r is Revision => r !== null)
      .map(({ snapshot: _snapshot, ...summary }) => summary),
    total: numbers.length,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** The record as it is now (null when deleted). */
export function currentRecord(kind: HistoryKind, id: number): Promise<AnyRecord | null> {
  return kind === 'article' ? articles.get(id) : events.get(id);
}

/** Saves an article edit and keeps the version. */
export async function updateArticleWithHistory(
  id: number,
  input: Parameters<typeof updateArticle>[1],
  actor: Actor,
): Promise<{ before: Article; after: Article; revision: Revision }> {
  const before = await articles.get(id);
  if (!before) throw new HttpError(404, 'Article not found');
  const after = await updateArticle(id, input);
  const revision = await recordRevision('article', after, actor, 'update', before);
  return { before, after, revision };
}

/** Saves an event edit and keeps the version. */
export async function updateEventWithHistory(
  id: number,
  input: Parameters<typeof updateEvent>[1],
  actor: Actor,
): Promise<{ before: CampaignEvent; after: CampaignEvent; revision: Revision }> {
  const before = await events.get(id);
  if (!before) throw new HttpError(404, 'Event not found');
  const after = await updateEvent(id, input);
  const revision = await recordRevision('event', after, actor, 'update', before);
  return { before, after, revision };
}

/**
 * Restores an earlier version as a new save (a new revision that says which
 * one it brought back). The current slug rules apply: 409 if another article
 * took the old slug since.
 */
export async function restoreRevision(
  kind: HistoryKind,
  id: number,
  n: number,
  actor: Actor,
): Promise<{ before: AnyRecord; after: AnyRecord; revision: Revision }> {
  const rev = await getRevision(kind, id, n);
  if (!rev) throw new HttpError(404, 'Revision not found');
  if (kind === 'article') {
    const snap = ArticleSchema.parse(rev.snapshot);
    const before = await articles.get(id);
    if (!before) throw new HttpError(404, 'Article not found');
    const input = ArticleInputSchema.parse({
      title: snap.title,
      slug: snap.slug,
      content: snap.content,
      excerpt: snap.excerpt,
      imageUrl: snap.imageUrl,
      author: snap.author,
      isPublished: snap.isPublished,
      publishedAt: snap.publishedAt,
    });
    const after = await updateArticle(id, input);
    return { before, after, revision: await recordRevision(kind, after, actor, 'restore', before, n) };
  }
  const snap = EventSchema.parse(rev.snapshot);
  const before = await events.get(id);
  if (!before) throw new HttpError(404, 'Event not found');
  // Translations are not part of the restore: the current ones stay (and show stale if the English changed).
  const { id: _id, createdAt: _c, updatedAt: _u, translations: _t, ...fields } = snap;
  const after = await updateEvent(id, EventInputSchema.parse(fields));
  return { before, after, revision: await recordRevision(kind, after, actor, 'restore', before, n) };
}

// ---------------------------------------------------------------------------
// Trash

/**
 * Deletes a record, keeping a copy in the Trash first (if the delete then
 * fails, the copy is harmless: restoring a record that exists answers 409).
 */
export async function deleteToTrash(
  kind: HistoryKind,
  id: number,
  actor: Actor,
  now = new Date(),
): Promise<AnyRecord> {
  const record = await currentRecord(kind, id);
  if (!record) throw new HttpError(404, kind === 'article' ? 'Article not found' : 'Event not found');
  const entry: TrashEntry = {
    kind,
    id,
    title: record.title,
    deletedAt: now.toISOString(),
    deletedById: actor.id,
    deletedByName: actor.username,
    record: { ...record },
  };
  await store(kind).put(trashKey(id), entry);
  await store(kind).put(trashedKey(id, entry.deletedAt), {});
  if (kind === 'article') await deleteArticle(id);
  else await deleteEvent(id);
  return record;
}

/**
 * The Trash's order (docs/decisions/155-inbox-and-staff-lists.md): beside `trash/<id>`, a key
 * `trashed/<inverted deletion time>+<id>` whose name alone says when, so a page lists the names (newest
 * first) and reads only its own entries. Entries deleted before these keys existed get theirs the first
 * time the Trash is listed.
 */
const trashedKey = (id: number, deletedAt: string) =>
  key('trashed', `${String(9_999_999_999_999 - Date.parse(deletedAt)).padStart(13, '0')}+${id}`);
const TRASHED = /^trashed\/(\d{13})\+(\d+)$/;

interface Trashed {
  kind: HistoryKind;
  id: number;
  deletedAt: number;
  key: string;
}

async function trashedOf(kind: HistoryKind): Promise<Trashed[]> {
  const s = store(kind);
  const out: Trashed[] = [];
  for await (const page of s.keys('trashed/'))
    for (const k of page) {
      const m = TRASHED.exec(k);
      if (m) out.push({ kind, id: Number(m[2]), deletedAt: 9_999_999_999_999 - Number(m[1]), key: k });
    }
  // Older entries without an order key: read once, and given one.
  const known = new Set(out.map((t) => t.id));
  const older: number[] = [];
  for await (const page of s.keys('trash/'))
    for (const k of page) {
      const id = Number(k.slice('trash/'.length));
      if (Number.isSafeInteger(id) && !known.has(id)) older.push(id);
    }
  for (const id of older) {
    const v = await s.get<unknown>(trashKey(id));
    const parsed = v ? TrashEntrySchema.safeParse(v.value) : null;
    if (!parsed?.success) continue;
    const k = trashedKey(id, parsed.data.deletedAt);
    await s.put(k, {});
    out.push({ kind, id, deletedAt: Date.parse(parsed.data.deletedAt), key: k });
  }
  return out;
}

const expiresAt = (e: Pick<TrashEntry, 'deletedAt'>) => new Date(Date.parse(e.deletedAt) + TRASH_MS);

/** Expired entries removed per listing (the rest on the next one). */
const EXPIRE_BATCH = 20;

/**
 * One page of what can still be restored, newest deletion first: the order keys of both stores (two
 * listings, plus two for entries older than them), then only the page's entries. Expired entries are
 * removed on the way.
 */
export async function listTrash(
  now = new Date(),
  query: PageQuery = { page: 1, pageSize: PAGE_SIZE_MAX },
): Promise<Page<'items', TrashSummary>> {
  const all = [...(await trashedOf('article')), ...(await trashedOf('event'))].sort(
    (a, b) => b.deletedAt - a.deletedAt || b.id - a.id,
  );
  const expired = all.filter((t) => t.deletedAt + TRASH_MS <= now.getTime());
  await mapLimit(expired.slice(0, EXPIRE_BATCH), 8, async (t) => {
    await store(t.kind)
      .delete(trashKey(t.id))
      .catch(() => undefined);
    await store(t.kind)
      .delete(t.key)
      .catch(() => undefined);
  });
  const live = all.filter((t) => t.deletedAt + TRASH_MS > now.getTime());
  const start = (query.page - 1) * query.pageSize;
  const entries = await mapLimit(live.slice(start, start + query.pageSize), 16, async (t) => {
    const v = await store(t.kind).get<unknown>(trashKey(t.id));
    const parsed = v ? TrashEntrySchema.safeParse(v.value) : null;
    return parsed?.success ? parsed.data : null;
  });
  const items = entries
    .filter((e): e is TrashEntry => e !== null)
    .map(({ record: _record, ...summary }) => ({ ...summary, expiresAt: expiresAt(summary).toISOString() }));
  return { items, total: live.length, page: query.page, pageSize: query.pageSize };
}

/** Brings a deleted record back under its old id (a new revision says so). 410 once the 30 days have passed. */
export async function restoreFromTrash(
  kind: HistoryKind,
  id: number,
  actor: Actor,
  now = new Date(),
): Promise<AnyRecord> {
  const s = store(kind);
  const found = await s.get<unknown>(trashKey(id));
  const parsed = found ? TrashEntrySchema.safeParse(found.value) : null;
  if (!parsed?.success) throw new HttpError(404, 'Not in the Trash');
  const entry = parsed.data;
  if (expiresAt(entry).getTime() <= now.getTime())
    throw new HttpError(410, `Items stay in the Trash for ${TRASH_DAYS} days; this one has expired`);
  let restored: AnyRecord;
  if (kind === 'article') {
    restored = await restoreDeletedArticle(ArticleSchema.parse(entry.record), now);
  } else {
    const event = EventSchema.parse(entry.record);
    const back: CampaignEvent = { ...event, updatedAt: laterStamp(now, event.updatedAt) };
    if (!(await events.createWithId(back))) throw new HttpError(409, 'This event already exists');
    restored = back;
  }
  await s.delete(trashKey(id));
  await s.delete(trashedKey(id, entry.deletedAt));
  await recordRevision(kind, restored, actor, 'trash-restore', null, null, now);
  return restored;
}
