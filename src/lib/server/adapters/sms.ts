import { randomBytes } from 'node:crypto';
import type Twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient';
import { ConfigError, env, isLocalMode } from '../env.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { textSettingProblems } from './sms-registration.ts';
import { budgets } from '../time-budgets.ts';

export interface SmsMessage {
  /** E.164 number. */
  to: string;
  body: string;
  /** The sender's delivery key (a broadcast's, per recipient): the outbox keeps it for findSentSms. */
  key?: string;
  /** Twilio's StatusCallback: where it posts this message's delivery status. */
  statusCallback?: string;
}

export class SmsSendError extends Error {
  /** Twilio's error code when it gave one (e.g. 21610: the recipient replied STOP). */
  readonly code: number | undefined;
  constructor(message: string, code?: number) {
    super(message);
    this.name = 'SmsSendError';
    this.code = code;
  }
}

/**
 * Twilio did not answer (network error, timeout): the message may or may not have been taken, so a
 * sender that can ask later (the broadcast engine's provider lookup) keeps its claim and retries rather than
 * recording a failure. Its name stays SmsSendError, so a recorded failure reads as before.
 */
export class SmsUnreachableError extends SmsSendError {}

type TwilioSdk = typeof Twilio;

/**
 * The twilio package, loaded only when a text is sent or a webhook checked:
 * it is several megabytes, and most requests of the functions that can text
 * (a repeat sign-up, local mode) never need it
 * (docs/decisions/162-public-pages-and-performance.md).
 */
export async function loadTwilio(): Promise<TwilioSdk> {
  return (await import('twilio')).default;
}

type RequestOptions<T> = RequestClient.RequestOptions<T>;

/**
 * The twilio package has no option for another API base URL (only edge and
 * region, which rewrite the *.twilio.com hostname). TWILIO_API_URL (tests, a
 * proxy) is honoured by a custom httpClient that moves every request to that
 * base before the package's own RequestClient sends it.
 */
function baseUrlRequestClient(twilio: TwilioSdk, base: URL | null, timeout: number): RequestClient {
  class BaseUrlRequestClient extends twilio.RequestClient {
    override request<T>(opts: RequestOptions<T>) {
      if (!base || !opts.uri) return super.request<T>(opts);
      const u = new URL(opts.uri);
      u.protocol = base.protocol;
      u.host = base.host;
      u.pathname = base.pathname.replace(/\/$/, '') + u.pathname;
      return super.request<T>({ ...opts, uri: u.href });
    }
  }
  return new BaseUrlRequestClient({ timeout, autoRetry: false });
}

let cachedClient: { signature: string; client: Twilio.Twilio } | null = null;

async function client(
  accountSid: string,
  authToken: string,
  apiUrl: string | undefined,
): Promise<Twilio.Twilio> {
  const timeout = budgets().smsMs;
  const signature = `${accountSid}:${authToken}:${apiUrl ?? ''}:${timeout}`;
  if (cachedClient?.signature !== signature) {
    const twilio = await loadTwilio();
    const httpClient = baseUrlRequestClient(twilio, apiUrl ? new URL(apiUrl) : null, timeout);
    cachedClient = { signature, client: twilio(accountSid, authToken, { httpClient, autoRetry: false }) };
  }
  return cachedClient.client;
}

export function smsConfigured(): boolean {
  const e = env();
  return Boolean(
    e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN && (e.TWILIO_MESSAGING_SERVICE_SID || e.TWILIO_FROM_NUMBER),
  );
}

/**
 * Why production may not text, or null when it may (local mode: always null; it has the outbox). Production texts
 * only through the registered Messaging Service and with the Campaign Verify token recorded
 * (sms-registration.ts, the same lines `npm run launch-check` prints).
 */
export function textSendingRefusal(): string | null {
  if (isLocalMode()) return null;
  const problems = textSettingProblems(env());
  return problems.length
    ? `Text sending is off until the texting settings are complete: ${problems.map((p) => p.message).join(' ')}`
    : null;
}

/** Throws (ConfigError, a 503 for a request) with a log line naming what is missing: never a silent skip. */
function refuseUnregisteredSending(): void {
  const refusal = textSendingRefusal();
  if (!refusal) return;
  console.error(`[sms] refused: ${refusal}`);
  throw new ConfigError(refusal);
}

/**
 * Sends one text through Twilio's Messages API (messaging service when
 * TWILIO_MESSAGING_SERVICE_SID is set, else TWILIO_FROM_NUMBER, which only
 * local mode accepts). Unconfigured in local mode, the text goes to the Blobs
 * outbox (store "outbox", keys "sms/...") with a log line; in production
 * without the Messaging Service and the Campaign Verify token (or without
 * Twilio at all) it is a logged ConfigError (textSendingRefusal). Only the text guard calls it (src/lib/server/texting/text-guard.ts:
 * number, consent, STOP, quiet hours, caps; tests/unit/text-guard-paths.test.ts holds
 * every other module to that); this module only sends.
 */
export async function sendSms(msg: SmsMessage): Promise<{ id: string; via: 'twilio' | 'outbox' }> {
  const e = env();
  refuseUnregisteredSending();
  if (!smsConfigured()) {
    const at = new Date().toISOString();
    const id = `${at}-${randomBytes(4).toString('hex')}`;
    await kv('outbox').put(key('sms', id), { ...msg, at });
    if (msg.key) await kv('outbox').put(key('sms-key', msg.key), { id });
    console.info(`[sms:outbox] to=${msg.to.slice(0, -4)}**** (local mode: stored in the Blobs outbox)`);
    return { id, via: 'outbox' };
  }
  const sender = e.TWILIO_MESSAGING_SERVICE_SID
    ? { messagingServiceSid: e.TWILIO_MESSAGING_SERVICE_SID }
    : { from: e.TWILIO_FROM_NUMBER as string };
  try {
    const twilioClient = await client(
      e.TWILIO_ACCOUNT_SID as string,
      e.TWILIO_AUTH_TOKEN as string,
      e.TWILIO_API_URL,
    );
    const sent = await twilioClient.messages.create({
      to: msg.to,
      body: msg.body,
      ...(msg.statusCallback ? { statusCallback: msg.statusCallback } : {}),
      ...sender,
    });
    return { id: sent.sid, via: 'twilio' };
  } catch (err) {
    // Keep only status and code: Twilio's message body is never passed on.
    const status = (err as { status?: number }).status;
    const code = (err as { code?: number }).code;
    if (!status) throw new SmsUnreachableError(`Twilio unreachable: ${(err as Error).name}`);
    throw new SmsSendError(
      `Twilio answered ${status}${typeof code === 'number' ? ` (code ${code})` : ''}`,
      typeof code === 'number' ? code : undefined,
    );
  }
}

/**
 * Whether the provider already took this message: the same body to the same number, created at or
 * after `since` (Twilio's Messages list filtered by To, newest first; local mode: the outbox's record
 * of the delivery key). The sending engine asks before it re-sends a delivery a stopped worker had
 * claimed (docs/decisions/152-broadcasts.md). Returns the message id, or null.
 */
export async function findSentSms(q: {
  to: string;
  body: string;
  since: Date;
  key: string;
}): Promise<string | null> {
  refuseUnregisteredSending();
  if (!smsConfigured()) {
    const r = await kv('outbox').get<{ id: string }>(key('sms-key', q.key));
    return r?.value.id ?? null;
  }
  const e = env();
  try {
    const twilioClient = await client(
      e.TWILIO_ACCOUNT_SID as string,
      e.TWILIO_AUTH_TOKEN as string,
      e.TWILIO_API_URL,
    );
    // A queued message has no date_sent yet, so the list is filtered by number only and the time is
    // checked on date_created. A subscriber gets few texts: the newest 50 cover any resume window.
    const recent = await twilioClient.messages.list({ to: q.to, limit: 50, pageSize: 50 });
    const hit = recent.find(
      (m) => m.body === q.body && m.dateCreated && m.dateCreated.getTime() >= q.since.getTime() - 60_000,
    );
    return hit?.sid ?? null;
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (!status) throw new SmsUnreachableError(`Twilio unreachable: ${(err as Error).name}`);
    throw new SmsSendError(`Twilio answered ${status}`);
  }
}

/**
 * Checks X-Twilio-Signature for a webhook. The URL is the configured public
 * one (SITE_URL + the path and query the request came in on), never the Host
 * header, which a caller controls.
 */
export async function validTwilioSignature(
  requestUrl: string,
  signature: string | null,
  params: Record<string, string | string[]>,
): Promise<boolean> {
  const authToken = env().TWILIO_AUTH_TOKEN;
  if (!authToken || !signature) return false;
  const u = new URL(requestUrl);
  const publicUrl = new URL(u.pathname + u.search, env().SITE_URL).href;
  return (await loadTwilio()).validateRequest(authToken, signature, publicUrl, params);
}
