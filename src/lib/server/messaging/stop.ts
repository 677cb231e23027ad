import { DEFAULT_LANG } from '../../lang.ts';
import { markOptedOut } from '../texting/text-list.ts';
import { suppress } from './email-guard.ts';
import { hashed } from '../storage/keys.ts';
import { recordConsent } from '../people/consent.ts';
import { getPerson, type Channel } from '../people/person.ts';

/**
 * A request to stop (staff recording a phone call or a letter on the person; a web choice later): revoked on the
 * person and written to each channel's own ledger for every address of theirs (the suppression ledger per email,
 * the text list's STOP per phone), so every sending path, every Inbox list and every CSV says so at once
 * (docs/decisions/149-people.md, docs/decisions/155-inbox-and-staff-lists.md).
 */
export async function stopContact(
  personId: string,
  channels: readonly Channel[],
  via: string,
  now = new Date(),
): Promise<{ emails: number; phones: number } | null> {
  const root = await getPerson(personId);
  if (!root) return null;
  const merged = await Promise.all(root.value.merged.map((id) => getPerson(id)));
  const all = [root.value, ...merged.flatMap((m) => (m ? [m.value] : []))];
  const emails = channels.includes('email') ? [...new Set(all.flatMap((p) => p.emails))] : [];
  const phones = channels.includes('text') ? [...new Set(all.flatMap((p) => p.phones))] : [];
  for (const e of emails) await suppress(hashed(e), 'unsubscribed', via, now);
  for (const p of phones) await markOptedOut(p, now.toISOString(), root.value.lang ?? DEFAULT_LANG);
  // The person's own ledger (an address-less channel included), whatever the hooks above already wrote.
  for (const c of channels)
    for (const p of all) await recordConsent(p.id, { channel: c, action: 'revoke', via, at: now });
  return { emails: emails.length, phones: phones.length };
}
