import {
  StoredBroadcastSchema,
  type RunState,
  type StoredBroadcast,
  type StoredBroadcastInput,
} from '../../schemas/broadcasts.ts';
import { OUTCOMES } from '../../schemas/broadcast-rules.ts';
import type { BroadcastListItem } from '../../schemas/broadcast-views.ts';
import { HttpError } from '../errors.ts';
import { update, upsert } from '../storage/compare-and-set.ts';
import { nextId } from '../storage/counters.ts';
import { key } from '../storage/keys.ts';
import type { KV } from '../storage/kv.ts';
import { kv } from '../storage/stores.ts';

/**
 * The broadcasts store (docs/decisions/152-broadcasts.md):
 *
 * - `broadcast/<id>`: the broadcast, its status and its run (the chunk table, counts), one document
 *   changed under compare-and-set by staff actions and by the delivery job;
 * - `index`: the list of broadcasts (id, name, channel, status, schedule): the dashboard's list and
 *   the job's "what is due" read one blob;
 * - `chunk/<id>/<gen>/<chunk>`: up to 1,000 queued recipients of one zone bucket, written once;
 * - `outcome/<id>/<gen>/<chunk>`: what happened to each of them (the CSV), written by the chunk's lease holder;
 * - `delivery/<id>/<recipient hash>`: the claim that makes each delivery happen once;
 * - `rate/<minute>`: the site's pacing budget (pacing.ts);
 * - `receipt/...` and `tally/...`: the providers' delivery reports (feedback.ts).
 */
export const bstore = (): KV => kv('broadcasts');
export const broadcastKey = (id: number) => key('broadcast', id);
const INDEX_KEY = 'index';
export const chunkKey = (id: number, gen: number, chunk: string) => key('chunk', id, gen, chunk);
export const outcomeKey = (id: number, gen: number, chunk: string) => key('outcome', id, gen, chunk);
export const deliveryKey = (id: number, k: string) => key('delivery', id, k);

export type IndexItem = BroadcastListItem;
interface Index {
  items: IndexItem[];
}

export const emptyCounts = (): RunState['counts'] =>
  Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as RunState['counts'];

export function emptyRun(gen: number): RunState {
  return {
    gen,
    pages: 0,
    resolver: null,
    segments: 0,
    spanish: 0,
    resolved: false,
    recipients: 0,
    chunks: [],
    counts: emptyCounts(),
    startedAt: null,
    finishedAt: null,
  };
}

export async function getBroadcast(id: number): Promise<StoredBroadcast | null> {
  const r = await bstore().get<unknown>(broadcastKey(id));
  if (!r) return null;
  const p = StoredBroadcastSchema.safeParse(r.value);
  return p.success ? p.data : null;
}

export async function requireBroadcast(id: number): Promise<StoredBroadcast> {
  const b = await getBroadcast(id);
  if (!b) throw new HttpError(404, 'Broadcast not found');
  return b;
}

const indexItem = (b: StoredBroadcast): IndexItem => ({
  id: b.id,
  name: b.name,
  channel: b.channel,
  status: b.status,
  scheduledAt: b.scheduledAt,
  updatedAt: b.updatedAt,
});

async function indexUpsert(b: StoredBroadcast): Promise<void> {
  await upsert<Index>(bstore(), INDEX_KEY, (cur) => {
    const items = (cur?.items ?? []).filter((i) => i.id !== b.id);
    return { items: [indexItem(b), ...items].sort((x, y) => y.id - x.id) };
  });
}

export async function listBroadcasts(): Promise<IndexItem[]> {
  return (await bstore().get<Index>(INDEX_KEY))?.value.items ?? [];
}

export async function createBroadcast(b: Omit<StoredBroadcastInput, 'id'>): Promise<StoredBroadcast> {
  const id = await nextId('broadcast');
  const stored = StoredBroadcastSchema.parse({ ...b, id });
  if (!(await bstore().create(broadcastKey(id), stored))) throw new HttpError(409, 'Try again');
  await indexUpsert(stored);
  return stored;
}

/** Thrown by an update's `change` when there is nothing to write: the current broadcast is returned. */
export class Unchanged extends Error {
  constructor() {
    super('unchanged');
    this.name = 'Unchanged';
  }
}

/**
 * Changes a broadcast under compare-and-set (`change` may throw HttpError to refuse, or Unchanged to
 * write nothing); the index follows when the name, status or schedule changed. Null when there is no
 * such broadcast.
 */
export async function updateBroadcast(
  id: number,
  change: (b: StoredBroadcast) => StoredBroadcast,
): Promise<StoredBroadcast | null> {
  let before: StoredBroadcast | null = null;
  let next: unknown;
  try {
    next = await update<unknown>(bstore(), broadcastKey(id), (raw) => {
      before = StoredBroadcastSchema.parse(raw);
      return StoredBroadcastSchema.parse(change(before));
    });
  } catch (err) {
    if (err instanceof Unchanged) return before;
    throw err;
  }
  if (!next) return null;
  const after = next as StoredBroadcast;
  const b = before as StoredBroadcast | null;
  if (b?.status !== after.status || b?.name !== after.name || b?.scheduledAt !== after.scheduledAt)
    await indexUpsert(after);
  return after;
}
