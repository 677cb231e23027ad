import { StoredSubscriberSchema, StoredVolunteerSchema } from '../../schemas/inbox.ts';
import type { Suppression } from '../people/suppressions.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { noteSummary, summarize } from '../inbox/summary-shapes.ts';

/**
 * An email suppression shown where the address is listed (docs/decisions/155-inbox-and-staff-lists.md):
 * the address's newsletter record (`subscriber/<hash>`) and volunteer sign-ups (`volunteer/<hash>/...`) get a
 * new summary carrying it, so the Inbox rows, the status filter and the CSVs say so without reading the
 * ledger per row. A few calls per suppression: the subscriber read, one listing of the address's sign-ups
 * and their reads, one segment each. Contact messages are not a mailing list (no broadcast reads them) and
 * keep no status.
 */
export async function showSuppression(addressHash: string, s: Suppression): Promise<void> {
  const subKey = key('subscriber', addressHash);
  const sub = StoredSubscriberSchema.safeParse((await kv('subscribers').get<unknown>(subKey))?.value);
  if (sub.success)
    await noteSummary('email-subscribers', summarize['email-subscribers'](sub.data, subKey, s));
  const volunteers = kv('volunteers');
  for await (const page of volunteers.keys(`${key('volunteer', addressHash)}/`))
    for (const k of page) {
      const v = StoredVolunteerSchema.safeParse((await volunteers.get<unknown>(k))?.value);
      if (v.success) await noteSummary('volunteers', summarize.volunteers(v.data, k, s));
    }
}
