import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnv } from '../../src/lib/server/env.ts';
import { recordConsent } from '../../src/lib/server/people/consent.ts';
import { lookupKey } from '../../src/lib/server/people/keys.ts';
import { link } from '../../src/lib/server/people/link.ts';
import { getPerson, ownTimeline } from '../../src/lib/server/people/person.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { useMemoryStores } from '../helpers/blobs.ts';

/*
 * Concurrent writers lose nothing (docs/decisions/149-people.md), on the atomic in-memory store: a rush of sign-ups
 * for one new person makes one person with every record on the timeline; writes to one person at once (links and
 * consent changes) all land.
 */

beforeAll(() => {
  process.env.APP_ENV ??= 'test';
  resetEnv();
  useMemoryStores();
});
afterAll(() => setStoreFactory(null));

const at = (i: number) => new Date(Date.UTC(2026, 9, 1, 12, 0, i));

describe('people under concurrency', () => {
  it('20 sign-ups of one new person at once: one person, 20 timeline entries, both lookups hers', async () => {
    const email = 'rush@example.org';
    const phone = '+15045550777';
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        link({
          source: 'rsvp',
          store: 'rsvps',
          key: `rsvp/${i}/x`,
          email,
          phone,
          name: 'Rush Person',
          at: at(i),
        }),
      ),
    );
    const ids = new Set(results.map((r) => ('personId' in r ? r.personId : null)));
    expect(ids.size).toBe(1);
    const id = [...ids][0]!;
    expect(results.every((r) => r.outcome === 'created' || r.outcome === 'linked')).toBe(true);
    expect((await kv('people').get<{ id: string }>(lookupKey('email', email)))?.value.id).toBe(id);
    expect((await kv('people').get<{ id: string }>(lookupKey('phone', phone)))?.value.id).toBe(id);
    expect(await ownTimeline(id)).toHaveLength(20);
    // No person left over from a lost race.
    const persons: string[] = [];
    for await (const page of kv('people').keys('person/')) persons.push(...page);
    const withHer = [];
    for (const k of persons)
      if ((await kv('people').get<{ emails: string[] }>(k))?.value.emails.includes(email)) withHer.push(k);
    expect(withHer).toEqual([`person/${id}`]);
  });

  it('links and a consent change on one person at once all land', async () => {
    const first = await link({
      source: 'volunteer',
      store: 'volunteers',
      key: 'volunteer/a/b',
      email: 'busy@example.org',
      phone: '+15045550778',
      name: 'Busy Person',
      at: at(0),
    });
    const id = 'personId' in first ? first.personId : '';
    await Promise.all([
      ...Array.from({ length: 8 }, (_, i) =>
        link({
          source: 'contact',
          store: 'contacts',
          key: `message/${i}`,
          email: 'busy@example.org',
          phone: `+1504555080${i}`,
          name: 'Busy Person',
          at: at(i + 1),
        }),
      ),
      recordConsent(id, { channel: 'email', action: 'revoke', via: 'staff', at: at(30) }),
    ]);
    const p = (await getPerson(id))!.value;
    expect(p.phones).toHaveLength(9);
    expect(p.consent.email?.state).toBe('revoked');
    expect(await ownTimeline(id)).toHaveLength(10);
  });
});
