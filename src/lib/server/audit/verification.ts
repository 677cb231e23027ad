import { randomUUID } from 'node:crypto';
import {
  AuditEntrySchema,
  type AuditChainReport,
  type AuditEntry,
  type AuditVerifyStatus,
} from '../../schemas/audit.ts';
import { key } from '../storage/keys.ts';
import type { KV } from '../storage/kv.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { listKeys } from '../storage/listing.ts';
import { checkUntil, BULK_STEP, readCheckpoint, resetIndex } from './checkpoint.ts';
import {
  listsOf,
  parseListDoc,
  parseSegment,
  segmentKey,
  SEGMENT_ITEMS,
  type Item,
  type ListDoc,
} from './postings.ts';
import {
  auditStore,
  chainKey,
  dayOf,
  entryProblem,
  GENESIS,
  logKey,
  parseLogKey,
  signedHead,
  validAnchor,
  type DayAnchor,
  type Head,
} from './trail.ts';

/**
 * The full verification of the audit trail (docs/decisions/154-audit-trail.md): every
 * entry (position, link, HMAC), the signed head, the day anchors, the index keys,
 * and the postings lists up to the checkpoint. What it detects:
 * docs/decisions/154-audit-trail.md.
 *
 * It is a resumable job: the chain is walked CHUNK entries at a time, and after
 * each chunk the job's state (`verify/job`: how far, the hash reached, each
 * day's last position) and a summary of the chunk's entries (`verify/<job>/<n>`:
 * time, kind, person, hash) are stored, so a run that is killed (the background
 * function's 15 minutes, a deploy, a fault) is taken over by the next run from
 * the last chunk; the later phases (anchors, index keys, lists) are short and
 * start again when interrupted. A run owns the job while it writes progress
 * under compare-and-set; a job no one has moved for STALE_MS is taken over.
 * `verifyChain()` runs the same walk in one go, in memory (tests, tools).
 */

export type ChainReport = AuditChainReport;
export type VerifyStatus = AuditVerifyStatus;

/** What the later phases need of an entry: [time ms, kind, person id, hash]. */
type Summary = [atMs: number, kind: string, actorId: number | null, hash: string];

type Phase = NonNullable<AuditVerifyStatus['phase']>;

export interface VerifyJob {
  v: 1;
  id: string;
  state: 'running' | 'done';
  phase: Phase;
  startedAt: string;
  startedBy: string;
  /** The last progress written: a job not moved for STALE_MS is taken over. */
  updatedAt: string;
  owner: string;
  /** The head when the job started: day anchors are checked up to it. */
  headSeq: number;
  from: number;
  /** Chain phase: entries verified so far, and the last one's hash. */
  through: number;
  prevHash: string;
  /** Entries in the chain (known when the chain phase ends). */
  entries: number;
  /** Each UTC day's last position in [from, headSeq]. */
  dayLast: Record<string, number>;
  result?: ChainReport;
  finishedAt?: string;
}

export const JOB_KEY = key('verify', 'job');
const chunkKey = (id: string, n: number) => key('verify', id, String(n).padStart(7, '0'));
const CHUNK = 1000;
/** A running job whose progress has not moved for this long is taken over (its run died or ran out of time). */
export const STALE_MS = 2 * 60_000;

/** Where a job keeps its chunk summaries and progress: the store (the background job) or memory (verifyChain). */
interface JobIO {
  saveChunk(n: number, items: Summary[]): Promise<void>;
  loadChunk(n: number): Promise<Summary[] | null>;
  /** Writes progress; false when another run owns the job now. */
  save(job: VerifyJob): Promise<boolean>;
}

function memoryIO(): JobIO {
  const chunks = new Map<number, Summary[]>();
  return {
    saveChunk: (n, items) => {
      chunks.set(n, items);
      return Promise.resolve();
    },
    loadChunk: (n) => Promise.resolve(chunks.get(n) ?? null),
    save: () => Promise.resolve(true),
  };
}

function newJob(startedBy: string, head: Head | undefined, now: Date): VerifyJob {
  const trusted = head && signedHead(head);
  return {
    v: 1,
    id: randomUUID(),
    state: 'running',
    phase: 'chain',
    startedAt: now.toISOString(),
    startedBy,
    updatedAt: now.toISOString(),
    owner: randomUUID(),
    headSeq: trusted ? head.seq : 0,
    from: trusted ? (head.anchoredFrom ?? 1) : 1,
    through: 0,
    prevHash: GENESIS,
    entries: 0,
    dayLast: {},
  };
}

/** Summaries by position, a few chunks cached (the later phases read them in order). */
class Summaries {
  private readonly cache = new Map<number, Summary[] | null>();
  private readonly io: JobIO;
  constructor(io: JobIO) {
    this.io = io;
  }
  async at(seq: number): Promise<Summary | undefined> {
    const n = Math.floor((seq - 1) / CHUNK);
    if (!this.cache.has(n)) {
      if (this.cache.size >= 8) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(n, await this.io.loadChunk(n));
    }
    return this.cache.get(n)?.[(seq - 1) % CHUNK];
  }
}

const dayOfMs = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Whether any chain position after `seq` is taken. Keys are zero-padded, so a prefix covers a range: a
 * short chain is listed whole (one call per 1,000 keys), a long one range by range (at most 90 listings).
 */
async function anyChainAfter(s: KV, seq: number): Promise<boolean> {
  const padded = (x: string) => x.padStart(10, '0');
  if (seq < 90_000) {
    for await (const page of s.keys('chain/'))
      if (page.some((k) => k.slice('chain/'.length) > padded(String(seq)))) return true;
    return false;
  }
  const digits = padded(String(seq));
  for (let i = digits.length - 1; i >= 0; i--) {
    for (let d = Number(digits[i]) + 1; d <= 9; d++) {
      for await (const page of s.keys(`chain/${digits.slice(0, i)}${d}`)) if (page.length) return true;
    }
  }
  return false;
}

function finish(job: VerifyJob, result: ChainReport, now: Date): void {
  job.result = result;
  job.phase = 'done';
  job.state = 'done';
  job.finishedAt = now.toISOString();
}

/** Positions read at once in the chain phase (a short chain costs little more than its length). */
const BATCH = 64;

/** Ends the job with "does not hold at `brokenAt`" (the chain's length already known). */
const failing = (job: VerifyJob, now: Date) => (brokenAt: number, reason: string) =>
  finish(job, { ok: false, entries: job.entries, brokenAt, reason }, now);

/** The chain phase: the next CHUNK positions, in order. */
async function chainChunk(s: KV, job: VerifyJob, io: JobIO, now: Date): Promise<void> {
  const first = job.through + 1;
  const n = Math.floor((first - 1) / CHUNK);
  const summaries: Summary[] = [];
  const fail = (brokenAt: number, reason: string) =>
    finish(job, { ok: false, entries: brokenAt - 1, brokenAt, reason }, now);
  let end = false;
  // A chunk is the positions n * CHUNK + 1 .. (n + 1) * CHUNK (its summary is stored under n).
  const stop = (n + 1) * CHUNK;
  for (let base = first; base <= stop && !end; base += BATCH) {
    const seqs = Array.from({ length: Math.min(BATCH, stop - base + 1) }, (_, i) => base + i);
    const raws = await mapLimit(seqs, 32, (seq) => s.get<unknown>(chainKey(seq)));
    for (const [i, raw] of raws.entries()) {
      const seq = seqs[i]!;
      if (!raw) {
        // The end of the chain as it was read. A gap when a later position is taken and this one still is
        // not; taken now, it is an action since the read (positions are taken in order): the walk ends
        // here all the same, and the later phases take what names it for that append (laterEntry).
        if ((await anyChainAfter(s, seq)) && !(await s.get(chainKey(seq)))) return fail(seq, 'missing entry');
        end = true;
        break;
      }
      const parsed = AuditEntrySchema.safeParse(raw.value);
      if (!parsed.success) return fail(seq, 'unreadable entry');
      const e = parsed.data;
      if (e.seq !== seq) return fail(seq, 'missing entry');
      if (e.prevHash !== job.prevHash) return fail(seq, 'chain link broken');
      if (entryProblem(e, null)) return fail(seq, 'entry altered');
      const atMs = Date.parse(e.at);
      summaries.push([atMs, e.kind, e.actorId, e.hash]);
      if (seq >= job.from && seq <= job.headSeq) job.dayLast[dayOfMs(atMs)] = seq;
      job.prevHash = e.hash;
      job.through = seq;
    }
  }
  if (summaries.length) await io.saveChunk(n, summaries);
  if (end) {
    job.entries = job.through;
    job.phase = 'anchors';
  }
}

/**
 * The genuine entry at a position past the walk's end (its position and HMAC check out), or null. Staff
 * keep working while the job runs: a head, day anchor, index key or checkpoint naming a later position is
 * an action taken since the walk ended, and holds when it names a genuine entry; the next check walks it.
 * Naming a later position with nothing genuine there is entries removed from the end.
 */
async function laterEntry(s: KV, job: VerifyJob, seq: number): Promise<AuditEntry | null> {
  if (seq <= job.entries) return null;
  const raw = await s.get<unknown>(chainKey(seq));
  const parsed = raw ? AuditEntrySchema.safeParse(raw.value) : null;
  return parsed?.success && parsed.data.seq === seq && !entryProblem(parsed.data, null) ? parsed.data : null;
}

/** The head and the day anchors (docs/decisions/154-audit-trail.md). */
async function anchorPhase(s: KV, job: VerifyJob, sums: Summaries, now: Date): Promise<void> {
  const n = job.entries;
  const fail = failing(job, now);
  const head = (await s.get<Head>('head'))?.value;
  if (!head) return n === 0 ? finish(job, { ok: true, entries: 0 }, now) : fail(1, 'head missing');
  if (!signedHead(head)) return fail(n + 1, 'head altered');
  if (head.seq > n && (await laterEntry(s, job, head.seq))?.hash !== head.hash)
    return fail(n + 1, 'entries missing at the end');
  if (head.seq < job.headSeq) return fail(head.seq + 1, 'head altered');
  if (head.seq > 0 && head.seq <= n && (await sums.at(head.seq))?.[3] !== head.hash)
    return fail(head.seq, 'head altered');
  const anchors = new Map<string, DayAnchor>();
  for await (const page of s.keys('anchor/')) {
    for (const k of page) {
      const a = (await s.get<DayAnchor>(k))?.value;
      if (!validAnchor(k, a)) return fail(n + 1, 'day anchor altered');
      anchors.set(a.day, a);
      if (a.seq > n) {
        // Moved past the walk by an action since: it must name that action's entry.
        const e = await laterEntry(s, job, a.seq);
        if (!e) return fail(n + 1, 'entries missing at the end');
        if (e.hash !== a.hash || dayOf(e.at) !== a.day) return fail(a.seq, 'day anchor altered');
        continue;
      }
      const named = a.seq >= 1 && a.seq <= n ? await sums.at(a.seq) : undefined;
      // An anchor naming a position the chain no longer has: entries were removed from the end.
      if (!named) return fail(n + 1, 'entries missing at the end');
      if (a.seq < job.from || named[3] !== a.hash || dayOfMs(named[0]) !== a.day)
        return fail(a.seq, 'day anchor altered');
    }
  }
  for (const [day, seq] of Object.entries(job.dayLast).sort((x, y) => x[1] - y[1])) {
    const a = anchors.get(day);
    if (!a) return fail(seq, 'day anchor missing');
    if (a.seq < seq) return fail(seq, 'day anchor behind');
  }
  job.headSeq = Math.min(head.seq, n);
  job.phase = 'listing';
}

/** The index keys: exactly one per entry up to the head, each naming its entry truly. */
async function listingPhase(s: KV, job: VerifyJob, sums: Summaries, now: Date): Promise<void> {
  const n = job.entries;
  const fail = failing(job, now);
  const listed = new Uint8Array(n + 2);
  for await (const page of s.keys('log/')) {
    for (const k of page) {
      const info = parseLogKey(k);
      if (info && info.seq > n) {
        // An action's since the walk: it must name that action's entry (the next check lists it).
        const e = await laterEntry(s, job, info.seq);
        if (!e) return fail(n + 1, 'entries missing at the end');
        if (logKey(e) !== k) return fail(info.seq, 'listing altered');
        continue;
      }
      const e = info && info.seq >= 1 && info.seq <= n ? await sums.at(info.seq) : undefined;
      if (!info || !e) return fail(info?.seq ?? n + 1, 'listed entry missing');
      const named = logKey({
        seq: info.seq,
        at: new Date(e[0]).toISOString(),
        kind: e[1] as never,
        actorId: e[2],
      });
      if (named !== k) return fail(info.seq, 'listing altered');
      listed[info.seq] = 1;
    }
  }
  for (let seq = 1; seq <= job.headSeq; seq++) if (!listed[seq]) return fail(seq, 'entry not listed');
  job.phase = 'index';
}

/** A list's items in order, from its document and its sealed segments (read as reached). */
class ListCursor {
  private seg = 0;
  private items: Item[] = [];
  private i = 0;
  private readonly s: KV;
  readonly doc: ListDoc;
  constructor(s: KV, doc: ListDoc) {
    this.s = s;
    this.doc = doc;
  }
  /** The next item, or null at the end; 'bad' when a segment is missing or not what the list names. */
  async next(): Promise<Item | null | 'bad'> {
    while (this.i >= this.items.length) {
      if (this.seg < this.doc.sealed.length) {
        const ref = this.doc.sealed[this.seg]!;
        const raw = await this.s.get<unknown>(segmentKey(this.doc.list, ref.n));
        const items = raw ? parseSegment(this.doc.list, ref, raw.value) : null;
        if (!items) return 'bad';
        this.items = items;
      } else if (this.seg === this.doc.sealed.length) {
        this.items = this.doc.open;
      } else return null;
      this.seg += 1;
      this.i = 0;
    }
    return this.items[this.i++]!;
  }
}

/** The postings lists up to the checkpoint: every verified entry in exactly its lists, with its time. */
async function indexPhase(s: KV, job: VerifyJob, sums: Summaries, now: Date): Promise<void> {
  const n = job.entries;
  const ok: ChainReport = { ok: true, entries: n, ...(job.from > 1 ? { anchoredFrom: job.from } : {}) };
  const fail = (brokenAt: number, reason: string) =>
    finish(job, { ok: false, entries: n, brokenAt, reason }, now);
  const { cp, valid } = await readCheckpoint(s);
  if (!valid) return fail(1, 'checkpoint altered');
  // The incremental check may have gone past the walk since (staff at work): the lists are checked to the walk's end.
  if (cp.seq > n && (await laterEntry(s, job, cp.seq))?.hash !== cp.hash)
    return fail(n + 1, 'entries missing at the end');
  const upTo = Math.min(cp.seq, n);
  if (cp.seq <= n && cp.seq > 0 && (await sums.at(cp.seq))?.[3] !== cp.hash)
    return fail(cp.seq, 'checkpoint altered');
  const docKeys = (await listKeys(s, 'postings/')).filter((k) => k.split('/').length === 2);
  const cursors = new Map<string, ListCursor>();
  for (const k of docKeys) {
    const list = k.slice('postings/'.length);
    const raw = await s.get<unknown>(k);
    const doc = raw ? parseListDoc(list, raw.value) : null;
    if (doc?.count !== (doc ? doc.sealed.length * SEGMENT_ITEMS + doc.open.length : -1))
      return fail(cp.seq || 1, 'index altered');
    cursors.set(list, new ListCursor(s, doc));
  }
  for (let seq = 1; seq <= upTo; seq++) {
    const e = (await sums.at(seq))!;
    for (const list of listsOf({ kind: e[1] as never, actorId: e[2] })) {
      const item = await cursors.get(list)?.next();
      if (!item || item === 'bad' || item[0] !== seq || item[1] !== e[0]) return fail(seq, 'index altered');
    }
  }
  // Nothing else up to there (items past it are a later check's, still being written).
  for (const c of cursors.values()) {
    const item = await c.next();
    if (item === 'bad') return fail(1, 'index altered');
    if (item && item[0] <= upTo) return fail(item[0], 'index altered');
  }
  finish(job, ok, now);
}

async function step(s: KV, job: VerifyJob, io: JobIO, sums: Summaries, now: Date): Promise<void> {
  if (job.phase === 'chain') return chainChunk(s, job, io, now);
  if (job.phase === 'anchors') return anchorPhase(s, job, sums, now);
  if (job.phase === 'listing') return listingPhase(s, job, sums, now);
  if (job.phase === 'index') return indexPhase(s, job, sums, now);
}

/** Runs a job until it is done, the deadline passes, or another run owns it; false when it lost ownership. */
async function run(job: VerifyJob, io: JobIO, deadline: number): Promise<boolean> {
  const s = auditStore();
  const sums = new Summaries(io);
  // At least one step a run, however short its budget.
  do {
    await step(s, job, io, sums, new Date());
    job.updatedAt = new Date().toISOString();
    if (!(await io.save(job))) return false;
  } while (job.state === 'running' && Date.now() < deadline);
  return true;
}

/**
 * Walks the whole chain and recomputes every hash, then checks the head, the
 * anchors, the index keys and the postings lists against it, in one go and in
 * memory (O(n) reads): tests and tools. The Activity tab runs the same walk as a
 * background job (runFullVerification).
 */
export async function verifyChain(): Promise<ChainReport> {
  const head = (await auditStore().get<Head>('head'))?.value;
  const job = newJob('verifyChain', head, new Date());
  await run(job, memoryIO(), Infinity);
  return job.result!;
}

// ---------------------------------------------------------------------------
// The stored job (the background function, the scheduled function)

function storeIO(s: KV, job: VerifyJob, etag: { value: string }): JobIO {
  return {
    saveChunk: (n, items) => s.put(chunkKey(job.id, n), { items }),
    loadChunk: async (n) => (await s.get<{ items: Summary[] }>(chunkKey(job.id, n)))?.value.items ?? null,
    save: async (j) => {
      const next = await s.replace(JOB_KEY, j, etag.value);
      if (!next) return false;
      etag.value = next;
      return true;
    },
  };
}

export function statusOf(job: VerifyJob | null, now = new Date()): VerifyStatus {
  if (!job) return { state: 'none' };
  const stalled = job.state === 'running' && now.getTime() - Date.parse(job.updatedAt) > STALE_MS;
  return {
    state: stalled ? 'stalled' : job.state,
    startedAt: job.startedAt,
    startedBy: job.startedBy,
    updatedAt: job.updatedAt,
    phase: job.phase,
    checked: job.through,
    total: Math.max(job.headSeq, job.through),
    ...(job.finishedAt ? { finishedAt: job.finishedAt } : {}),
    ...(job.result ? { result: job.result } : {}),
  };
}

export async function verificationStatus(now = new Date()): Promise<VerifyStatus> {
  return statusOf((await auditStore().get<VerifyJob>(JOB_KEY))?.value ?? null, now);
}

/** Deletes the chunk summaries of jobs other than `keep`. */
async function dropChunks(s: KV, keep: string | null): Promise<void> {
  const keys = (await listKeys(s, 'verify/')).filter((k) => k !== JOB_KEY);
  await mapLimit(
    keys.filter((k) => keep === null || !k.startsWith(`verify/${keep}/`)),
    16,
    (k) => s.delete(k),
  );
}

export interface RunOptions {
  /** Who asked: a username, or 'schedule'. */
  by: string;
  /** Start a new job when none is running (a staff request); otherwise only a stalled job is taken over. */
  start: boolean;
  budgetMs: number;
  now?: Date;
}

/**
 * Starts, continues or takes over the full verification, for at most `budgetMs`
 * (idempotent: a second run while one is at work changes nothing). When the
 * lists are found wrong, they are rebuilt by the incremental check from the
 * start. Returns the job's status.
 */
export async function runFullVerification(opts: RunOptions): Promise<VerifyStatus> {
  const s = auditStore();
  const now = opts.now ?? new Date();
  const deadline = Date.now() + opts.budgetMs;
  const cur = await s.get<VerifyJob>(JOB_KEY);
  const status = statusOf(cur?.value ?? null, now);
  let job: VerifyJob;
  if (status.state === 'running') return status;
  if (status.state === 'stalled') job = { ...cur!.value, owner: randomUUID() };
  else if (opts.start) {
    job = newJob(opts.by, (await s.get<Head>('head'))?.value, now);
    await dropChunks(s, null);
  } else return status;
  const claimed = cur
    ? await s.replace(JOB_KEY, job, cur.etag)
    : (await s.create(JOB_KEY, job))
      ? 'created'
      : null;
  if (!claimed) return verificationStatus();
  const etag = { value: claimed === 'created' ? ((await s.get(JOB_KEY))?.etag ?? '') : claimed };
  if (!(await run(job, storeIO(s, job, etag), deadline))) return verificationStatus();
  if (job.state === 'done') {
    await dropChunks(s, null);
    if (job.result?.reason === 'index altered' || job.result?.reason === 'checkpoint altered') {
      await resetIndex();
      await checkUntil(BULK_STEP, Math.max(0, deadline - Date.now()));
    }
  }
  return statusOf(job);
}
