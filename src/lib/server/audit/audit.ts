import type { Context } from '@netlify/functions';
import type { AuditEntry, AuditKind } from '../../schemas/audit.ts';
import { queuesLocally } from '../storage/blobs-kv.ts';
import { ConflictError } from '../storage/compare-and-set.ts';
import type { KV } from '../storage/kv.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { checkStep, BULK_STEP } from './checkpoint.ts';
import {
  anchorKey,
  auditStore as store,
  chainKey,
  dayMac,
  dayOf,
  entryHash,
  GENESIS,
  headMac,
  logKey,
  RECENT,
  recentOf,
  signedHead,
  withRecent,
  type DayAnchor,
  type Head,
} from './trail.ts';
import { BUSY_MESSAGE } from '../storage/compare-and-set.ts';

export { auditPage, auditExportSource, AUDIT_CSV_COLUMNS, matchingKeys, rangePrefix } from './activity.ts';
export { verifyChain, type ChainReport } from './verification.ts';

/**
 * The append-only staff audit trail (store `audit`). Design and measurements:
 * docs/decisions/154-audit-trail.md
 * (one copy, anchored head) and docs/decisions/154-audit-trail.md (the
 * checkpoint, the postings lists, the full verification as a job). Keys and
 * signatures: trail.ts.
 *
 * An append claims the next position with onlyIfNew (`chain/<seq>`; a taken
 * position is followed forward), then writes its index key, the day's anchor
 * and the head, in that order. No function updates or deletes an entry; no
 * endpoint writes one directly.
 */

export interface Actor {
  id: number;
  username: string;
}

export interface AuditTarget {
  type: string;
  id: number | string | null;
  label: string;
}

/** The detail of the entry where anchoring starts over a head that could not be trusted. */
export const ANCHORING_RESTARTED = 'started here: the head was missing, unsigned or altered';

const cap = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** What a caller records; the writer adds the position, time, chain hash and signature. */
export interface AuditInput {
  kind: AuditKind;
  actor: Actor | null;
  /**
   * When there is no actor: a short, sanitised name only (refused-sign-ins.ts), never text a stranger
   * typed (docs/decisions/154-audit-trail.md).
   */
  actorName?: string;
  target?: AuditTarget | null;
  details?: Record<string, string>;
  ip: string;
}

/**
 * Appends one entry. Claims the next free position with onlyIfNew (a taken
 * position is followed forward, its hash becoming our prevHash), then writes
 * the index key and the day's anchor, then moves the signed head. Store faults
 * propagate (503).
 */
export function appendAudit(input: AuditInput, now = new Date()): Promise<AuditEntry> {
  return inTurn(() => appendUnqueued(input, now));
}

/**
 * On the local-server path (dev server, most tests; storage/blobs-kv.ts, BlobsPath) every
 * function runs in one process against a local Blobs server whose conditional
 * writes are slow and not atomic: there
 * appends take turns in-process, so a burst of staff actions does not turn
 * into a storm of position retries (storage/blobs-kv.ts queues writes per key for the
 * same reason). Production appends race and the claim loop below sorts them out.
 */
const QUEUE = Symbol.for('campaign.audit.queue');
const localQueue = ((globalThis as Record<symbol, unknown>)[QUEUE] ??= { tail: Promise.resolve() }) as {
  tail: Promise<unknown>;
};

function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (!queuesLocally(store())) return work();
  const run = localQueue.tail.then(work, work);
  localQueue.tail = run.catch(() => undefined);
  return run;
}

/** Where the chain stands before an append: the head, and whether it can be continued silently. */
async function startFrom(s: KV) {
  const headDoc = await s.get<Head>('head');
  const head = headDoc?.value;
  // A head that is unsigned (a store from before anchors), forged, or missing while entries exist cannot be
  // continued silently: this entry says anchoring (re)starts here, and the check reports that position.
  const trusted = head ? signedHead(head) : !(await s.get(chainKey(1)));
  return { headDoc: headDoc ?? null, seq: (head?.seq ?? 0) + 1, prevHash: head?.hash ?? GENESIS, trusted };
}

/** An entry's fields before its position and hash (lengths capped; the restart mark when the head is not trusted). */
function fieldsOf(
  input: AuditInput,
  now: Date,
  trusted: boolean,
): Omit<AuditEntry, 'seq' | 'prevHash' | 'hash'> {
  const details = Object.fromEntries(
    Object.entries({ ...input.details, ...(trusted ? {} : { anchoring: ANCHORING_RESTARTED }) }).map(
      ([k, v]) => [cap(k, 60), cap(String(v), 500)],
    ),
  );
  return {
    at: now.toISOString(),
    kind: input.kind,
    actorId: input.actor?.id ?? null,
    actorName: cap(input.actor?.username ?? input.actorName ?? '', 254),
    target: input.target ? { ...input.target, label: cap(input.target.label, 300) } : null,
    details,
    ip: cap(input.ip, 100),
  };
}

const sealed = (fields: Omit<AuditEntry, 'hash'>): AuditEntry => ({ ...fields, hash: entryHash(fields) });

async function appendUnqueued(input: AuditInput, now = new Date()): Promise<AuditEntry> {
  const s = store();
  const start = await startFrom(s);
  let { seq, prevHash } = start;
  const base = fieldsOf(input, now, start.trusted);
  let entry: AuditEntry | null = null;
  for (let attempt = 0; attempt < 200; attempt++) {
    const candidate = sealed({ seq, ...base, prevHash });
    if (await s.create(chainKey(seq), candidate)) {
      entry = candidate;
      break;
    }
    // Taken. Wait a jittered moment (a burst of writers would otherwise storm the store), then jump to the
    // head when it is ahead, else step over the taken position.
    await new Promise((r) =>
      setTimeout(r, Math.min(100, 4 * 2 ** Math.min(attempt, 5)) * (0.5 + Math.random())),
    );
    const ahead = (await s.get<Head>('head'))?.value;
    if (ahead && ahead.seq >= seq) {
      seq = ahead.seq + 1;
      prevHash = ahead.hash;
      continue;
    }
    const taken = await s.get<AuditEntry>(chainKey(seq));
    if (taken) {
      prevHash = taken.value.hash;
      seq += 1;
    }
  }
  if (!entry) throw new ConflictError(BUSY_MESSAGE);
  const done = entry;
  // Order matters (docs/decisions/154-audit-trail.md): the index key and the day's anchor (side by side),
  // then the head, so a head at or past an entry means its index key and anchor are written too.
  await Promise.all([s.put(logKey(done), { seq: done.seq }), advanceDayAnchor(s, done)]);
  await advanceHead(s, [done], start.headDoc, start.trusted, done.seq);
  return done;
}

/**
 * Appends many entries at once, for `npm run seed -- --scale` only (scripts/lib/scale-seed.mts): the
 * entries, index keys, day anchors and head are exactly what appending them one by one, in this order,
 * would leave, but written side by side (the chain is computed first, in memory). The local store must
 * have no other writer meanwhile: a position found taken is an error, never followed. The new entries are
 * then verified and indexed by the incremental check (checkpoint.ts), from memory.
 */
export function appendAuditBatch(items: readonly { input: AuditInput; now: Date }[]): Promise<AuditEntry[]> {
  return inTurn(async () => {
    const s = store();
    const start = await startFrom(s);
    const entries: AuditEntry[] = [];
    let prevHash = start.prevHash;
    for (const [i, { input, now }] of items.entries()) {
      // After the first append the head is signed: only the first entry can carry the restart mark.
      const e = sealed({ seq: start.seq + i, ...fieldsOf(input, now, start.trusted || i > 0), prevHash });
      entries.push(e);
      prevHash = e.hash;
    }
    // Many writes in flight: the local Blobs server takes a few ms per write, most of it waiting.
    await mapLimit(entries, 128, async (e) => {
      if (!(await s.create(chainKey(e.seq), e))) throw new Error(`audit position ${e.seq} is taken`);
      await s.put(logKey(e), { seq: e.seq });
    });
    // A day's anchor ends at its last entry (anchors only move forward), the head at the last one.
    const lastOfDay = new Map<string, AuditEntry>();
    for (const e of entries) lastOfDay.set(dayOf(e.at), e);
    await mapLimit([...lastOfDay.values()], 8, (e) => advanceDayAnchor(s, e));
    const last = entries.at(-1);
    if (last) await advanceHead(s, entries, start.headDoc, start.trusted, start.seq);
    for (let done = false; !done && entries.length;) {
      const r = await checkStep(BULK_STEP, entries);
      done = !r.ok || r.pending === 0;
    }
    return entries;
  });
}

/** Bounded compare-and-set loop that moves a signed record forward to `e` (never back). */
async function advance<T extends { seq: number }>(
  s: KV,
  k: string,
  first: { value: T; etag: string } | null | undefined,
  make: (cur: T | null) => T,
): Promise<void> {
  let cur = first === undefined ? await s.get<T>(k) : first;
  for (let i = 0; i < 50; i++) {
    const next = make(cur?.value ?? null);
    if (cur && cur.value.seq >= next.seq) return;
    if (cur ? await s.replace(k, next, cur.etag) : await s.create(k, next)) return;
    cur = await s.get<T>(k);
  }
  // The entry is in the chain; the check reports the lagging anchor until a later append moves it on.
  throw new ConflictError(BUSY_MESSAGE);
}

function advanceDayAnchor(s: KV, e: AuditEntry): Promise<void> {
  const day = dayOf(e.at);
  return advance<DayAnchor>(s, anchorKey(day), undefined, () => {
    const a = { day, seq: e.seq, hash: e.hash };
    return { ...a, mac: dayMac(a) };
  });
}

/**
 * Moves the signed head forward (never back) to the last of `written`, before the append returns: an
 * acknowledged entry is always at or before the head, so removing it means moving a signed head back.
 * The head also lists the newest entries (`recent`): a writer overtaken by a later one still adds its
 * entry there. `firstSeq`: the first entry this writer appended (where anchoring restarts over a head it
 * could not trust).
 */
async function advanceHead(
  s: KV,
  written: readonly AuditEntry[],
  first: { value: Head; etag: string } | null,
  trusted: boolean,
  firstSeq: number,
): Promise<void> {
  const e = written.at(-1)!;
  const mine = written.slice(-RECENT).map(recentOf);
  let cur = first;
  for (let i = 0; i < 50; i++) {
    const c = cur?.value ?? null;
    const recent = withRecent(c?.recent, mine);
    let next: Head;
    if (c && c.seq >= e.seq) {
      // Not forward: only this writer's place among the recent entries, if it is missing.
      if (JSON.stringify(recent) === JSON.stringify(c.recent ?? [])) return;
      next = { ...c, recent };
    } else {
      // Continues a signed head; otherwise day anchors start with this writer's first (marked) entry, or at 1 in a new store.
      const anchoredFrom = c && signedHead(c) ? (c.anchoredFrom ?? 1) : c || !trusted ? firstSeq : 1;
      const h = { seq: e.seq, hash: e.hash, anchoredFrom };
      next = { ...h, mac: headMac(h), recent };
    }
    if (cur ? await s.replace('head', next, cur.etag) : await s.create('head', next)) return;
    cur = await s.get<Head>('head');
  }
  // The entry is in the chain; the check accepts entries past the head (073) until a later append moves it on.
  throw new ConflictError(BUSY_MESSAGE);
}

/**
 * The one-line call handlers make after a staff action, by the signed-in user.
 * (Refused sign-ins are not recorded here but aggregated: refused-sign-ins.ts.)
 */
export function audit(
  context: Pick<Context, 'ip'>,
  actor: Actor | null,
  kind: AuditKind,
  target: AuditTarget | null = null,
  details: Record<string, string> = {},
): Promise<AuditEntry> {
  return appendAudit({ kind, actor, target, details, ip: context.ip || 'unknown' });
}

// ---------------------------------------------------------------------------
// What handlers pass: targets and the kind of a save

interface Titled {
  id: number;
  title: string;
}
interface Labelled {
  id: number;
  label: string;
}

export const target = {
  article: (a: Titled): AuditTarget => ({ type: 'article', id: a.id, label: a.title }),
  event: (e: Titled): AuditTarget => ({ type: 'event', id: e.id, label: e.title }),
  user: (u: { id: number; username: string }): AuditTarget => ({ type: 'user', id: u.id, label: u.username }),
  social: (l: { id: number; platform: string }): AuditTarget => ({
    type: 'social',
    id: l.id,
    label: l.platform,
  }),
  metric: (m: Labelled): AuditTarget => ({ type: 'metric', id: m.id, label: m.label }),
  goal: (g: { id: number; description: string }): AuditTarget => ({
    type: 'goal',
    id: g.id,
    label: g.description,
  }),
  milestone: (m: Labelled): AuditTarget => ({ type: 'milestone', id: m.id, label: m.label }),
};

/** An article save that changes its published state is recorded as a publish or unpublish. */
export function articleSaveKind(
  before: { isPublished: boolean } | null,
  after: { isPublished: boolean },
): 'article.create' | 'article.update' | 'article.publish' | 'article.unpublish' {
  if (!before) return 'article.create';
  if (!before.isPublished && after.isPublished) return 'article.publish';
  if (before.isPublished && !after.isPublished) return 'article.unpublish';
  return 'article.update';
}

/** Events are published by being public. */
export function eventSaveKind(
  before: { isPublic: boolean } | null,
  after: { isPublic: boolean },
): 'event.create' | 'event.update' | 'event.publish' | 'event.unpublish' {
  if (!before) return 'event.create';
  if (!before.isPublic && after.isPublic) return 'event.publish';
  if (before.isPublic && !after.isPublic) return 'event.unpublish';
  return 'event.update';
}

/** "changed: title, content" for a save's details. */
export const changedDetail = (changed: string[]): Record<string, string> =>
  changed.length ? { changed: changed.join(', ') } : {};
