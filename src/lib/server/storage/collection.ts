import type { z } from 'zod';
import { BUSY_MESSAGE, ConflictError, update, upsert } from './compare-and-set.ts';
import { bumpCounter, nextId } from './counters.ts';
import { key } from './keys.ts';
import { StoreUnavailableError, type KV, type StoreName } from './kv.ts';
import { readAll } from './listing.ts';
import { kv } from './stores.ts';

/**
 * A small repository for numeric-id records: one key per record
 * (`[ns/]record/<id>`) plus a maintained index document (`[ns/]index`) holding
 * a summary of every record of the collection (the record itself unless the
 * layout says otherwise: articles keep no full text there), and optional
 * derived "views" (one blob each, e.g. the public news feed). Public lists read
 * one blob per request, never one per record. Design and failure modes:
 * docs/decisions/161-content-and-editor.md and
 * docs/decisions/153-storage.md.
 *
 * Two classes: `CollectionReader` reads views and the index, and repairs a
 * missing, corrupt or outdated index once (storing it), without the record
 * schema, so the public read functions load neither zod nor the schema
 * modules (docs/decisions/162-public-pages-and-performance.md); `Collection` adds
 * the schema (records are parsed before they are indexed) and the writes.
 */

/** Where a collection lives and what is derived from it: all a public read needs. */
export interface CollectionLayout<T extends { id: number }, S extends { id: number } = T> {
  store: StoreName;
  /** Key namespace when a store holds several collections (e.g. 'metric' in 'progress'). */
  namespace?: string;
  /** Counter name for nextId (unique across the site). */
  counter: string;
  /** Records that must always exist (fixed ids): created when the collection is found empty or an update targets one. */
  defaults?: () => T[];
  /**
   * What the index keeps of a record (default: the whole record). Zod-free, and
   * it checks every field it copies: the reader also runs it on records it has
   * not parsed (an index repair), and null leaves the record out.
   */
  summarize?: (record: T) => S | null;
  /** Raised when the index's entry shape changes: an index of another version is rebuilt once. */
  indexVersion?: number;
  /** Derived documents kept next to the index, recomputed after every index change. */
  views?: Record<string, ViewDerivation<T, S>>;
}

/**
 * A view from the index's entries. A view that needs more than the entries
 * (the news feed holds its articles' full text) loads those records through
 * `load` (a bounded number of them) and may reuse what `previous` (the stored
 * view, when there is one) already holds.
 */
export type ViewDerivation<T, S> = (items: S[], context: ViewContext<T>) => unknown;

export interface ViewContext<T> {
  previous: unknown;
  load: (ids: number[]) => Promise<T[]>;
}

export interface CollectionOptions<
  T extends { id: number },
  S extends { id: number } = T,
> extends CollectionLayout<T, S> {
  /** Records read back one by one are parsed with this; invalid ones are treated as missing. */
  schema: z.ZodType<T>;
}

export interface IndexDoc<S> {
  /** The entry shape's version (CollectionLayout.indexVersion; absent is 1). */
  v?: number;
  /** Monotonic revision (about Date.now()): a view never goes back to an older index. */
  rev: number;
  items: S[];
}

interface ViewDoc {
  rev: number;
  data: unknown;
}

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

/** The shape every stored record has; the reader checks only this (the schema is Collection's). */
export const isRecordLike = <T extends { id: number }>(value: unknown): value is T =>
  typeof value === 'object' &&
  value !== null &&
  Number.isSafeInteger((value as { id?: unknown }).id) &&
  (value as { id: number }).id > 0;

/**
 * A view this code can serve: every view is a list of records or their public
 * projections, each with an id. Anything else (a corrupt copy) is derived again
 * and replaced.
 */
const isViewDoc = (value: unknown): value is ViewDoc =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ViewDoc).rev === 'number' &&
  Array.isArray((value as ViewDoc).data) &&
  ((value as ViewDoc).data as unknown[]).every((x) => isRecordLike(x));

const nextRev = (prev: unknown) => Math.max(typeof prev === 'number' ? prev + 1 : 0, Date.now());

/**
 * Reads a collection's views and index without its record schema. When the
 * index is missing, unreadable (not an index, or an entry without an id) or of
 * an older entry version, the first reader rebuilds it from the records (O(n),
 * once), stores it and rewrites the views; every later request reads the
 * stored copy. The reader checks each record's shape only (and the layout's
 * `summarize` checks every field it keeps); Collection parses with the schema.
 * With no records at all the index holds the defaults (or nothing).
 */
export class CollectionReader<T extends { id: number }, S extends { id: number } = T> {
  protected readonly layout: CollectionLayout<T, S>;

  // No parameter property: this file also runs under Node's type stripping (scripts/bench).
  constructor(layout: CollectionLayout<T, S>) {
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

  protected get version(): number {
    return this.layout.indexVersion ?? 1;
  }

  protected derivation(name: string): ViewDerivation<T, S> {
    const derive = this.layout.views?.[name];
    if (!derive) throw new Error(`Unknown view ${name}`);
    return derive;
  }

  /** A stored record, or null when it is missing or not one (Collection parses with the schema). */
  protected check(value: unknown): T | null {
    return isRecordLike<T>(value) ? value : null;
  }

  protected summary(record: T): S | null {
    return this.layout.summarize ? this.layout.summarize(record) : (record as unknown as S);
  }

  /** An index this code can serve: the current entry version, every entry with an id. */
  protected isCurrentIndex(value: unknown): value is IndexDoc<S> {
    if (typeof value !== 'object' || value === null) return false;
    const doc = value as Partial<IndexDoc<unknown>>;
    return (
      (doc.v ?? 1) === this.version &&
      typeof doc.rev === 'number' &&
      Array.isArray(doc.items) &&
      doc.items.every((x) => isRecordLike(x))
    );
  }

  /** Records read one by one (for views that need more than the index holds). */
  protected async load(ids: number[], known?: Map<number, T>): Promise<T[]> {
    const found: (T | null)[] = await Promise.all(
      ids.map(
        async (id) => known?.get(id) ?? this.check((await this.kv.get<unknown>(this.recordKey(id)))?.value),
      ),
    );
    return found.filter((r): r is T => r !== null);
  }

  /** Every record's index entry (one blob read; a repair the first time the index is missing or stale). */
  async list(): Promise<S[]> {
    return (await this.index()).items;
  }

  async index(): Promise<IndexDoc<S>> {
    return (await this.currentIndex()).doc;
  }

  private async currentIndex(): Promise<{ doc: IndexDoc<S>; repaired: boolean }> {
    const cur = await this.kv.get<unknown>(this.indexKey);
    if (cur && this.isCurrentIndex(cur.value)) return { doc: cur.value, repaired: false };
    return { doc: (await this.repair()).doc, repaired: true };
  }

  /** A derived document (one blob read); derived from the index (repaired if need be) when missing. */
  async view<V>(name: string): Promise<V> {
    const derive = this.derivation(name);
    const cur = await this.kv.get<unknown>(this.viewKey(name));
    if (cur && isViewDoc(cur.value)) return cur.value.data as V;
    const { doc, repaired } = await this.currentIndex();
    if (repaired) {
      // The repair rewrote the views.
      const again = await this.kv.get<unknown>(this.viewKey(name));
      if (again && isViewDoc(again.value)) return again.value.data as V;
    }
    const data = await derive(doc.items, { previous: undefined, load: (ids) => this.load(ids) });
    // Stored once (a bad copy is replaced); whoever writes first wins, and a later index change rewrites it.
    const next: ViewDoc = { rev: doc.rev, data };
    await (
      cur ? this.kv.replace(this.viewKey(name), next, cur.etag) : this.kv.create(this.viewKey(name), next)
    ).catch(() => false);
    return data as V;
  }

  /** The records to index when the collection has none: the defaults (Collection also creates them). */
  protected emptyDefaults(): Promise<T[]> {
    return Promise.resolve(this.layout.defaults?.() ?? []);
  }

  /**
   * Rebuilds the index from the records (O(n): only when it is missing, unreadable
   * or of another entry version) and stores it, replacing the bad copy; then
   * rewrites the views (`force`: even when the stored index looks current, as
   * npm run reindex does). `created` is false when another writer stored a
   * current index first (theirs is returned: it may predate the caller's write).
   */
  protected async repair(force = false): Promise<{ doc: IndexDoc<S>; created: boolean }> {
    const found = await this.kv.get<unknown>(this.indexKey);
    if (!force && found && this.isCurrentIndex(found.value)) return { doc: found.value, created: false };
    const prefix = `${this.k('record')}/`;
    let records = (await readAll<unknown>(this.kv, prefix))
      .map((v) => this.check(v))
      .filter((v): v is T => v !== null);
    if (records.length === 0) records = await this.emptyDefaults();
    const items = records
      .map((r) => this.summary(r))
      .filter((s): s is S => s !== null)
      .sort(byId);
    const oldRev = (found?.value as { rev?: unknown } | null)?.rev;
    const doc: IndexDoc<S> = { v: this.version, rev: nextRev(oldRev), items };
    // A first write finds only its own record: not worth a warning.
    if (!force && (found || records.length > 1))
      console.warn(
        `[collection ${this.layout.counter}] index ${found ? 'unreadable or outdated' : 'missing'}: rebuilt from ${records.length} records`,
      );
    const stored = found
      ? Boolean(await this.kv.replace(this.indexKey, doc, found.etag))
      : await this.kv.create(this.indexKey, doc);
    if (!stored) {
      const theirs = await this.kv.get<unknown>(this.indexKey);
      return { doc: theirs && this.isCurrentIndex(theirs.value) ? theirs.value : doc, created: false };
    }
    await this.writeViews(doc, new Map(records.map((r) => [r.id, r])));
    return { doc, created: true };
  }

  /** Brings every view up to `doc` (a view already at a newer revision is left alone); a view that cannot be written is dropped. */
  protected async writeViews(doc: IndexDoc<S>, known?: Map<number, T>): Promise<void> {
    for (const [name, derive] of Object.entries(this.layout.views ?? {})) {
      try {
        let done = false;
        for (let i = 0; i < 5 && !done; i++) {
          const cur = await this.kv.get<unknown>(this.viewKey(name));
          const stored = cur && isViewDoc(cur.value) ? cur.value : null;
          if (stored && stored.rev >= doc.rev) done = true;
          else {
            const data = await derive(doc.items, {
              previous: stored?.data,
              load: (ids) => this.load(ids, known),
            });
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
        console.error(`[collection ${this.layout.counter}] view ${name} update failed; dropping it`, err);
        await this.kv.delete(this.viewKey(name));
      }
    }
  }
}

class IndexMissing extends Error {}

export class Collection<T extends { id: number }, S extends { id: number } = T> extends CollectionReader<
  T,
  S
> {
  private readonly options: CollectionOptions<T, S>;

  constructor(options: CollectionOptions<T, S>) {
    super(options);
    this.options = options;
  }

  private parse(value: unknown): T | null {
    const r = this.options.schema.safeParse(value);
    return r.success ? r.data : null;
  }

  /** Records are parsed with the schema before they are indexed or returned. */
  protected override check(value: unknown): T | null {
    return value === undefined || value === null ? null : this.parse(value);
  }

  /** One record, strongly consistent, from its own key. */
  async get(id: number): Promise<T | null> {
    const r = await this.kv.get<unknown>(this.recordKey(id));
    return r ? this.parse(r.value) : null;
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

  /** Rebuilds the index and the views from the records now (npm run reindex, the seed). */
  async reindex(): Promise<number> {
    return (await this.repair(true)).doc.items.length;
  }

  /** An empty collection with defaults gets their records first, then indexes them. */
  protected override async emptyDefaults(): Promise<T[]> {
    const defaults = this.options.defaults?.() ?? [];
    for (const d of defaults) await this.createWithId(d, false);
    const found: (T | null)[] = await Promise.all(defaults.map((d) => this.get(d.id)));
    return found.filter((r): r is T => r !== null);
  }

  /**
   * Brings the index entry for `id` in line with the record: O(1) blobs (the
   * index, the record, each view; a view may load a bounded number of records).
   * The index is read BEFORE the record inside each CAS attempt: a writer whose
   * record write came later also changes the index later, so an older snapshot
   * can never overwrite a newer one (on an atomic store).
   */
  private async syncIndex(id: number): Promise<void> {
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          let record: T | null = null;
          const doc = await upsert<IndexDoc<S>>(this.kv, this.indexKey, async (cur) => {
            if (!this.isCurrentIndex(cur)) throw new IndexMissing();
            record = await this.get(id);
            const items = cur.items.filter((x) => x.id !== id);
            const entry = record ? this.summary(record) : null;
            if (entry) items.push(entry);
            return { v: this.version, rev: nextRev(cur.rev), items: items.sort(byId) };
          });
          const fresh: T | null = record;
          await this.writeViews(doc, fresh ? new Map([[id, fresh]]) : undefined);
          return;
        } catch (err) {
          if (!(err instanceof IndexMissing)) throw err;
          // Rebuilt from the records, which already include this write. If
          // someone else rebuilt first, their copy may predate our write: loop.
          if ((await this.repair()).created) return;
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
}
