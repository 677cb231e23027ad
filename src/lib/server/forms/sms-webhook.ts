import { z } from 'zod';
import { loadTwilio, validTwilioSignature } from '../adapters/sms.ts';
import { ConfigError, env, isLocalMode } from '../env.ts';
import { readText, respond } from '../http.ts';
import { HttpError } from '../errors.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { applyInboundText } from './text-signups.ts';

/** What we read from Twilio's inbound-message webhook (it sends many more fields; those are ignored). */
const InboundSchema = z.object({
  MessageSid: z.string().regex(/^(SM|MM)[0-9a-fA-F]{32}$/, 'Invalid MessageSid'),
  From: z.string().regex(/^\+\d{8,15}$/, 'Invalid From'),
  Body: z.string().max(1600).default(''),
});

/** TwiML answer. Only ever built after the signature check, which has loaded the twilio package. */
export async function twiml(reply: string | null): Promise<Response> {
  const twilio = await loadTwilio();
  const r = new twilio.twiml.MessagingResponse();
  if (reply) r.message(reply);
  return respond(r.toString(), { type: 'text/xml; charset=utf-8' });
}

/**
 * A Twilio webhook's form, once its X-Twilio-Signature holds: only the content type and size are
 * looked at first (415, 413); a bad or missing signature is 403, and without TWILIO_AUTH_TOKEN every
 * request is refused (403 in local mode, 503 in production where it is a configuration fault). Shared
 * by the inbound-message webhook and the broadcast status callback (src/lib/server/broadcasts/feedback.ts).
 */
export async function readSignedTwilioForm(req: Request): Promise<URLSearchParams> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers.get('content-type') ?? ''))
    throw new HttpError(415, 'Content-Type must be application/x-www-form-urlencoded');
  const body = await readText(req, 16 * 1024);
  if (!env().TWILIO_AUTH_TOKEN && !isLocalMode()) throw new ConfigError('TWILIO_AUTH_TOKEN is not set');
  const form = new URLSearchParams(body);
  const params: Record<string, string | string[]> = {};
  for (const name of new Set(form.keys())) {
    const all = form.getAll(name);
    params[name] = all.length === 1 ? (all[0] as string) : all;
  }
  if (!(await validTwilioSignature(req.url, req.headers.get('x-twilio-signature'), params)))
    throw new HttpError(403, 'Invalid signature');
  return form;
}

/**
 * POST /api/sms/inbound. The signature is checked before the body is used
 * for anything (readSignedTwilioForm).
 */
export async function handleInboundWebhook(req: Request): Promise<Response> {
  const form = await readSignedTwilioForm(req);

  const parsed = InboundSchema.safeParse({
    MessageSid: form.get('MessageSid'),
    From: form.get('From'),
    Body: form.get('Body') ?? '',
  });
  if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? 'Invalid webhook');
  const msg = parsed.data;

  // Idempotent on MessageSid: Twilio retries, and a captured request can be replayed.
  const marker = key('inbound', msg.MessageSid);
  const store = kv('signups');
  if (!(await store.create(marker, { at: new Date().toISOString(), status: 'processing' })))
    return await twiml(null);
  try {
    const reply = await applyInboundText({ messageSid: msg.MessageSid, from: msg.From, body: msg.Body });
    return await twiml(reply);
  } catch (err) {
    // Let Twilio's retry process it again.
    await store.delete(marker).catch(() => undefined);
    throw err;
  }
}
