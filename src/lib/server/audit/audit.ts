import { createHmac } from 'node:crypto';
import type { Context } from '@netlify/functions';
import {
  AuditEntrySchema,
  AUDIT_KIND_LABELS,
  type AuditEntry,
  type AuditKind,
  type AuditPage,
  type AuditQuery,
} from '../../schemas/audit.ts';
import { sessionSecret } from '../env.ts';
import { csvCell } from '../forms/inbox.ts';
import { ConflictError, key, kv, queuesLocally, type KV } from '../store.ts';

/**
 * The append-only staff audit trail (store `audit`). Design and measurements:
 * docs/decisions.md, "Audit trail".
 *
 * - `chain/<seq>`: every entry in order, created with onlyIfNew; `seq` is
 *   claimed by that create, so two writers can never share a position. Each
 *   entry carries the previous entry's hash and its own HMAC over both: editing,
 *   removing or reordering an entry breaks the chain (`verifyChain`).
 * - `log/<inverted time>+<inverted seq>+<kind>+<actor id>`: the same entry
 *   under a key that sorts newest first and names what the filters need, so a
 *   page is found from key names alone (list calls, 1000 keys each) and only
 *   the entries shown are read.
 * - `head`: the last known {seq, hash}, a hint that saves walking the chain.
 *
 * No function updates or deletes an entry; no endpoint writes one directly.
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

interface Head {
  seq: number;
  hash: string;
}

const store = (): KV => kv('audit');
const GENESIS = '0'.repeat(64);
/** Times and sequence numbers are inverted so that key order is newest first. */
const TIME_DIGITS = 13;
const SEQ_DIGITS = 10;
const MAX_TIME = 10 ** TIME_DIGITS - 1;
const MAX_SEQ = 10 ** SEQ_DIGITS - 1;
const invTime = (ms: number) => String(MAX_TIME - ms).padStart(TIME_DIGITS, '0');
const invSeq = (seq: number) => String(MAX_SEQ - seq).padStart(SEQ_DIGITS, '0');
const chainKey = (seq: number) => key('chain', String(seq).padStart(SEQ_DIGITS, '0'));
const logKey = (e: Pick<AuditEntry, 'at' | 'seq' | 'kind' | 'actorId'>) =>
  key('log', `${invTime(Date.parse(e.at))}+${invSeq(e.seq)}+${e.kind}+${e.actorId ?? 0}`);
const LOG_KEY = /^log\/(\d{13})\+(\d{10})\+([a-z_.]+)\+(\d+)$/;

/** The chain's HMAC key, derived from the session secret (never stored). */
function chainKeyBytes(): Buffer {
  return createHmac('sha256', sessionSecret()).update('campaign audit chain v1').digest();
}

function entryHash(e: Omit<AuditEntry, 'hash'>): string {
  const details = Object.fromEntries(Object.entries(e.details).sort(([a], [b]) => a.localeCompare(b)));
  const canonical = JSON.stringify([
    e.seq,
    e.at,
    e.kind,
    e.actorId,
    e.actorName,
    e.target,
    details,
    e.ip,
    e.prevHash,
  ]);
  return createHmac('sha256', chainKeyBytes()).update(canonical).digest('hex');
}

const cap = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * Appends one entry. Claims the next free position with onlyIfNew (a taken
 * position is followed forward, its hash becoming our prevHash), then moves
 * the head hint and writes the listing key. Store faults propagate (503).
 */
export function appendAudit(
  input: Parameters<typeof appendUnqueued>[0],
  now = new Date(),
): Promise<AuditEntry> {
  if (!queuesLocally(store())) return appendUnqueued(input, now);
  const run = localQueue.tail.then(
    () => appendUnqueued(input, now),
    () => appendUnqueued(input, now),
  );
  localQueue.tail = run.catch(() => undefined);
  return run;
}

/**
 * On the local-server path (dev server, most tests; store.ts, BlobsPath) every
 * function runs in one process against a local Blobs server whose conditional
 * writes are slow and not atomic: there
 * appends take turns in-process, so a burst of staff actions does not turn
 * into a storm of position retries (store.ts queues writes per key for the
 * same reason). Production appends race and the claim loop below sorts them out.
 */
const QUEUE = Symbol.for('campaign.audit.queue');
const localQueue = ((globalThis as Record<symbol, unknown>)[QUEUE] ??= { tail: Promise.resolve() }) as {
  tail: Promise<unknown>;
};

async function appendUnqueued(
  input: {
    kind: AuditKind;
    actor: Actor | null;
    /** Name typed at a failed sign-in, when there is no actor. */
    actorName?: string;
    target?: AuditTarget | null;
    details?: Record<string, string>;
    ip: string;
  },
  now = new Date(),
): Promise<AuditEntry> {
  const s = store();
  const headDoc = await s.get<Head>('head');
  const head = headDoc?.value;
  let seq = (head?.seq ?? 0) + 1;
  let prevHash = head?.hash ?? GENESIS;
  const details = Object.fromEntries(
    Object.entries(input.details ?? {}).map(([k, v]) => [cap(k, 60), cap(String(v), 500)]),
  );
  const base = {
    at: now.toISOString(),
    kind: input.kind,
    actorId: input.actor?.id ?? null,
    actorName: cap(input.actor?.username ?? input.actorName ?? '', 254),
    target: input.target ? { ...input.target, label: cap(input.target.label, 300) } : null,
    details,
    ip: cap(input.ip, 100),
  };
  let entry: AuditEntry | null = null;
  for (let attempt = 0; attempt < 200; attempt++) {
    const draft = { seq, ...base, prevHash };
    const candidate: AuditEntry = { ...draft, hash: entryHash(draft) };
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
  if (!entry) throw new ConflictError('Too many concurrent changes. Please try again.');
  const done = entry;
  await advanceHead(s, done, headDoc?.etag ?? null);
  await s.put(logKey(done), done);
  return done;
}

/**
 * Moves the head hint forward (never back). Best effort: a lost race leaves
 * it behind, and the next writer walks forward from there.
 */
async function advanceHead(s: KV, e: AuditEntry, etag: string | null): Promise<void> {
  const next: Head = { seq: e.seq, hash: e.hash };
  // Uncontended, the head we started from is still current: one write.
  if (etag ? await s.replace('head', next, etag) : await s.create('head', next)) return;
  for (let i = 0; i < 2; i++) {
    const cur = await s.get<Head>('head');
    if (cur && cur.value.seq >= e.seq) return;
    if (cur ? await s.replace('head', next, cur.etag) : await s.create('head', next)) return;
  }
}

/**
 * The one-line call handlers make after a staff action. `actor` is the signed-in
 * user, or the name typed at a failed sign-in.
 */
export function audit(
  context: Pick<Context, 'ip'>,
  actor: Actor | string | null,
  kind: AuditKind,
  target: AuditTarget | null = null,
  details: Record<string, string> = {},
): Promise<AuditEntry> {
  const who = typeof actor === 'string' ? { actor: null, actorName: actor } : { actor };
  return appendAudit({ kind, ...who, target, details, ip: context.ip || 'unknown' });
}

// ---------------------------------------------------------------------------
// Reading

interface KeyInfo {
  key: string;
  at: number;
  kind: string;
  actorId: number;
}

function parseLogKey(k: string): KeyInfo | null {
  const m = LOG_KEY.exec(k);
  if (!m) return null;
  return { key: k, at: MAX_TIME - Number(m[1]), kind: m[3]!, actorId: Number(m[4]) };
}

const dayStart = (d: string) => Date.parse(`${d}T00:00:00.000Z`);
const DAY_MS = 86_400_000;

/**
 * The longest key prefix shared by every entry in [fromMs, toMs]: inverted
 * times of a range share their leading digits, so a date filter lists only a
 * slice of the log (a day lists at most ~1.2 days of keys).
 */
export function rangePrefix(fromMs: number | null, toMs: number | null): string {
  if (fromMs === null || toMs === null) return 'log/';
  const a = invTime(Math.max(0, toMs));
  const b = invTime(Math.max(0, fromMs));
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `log/${a.slice(0, i)}`;
}

/** Keys of the matching entries, newest first, from key names alone (no entry is read). */
export async function matchingKeys(
  q: Pick<AuditQuery, 'actor' | 'kind' | 'from' | 'to'>,
): Promise<KeyInfo[]> {
  const fromMs = q.from ? dayStart(q.from) : null;
  const toMs = q.to ? dayStart(q.to) + DAY_MS - 1 : null;
  const prefix = rangePrefix(
    fromMs ?? (toMs !== null ? 0 : null),
    toMs ?? (fromMs !== null ? Date.now() + DAY_MS : null),
  );
  const out: KeyInfo[] = [];
  for await (const page of store().keys(prefix)) {
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

async function readEntries(keys: string[], concurrency = 16): Promise<AuditEntry[]> {
  const out: (AuditEntry | null)[] = new Array<AuditEntry | null>(keys.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const i = next++;
      const r = await store().get<unknown>(keys[i]!);
      const parsed = r ? AuditEntrySchema.safeParse(r.value) : null;
      out[i] = parsed?.success ? parsed.data : null;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, keys.length) }, worker));
  return out.filter((e): e is AuditEntry => e !== null);
}

/** One page of the Activity tab, newest first. */
export async function auditPage(q: AuditQuery): Promise<AuditPage> {
  const keys = await matchingKeys(q);
  const start = (q.page - 1) * q.pageSize;
  const entries = await readEntries(keys.slice(start, start + q.pageSize).map((k) => k.key));
  return { entries, total: keys.length, page: q.page, pageSize: q.pageSize };
}

export const AUDIT_CSV_COLUMNS = [
  'time_utc',
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

/** Every matching entry as CSV (RFC 4180, formula cells neutralised), newest first. */
export async function auditCsv(q: AuditQuery, now = new Date()): Promise<{ filename: string; body: string }> {
  const entries = await readEntries((await matchingKeys(q)).map((k) => k.key));
  const rows = entries.map((e) => [
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
  ]);
  const body = [AUDIT_CSV_COLUMNS, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
  return { filename: `activity-${now.toISOString().slice(0, 10)}.csv`, body };
}

export interface ChainReport {
  ok: boolean;
  entries: number;
  /** The first position where the chain does not hold, and why. */
  brokenAt?: number;
  reason?: string;
}

/** Walks the whole chain and recomputes every hash (O(n) reads: an admin's on-demand check). */
export async function verifyChain(): Promise<ChainReport> {
  const keys: string[] = [];
  for await (const page of store().keys('chain/')) keys.push(...page);
  keys.sort();
  let prevHash = GENESIS;
  let expected = 1;
  for (let i = 0; i < keys.length; i += 200) {
    const batch = await Promise.all(keys.slice(i, i + 200).map((k) => store().get<unknown>(k)));
    for (const r of batch) {
      const parsed = r ? AuditEntrySchema.safeParse(r.value) : null;
      if (!parsed?.success)
        return { ok: false, entries: expected - 1, brokenAt: expected, reason: 'unreadable entry' };
      const e = parsed.data;
      if (e.seq !== expected)
        return { ok: false, entries: expected - 1, brokenAt: expected, reason: 'missing entry' };
      if (e.prevHash !== prevHash)
        return { ok: false, entries: expected - 1, brokenAt: e.seq, reason: 'chain link broken' };
      const { hash, ...rest } = e;
      if (entryHash(rest) !== hash)
        return { ok: false, entries: expected - 1, brokenAt: e.seq, reason: 'entry altered' };
      prevHash = hash;
      expected += 1;
    }
  }
  const head = (await store().get<Head>('head'))?.value;
  if (head && head.seq > expected - 1)
    return { ok: false, entries: expected - 1, brokenAt: expected, reason: 'entries missing at the end' };
  return { ok: true, entries: expected - 1 };
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
