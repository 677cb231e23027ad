import { z } from 'zod';
import { loadTwilio, validTwilioSignature } from '../adapters/sms.ts';
import { ConfigError, env, isLocalMode } from '../env.ts';
import { readText, respond } from '../http.ts';
import { HttpError } from '../errors.ts';
import { hashed, key } from '../storage/keys.ts';
import { update } from '../storage/compare-and-set.ts';
import { kv } from '../storage/stores.ts';
import { helpText, stoppedText } from '../../../content/sms-program.ts';
import { DEFAULT_LANG } from '../../lang.ts';
import type { StoredTextSignup } from '../../schemas/inbox.ts';
import { laterStamp } from '../content/stamps.ts';
import { noteSummary, summarize } from '../inbox/summary-shapes.ts';
import { recordConsentFor } from '../people/consent.ts';
import { classifyInbound } from './inbound-keywords.ts';
import { appendConsentEvent, emptyEvent, getPerson, markOptedOut, personKey } from './text-list.ts';

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

// ---------------------------------------------------------------------------
// What an inbound text does (its kind: inbound-keywords.ts)

export interface InboundText {
  messageSid: string;
  from: string;
  body: string;
}

/** Answers a "1" / "SÍ" (confirm) or "2" / "NO" (cancel) reply from a number; returns the reply to send, or null. */
export type ReplyAnswerer = (from: string, kind: 'confirm' | 'cancel', now: Date) => Promise<string | null>;
let replyAnswerer: ReplyAnswerer | null = null;

/**
 * The folder that asks a question by text registers who answers the reply (events/shift-answers.ts, the shift's
 * day-before question): texting/ sits below events/, so it does not import it (docs/decisions/153-storage.md, "The
 * folders form a DAG"). With nobody registered, a "1" or "2" is an ordinary message: no reply, nothing changed.
 */
export function registerReplyAnswerer(answer: ReplyAnswerer): void {
  replyAnswerer = answer;
}

/**
 * Applies one inbound text to the consent log and the person's state.
 * Returns the reply to send (null: none; Twilio's advanced opt-out answers
 * STOP and START keywords itself). A reply is in the language the person
 * signed up in; for a number not on the list, in the language it wrote in.
 */
export async function applyInboundText(msg: InboundText, now = new Date()): Promise<string | null> {
  const at = now.toISOString();
  const { kind, keyword, lang: asked } = classifyInbound(msg.body);
  if (kind === 'other') return null;
  // 1 / SÍ, 2 / NO: the answer to a shift's day-before question, if one is waiting for this number.
  if (kind === 'confirm' || kind === 'cancel') return (await replyAnswerer?.(msg.from, kind, now)) ?? null;
  const id = hashed(msg.from);
  const known = await getPerson(id);
  const lang = known?.lang ?? asked ?? DEFAULT_LANG;
  const base = {
    ...emptyEvent(id, kind, at),
    phone: msg.from,
    lang,
    inboundMessageSid: msg.messageSid,
    inboundBody: msg.body.slice(0, 1600),
  };
  await appendConsentEvent(base);
  if (kind === 'stop') {
    await markOptedOut(msg.from, at, lang);
    // A keyword STOP is confirmed by Twilio itself; a sentence is not, so we confirm it.
    return keyword ? null : stoppedText(lang);
  }
  if (kind === 'start') {
    // START re-subscribes someone who consented before; it never creates a subscriber.
    const next = await update<StoredTextSignup>(kv('signups'), personKey(id), (cur) => ({
      ...cur,
      smsStatus: 'subscribed',
      updatedAt: laterStamp(now, cur.updatedAt),
    }));
    if (next) await noteSummary('text-signups', summarize['text-signups'](next, personKey(id)));
    // Fresh consent from the phone itself, recorded with its wording (docs/decisions/149-people.md).
    if (next)
      await recordConsentFor('text', msg.from, {
        action: 'opt_in',
        via: 'start_keyword',
        at: now,
        wording: `Replied ${msg.body.slice(0, 160)}`,
        ref: msg.messageSid,
      });
    return null;
  }
  return helpText(lang);
}
