import { createHmac } from 'node:crypto';
import type { Context } from '@netlify/functions';
import {
  AuditEntrySchema,
  AUDIT_KIND_LABELS,
  type AuditEntry,
  type AuditKind,
  type AuditPage,
  type AuditProblem,
  type AuditQuery,
} from '../../schemas/audit.ts';
import { sessionSecret } from '../env.ts';
import { csvCell } from '../forms/inbox.ts';
import { ConflictError, key, kv, queuesLocally, type KV } from '../store.ts';

/**
 * The append-only staff audit trail (store `audit`). Design and measurements:
 * docs/decisions/033-audit-trail.md, and docs/decisions/073-audit-anchors.md
 * (one copy, anchored head).
 *
 * - `chain/<seq>`: every entry in order, created with onlyIfNew; `seq` is
 *   claimed by that create, so two writers can never share a position. Each
 *   entry carries the previous entry's hash and its own HMAC over both: editing,
 *   removing or reordering an entry breaks the chain (`verifyChain`). The only
 *   copy of an entry: Activity and the CSV read it here, and show it only when
 *   its HMAC holds.
 * - `log/<inverted time>+<inverted seq>+<kind>+<actor id>`: an index key (its
 *   value is just `{seq}`) that sorts newest first and names what the filters
 *   need, so a page is found from key names alone (list calls, 1000 keys each)
 *   and only the entries shown are read. The check compares the index with the
 *   chain, so a hidden (unlisted) entry is detected too.
 * - `head`: the last {seq, hash}, signed (HMAC with a key of its own derived
 *   from the secret), advanced before an append returns.
 * - `anchor/<YYYY-MM-DD>`: the second anchor, one per UTC day: the day's last
 *   {seq, hash}, signed the same way, advanced before the head.
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

/** The signed head: the last entry's position and hash. */
interface Head {
  seq: number;
  hash: string;
  /** The first position written with day anchors (older stores had none). */
  anchoredFrom?: number;
  /** HMAC over the fields above (absent on a head written before anchors). */
  mac?: string;
}

/** A day's anchor: that UTC day's last entry, signed. */
interface DayAnchor {
  day: string;
  seq: number;
  hash: string;
  mac: string;
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
const anchorKey = (day: string) => key('anchor', day);
const dayOf = (at: string) => at.slice(0, 10);

/** The chain's HMAC key, derived from the session secret (never stored). */
function chainKeyBytes(): Buffer {
  return createHmac('sha256', sessionSecret()).update('campaign audit chain v1').digest();
}

/** The anchors' key: a separate derivation, so an entry's MAC can never pass for an anchor's. */
function anchorMac(fields: unknown[]): string {
  const k = createHmac('sha256', sessionSecret()).update('campaign audit anchor v1').digest();
  return createHmac('sha256', k).update(JSON.stringify(fields)).digest('hex');
}
const headMac = (h: Omit<Head, 'mac'>) => anchorMac(['head', h.seq, h.hash, h.anchoredFrom ?? null]);
const signedHead = ({ mac, ...h }: Head) => mac !== undefined && headMac(h) === mac;
/** The detail of the entry where anchoring starts over a head that could not be trusted. */
export const ANCHORING_RESTARTED = 'started here: the head was missing, unsigned or altered';
const dayMac = (a: Omit<DayAnchor, 'mac'>) => anchorMac(['day', a.day, a.seq, a.hash]);

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
    /**
     * When there is no actor: a short, sanitised name only (refused-sign-ins.ts), never text a stranger
     * typed (docs/decisions/073-audit-anchors.md).
     */
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
  // A head that is unsigned (a store from before anchors), forged, or missing while entries exist cannot be
  // continued silently: this entry says anchoring (re)starts here, and the check reports that position.
  const trusted = head ? signedHead(head) : !(await s.get(chainKey(1)));
  const details = Object.fromEntries(
    Object.entries({ ...input.details, ...(trusted ? {} : { anchoring: ANCHORING_RESTARTED }) }).map(
      ([k, v]) => [cap(k, 60), cap(String(v), 500)],
    ),
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
  // Order matters (docs/decisions/073-audit-anchors.md): index, then the day's anchor, then the head, so a
  // head at or past an entry means its index key and anchor are written too.
  await s.put(logKey(done), { seq: done.seq });
  await advanceDayAnchor(s, done);
  await advanceHead(s, done, headDoc ?? null, trusted);
  return done;
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
  throw new ConflictError('Too many concurrent changes. Please try again.');
}

function advanceDayAnchor(s: KV, e: AuditEntry): Promise<void> {
  const day = dayOf(e.at);
  return advance<DayAnchor>(s, anchorKey(day), undefined, () => {
    const a = { day, seq: e.seq, hash: e.hash };
    return { ...a, mac: dayMac(a) };
  });
}

/**
 * Moves the signed head forward (never back), before the append returns: an
 * acknowledged entry is always at or before the head, so removing it means
 * moving a signed head back.
 */
function advanceHead(
  s: KV,
  e: AuditEntry,
  first: { value: Head; etag: string } | null,
  trusted: boolean,
): Promise<void> {
  return advance<Head>(s, 'head', first, (cur) => {
    // Continues a signed head; otherwise day anchors start with this (marked) entry, or at 1 in a new store.
    const anchoredFrom = cur && signedHead(cur) ? (cur.anchoredFrom ?? 1) : cur || !trusted ? e.seq : 1;
    const h = { seq: e.seq, hash: e.hash, anchoredFrom };
    return { ...h, mac: headMac(h) };
  });
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
// Reading

interface KeyInfo {
  key: string;
  at: number;
  seq: number;
  kind: string;
  actorId: number;
}

function parseLogKey(k: string): KeyInfo | null {
  const m = LOG_KEY.exec(k);
  if (!m) return null;
  return {
    key: k,
    at: MAX_TIME - Number(m[1]),
    seq: MAX_SEQ - Number(m[2]),
    kind: m[3]!,
    actorId: Number(m[4]),
  };
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

/** Why an entry's own check failed, or null when it holds (its HMAC, and its index key names it truly). */
function entryProblem(e: AuditEntry, info: KeyInfo | null): AuditProblem['reason'] | null {
  const { hash, ...rest } = e;
  if (entryHash(rest) !== hash) return 'altered';
  if (info && logKey(e) !== info.key) return 'altered';
  return null;
}

/**
 * Reads the listed entries from the chain (the one copy the check verifies)
 * and checks each one's HMAC and index key: an entry that fails is never shown,
 * only reported by position.
 */
async function readEntries(
  infos: KeyInfo[],
  concurrency = 16,
): Promise<{ entries: AuditEntry[]; problems: AuditProblem[] }> {
  const out: (AuditEntry | AuditProblem)[] = new Array<AuditEntry | AuditProblem>(infos.length);
  let next = 0;
  const worker = async () => {
    while (next < infos.length) {
      const i = next++;
      const info = infos[i]!;
      const r = await store().get<unknown>(chainKey(info.seq));
      const parsed = r ? AuditEntrySchema.safeParse(r.value) : null;
      if (!r) out[i] = { seq: info.seq, reason: 'missing' };
      else if (!parsed?.success) out[i] = { seq: info.seq, reason: 'unreadable' };
      else {
        const reason = entryProblem(parsed.data, info);
        out[i] = reason ? { seq: info.seq, reason } : parsed.data;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, infos.length) }, worker));
  const entries: AuditEntry[] = [];
  const problems: AuditProblem[] = [];
  for (const x of out) {
    if ('hash' in x) entries.push(x);
    else problems.push(x);
  }
  return { entries, problems };
}

/** One page of the Activity tab, newest first. Entries that fail their own check are listed in `problems`. */
export async function auditPage(q: AuditQuery): Promise<AuditPage> {
  const keys = await matchingKeys(q);
  const start = (q.page - 1) * q.pageSize;
  const { entries, problems } = await readEntries(keys.slice(start, start + q.pageSize));
  return { entries, problems, total: keys.length, page: q.page, pageSize: q.pageSize };
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
  const { entries, problems } = await readEntries(await matchingKeys(q));
  // An entry that fails its check is exported as a marked row, never with its (possibly forged) content.
  const failed = problems.map((p) => [
    '',
    '',
    '',
    `Failed the integrity check (${p.reason})`,
    '',
    '',
    '',
    '',
    '',
    '',
    String(p.seq),
    '',
  ]);
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
  const body =
    [AUDIT_CSV_COLUMNS, ...failed, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
  return { filename: `activity-${now.toISOString().slice(0, 10)}.csv`, body };
}

export interface ChainReport {
  ok: boolean;
  entries: number;
  /** The first position where the chain does not hold, and why. */
  brokenAt?: number;
  reason?: string;
  /**
   * When anchoring began after entry 1 (a store from before anchors, or restarted over a head that could not
   * be trusted; that entry says so): entries removed from the end before this position cannot be ruled out.
   */
  anchoredFrom?: number;
}

/**
 * Walks the whole chain and recomputes every hash, then checks the anchors and
 * the index against it (O(n) reads plus list calls: an admin's on-demand
 * check). What it detects: docs/decisions/073-audit-anchors.md.
 */
export async function verifyChain(): Promise<ChainReport> {
  const s = store();
  const keys: string[] = [];
  for await (const page of s.keys('chain/')) keys.push(...page);
  keys.sort();
  let prevHash = GENESIS;
  let expected = 1;
  const chain: Pick<AuditEntry, 'at' | 'kind' | 'actorId' | 'hash'>[] = [];
  for (let i = 0; i < keys.length; i += 200) {
    const batch = await Promise.all(keys.slice(i, i + 200).map((k) => s.get<unknown>(k)));
    for (const r of batch) {
      const parsed = r ? AuditEntrySchema.safeParse(r.value) : null;
      if (!parsed?.success)
        return { ok: false, entries: expected - 1, brokenAt: expected, reason: 'unreadable entry' };
      const e = parsed.data;
      if (e.seq !== expected)
        return { ok: false, entries: expected - 1, brokenAt: expected, reason: 'missing entry' };
      if (e.prevHash !== prevHash)
        return { ok: false, entries: expected - 1, brokenAt: e.seq, reason: 'chain link broken' };
      if (entryProblem(e, null))
        return { ok: false, entries: expected - 1, brokenAt: e.seq, reason: 'entry altered' };
      chain.push({ at: e.at, kind: e.kind, actorId: e.actorId, hash: e.hash });
      prevHash = e.hash;
      expected += 1;
    }
  }
  const n = chain.length;
  const fail = (brokenAt: number, reason: string): ChainReport => ({
    ok: false,
    entries: n,
    brokenAt,
    reason,
  });

  // The signed head: entries were removed from the end when it names a position past the chain, or a hash
  // the chain does not have there. (Entries past the head are appends in progress: their HMACs held above.)
  const headDoc = (await s.get<Head>('head'))?.value;
  if (!headDoc) return n === 0 ? { ok: true, entries: 0 } : fail(1, 'head missing');
  if (!signedHead(headDoc)) return fail(n + 1, 'head altered');
  const head = headDoc;
  if (head.seq > n) return fail(n + 1, 'entries missing at the end');
  if (head.seq > 0 && chain[head.seq - 1]!.hash !== head.hash) return fail(head.seq, 'head altered');

  // The second anchor, one per day: each names that day's last entry up to the head.
  const from = head.anchoredFrom ?? 1;
  const lastOfDay = new Map<string, number>();
  for (let seq = from; seq <= head.seq; seq++) lastOfDay.set(dayOf(chain[seq - 1]!.at), seq);
  const anchors = new Map<string, DayAnchor>();
  for await (const page of s.keys('anchor/')) {
    for (const k of page) {
      const a = (await s.get<DayAnchor>(k))?.value;
      if (!a || k !== anchorKey(a.day) || dayMac({ day: a.day, seq: a.seq, hash: a.hash }) !== a.mac)
        return fail(n + 1, 'day anchor altered');
      const named = chain[a.seq - 1];
      // An anchor naming a position the chain no longer has: entries were removed from the end.
      if (!named) return fail(n + 1, 'entries missing at the end');
      if (a.seq < from || named.hash !== a.hash || dayOf(named.at) !== a.day)
        return fail(a.seq, 'day anchor altered');
      anchors.set(a.day, a);
    }
  }
  for (const [day, seq] of lastOfDay) {
    const a = anchors.get(day);
    if (!a) return fail(seq, 'day anchor missing');
    if (a.seq < seq) return fail(seq, 'day anchor behind');
  }

  // The index Activity lists from: exactly one key per entry, naming it truly.
  const listed = new Set<number>();
  for await (const page of s.keys('log/')) {
    for (const k of page) {
      const info = parseLogKey(k);
      const e = info ? chain[info.seq - 1] : undefined;
      if (!info || !e) return fail(info?.seq ?? n + 1, 'listed entry missing');
      if (logKey({ ...e, seq: info.seq }) !== k) return fail(info.seq, 'listing altered');
      listed.add(info.seq);
    }
  }
  for (let seq = 1; seq <= head.seq; seq++) if (!listed.has(seq)) return fail(seq, 'entry not listed');
  return { ok: true, entries: n, ...(from > 1 ? { anchoredFrom: from } : {}) };
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
