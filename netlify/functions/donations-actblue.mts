import type { Config } from '@netlify/functions';
import { ActBlueWebhookSchema } from '../../src/lib/schemas/donations.ts';
import { contributionsOf, requireActBlueAuth, webhookKind } from '../../src/lib/server/donations/actblue.ts';
import { recordNotification } from '../../src/lib/server/donations/ledger.ts';
import { allowMethods, handle, json, readJson } from '../../src/lib/server/http.ts';
import { linkDonations } from '../../src/lib/server/people/donations.ts';
import { creditDonations } from '../../src/lib/server/supporters/invites.ts';

/**
 * POST /api/donations/actblue (+ /refunds, /cancellations): ActBlue's webhook.
 * HTTP Basic auth (401), then the JSON payload (4xx, nothing stored), then the
 * ledger: 201 when something new was stored, 200 for a replay; then the
 * person's donation link and the invite credit, each idempotent. Server to
 * server, so no same-origin check: the credentials are the authentication.
 */
export default handle(async (req: Request) => {
  allowMethods(req, 'POST');
  requireActBlueAuth(req);
  const payload = await readJson(req, ActBlueWebhookSchema, 64 * 1024);
  const kind = webhookKind(new URL(req.url).pathname.replace(/\/$/, ''), payload);
  const records = contributionsOf(payload, kind);
  const { created, changed } = await recordNotification(records, kind);
  await linkDonations(payload.donor?.email, records);
  // A gift through a supporter's invite link (the refcode the donate page added), credited to its owner once.
  await creditDonations(records);
  return json({ kind, created, changed }, { status: created > 0 ? 201 : 200 });
});

export const config: Config = {
  path: ['/api/donations/actblue', '/api/donations/actblue/refunds', '/api/donations/actblue/cancellations'],
};
