import {
  BROADCAST_VERSION_REQUIRED,
  BroadcastInputSchema,
  type BroadcastInput,
  type Outcome,
  type StoredBroadcast,
} from '../../schemas/broadcasts.ts';
import { OUTCOME_LABELS } from '../../schemas/broadcast-rules.ts';
import {
  BROADCAST_CHANGED,
  type BroadcastActionName as Action,
  type BroadcastPreview as Preview,
  type BroadcastView,
  type TestResult,
} from '../../schemas/broadcast-views.ts';
import type { StoredUser } from '../auth/users.ts';
import { toE164 } from '../../schemas/fields.ts';
import type { Lang } from '../../lang.ts';
import { sanitizeArticleHtml } from '../content/sanitize.ts';
import { env } from '../env.ts';
import { HttpError } from '../errors.ts';
import type { ExportSource } from '../export-source.ts';
import { composeBulkEmail, sendGuardedEmail } from '../messaging/email-guard.ts';
import { bucketZones, nextOpening, quietHoursAllow, sendWindow } from '../texting/quiet-hours.ts';
import { sendGuardedText, TEXT_REFUSALS } from '../texting/text-guard.ts';
import { maskPhone, STAFF_PHONE_MESSAGES } from '../../schemas/staff-phone.ts';
import { reserveTestSend } from './test-sends.ts';
import { audienceChannels, type Recipient } from './audiences.ts';
import type { OutcomeRow } from './engine.ts';
import { reportedCounts } from './feedback.ts';
import { emailFor, textAsSent, textFor } from './messages.ts';
import {
  bstore,
  chunkKey,
  createBroadcast,
  emptyRun,
  outcomeKey,
  requireBroadcast,
  updateBroadcast,
} from './repo.ts';
import { broadcastVersion } from './version.ts';

/**
 * What staff do with broadcasts (docs/decisions/152-broadcasts.md): editors and admins
 * draft, edit, prepare (count) and test-send; admins send, schedule, pause, resume and cancel. Each
 * action is one compare-and-set on the broadcast that refuses a status it does not apply to (409),
 * so two people clicking at once cannot, say, send a cancelled broadcast. Approval is for one version
 * (version.ts): send and schedule name the version the admin reviewed, checked in the same
 * compare-and-set, and the content cannot change from then on.
 */

/** Dollars per text segment for the estimate (SMS_PRICE_PER_SEGMENT; Twilio's US list price, 2026). */
export const DEFAULT_PRICE_PER_SEGMENT = 0.0083;

export function pricePerSegment(): number {
  const n = Number(env().SMS_PRICE_PER_SEGMENT);
  return Number.isFinite(n) && n >= 0 && env().SMS_PRICE_PER_SEGMENT ? n : DEFAULT_PRICE_PER_SEGMENT;
}

type Staff = Pick<StoredUser, 'username' | 'email' | 'firstName'>;

/** A draft's content as stored: the email's HTML sanitised with the article allowlist. */
async function cleanInput(input: BroadcastInput): Promise<BroadcastInput> {
  if (!audienceChannels(input.audience.kind).includes(input.channel))
    throw new HttpError(
      400,
      'Voters with a plan to vote get texts only: their email consent covers two reminders',
      {
        fields: { channel: 'Texts only for this audience' },
      },
    );
  const base = { name: input.name, channel: input.channel, audience: input.audience };
  if (input.channel === 'text') return { ...base, text: input.text! };
  const e = input.email!;
  const html = await sanitizeArticleHtml(e.html);
  if (!html.replace(/<[^>]*>/g, '').trim())
    throw new HttpError(400, 'Please write the email', {
      fields: { 'email.html': 'Please write the email' },
    });
  return { ...base, email: { ...e, html, htmlEs: e.htmlEs ? await sanitizeArticleHtml(e.htmlEs) : '' } };
}

export async function createDraft(input: BroadcastInput, by: Staff): Promise<StoredBroadcast> {
  const clean = await cleanInput(BroadcastInputSchema.parse(input));
  const now = new Date().toISOString();
  return createBroadcast({
    ...clean,
    status: 'draft',
    scheduledAt: null,
    createdBy: by.username,
    createdAt: now,
    updatedAt: now,
    updatedBy: by.username,
    approvedBy: null,
    approvedAt: null,
    approvedVersion: null,
    run: emptyRun(0),
  });
}

const conflict = (b: StoredBroadcast, doing: string) =>
  new HttpError(409, `This broadcast is ${b.status}: it cannot be ${doing}`, { status: b.status });

async function change(
  id: number,
  fn: (b: StoredBroadcast, now: string) => StoredBroadcast,
): Promise<{ before: StoredBroadcast; after: StoredBroadcast }> {
  let before: StoredBroadcast | null = null;
  await requireBroadcast(id);
  const after = await updateBroadcast(id, (cur) => {
    before = cur;
    return fn(cur, new Date().toISOString());
  });
  if (!after || !before) throw new HttpError(404, 'Broadcast not found');
  return { before, after };
}

/**
 * Edits a draft, or a prepared one (which goes back to draft: its count and its version no longer hold, so
 * it needs a new preparation and a new approval). The only path that changes content: never once approved
 * (scheduled, sending, paused), nor while the audience is being counted.
 */
export async function updateDraft(id: number, input: BroadcastInput, by: Staff) {
  const clean = await cleanInput(BroadcastInputSchema.parse(input));
  return change(id, (b, now) => {
    if (b.status !== 'draft' && b.status !== 'ready') throw conflict(b, 'edited');
    const { text: _t, email: _e, ...rest } = b;
    return {
      ...rest,
      ...clean,
      status: 'draft',
      updatedAt: now,
      updatedBy: by.username,
      run: emptyRun(b.run.gen),
    };
  });
}

const MAX_SCHEDULE_DAYS = 60;

/**
 * Applies an action; the broadcast before and after (for the audit entry). Send and schedule need `version`,
 * the version the admin reviewed (the view's): one that is not the broadcast's now is a 409, decided inside
 * the compare-and-set, so a change between the admin's read and this write is never approved.
 */
export async function act(
  id: number,
  action: Action,
  by: Staff,
  opts: { at?: string | undefined; version?: string | undefined } = {},
) {
  const { at, version } = opts;
  const when = at ? Date.parse(at) : NaN;
  if ((action === 'send' || action === 'schedule') && !version)
    throw new HttpError(400, BROADCAST_VERSION_REQUIRED, { fields: { version: 'Required' } });
  if (action === 'schedule') {
    if (!Number.isFinite(when))
      throw new HttpError(400, 'Please give a date and time', { fields: { at: 'Required' } });
    if (when <= Date.now() + 60_000)
      throw new HttpError(400, 'Schedule it at least a minute from now', { fields: { at: 'In the past' } });
    if (when > Date.now() + MAX_SCHEDULE_DAYS * 86_400_000)
      throw new HttpError(400, `Schedule it within ${MAX_SCHEDULE_DAYS} days`, { fields: { at: 'Too far' } });
  }
  const result = await change(id, (b, now) => {
    const stamp = { updatedAt: now, updatedBy: by.username };
    switch (action) {
      case 'prepare':
        if (b.status !== 'draft') throw conflict(b, 'prepared');
        return { ...b, ...stamp, status: 'preparing', run: emptyRun(b.run.gen + 1) };
      case 'send':
      case 'schedule': {
        const current = broadcastVersion(b);
        if (version !== current) throw new HttpError(409, BROADCAST_CHANGED, { status: b.status });
        if (b.status !== 'ready') throw conflict(b, action === 'send' ? 'sent' : 'scheduled');
        if (b.run.recipients === 0) throw new HttpError(409, 'No one is in this audience');
        return {
          ...b,
          ...stamp,
          approvedBy: by.username,
          approvedAt: now,
          approvedVersion: current,
          status: action === 'send' ? 'sending' : 'scheduled',
          scheduledAt: action === 'send' ? null : new Date(when).toISOString(),
          run: { ...b.run, startedAt: action === 'send' ? now : null },
        };
      }
      case 'pause':
        if (b.status !== 'sending' && b.status !== 'scheduled') throw conflict(b, 'paused');
        return { ...b, ...stamp, status: 'paused' };
      case 'resume': {
        if (b.status !== 'paused') throw conflict(b, 'resumed');
        // Nothing edits an approved broadcast (updateDraft refuses it); should its content differ from the
        // version approved all the same, it is not sent.
        if (b.approvedVersion !== broadcastVersion(b))
          throw new HttpError(
            409,
            'This broadcast is not the version that was approved: cancel it and prepare it again',
            { status: b.status },
          );
        // A schedule still ahead stays a schedule; otherwise sending goes on now.
        const ahead = b.scheduledAt !== null && Date.parse(b.scheduledAt) > Date.now();
        return {
          ...b,
          ...stamp,
          status: ahead ? 'scheduled' : 'sending',
          run: { ...b.run, startedAt: b.run.startedAt ?? (ahead ? null : now) },
        };
      }
      case 'cancel':
        if (!['draft', 'preparing', 'ready', 'scheduled', 'sending', 'paused'].includes(b.status))
          throw conflict(b, 'cancelled');
        return { ...b, ...stamp, status: 'cancelled', run: { ...b.run, finishedAt: now } };
    }
  });
  return result;
}

// ---------------------------------------------------------------------------
// What the dashboard shows

export async function broadcastView(id: number, now = Date.now()): Promise<BroadcastView> {
  const b = await requireBroadcast(id);
  const counts = { ...b.run.counts };
  let processed = 0;
  let waiting = 0;
  let resumes: { at: string; zone: string } | null = null;
  for (const c of b.run.chunks) {
    processed += Math.min(c.next, c.size);
    if (!c.done && b.channel === 'text' && !quietHoursAllow(new Date(now), bucketZones(c.bucket))) {
      waiting += c.size - c.next;
      const at = nextOpening(new Date(now), c.bucket, sendWindow());
      if (at && (!resumes || at.toISOString() < resumes.at))
        resumes = { at: at.toISOString(), zone: bucketZones(c.bucket).zones[0]! };
    }
  }
  const queued = Math.max(0, b.run.recipients - processed);
  // A cancelled broadcast's unsent recipients are shown as such (nothing is written per recipient).
  if (b.status === 'cancelled') counts.skipped_cancelled += queued;
  const { chunks, resolver: _r, ...run } = b.run;
  const price = pricePerSegment();
  return {
    broadcast: { ...b, run: { ...run, chunks: chunks.length } },
    progress: {
      recipients: b.run.recipients,
      processed,
      queued: b.status === 'cancelled' ? 0 : queued,
      waiting: b.status === 'cancelled' ? 0 : waiting,
      resumes: b.status === 'cancelled' ? null : resumes,
      counts,
      reported: await reportedCounts(id),
    },
    estimate: {
      recipients: b.run.recipients,
      segments: b.run.segments,
      spanish: b.run.spanish,
      pricePerSegment: b.channel === 'text' ? price : 0,
      cost: b.channel === 'text' ? Math.round(b.run.segments * price * 100) / 100 : 0,
    },
    preview: { en: preview(b, 'en'), es: preview(b, 'es') },
    version: broadcastVersion(b),
  };
}

// ---------------------------------------------------------------------------
// Test send: to the sender's own verified phone or own email, through the same guards
// (docs/decisions/152-broadcasts.md)

export async function testSend(
  id: number,
  by: Staff & Pick<StoredUser, 'id' | 'phone'>,
  req: { to?: string | undefined; lang: Lang },
): Promise<TestResult> {
  const b = await requireBroadcast(id);
  const sample: Pick<Recipient, 'firstName' | 'lang'> = { firstName: by.firstName, lang: req.lang };
  if (b.channel === 'email') {
    // Test emails go to the account's own address, whatever was asked.
    if (req.to && req.to.trim().toLowerCase() !== by.email.toLowerCase())
      throw new HttpError(400, 'A test email goes to your own address', {
        fields: { to: 'Not your address' },
      });
    await reserveTestSend(by.id);
    const e = emailFor(b, sample);
    const sent = await sendGuardedEmail({ to: by.email, ...e, subject: `[Test] ${e.subject}` });
    return sent.sent
      ? { sent: true, to: by.email }
      : {
          sent: false,
          to: by.email,
          reason: sent.refusal === 'suppressed' ? 'Your address is unsubscribed' : 'Invalid address',
        };
  }
  // Test texts go to the member's own verified phone only: `to` may name it, never another number.
  if (!by.phone)
    throw new HttpError(400, STAFF_PHONE_MESSAGES.noVerifiedPhone, {
      fields: { to: STAFF_PHONE_MESSAGES.noVerifiedPhone },
    });
  if (req.to !== undefined && toE164(req.to) !== by.phone)
    throw new HttpError(400, STAFF_PHONE_MESSAGES.testToOwnPhone, {
      fields: { to: 'Not your verified phone' },
    });
  const phone = by.phone;
  await reserveTestSend(by.id);
  // The guard's staff_test purpose: the member's own verified phone, STOP honoured, never a subscriber's allowance.
  const sent = await sendGuardedText({
    to: phone,
    body: `[Test] ${textFor(b, sample)}`,
    lang: sample.lang,
    consent: { purpose: 'staff_test', userId: by.id, broadcastId: b.id },
  });
  return sent.sent
    ? { sent: true, to: maskPhone(phone) }
    : { sent: false, to: maskPhone(phone), reason: TEXT_REFUSALS[sent.refusal] };
}

// ---------------------------------------------------------------------------
// The per-broadcast CSV: every queued recipient and what happened

/** Chunks read at once for the CSV (two blobs each): 500 chunks of a 100,000-recipient broadcast in about 20 rounds. */
const CSV_CONCURRENCY = 25;

/**
 * Every recipient of a broadcast and what happened, as an export source (docs/decisions/156-exports.md):
 * the queue's chunks read CSV_CONCURRENCY at a time (each with its outcomes), so a report of any size is written by
 * the export mechanism without holding every row at once.
 */
export async function broadcastExportSource(
  id: number,
): Promise<ExportSource & { broadcast: Pick<StoredBroadcast, 'id' | 'name'> }> {
  const b = await requireBroadcast(id);
  const slug =
    b.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'broadcast';
  async function* rows(): AsyncIterable<string[]> {
    for (let at = 0; at < b.run.chunks.length; at += CSV_CONCURRENCY) {
      const parts = await Promise.all(
        b.run.chunks
          .slice(at, at + CSV_CONCURRENCY)
          .map((c) =>
            Promise.all([
              bstore().get<{ recipients: Recipient[] }>(chunkKey(id, b.run.gen, c.id)),
              bstore().get<{ rows: (OutcomeRow | null)[] }>(outcomeKey(id, b.run.gen, c.id)),
            ]),
          ),
      );
      for (const [recipients, outcomes] of parts) {
        const done = outcomes?.value.rows ?? [];
        const list = recipients?.value.recipients ?? [];
        for (let i = 0; i < list.length; i += 1) {
          const r = list[i]!;
          const o = done[i];
          const outcome: Outcome | null = o ? o[0] : b.status === 'cancelled' ? 'skipped_cancelled' : null;
          yield [
            r.to,
            r.firstName,
            r.lang,
            outcome ? OUTCOME_LABELS[outcome] : 'Queued',
            o?.[1] ?? '',
            o?.[2] ?? '',
          ];
        }
      }
    }
  }
  return {
    filename: `broadcast-${id}-${slug}.csv`,
    columns: [
      b.channel === 'text' ? 'Phone' : 'Email',
      'First name',
      'Language',
      'Outcome',
      'Message id',
      'Error',
    ],
    total: b.run.chunks.reduce((n, c) => n + c.size, 0),
    rows,
    broadcast: { id: b.id, name: b.name },
  };
}

/** For the audit entry: a broadcast as a target. */
export const broadcastTarget = (b: Pick<StoredBroadcast, 'id' | 'name'>) => ({
  type: 'broadcast',
  id: b.id,
  label: b.name,
});

/** What a recipient gets (the compliance additions included): the Spanish one falls back as sending does. */
function preview(b: StoredBroadcast, lang: Lang): Preview {
  const sample = { firstName: '', lang };
  if (b.channel === 'text') {
    return { text: textAsSent(b, sample) };
  }
  const e = emailFor(b, sample);
  const m = composeBulkEmail({ to: 'recipient@example.org', ...e });
  return { subject: m.subject, preview: e.preview, html: m.html };
}
