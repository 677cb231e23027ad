import { readFileSync } from 'node:fs';
import * as actblueFn from '../../netlify/functions/donations-actblue.mts';
import { call } from './http.ts';
import { setEnv } from './forms.ts';

/** Captured-shape ActBlue notifications (tests/fixtures/actblue/*.json, the documented "ActBlue Default" payload). */
export function fixture(
  name: 'contribution' | 'recurring' | 'refund' | 'cancellation',
): Record<string, unknown> {
  return JSON.parse(
    readFileSync(new URL(`../fixtures/actblue/${name}.json`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
}

export const WEBHOOK_USER = 'actblue-hook';
export const WEBHOOK_PASSWORD = 'correct horse battery staple 42';

export function useWebhookCredentials(): void {
  setEnv({ ACTBLUE_WEBHOOK_USERNAME: WEBHOOK_USER, ACTBLUE_WEBHOOK_PASSWORD: WEBHOOK_PASSWORD });
}

export const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Posts a notification as ActBlue does: JSON, Basic auth, no browser headers. */
export function deliver(
  body: unknown,
  opts: { path?: string; authorization?: string | null; raw?: string; contentType?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': opts.contentType ?? 'application/json' };
  const auth = opts.authorization === undefined ? basic(WEBHOOK_USER, WEBHOOK_PASSWORD) : opts.authorization;
  if (auth) headers.authorization = auth;
  return call(actblueFn, opts.path ?? '/api/donations/actblue', {
    method: 'POST',
    body: opts.raw ?? JSON.stringify(body),
    headers,
    crossSite: true,
  });
}

/** A contribution notification for a made-up order (one line item). */
export function order(
  n: number,
  over: {
    amount?: string;
    refcode?: string;
    refcode2?: string;
    day?: string;
    recurring?: boolean;
    email?: string;
    lineitem?: number;
  } = {},
): Record<string, unknown> {
  const f = fixture(over.recurring ? 'recurring' : 'contribution') as {
    donor: Record<string, unknown>;
    contribution: Record<string, unknown>;
    lineitems: Record<string, unknown>[];
  };
  const at = `${over.day ?? '2025-09-20'}T12:00:00-05:00`;
  f.donor.email = over.email ?? `donor${n}@example.com`;
  f.contribution.orderNumber = `AB9${String(n).padStart(8, '0')}`;
  f.contribution.createdAt = at;
  if (over.refcode !== undefined) {
    f.contribution.refcode = over.refcode;
    f.contribution.refcodes = { refcode: over.refcode };
  }
  if (over.refcode2 !== undefined) {
    f.contribution.refcode2 = over.refcode2;
    f.contribution.refcodes = { ...(f.contribution.refcodes as object), refcode2: over.refcode2 };
  }
  f.lineitems = [
    {
      ...f.lineitems[0],
      amount: over.amount ?? '10.00',
      paidAt: at,
      lineitemId: over.lineitem ?? 70000000 + n,
    },
  ];
  return f;
}
