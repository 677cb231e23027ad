import { writeBase } from '../storage/summary-index/rebuild.ts';
import type { SummarySpec } from '../storage/summary-index/spec.ts';
import { SUMMARY_PREFIX } from '../storage/summary-index/segments.ts';
import { kv } from '../storage/stores.ts';
import type { InboxKindName, InboxRecords } from '../../inbox-kinds.ts';
import { INBOX_SPECS } from './summaries.ts';
import { summarize, type InboxSummaries } from './summary-shapes.ts';

/**
 * The bulk path of the Inbox repositories, for the scale seed
 * (docs/decisions/168-benchmarks-and-scale.md): records the repositories' own builders made
 * (volunteerRecord, contactRecord, textSignupRecords, subscriberRecord), written many at
 * once with onlyIfNew, and the list's index written once from their summaries (with those
 * of the records already stored), instead of one segment each and a compaction. No email
 * or text is sent for them; the records say so (their delivery status).
 */

export type { InboxRecords };

export interface BulkItem<R> {
  key: string;
  record: R;
  /** Other blobs that belong with the record (a text sign-up's consent log entry). */
  also?: { key: string; value: unknown }[];
}

async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Writes the records (a key already stored is left as it is) and rebuilds the list's index
 * from every record's summary: those written here from memory, the others read back.
 * Returns how many records were new.
 */
export async function bulkInsertInbox<K extends InboxKindName>(
  kind: K,
  items: readonly BulkItem<InboxRecords[K]>[],
  concurrency = 64,
): Promise<number> {
  const spec = INBOX_SPECS[kind] as unknown as SummarySpec<InboxSummaries[K]>;
  const store = kv(spec.store);
  const project = summarize[kind] as unknown as (r: InboxRecords[K], key: string) => InboxSummaries[K];
  const summaries: InboxSummaries[K][] = [];
  const mine = new Set<string>();
  await pool(items, concurrency, async (item) => {
    if (!(await store.create(item.key, item.record))) return;
    mine.add(item.key);
    summaries.push(project(item.record, item.key));
    for (const extra of item.also ?? []) await store.create(extra.key, extra.value);
  });
  // Every other record of the list (stored before, or a key that was already taken) is read back.
  const others: string[] = [];
  for await (const page of store.keys(spec.recordPrefix))
    for (const k of page) if (!mine.has(k) && !k.startsWith(SUMMARY_PREFIX)) others.push(k);
  await pool(others, concurrency, async (k) => {
    const got = await store.get<unknown>(k);
    const s = got ? spec.fromRecord(got.value, k) : null;
    if (s) summaries.push(s);
  });
  await writeBase(spec, summaries);
  return mine.size;
}
