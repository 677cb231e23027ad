import type { StoredContribution } from '../../schemas/donations.ts';
import { contributionKey } from '../donations/ledger.ts';
import { lookupKey, normalEmail, personKey } from './keys.ts';
import type { Lookup } from './link.ts';
import { addTimeline, notePerson, people, type Person } from './person.ts';

/**
 * Donations attach to a person who already exists (docs/decisions/149-people.md): the notification's email is looked
 * up by its keyed hash and never stored; the timeline entry links the contribution (which keeps only the ledger's
 * own keyed hash of the donor). A donation never creates a person.
 */
export async function linkDonations(email: string | null | undefined, records: StoredContribution[]) {
  try {
    const e = normalEmail(email);
    if (!e || !records.length) return;
    const id = (await people().get<Lookup>(lookupKey('email', e)))?.value.id;
    if (!id) return;
    for (const c of records)
      await addTimeline(id, {
        at: c.paidAt,
        source: 'donation',
        store: 'donations',
        key: contributionKey(c.id),
        detail: { refcode: c.refcode, donorKey: c.donorKey },
      });
    for (let attempt = 0; attempt < 4; attempt++) {
      const cur = await people().get<Person>(personKey(id));
      if (!cur || cur.value.sources.includes('donation')) return;
      const next = {
        ...cur.value,
        sources: [...cur.value.sources, 'donation' as const],
        rev: cur.value.rev + 1,
      };
      if (await people().replace(personKey(id), next, cur.etag)) return notePerson(next);
    }
  } catch (err) {
    console.error('[people] could not link a donation', err);
  }
}
