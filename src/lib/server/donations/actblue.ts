import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ActBlueWebhook, StoredContribution, WebhookKind } from '../../schemas/donations.ts';
import { ConfigError, env, isLocalMode } from '../env.ts';
import { HttpError } from '../errors.ts';
import { campaignToday } from '../content/events.ts';

/**
 * ActBlue's side of the donations ledger: HTTP Basic authentication of its
 * webhook calls, and the mapping of its payload to the minimal record we keep
 * (pure apart from reading the environment; docs/decisions/165-donations.md).
 */

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Equal strings, compared in constant time (digests of equal length, whatever the inputs). */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

const unauthorized = () =>
  new HttpError(401, 'Authentication required', {}, { 'WWW-Authenticate': 'Basic realm="donations"' });

/**
 * Checks the Authorization header against ACTBLUE_WEBHOOK_USERNAME/PASSWORD.
 * Both parts are always compared (no early exit on the username). Without
 * configured credentials: production answers 503 (ActBlue retries later,
 * nothing is lost); local mode refuses every call.
 */
export function requireActBlueAuth(req: Request): void {
  const { ACTBLUE_WEBHOOK_USERNAME: user, ACTBLUE_WEBHOOK_PASSWORD: pass } = env();
  if (!user || !pass) {
    if (!isLocalMode()) throw new ConfigError('ACTBLUE_WEBHOOK_USERNAME/PASSWORD are not set');
    console.info('[donations] webhook credentials are not set: every call is refused (local mode)');
    throw unauthorized();
  }
  const header = req.headers.get('authorization') ?? '';
  const m = /^Basic ([A-Za-z0-9+/=]{1,1024})$/i.exec(header.trim());
  if (!m) throw unauthorized();
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw unauthorized();
  const okUser = constantTimeEqual(decoded.slice(0, colon), user);
  const okPass = constantTimeEqual(decoded.slice(colon + 1), pass);
  if (!(okUser && okPass)) throw unauthorized();
}

const DEV_DONOR_KEY_SECRET = 'dev-only-donor-key-secret';

/**
 * The donor key: an HMAC of the normalised email, so repeat donors can be
 * counted without keeping (or being able to recompute from a list of emails)
 * who they are. Null when the payload has no email.
 */
export function donorKey(email: string | null | undefined): string | null {
  const normalized = email?.trim().toLowerCase();
  if (!normalized) return null;
  const secret = env().DONOR_KEY_SECRET ?? (isLocalMode() ? DEV_DONOR_KEY_SECRET : undefined);
  if (!secret) throw new ConfigError('DONOR_KEY_SECRET is not set');
  return createHmac('sha256', secret).update(normalized).digest('hex');
}

/** What a notification is, from the endpoint it came to, else from its own status fields. */
export function webhookKind(path: string, payload: ActBlueWebhook): WebhookKind {
  if (path.endsWith('/refunds')) return 'refund';
  if (path.endsWith('/cancellations')) return 'cancellation';
  const status = payload.contribution.status?.toLowerCase() ?? '';
  if (
    status === 'refunded' ||
    payload.contribution.refundedAt ||
    payload.lineitems.some((l) => l.refundedAt || l.amount < 0)
  )
    return 'refund';
  if (status === 'cancelled' || status === 'canceled' || payload.contribution.cancelledAt)
    return 'cancellation';
  return 'contribution';
}

function isRecurring(c: ActBlueWebhook['contribution']): boolean {
  if (typeof c.isRecurring === 'boolean') return c.isRecurring;
  if (typeof c.isRecurring === 'string') return c.isRecurring.toLowerCase() === 'true';
  return Boolean(c.recurringPeriod && c.recurringPeriod.toLowerCase() !== 'once');
}

/** A UTM tag from the refcodes: `utm_source`, or `refcode_utm_source` as the donate page forwards it. */
function utm(refcodes: Record<string, string | null> | null | undefined, name: string): string | null {
  if (!refcodes) return null;
  for (const k of [`utm_${name}`, `refcode_utm_${name}`]) {
    const v = Object.hasOwn(refcodes, k) ? refcodes[k] : null;
    if (v) return v;
  }
  return null;
}

const blankToNull = (s: string | null | undefined) => (s ? s : null);

/**
 * The records one notification describes, one per line item (ActBlue sends a
 * notification per line item; a recurring series reuses the order number with
 * new line items). Amounts in cents, the day in campaign time.
 */
export function contributionsOf(
  payload: ActBlueWebhook,
  kind: WebhookKind,
  now = new Date(),
): StoredContribution[] {
  const c = payload.contribution;
  const at = now.toISOString();
  const refcodes = c.refcodes ?? null;
  return payload.lineitems.map((line, i) => {
    const lineitemId = String(line.lineitemId ?? line.sequence ?? i);
    const paidAt = new Date(line.paidAt ?? c.createdAt).toISOString();
    const refundedAt =
      kind === 'refund' ? new Date(line.refundedAt ?? c.refundedAt ?? at).toISOString() : null;
    const cancelledAt = kind === 'cancellation' ? new Date(c.cancelledAt ?? at).toISOString() : null;
    return {
      id: `${c.orderNumber}-${lineitemId}`,
      orderNumber: c.orderNumber,
      lineitemId,
      amountCents: Math.abs(line.amount),
      paidAt,
      day: campaignToday(new Date(paidAt)),
      refcode: blankToNull(c.refcode ?? refcodes?.refcode),
      refcode2: blankToNull(c.refcode2 ?? refcodes?.refcode2),
      utmSource: utm(refcodes, 'source'),
      utmMedium: utm(refcodes, 'medium'),
      utmCampaign: utm(refcodes, 'campaign'),
      recurring: isRecurring(c),
      recurringPeriod: c.recurringPeriod ?? null,
      donorKey: donorKey(payload.donor?.email),
      status: kind === 'refund' ? 'refunded' : 'paid',
      refundedAt,
      cancelledAt,
      receivedAt: at,
      updatedAt: at,
    } satisfies StoredContribution;
  });
}
