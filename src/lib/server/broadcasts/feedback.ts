import { createPublicKey, verify } from 'node:crypto';
import { z } from 'zod';
import { ConfigError, env, isLocalMode } from '../env.ts';
import { HttpError } from '../errors.ts';
import { readSignedTwilioForm } from '../texting/sms-webhook.ts';
import { readText } from '../http.ts';
import { suppress, type SuppressionReason } from '../messaging/email-guard.ts';
import { upsert } from '../storage/compare-and-set.ts';
import { hashed, key } from '../storage/keys.ts';
import { CARRIER_OPT_OUT, recordCarrierOptOut } from '../texting/text-guard.ts';
import { bstore } from './repo.ts';

/**
 * What the providers report after a send (docs/decisions/167-email-and-newsletter.md).
 *
 * - Twilio's status callback (POST /api/sms/status, the URL each broadcast text names): signed with
 *   X-Twilio-Signature over the configured public URL and the form; a final status (delivered,
 *   undelivered, failed) is recorded once per message and status (a replay changes nothing), and a
 *   carrier opt-out (21610) is a STOP in the consent log.
 * - SendGrid's Event Webhook (POST /api/email/events): signed with ECDSA over the timestamp and the
 *   body, checked with SENDGRID_WEBHOOK_PUBLIC_KEY; a timestamp more than 5 minutes off is refused (a
 *   replay), and each event is applied once (sg_event_id). Bounces, spam reports and unsubscribes
 *   suppress the address for every later bulk email.
 *
 * Delivery reports are tallied per broadcast in 8 shards (`tally/<id>/<status>/<n>`), so a burst of
 * callbacks does not contend on one document and the progress view reads 8 blobs per status.
 */

export const TALLY_SHARDS = 8;
export const REPORTED = ['delivered', 'undelivered', 'bounced'] as const;
export type Reported = (typeof REPORTED)[number];
const tallyKey = (id: number, status: Reported, shard: number) => key('tally', id, status, shard);

async function tally(id: number, status: Reported, seed: string): Promise<void> {
  const shard = parseInt(hashed(seed).slice(0, 6), 16) % TALLY_SHARDS;
  await upsert<{ n: number }>(bstore(), tallyKey(id, status, shard), (cur) => ({ n: (cur?.n ?? 0) + 1 }));
}

/** Delivery reports of a broadcast (8 reads per status). */
export async function reportedCounts(id: number): Promise<Record<Reported, number>> {
  const out = { delivered: 0, undelivered: 0, bounced: 0 };
  await Promise.all(
    REPORTED.flatMap((status) =>
      Array.from({ length: TALLY_SHARDS }, async (_, shard) => {
        const n = (await bstore().get<{ n: number }>(tallyKey(id, status, shard)))?.value.n ?? 0;
        out[status] += n;
      }),
    ),
  );
  return out;
}

/** Applies a report once: a marker per (message, status), created if new. */
async function once(marker: string): Promise<boolean> {
  return bstore().create(key('report', marker), { at: new Date().toISOString() });
}

// ---------------------------------------------------------------------------
// Twilio

const TwilioStatusSchema = z.object({
  MessageSid: z.string().regex(/^(SM|MM)[0-9a-fA-F]{32}$/, 'Invalid MessageSid'),
  MessageStatus: z.string().max(30),
  To: z
    .string()
    .regex(/^\+\d{8,15}$/)
    .optional(),
  ErrorCode: z
    .string()
    .regex(/^\d{1,6}$/)
    .optional(),
});

const DeliveryRefSchema = z.object({
  b: z.coerce.number().int().positive(),
  c: z.string().regex(/^[A-Za-z0-9._:+-]{1,200}$/),
  i: z.coerce.number().int().min(0),
});

const TWILIO_FINAL: Record<string, Reported> = {
  delivered: 'delivered',
  undelivered: 'undelivered',
  failed: 'undelivered',
};

export async function handleTwilioStatus(req: Request): Promise<{ applied: boolean }> {
  const form = await readSignedTwilioForm(req);
  const p = TwilioStatusSchema.safeParse(Object.fromEntries(form));
  if (!p.success) throw new HttpError(400, p.error.issues[0]?.message ?? 'Invalid callback');
  const u = new URL(req.url);
  const ref = DeliveryRefSchema.safeParse(Object.fromEntries(u.searchParams));
  const status = TWILIO_FINAL[p.data.MessageStatus];
  if (!status) return { applied: false };
  if (!(await once(`${p.data.MessageSid}.${p.data.MessageStatus}`))) return { applied: false };
  if (Number(p.data.ErrorCode) === CARRIER_OPT_OUT && p.data.To)
    await recordCarrierOptOut(p.data.To, new Date());
  if (ref.success) await tally(ref.data.b, status, p.data.MessageSid);
  return { applied: true };
}

// ---------------------------------------------------------------------------
// SendGrid

/** How far a webhook's timestamp may be from now (either way) before it counts as a replay. */
export const SENDGRID_MAX_SKEW_S = 300;

const SendGridEventSchema = z.object({
  email: z.string().max(254),
  event: z.string().max(40),
  sg_event_id: z.string().min(1).max(100),
  timestamp: z.number().optional(),
  broadcast: z
    .string()
    .regex(/^\d{1,12}$/)
    .optional(),
});

const SUPPRESSING: Record<string, SuppressionReason> = {
  bounce: 'bounced',
  spamreport: 'spam_reported',
  unsubscribe: 'unsubscribed',
  group_unsubscribe: 'unsubscribed',
};

/** Checks SendGrid's ECDSA signature over timestamp + body with the configured public key. */
export function validSendGridSignature(
  publicKeyB64: string,
  signatureB64: string,
  timestamp: string,
  body: string,
): boolean {
  try {
    const keyObject = createPublicKey({
      key: Buffer.from(publicKeyB64, 'base64'),
      format: 'der',
      type: 'spki',
    });
    return verify('sha256', Buffer.from(timestamp + body), keyObject, Buffer.from(signatureB64, 'base64'));
  } catch {
    return false;
  }
}

export async function handleSendGridEvents(req: Request, now = new Date()): Promise<{ applied: number }> {
  const body = await readText(req, 1024 * 1024);
  const publicKey = env().SENDGRID_WEBHOOK_PUBLIC_KEY;
  if (!publicKey) {
    if (isLocalMode()) throw new HttpError(403, 'Invalid signature');
    throw new ConfigError('SENDGRID_WEBHOOK_PUBLIC_KEY is not set');
  }
  const signature = req.headers.get('x-twilio-email-event-webhook-signature') ?? '';
  const timestamp = req.headers.get('x-twilio-email-event-webhook-timestamp') ?? '';
  if (!/^\d{1,12}$/.test(timestamp) || !validSendGridSignature(publicKey, signature, timestamp, body))
    throw new HttpError(403, 'Invalid signature');
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > SENDGRID_MAX_SKEW_S)
    throw new HttpError(403, 'Stale timestamp: replay refused');
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON');
  }
  const events = z.array(z.unknown()).max(1000).safeParse(raw);
  if (!events.success) throw new HttpError(400, 'Expected a list of events');
  let applied = 0;
  for (const item of events.data) {
    const e = SendGridEventSchema.safeParse(item);
    if (!e.success) continue;
    if (!(await once(`sg.${hashed(e.data.sg_event_id)}`))) continue;
    applied += 1;
    const reason = SUPPRESSING[e.data.event];
    if (reason) await suppress(hashed(e.data.email), reason, 'sendgrid', now);
    const id = e.data.broadcast ? Number(e.data.broadcast) : null;
    if (id && e.data.event === 'delivered') await tally(id, 'delivered', e.data.sg_event_id);
    if (id && (e.data.event === 'bounce' || e.data.event === 'dropped'))
      await tally(id, 'bounced', e.data.sg_event_id);
  }
  return { applied };
}
