import { randomBytes } from 'node:crypto';
import type { ChunkState, Outcome, RunState, StoredBroadcast } from '../../schemas/broadcasts.ts';
import { EmailSendError } from '../adapters/email.ts';
import { SmsSendError, SmsUnreachableError } from '../adapters/sms.ts';
import { env } from '../env.ts';
import { sendGuardedEmail } from '../messaging/email-guard.ts';
import { bucketZones, quietHoursAllow } from '../texting/quiet-hours.ts';
import { sendGuardedText, type TextRefusal } from '../texting/text-guard.ts';
import { audiencePages, type Recipient } from './audiences.ts';
import { systemClock, type Clock } from './clock.ts';
import { emailFor, segmentsFor, textFor } from './messages.ts';
import { Pacer } from '../texting/pacing.ts';
import { claimDelivery, finishDelivery, releaseDelivery } from './exactly-once.ts';
import {
  bstore,
  chunkKey,
  getBroadcast,
  listBroadcasts,
  outcomeKey,
  Unchanged,
  updateBroadcast,
} from './repo.ts';

/**
 * The delivery engine (docs/decisions/152-broadcasts.md). Run by the scheduled
 * function every minute (at most 30 s) and by the background function a send starts (at most 15
 * min); any number of runs may overlap, and any may be killed at any point.
 *
 * - **Queue.** Preparing a broadcast turns its audience (audiences.ts) into chunks, one per source
 *   page and zone bucket, each written once (create-if-new), and a chunk table in the broadcast.
 *   One job at a time does it (the resolver lease); a killed one is taken over where it stopped.
 * - **Leases.** A worker leases a chunk whose recipients' window is open (compare-and-set on the
 *   broadcast), processes it in batches, and after each batch records the outcomes and advances the
 *   chunk's position and counts in one compare-and-set that also proves it still holds the lease.
 * - **Exactly once** is exactly-once.ts: each delivery is claimed before anything is sent, and a
 *   stopped worker's claim is resumed by asking the provider first (texts) or not at all (emails).
 * - **Quiet hours** are one rule (texting/quiet-hours.ts quietHoursAllow), asked here before a chunk is
 *   leased and before each batch, and again by the guard per message (the last door); the queue keeps
 *   each zone bucket apart, so a closed window costs a run nothing: its chunks wait for it to open.
 * - **Pacing** is texting/pacing.ts's per-minute budget (the Pacer here, the guard's spendRateNow for
 *   reminders: one budget, one module); **pause, resume, cancel** are statuses, seen at the
 *   next batch (at most one batch after the click).
 */

export interface EngineOptions {
  clock?: Clock;
  /** Clock time (ms) by which the run stops starting new work. */
  deadline: number;
  /** Chunks processed at once (each in its own lease). */
  lanes?: number;
  /** Messages per batch between two records of progress. */
  batch?: number;
  /** How long a lease holds without renewal (a killed worker's chunk is free after it). */
  leaseMs?: number;
}

export interface RunReport {
  broadcasts: number;
  delivered: number;
}

const DEFAULTS = { lanes: 4, batch: 25, leaseMs: 90_000 };

/** The status callback Twilio posts each text's delivery status to, naming the delivery. */
export function statusCallbackUrl(id: number, chunk: string, index: number): string {
  const u = new URL('/api/sms/status', env().SITE_URL);
  u.searchParams.set('b', String(id));
  u.searchParams.set('c', chunk);
  u.searchParams.set('i', String(index));
  return u.href;
}

/** Runs every broadcast that has work: preparing, due for sending, or sending. */
export async function runBroadcasts(o: EngineOptions): Promise<RunReport> {
  const ctx = { ...DEFAULTS, clock: systemClock, ...o };
  const report: RunReport = { broadcasts: 0, delivered: 0 };
  const items = await listBroadcasts();
  for (const item of items) {
    if (ctx.clock.now() >= ctx.deadline) break;
    if (!['preparing', 'scheduled', 'sending'].includes(item.status)) continue;
    report.broadcasts += 1;
    report.delivered += await runOne(item.id, ctx);
  }
  return report;
}

type Ctx = Required<EngineOptions>;

async function runOne(id: number, ctx: Ctx): Promise<number> {
  let b = await getBroadcast(id);
  if (!b) return 0;
  const now = ctx.clock.now();
  if (b.status === 'scheduled' && b.scheduledAt && Date.parse(b.scheduledAt) <= now) {
    b = await updateBroadcast(id, (cur) => {
      if (cur.status !== 'scheduled') throw new Unchanged();
      return { ...cur, status: 'sending', run: { ...cur.run, startedAt: new Date(now).toISOString() } };
    });
  }
  if (!b) return 0;
  if (b.status === 'preparing' || (b.status === 'sending' && !b.run.resolved)) await resolve(b, ctx);
  b = await getBroadcast(id);
  if (b?.status !== 'sending') return 0;
  return drain(b, ctx);
}

// ---------------------------------------------------------------------------
// Preparing: the audience into chunks

const owner = () => randomBytes(6).toString('hex');

async function resolve(start: StoredBroadcast, ctx: Ctx): Promise<void> {
  const me = owner();
  const gen = start.run.gen;
  const leased = await updateBroadcast(start.id, (cur) => {
    const r = cur.run.resolver;
    if (cur.run.gen !== gen || cur.run.resolved || (r && r.owner !== me && r.until > ctx.clock.now()))
      throw new Unchanged();
    return { ...cur, run: { ...cur.run, resolver: { owner: me, until: ctx.clock.now() + ctx.leaseMs } } };
  });
  if (leased?.run.resolver?.owner !== me) return;
  const b = leased;
  let finished = true;
  for await (const { page, recipients } of audiencePages(b, b.run.pages)) {
    const groups = new Map<string, Recipient[]>();
    for (const r of recipients) groups.set(r.bucket, [...(groups.get(r.bucket) ?? []), r]);
    const added: ChunkState[] = [];
    let segments = 0;
    let spanish = 0;
    for (const [bucket, list] of groups) {
      const id = `p${page}.${bucket}`;
      const k = chunkKey(b.id, gen, id);
      // Written once: a killed resolver's chunk is read back, never written twice.
      let stored = list;
      if (!(await bstore().create(k, { recipients: list })))
        stored = (await bstore().get<{ recipients: Recipient[] }>(k))?.value.recipients ?? list;
      added.push({ id, bucket, size: stored.length, next: 0, done: stored.length === 0, lease: null });
      for (const r of stored) {
        segments += b.channel === 'text' ? segmentsFor(b, r) : 1;
        if (r.lang === 'es') spanish += 1;
      }
    }
    const after = await updateBroadcast(b.id, (cur) => {
      if (cur.run.gen !== gen || cur.run.resolver?.owner !== me || cur.run.pages !== page)
        throw new Unchanged();
      const known = new Set(cur.run.chunks.map((c) => c.id));
      const fresh = added.filter((c) => !known.has(c.id));
      return {
        ...cur,
        run: {
          ...cur.run,
          pages: page + 1,
          chunks: [...cur.run.chunks, ...fresh],
          recipients: cur.run.recipients + fresh.reduce((n, c) => n + c.size, 0),
          segments: cur.run.segments + segments,
          spanish: cur.run.spanish + spanish,
          resolver: { owner: me, until: ctx.clock.now() + ctx.leaseMs },
        },
      };
    });
    if (after?.run.resolver?.owner !== me || after.run.pages !== page + 1) return;
    if (ctx.clock.now() >= ctx.deadline) {
      finished = false;
      break;
    }
  }
  await updateBroadcast(b.id, (cur) => {
    if (cur.run.gen !== gen || cur.run.resolver?.owner !== me) throw new Unchanged();
    const run: RunState = { ...cur.run, resolver: null, resolved: finished };
    return { ...cur, status: finished && cur.status === 'preparing' ? 'ready' : cur.status, run };
  });
}

// ---------------------------------------------------------------------------
// Sending: chunks under leases

function windowOpenFor(b: StoredBroadcast, bucket: string, now: number): boolean {
  return b.channel === 'email' || quietHoursAllow(new Date(now), bucketZones(bucket));
}

async function drain(b: StoredBroadcast, ctx: Ctx): Promise<number> {
  const pacer = new Pacer(ctx.clock);
  let delivered = 0;
  // Chunks that stopped on a delivery still in another worker's hands wait for a later run.
  const later = new Set<string>();
  // Once the minute's budget is spent and the next minute starts after the deadline, no lane leases
  // another chunk in this run (each would only lease it, find no budget and give it back).
  let spent = false;
  const lane = async () => {
    const me = owner();
    for (;;) {
      if (spent || ctx.clock.now() >= ctx.deadline) return;
      const chunk = await leaseChunk(b.id, me, ctx, later);
      if (!chunk) return;
      const r = await processChunk(chunk.b, chunk.chunk, me, pacer, ctx);
      delivered += r.sent;
      if (r.budgetSpent) spent = true;
      if (!r.finished) later.add(chunk.chunk.id);
    }
  };
  // Every lane has stopped before the run returns or fails (a failure in one ends the others at their next step).
  const settled = await Promise.allSettled(Array.from({ length: ctx.lanes }, lane));
  const failed = settled.find((x): x is PromiseRejectedResult => x.status === 'rejected');
  if (failed) throw failed.reason;
  await pacer.release();
  return delivered;
}

async function leaseChunk(
  id: number,
  me: string,
  ctx: Ctx,
  later: Set<string>,
): Promise<{ b: StoredBroadcast; chunk: ChunkState } | null> {
  let picked: ChunkState | null = null;
  const now = ctx.clock.now();
  const b = await updateBroadcast(id, (cur) => {
    picked = null;
    if (cur.status !== 'sending') throw new Unchanged();
    const free = cur.run.chunks.find(
      (c) =>
        !c.done &&
        !later.has(c.id) &&
        (!c.lease || c.lease.until <= now) &&
        windowOpenFor(cur, c.bucket, now),
    );
    if (!free) {
      const complete = cur.run.resolved && cur.run.chunks.every((c) => c.done);
      if (!complete) throw new Unchanged();
      return {
        ...cur,
        status: 'completed',
        run: { ...cur.run, finishedAt: new Date(now).toISOString() },
      };
    }
    const lease = { owner: me, until: now + ctx.leaseMs };
    picked = { ...free, lease };
    return {
      ...cur,
      run: { ...cur.run, chunks: cur.run.chunks.map((c) => (c.id === free.id ? { ...c, lease } : c)) },
    };
  });
  return b && picked ? { b, chunk: picked } : null;
}

type Result = { outcome: Outcome; id?: string; error?: string } | 'retry';

/** A broadcast's texts are paced by the engine, not the guard (text-guard.ts, `paced`): no `send_rate` here. */
const TEXT_OUTCOMES: Record<Exclude<TextRefusal, 'quiet_hours' | 'send_rate'>, Outcome> = {
  number_not_allowed: 'skipped_invalid',
  no_consent: 'skipped_no_consent',
  opted_out: 'skipped_opted_out',
  number_limit: 'skipped_limit',
  daily_cap: 'skipped_limit',
};

const failure = (err: Error) => `${err.name}: ${err.message}`.slice(0, 200);

/** One recipient, exactly once: claim, send through the guard, record. */
async function deliver(
  b: StoredBroadcast,
  chunk: ChunkState,
  i: number,
  r: Recipient,
  ctx: Ctx,
): Promise<Result> {
  const now = ctx.clock.now();
  const answer = await claimDelivery(b, r.k, chunk.id, i, now, ctx.leaseMs);
  if (answer === 'busy') return 'retry';
  if (answer === 'duplicate') return { outcome: 'skipped_duplicate' };
  if ('done' in answer) return answer.done;
  const { claimed: claim, resumeSince } = answer;
  let result: Result;
  if (b.channel === 'text') {
    try {
      const sent = await sendGuardedText({
        to: r.to,
        body: textFor(b, r),
        lang: r.lang,
        consent: { purpose: 'broadcast', broadcastId: b.id },
        now: new Date(now),
        delivery: {
          key: `${b.id}.${r.k}`,
          statusCallback: statusCallbackUrl(b.id, chunk.id, i),
          ...(resumeSince ? { resumeSince } : {}),
        },
      });
      if (!sent.sent && sent.refusal === 'quiet_hours') {
        // The window closed under the batch: the claim goes back and the chunk waits.
        await releaseDelivery(b.id, r.k);
        return 'retry';
      }
      result = sent.sent
        ? { outcome: 'sent', id: sent.id }
        : { outcome: TEXT_OUTCOMES[sent.refusal as Exclude<TextRefusal, 'quiet_hours' | 'send_rate'>] };
    } catch (err) {
      if (!(err instanceof SmsSendError)) throw err;
      // No answer: the message may have gone. The claim stays, and the next attempt asks Twilio first.
      if (err instanceof SmsUnreachableError) return 'retry';
      result = { outcome: 'failed', error: failure(err) };
    }
  } else if (resumeSince) {
    result = { outcome: 'failed', error: 'Unconfirmed: the worker stopped while sending; not sent again' };
  } else {
    try {
      const e = emailFor(b, r);
      const sent = await sendGuardedEmail({
        to: r.to,
        subject: e.subject,
        preview: e.preview,
        html: e.html,
        lang: e.lang,
        customArgs: { broadcast: String(b.id), chunk: chunk.id, index: String(i) },
      });
      result = sent.sent
        ? { outcome: 'sent', id: sent.id }
        : { outcome: sent.refusal === 'suppressed' ? 'skipped_opted_out' : 'skipped_invalid' };
    } catch (err) {
      if (!(err instanceof EmailSendError)) throw err;
      result = { outcome: 'failed', error: failure(err) };
    }
  }
  await finishDelivery(b.id, r.k, claim, result);
  return result;
}

/** What the CSV reads per chunk: [outcome, message id, error] by index. */
export type OutcomeRow = [Outcome, string, string];

async function processChunk(
  start: StoredBroadcast,
  chunk: ChunkState,
  me: string,
  pacer: Pacer,
  ctx: Ctx,
): Promise<{ sent: number; finished: boolean; budgetSpent?: boolean }> {
  const gen = start.run.gen;
  const recipients = (await bstore().get<{ recipients: Recipient[] }>(chunkKey(start.id, gen, chunk.id)))
    ?.value.recipients;
  if (!recipients) return { sent: 0, finished: false };
  const ok = outcomeKey(start.id, gen, chunk.id);
  const rows: (OutcomeRow | null)[] =
    (await bstore().get<{ rows: (OutcomeRow | null)[] }>(ok))?.value.rows ?? [];
  let b = start;
  let i = chunk.next;
  let sent = 0;
  let keep = true;
  let budgetSpent = false;
  while (keep && i < recipients.length) {
    const now = ctx.clock.now();
    if (now >= ctx.deadline || !windowOpenFor(b, chunk.bucket, now)) break;
    const batch = recipients.slice(i, i + ctx.batch);
    const units = batch.map((r) => (b.channel === 'text' ? segmentsFor(b, r) : 1));
    const total = units.reduce((a, n) => a + n, 0);
    if (!(await pacer.take(total, total * 4, ctx.deadline))) {
      budgetSpent = true;
      break;
    }
    // Every delivery of the batch settles before anything is decided (none is left in flight on a failure).
    const settled = await Promise.allSettled(batch.map((r, j) => deliver(b, chunk, i + j, r, ctx)));
    const broken = settled.find((x): x is PromiseRejectedResult => x.status === 'rejected');
    if (broken) throw broken.reason;
    const results = settled.map((x) => (x as PromiseFulfilledResult<Result>).value);
    // Only the prefix before a retry counts: the rest is walked again (their claims answer for them).
    const stop = results.indexOf('retry');
    const doneCount = stop === -1 ? results.length : stop;
    const counts: Partial<Record<Outcome, number>> = {};
    for (let j = 0; j < doneCount; j++) {
      const res = results[j] as Exclude<Result, 'retry'>;
      rows[i + j] = [res.outcome, res.id ?? '', res.error ?? ''];
      counts[res.outcome] = (counts[res.outcome] ?? 0) + 1;
      if (res.outcome === 'sent') sent += 1;
    }
    await bstore().put(ok, { rows });
    const next = i + doneCount;
    const renewed = await updateBroadcast(b.id, (cur) => {
      const c = cur.run.chunks.find((x) => x.id === chunk.id);
      if (cur.run.gen !== gen || c?.lease?.owner !== me) throw new Unchanged();
      const holding = cur.status === 'sending' && stop === -1;
      const merged = { ...cur.run.counts };
      for (const [k, n] of Object.entries(counts)) merged[k as Outcome] += n;
      return {
        ...cur,
        run: {
          ...cur.run,
          counts: merged,
          chunks: cur.run.chunks.map((x) =>
            x.id === chunk.id
              ? {
                  ...x,
                  next,
                  done: next >= x.size,
                  lease:
                    holding && next < x.size ? { owner: me, until: ctx.clock.now() + ctx.leaseMs } : null,
                }
              : x,
          ),
        },
      };
    });
    const mine = renewed?.run.chunks.find((x) => x.id === chunk.id);
    if (!renewed || mine?.next !== next) return { sent, finished: false }; // the lease was lost
    b = renewed;
    i = next;
    keep = stop === -1 && mine.lease?.owner === me;
  }
  // Stopped early (deadline, window closed, pause): give the lease back so another run can go on.
  if (i < recipients.length)
    await updateBroadcast(b.id, (cur) => {
      const c = cur.run.chunks.find((x) => x.id === chunk.id);
      if (c?.lease?.owner !== me) throw new Unchanged();
      return {
        ...cur,
        run: {
          ...cur.run,
          chunks: cur.run.chunks.map((x) => (x.id === chunk.id ? { ...x, lease: null } : x)),
        },
      };
    });
  return { sent, finished: i >= recipients.length, budgetSpent };
}
