import type { ActivityKind } from '../../schemas/overview.ts';
import { countActivity } from '../activity/counts.ts';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { IDENTITY, officeAddress, paidForLine } from '../../../content/identity.ts';
import { DEFAULT_LANG, type Lang } from '../../lang.ts';
import { escapeHtml } from '../../merge-fields.ts';
import { sendEmail } from '../adapters/email.ts';
import { derivedKey } from '../derived-keys.ts';
import { env } from '../env.ts';
import { showSuppression } from './suppression-index.ts';
import { UNCHANGED, upsert } from '../storage/compare-and-set.ts';
import { hashed } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { consentFor, revokeEmailByHash } from '../people/consent.ts';
import {
  SUPPRESSION_REASONS,
  suppressionKey,
  suppressionOf,
  type Suppression,
  type SuppressionReason,
} from '../people/suppressions.ts';

/**
 * The one way a bulk email goes out (docs/decisions/167-email-and-newsletter.md). Every
 * broadcast email passes here, which:
 *
 * 1. refuses an address that is suppressed: unsubscribed (the page, the one-click POST, SendGrid's
 *    unsubscribe event), bounced or reported as spam (SendGrid's Event Webhook), read at dispatch;
 * 2. adds the paid-for line (11 CFR 110.11), the committee's postal address (src/content/identity.ts)
 *    and an unsubscribe link in the email's language;
 * 3. sets `List-Unsubscribe` (the one-click URL and a mailto) and `List-Unsubscribe-Post:
 *    List-Unsubscribe=One-Click` (RFC 8058), so the mail client's own button unsubscribes at once.
 *
 * Transactional emails (a password reset, the newsletter's double opt-in, an RSVP's status, a form's
 * notification to staff) answer something the person just did and keep their direct adapter call.
 */

export { SUPPRESSION_REASONS, suppressionKey, suppressionOf };
export type { Suppression, SuppressionReason };

/**
 * Records a suppression by the address's hash (idempotent: the first reason stands, a repeat writes
 * nothing). A newsletter subscriber's record is left as it is: the ledger is what every send reads. The
 * address's Inbox rows then show it (their summaries are written again, repeats included, so a retry after
 * a failure mends them: docs/decisions/155-inbox-and-staff-lists.md).
 */
const SUPPRESSION_ACTIVITY: Record<SuppressionReason, ActivityKind> = {
  unsubscribed: 'email.unsubscribe',
  bounced: 'email.bounce',
  spam_reported: 'email.spam',
};

export async function suppress(
  addressHash: string,
  reason: SuppressionReason,
  via: string,
  now = new Date(),
) {
  let created = false;
  const s = await upsert<Suppression>(kv('subscribers'), suppressionKey(addressHash), (cur) => {
    created = !cur;
    return cur ? UNCHANGED : { reason, at: now.toISOString(), via };
  });
  await showSuppression(addressHash, s);
  // The person's one email state: every address of theirs (docs/decisions/149-people.md).
  await revokeEmailByHash(addressHash, s.reason === 'unsubscribed' ? s.via : s.reason, now);
  // Counted when first recorded (an address's first suppression is its only one).
  if (created) await countActivity({ kind: SUPPRESSION_ACTIVITY[s.reason], id: addressHash, at: s.at });
  return s;
}

/** The unsubscribe link's proof: an HMAC of the address hash under a key derived from SESSION_SECRET. */
function unsubscribeMac(addressHash: string): string {
  return createHmac('sha256', derivedKey('campaign unsubscribe v1')).update(addressHash).digest('base64url');
}

export function validUnsubscribeToken(addressHash: string, token: string): boolean {
  if (!/^[a-f0-9]{64}$/.test(addressHash)) return false;
  const want = Buffer.from(unsubscribeMac(addressHash));
  const got = Buffer.from(token);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** The page a person opens from the email (a button that posts: scanners that fetch links change nothing). */
export function unsubscribePageUrl(address: string, lang: Lang): string {
  const u = new URL(`${lang === DEFAULT_LANG ? '' : `/${lang}`}/unsubscribe`, env().SITE_URL);
  const h = hashed(address);
  u.searchParams.set('u', h);
  u.searchParams.set('t', unsubscribeMac(h));
  return u.href;
}

/** The RFC 8058 one-click URL: a POST with `List-Unsubscribe=One-Click` unsubscribes at once. */
export function oneClickUrl(address: string): string {
  const u = new URL('/api/unsubscribe', env().SITE_URL);
  const h = hashed(address);
  u.searchParams.set('u', h);
  u.searchParams.set('t', unsubscribeMac(h));
  return u.href;
}

const FOOTER: Record<Lang, { why: string; unsubscribe: string }> = {
  en: {
    why: `You are receiving this because you signed up with ${IDENTITY.committeeName}.`,
    unsubscribe: 'Unsubscribe',
  },
  es: {
    why: `Recibe este mensaje porque se inscribió con ${IDENTITY.committeeName}.`,
    unsubscribe: 'Cancelar la suscripción',
  },
};

/** A plain-text version of allowlisted article HTML (the text/plain part). */
export function htmlToText(html: string): string {
  return html
    .replace(/<a [^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gi, '$2 ($1)')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|h[1-6]|li|blockquote|pre)>/gi, '\n\n')
    .replace(/<li>/gi, '- ')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface BulkEmail {
  to: string;
  subject: string;
  /** The inbox preview line (a hidden preheader). */
  preview: string;
  /** Allowlisted HTML (sanitised when the broadcast was saved). */
  html: string;
  lang: Lang;
  /** Echoed by SendGrid's events: which broadcast delivery this is. */
  customArgs?: Record<string, string>;
}

/** The message as sent: the footer, the links and the headers added (exported for the preview and tests). */
export function composeBulkEmail(m: BulkEmail) {
  const f = FOOTER[m.lang];
  const page = unsubscribePageUrl(m.to, m.lang);
  const footerLines = [paidForLine(IDENTITY, m.lang), officeAddress, f.why];
  const html =
    (m.preview
      ? `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(m.preview)}</div>`
      : '') +
    m.html +
    `<hr><p style="font-size:12px;color:#555">${footerLines.map(escapeHtml).join('<br>')}<br>` +
    `<a href="${escapeHtml(page)}">${escapeHtml(f.unsubscribe)}</a></p>`;
  const text = `${htmlToText(m.html)}\n\n--\n${footerLines.join('\n')}\n${f.unsubscribe}: ${page}\n`;
  return {
    to: m.to,
    subject: m.subject,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${oneClickUrl(m.to)}>, <mailto:${IDENTITY.emails.general}?subject=unsubscribe>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    ...(m.customArgs ? { customArgs: m.customArgs } : {}),
  };
}

export type EmailRefusal = 'suppressed' | 'invalid_address';
export type EmailOutcome =
  { sent: true; id: string } | { sent: false; refusal: EmailRefusal; reason?: string };

const ADDRESS = /^[^\s@<>()",;]{1,64}@[^\s@<>()",;]{1,253}\.[^\s@<>()",;]{2,}$/;

/** Sends one bulk email if the address may receive it; provider failures throw (the caller records them). */
export async function sendGuardedEmail(m: BulkEmail): Promise<EmailOutcome> {
  if (!ADDRESS.test(m.to)) return { sent: false, refusal: 'invalid_address' };
  const s = await suppressionOf(m.to);
  if (s) return { sent: false, refusal: 'suppressed', reason: s.reason };
  if ((await consentFor('email', m.to)).revoked)
    return { sent: false, refusal: 'suppressed', reason: 'unsubscribed' };
  const sent = await sendEmail(composeBulkEmail(m));
  return { sent: true, id: sent.id };
}
