import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import twilio from 'twilio';
import { resetEnv, TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import type { StoreName } from '../../src/lib/server/storage/kv.ts';
import { readAll } from '../../src/lib/server/storage/listing.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeProvider {
  url: string;
  requests: RecordedRequest[];
  close: () => Promise<void>;
  /**
   * Resolves once every request that reached the server has been answered (and none arrived for a
   * few turns of the event loop): what a real provider has done long before a lease of 90 s runs
   * out, which a fake clock otherwise skips in no time.
   */
  idle: () => Promise<void>;
}

/** A local HTTP server on 127.0.0.1 that speaks a provider's API (the handler decides the answers). */
export async function fakeProvider(
  handler: (req: RecordedRequest, res: ServerResponse) => void | Promise<void>,
): Promise<FakeProvider> {
  const requests: RecordedRequest[] = [];
  let open = 0;
  let seen = 0;
  const server = createServer((req, res) => {
    open += 1;
    seen += 1;
    res.on('close', () => (open -= 1));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(r);
      void handler(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const turn = () => new Promise((r) => setTimeout(r, 5));
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    idle: async () => {
      for (let before = -1; open > 0 || before !== seen;) {
        before = seen;
        await turn();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A Twilio Messages API stand-in: 201 with a message SID, or `fail` status. */
export function twilioHandler(opts: { fail?: number; hang?: boolean } = {}) {
  return (req: RecordedRequest, res: ServerResponse) => {
    if (opts.hang) return;
    if (opts.fail)
      return sendJson(res, opts.fail, { code: 20003, message: 'Authenticate', status: opts.fail });
    if (req.method !== 'POST' || !/^\/2010-04-01\/Accounts\/AC[0-9a-f]{32}\/Messages\.json$/.test(req.url)) {
      return sendJson(res, 404, { code: 20404, message: 'Not found', status: 404 });
    }
    const form = new URLSearchParams(req.body);
    sendJson(res, 201, {
      sid: `SM${randomBytes(16).toString('hex')}`,
      status: 'queued',
      to: form.get('To'),
      body: form.get('Body'),
      messaging_service_sid: form.get('MessagingServiceSid'),
      from: form.get('From'),
    });
  };
}

export const TWILIO_SID = `AC${'0123456789abcdef'.repeat(2)}`;
export const TWILIO_TOKEN = 'test-auth-token-0123456789';

/** Sets env vars (undefined deletes) and resets the cached env. */
export function setEnv(vars: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
}

/** Every provider unset: local mode uses the outbox and the dummy captcha token. */
export function localProviders(): void {
  setEnv({
    APP_ENV: 'test',
    SENDGRID_API_KEY: undefined,
    SENDGRID_API_URL: undefined,
    TWILIO_ACCOUNT_SID: undefined,
    TWILIO_AUTH_TOKEN: undefined,
    TWILIO_MESSAGING_SERVICE_SID: undefined,
    TWILIO_FROM_NUMBER: undefined,
    TWILIO_API_URL: undefined,
    CAMPAIGN_VERIFY_TOKEN: undefined,
    TURNSTILE_SECRET_KEY: undefined,
    TURNSTILE_VERIFY_URL: undefined,
  });
}

let phoneSeq = 0;
/** A distinct valid US number per call (555-01xx range is reserved for fiction). */
export function uniquePhone(): string {
  phoneSeq += 1;
  return `+1504${String(2000000 + phoneSeq)}`;
}

let ipSeq = 0;
/** A distinct client IP per call (TEST-NET-2), so per-IP limits see many people, as in production. */
export function uniqueIp(): string {
  ipSeq += 1;
  return `198.51.${100 + Math.floor(ipSeq / 250)}.${(ipSeq % 250) + 1}`;
}

export const validSignup = (over: Record<string, unknown> = {}) => ({
  firstName: 'Ada',
  phone: '(504) 555-0100',
  email: 'ada@example.com',
  smsConsent: true,
  captcha: TURNSTILE_TEST_TOKEN,
  ...over,
});

export const validVolunteer = (over: Record<string, unknown> = {}) => ({
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.com',
  phone: '504-555-0101',
  address1: '1 Canal St',
  address2: '',
  city: 'New Orleans',
  state: 'LA',
  captchaResponse: TURNSTILE_TEST_TOKEN,
  ...over,
});

export const validContact = (over: Record<string, unknown> = {}) => ({
  name: 'Alan Turing',
  email: 'alan@example.com',
  phone: '',
  subject: 'general',
  message: 'Hello campaign!',
  captcha: TURNSTILE_TEST_TOKEN,
  ...over,
});

export async function keysOf(store: StoreName, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for await (const page of kv(store).keys(prefix)) out.push(...page);
  return out;
}

export async function valuesOf<T = Record<string, unknown>>(store: StoreName, prefix = ''): Promise<T[]> {
  return readAll<T>(kv(store), prefix);
}

export const INBOUND_URL = 'http://localhost:4321/api/sms/inbound';

/** A form body as Twilio posts it, with its X-Twilio-Signature for `url`. */
export function signedInbound(fields: Record<string, string>, opts: { token?: string; url?: string } = {}) {
  const params = {
    ToCountry: 'US',
    To: '+15045550199',
    NumMedia: '0',
    AccountSid: TWILIO_SID,
    ApiVersion: '2010-04-01',
    ...fields,
  };
  const signature = twilio.getExpectedTwilioSignature(
    opts.token ?? TWILIO_TOKEN,
    opts.url ?? INBOUND_URL,
    params,
  );
  return {
    body: new URLSearchParams(params).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
  };
}

export const messageSid = () => `SM${randomBytes(16).toString('hex')}`;
