import type { z } from 'zod';
import {
  BUSY_MESSAGE,
  ConflictError,
  StoreUnavailableError,
  bumpCounter,
  key,
  kv,
  nextId,
  readAll,
  update,
  upsert,
  type KV,
  type StoreName,
} from '../store.ts';

/**
 * A small repository for numeric-id records: one key per record
 * (`[ns/]record/<id>`) plus a maintained index document (`[ns/]index`) holding
 * every record of the collection, and optional derived "views" (one blob
 * each, e.g. the public news feed). Public lists read one blob per request,
 * never one per record. Design and failure modes:
 * docs/decisions/015-content-collections-articles-events-social.md.
 *
 * Two classes: `CollectionReader` reads views and the index and needs no
 * record schema, so the public read functions load neither zod nor the
 * schema modules (docs/decisions/061-functions-that-start-fast.md);
 * `Collection` adds the schema, the writes and the validated index rebuild.
 */

/** Where a collection lives and what is derived from it: all a public read needs. */
export interface CollectionLayout<T extends { id: number }> {
  store: StoreName;
  /** Key namespace when a store holds several collections (e.g. 'metric' in 'progress'). */
  namespace?: string;
  /** Counter name for nextId (unique across the site). */
  counter: string;
  /** Records that must always exist (fixed ids): created when the collection is found empty or an update targets one. */
  defaults?: () => T[];
  /** Derived documents kept next to the index, recomputed after every index change. */
  views?: Record<string, (items: T[]) => unknown>;
}

export interface CollectionOptions<T extends { id: number }> extends CollectionLayout<T> {
  /** Records read back one by one are parsed with this; invalid ones are treated as missing. */
  schema: z.ZodType<T>;
}

export interface IndexDoc<T> {
  /** Monotonic revision (about Date.now()): a view never goes back to an older index. */
  rev: number;
  items: T[];
}

interface ViewDoc {
  rev: number;
  data: unknown;
}

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

const isIndexDoc = <T>(value: unknown): value is IndexDoc<T> =>
  typeof value === 'object' && value !== null && Array.isArray((value as { items?: unknown }).items);

/** The shape every stored record has; the reader checks only this (the schema is Collection's). */
const isRecordLike = <T extends { id: number }>(value: unknown): value is T =>
  typeof value === 'object' &&
  value !== null &&
  Number.isSafeInteger((value as { id?: unknown }).id) &&
  (value as { id: number }).id > 0;

/**
 * Reads a collection's views and index without its record schema. The index
 * and the views are written only from records the schema has parsed (or from
 * the collection's own defaults), so they are served as stored. When the index
 * is missing and records exist (it was dropped after a failed write), the
 * reader answers from the records, checking only their shape, and writes
 * nothing: the validated rebuild that keeps a new index is Collection's, run by
 * the next admin read or write. With no records at all it keeps an index of the
 * defaults (or an empty one), which needs no validation.
 */
export class CollectionReader<T extends { id: number }> {
  protected readonly layout: CollectionLayout<T>;

  // No parameter property: this file also runs under Node's type stripping (scripts/bench).
  constructor(layout: CollectionLayout<T>) {
    this.layout = layout;
  }

  protected get kv(): KV {
    return kv(this.layout.store);
  }

  protected k(...parts: (string | number)[]): string {
    return this.layout.namespace ? key(this.layout.namespace, ...parts) : key(...parts);
  }

  recordKey(id: number): string {
    return this.k('record', id);
  }

  protected get indexKey(): string {
    return this.k('index');
  }

  protected viewKey(name: string): string {
    return this.k('view', name);
  }

  protected derivation(name: string): (items: T[]) => unknown {
    const derive = this.layout.views?.[name];
    if (!derive) throw new Error(`Unknown view ${name}`);
    return derive;
  }

  /** Every record, from the index (one blob read); see the class comment when it is missing. */
  async list(): Promise<T[]> {
    return (await this.index()).items;
  }

  async index(): Promise<IndexDoc<T>> {
    const cur = await this.kv.get<unknown>(this.indexKey);
    if (cur && isIndexDoc<T>(cur.value)) return cur.value;
    return (await this.unindexed()).doc;
  }

  /** A derived document (one blob read); derived from the index when missing. */
  async view<V>(name: string): Promise<V> {
    const derive = this.derivation(name);
    const cur = await this.kv.get<ViewDoc>(this.viewKey(name));
    if (cur?.value && 'data' in cur.value) return cur.value.data as V;
    const indexed = await this.kv.get<unknown>(this.indexKey);
    const { doc, kept } =
      indexed && isIndexDoc<T>(indexed.value) ? { doc: indexed.value, kept: true } : await this.unindexed();
    const data = derive(doc.items);
    // Best effort: whoever writes first wins; a later index change rewrites it.
    if (kept)
      await this.kv.create(this.viewKey(name), { rev: doc.rev, data } satisfies ViewDoc).catch(() => false);
    return data as V;
  }

  /** No index: see the class comment. `kept` says whether the returned index is now stored. */
  private async unindexed(): Promise<{ doc: IndexDoc<T>; kept: boolean }> {
    const records = (await readAll<unknown>(this.kv, `${this.k('record')}/`)).filter(isRecordLike<T>);
    if (records.length > 0) {
      console.warn(`[collection ${this.layout.counter}] no index: answered from the records`);
      return { doc: { rev: 0, items: records.sort(byId) }, kept: false };
    }
    const doc: IndexDoc<T> = { rev: Date.now(), items: [...(this.layout.defaults?.() ?? [])].sort(byId) };
    if (await this.kv.create(this.indexKey, doc).catch(() => false)) return { doc, kept: true };
    // Someone else wrote an index in the meantime: theirs wins.
    const cur = await this.kv.get<unknown>(this.indexKey);
    return cur && isIndexDoc<T>(cur.value) ? { doc: cur.value, kept: true } : { doc, kept: false };
  }
}

class IndexMissing extends Error {}

const nextRev = (prev: number) => Math.max(prev + 1, Date.now());

export class Collection<T extends { id: number }> extends CollectionReader<T> {
  private readonly options: CollectionOptions<T>;

  constructor(options: CollectionOptions<T>) {
    super(options);
    this.options = options;
  }

  private parse(value: unknown): T | null {
    const r = this.options.schema.safeParse(value);
    return r.success ? r.data : null;
  }

  /** One record, strongly consistent, from its own key. */
  async get(id: number): Promise<T | null> {
    const r = await this.kv.get<unknown>(this.recordKey(id));
    return r ? this.parse(r.value) : null;
  }

  /** Every record, from the index (one blob read); rebuilt from the parsed records when missing. */
  override async index(): Promise<IndexDoc<T>> {
    const cur = await this.kv.get<unknown>(this.indexKey);
    if (cur && isIndexDoc<T>(cur.value)) return cur.value;
    const { doc } = await this.rebuild();
    return doc;
  }

  /** A derived document (one blob read); re-derived from the index (rebuilt if missing) when missing. */
  override async view<V>(name: string): Promise<V> {
    const derive = this.derivation(name);
    const cur = await this.kv.get<ViewDoc>(this.viewKey(name));
    if (cur?.value && 'data' in cur.value) return cur.value.data as V;
    const doc = await this.index();
    const data = derive(doc.items);
    // Best effort: whoever writes first wins; a later index change rewrites it.
    await this.kv.create(this.viewKey(name), { rev: doc.rev, data } satisfies ViewDoc).catch(() => false);
    return data as V;
  }

  /**
   * Creates a record with a fresh id (nextId, then onlyIfNew; a taken id is
   * skipped and a new one drawn). `build` may run more than once.
   */
  async create(build: (id: number) => T | Promise<T>): Promise<T> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const id = await nextId(this.options.counter);
      const record = await build(id);
      if (await this.kv.create(this.recordKey(id), record)) {
        await this.syncIndex(id);
        return record;
      }
    }
    throw new ConflictError(BUSY_MESSAGE, true);
  }

  /** Creates a record with a fixed id (seed, defaults) if it does not exist yet. */
  async createWithId(record: T, sync = true): Promise<boolean> {
    const created = await this.kv.create(this.recordKey(record.id), record);
    await bumpCounter(this.options.counter, record.id);
    if (created && sync) await this.syncIndex(record.id);
    return created;
  }

  /**
   * Read-modify-write under optimistic concurrency (CAS with retries).
   * `change` may throw ConflictError / HttpError to refuse. Null when missing.
   */
  async update(id: number, change: (current: T) => T | Promise<T>): Promise<T | null> {
    const run = () =>
      update<unknown>(this.kv, this.recordKey(id), async (cur) => {
        const parsed = this.parse(cur);
        if (!parsed)
          throw new StoreUnavailableError(new Error(`Invalid stored record ${this.recordKey(id)}`));
        return change(parsed);
      }) as Promise<T | null>;
    let next = await run();
    if (!next && this.options.defaults?.().some((d) => d.id === id)) {
      await this.ensureDefaults();
      next = await run();
    }
    if (next) await this.syncIndex(id);
    return next;
  }

  /** Deletes a record; returns what was deleted, or null when it did not exist. */
  async remove(id: number): Promise<T | null> {
    const cur = await this.get(id);
    if (!cur) return null;
    await this.kv.delete(this.recordKey(id));
    await this.syncIndex(id);
    return cur;
  }

  async ensureDefaults(): Promise<void> {
    for (const d of this.options.defaults?.() ?? []) await this.createWithId(d, false);
    await this.syncAll();
  }

  /** Drops the index and views so the next read rebuilds them from the records. */
  async syncAll(): Promise<void> {
    await this.dropIndex();
  }

  /**
   * Brings the index entry for `id` in line with the record. The index is read
   * BEFORE the record inside each CAS attempt: a writer whose record write
   * came later also changes the index later, so an older snapshot can never
   * overwrite a newer one (on an atomic store).
   */
  private async syncIndex(id: number): Promise<void> {
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          const doc = await upsert<IndexDoc<T>>(this.kv, this.indexKey, async (cur) => {
            if (!cur || !Array.isArray(cur.items)) throw new IndexMissing();
            const record = await this.get(id);
            const items = cur.items.filter((x) => x.id !== id);
            if (record) items.push(record);
            return { rev: nextRev(cur.rev), items: items.sort(byId) };
          });
          await this.writeViews(doc);
          return;
        } catch (err) {
          if (!(err instanceof IndexMissing)) throw err;
          // Rebuilt from the records, which already include this write. If
          // someone else rebuilt first, their copy may predate our write: loop.
          if ((await this.rebuild()).created) return;
        }
      }
      throw new ConflictError('Index rebuild kept racing');
    } catch (err) {
      console.error(`[collection ${this.options.counter}] index update failed; dropping the index`, err);
      try {
        await this.dropIndex();
      } catch (dropErr) {
        // Neither updated nor dropped: the public list would stay stale, so say so.
        throw new StoreUnavailableError(dropErr);
      }
    }
  }

  private async dropIndex(): Promise<void> {
    for (const name of Object.keys(this.options.views ?? {})) await this.kv.delete(this.viewKey(name));
    await this.kv.delete(this.indexKey);
  }

  /** Reads every record (O(n), only when the index is missing) and creates the index. */
  private async rebuild(): Promise<{ doc: IndexDoc<T>; created: boolean }> {
    const prefix = `${this.k('record')}/`;
    let items = (await readAll<unknown>(this.kv, prefix))
      .map((v) => this.parse(v))
      .filter((v): v is T => v !== null);
    if (items.length === 0 && this.options.defaults) {
      const defaults = this.options.defaults();
      for (const d of defaults) await this.createWithId(d, false);
      items = (await readAll<unknown>(this.kv, prefix))
        .map((v) => this.parse(v))
        .filter((v): v is T => v !== null);
    }
    const doc: IndexDoc<T> = { rev: Date.now(), items: items.sort(byId) };
    const created = await this.kv.create(this.indexKey, doc);
    if (created) {
      await this.writeViews(doc);
      return { doc, created };
    }
    const existing = await this.kv.get<IndexDoc<T>>(this.indexKey);
    return { doc: existing && Array.isArray(existing.value?.items) ? existing.value : doc, created: false };
  }

  private async writeViews(doc: IndexDoc<T>): Promise<void> {
    for (const [name, derive] of Object.entries(this.options.views ?? {})) {
      const data = derive(doc.items);
      try {
        let done = false;
        for (let i = 0; i < 5 && !done; i++) {
          const cur = await this.kv.get<ViewDoc>(this.viewKey(name));
          if (cur && typeof cur.value?.rev === 'number' && cur.value.rev >= doc.rev) done = true;
          else {
            const next: ViewDoc = { rev: doc.rev, data };
            done = Boolean(
              cur
                ? await this.kv.replace(this.viewKey(name), next, cur.etag)
                : await this.kv.create(this.viewKey(name), next),
            );
          }
        }
        if (!done) throw new ConflictError('View update kept racing');
      } catch (err) {
        console.error(`[collection ${this.options.counter}] view ${name} update failed; dropping it`, err);
        await this.kv.delete(this.viewKey(name));
      }
    }
  }
}
