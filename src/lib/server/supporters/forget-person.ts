import { update } from '../storage/compare-and-set.ts';
import { hashed, key } from '../storage/keys.ts';
import { type StoreName } from '../storage/kv.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { kv } from '../storage/stores.ts';
import { SUMMARY_PREFIX } from '../storage/summary-index/segments.ts';
import { bridgeOf, lookupKey, mergeKey, personKey, QUEUE_PREFIX, timelinePrefix } from '../people/keys.ts';
import { refreshEffective } from '../people/consent.ts';
import { getPerson, ownTimeline, people, type Person } from '../people/person.ts';
import { noteKeyPrefix } from '../people/tags.ts';
import { forgetSupporter } from './forget.ts';

/**
 * "Forget me" (docs/decisions/149-people.md): a person deleted everywhere, leaving only the keyed hashes of their
 * addresses (the lookups, as tombstones) so no import brings them back, and a report of what was removed. An admin
 * action, rare: it lists the stores that key records by an address's hash (a listing per 1,000 keys) instead of
 * keeping a second index of them.
 */

export interface ForgetReport {
  personId: string;
  /** People merged into this one, forgotten with it. */
  mergedPeople: number;
  /** Records removed, by store. */
  removed: Partial<Record<StoreName, number>>;
  /** Tombstones left (the keyed hashes of the addresses). */
  tombstones: number;
  /** Summary indexes dropped, rebuilt from the remaining records on their next read. */
  reindexed: StoreName[];
}

/** Stores whose keys name a record's address by its sha256 (the lists' own keys). */
const HASH_KEYED: StoreName[] = ['signups', 'subscribers', 'volunteers', 'rsvps', 'vote-plans', 'ratelimit'];
/**
 * Blobs that may carry an address (or its hash) in their content: copies of messages and stored files, and the
 * newsletter's pending confirmations (a token's record names the subscriber's hash).
 */
const CONTENT_SCANNED: [StoreName, string][] = [
  ['outbox', ''],
  ['exports', ''],
  ['subscribers', 'confirm/'],
];
/** Lists with a summary index over records that may have been removed. */
const INDEXED: StoreName[] = ['signups', 'subscribers', 'volunteers', 'contacts', 'people'];

async function allKeys(store: StoreName, prefix?: string): Promise<string[]> {
  const out: string[] = [];
  for await (const page of kv(store).keys(prefix)) out.push(...page);
  return out;
}

function bytesText(data: ArrayBuffer): string {
  const buf = Buffer.from(data);
  if (buf[0] === 0x1f && buf[1] === 0x8b) {
    try {
      return process.getBuiltinModule('node:zlib').gunzipSync(buf).toString('utf8');
    } catch {
      return buf.toString('utf8');
    }
  }
  return buf.toString('utf8');
}

export class PersonNotFound extends Error {}

export async function forgetPerson(personId: string, now = new Date()): Promise<ForgetReport> {
  const root = await getPerson(personId);
  if (!root) throw new PersonNotFound(personId);
  const all: Person[] = [root.value];
  for (const id of root.value.merged) {
    const m = await getPerson(id);
    if (m) all.push(m.value);
  }
  const emails = [...new Set(all.flatMap((p) => p.emails))];
  const phones = [...new Set(all.flatMap((p) => p.phones))];
  const hashes = [...emails, ...phones].map((a) => hashed(a));
  const removed: Partial<Record<StoreName, number>> = {};
  const count = (s: StoreName, n = 1) => (removed[s] = (removed[s] ?? 0) + n);
  const del = async (s: StoreName, k: string) => {
    if (
      (await kv(s).get(k)) ||
      (await kv(s)
        .getBytes(k)
        .catch(() => null))
    ) {
      await kv(s).delete(k);
      count(s);
    }
  };

  // 1. What the timelines link to, and what hangs off it (a plan's link and pledge, a roster place).
  const rosterIds = new Map<number, Set<string>>();
  for (const p of all) {
    for (const e of await ownTimeline(p.id)) {
      if (!e.store || !e.key) continue;
      if (e.store === 'vote-plans') {
        const plan = await kv('vote-plans').get<{ linkId?: string; round?: string }>(e.key);
        if (plan?.value.linkId) {
          await del('vote-plans', key('link', plan.value.linkId));
          if (plan.value.round) await del('vote-plans', key('pledge', plan.value.round, plan.value.linkId));
        }
      }
      if (e.store === 'rsvps' && typeof e.detail.eventId === 'number') {
        const ids = rosterIds.get(e.detail.eventId) ?? new Set<string>();
        ids.add(e.key.slice(e.key.lastIndexOf('/') + 1));
        rosterIds.set(e.detail.eventId, ids);
      }
      if (e.store === 'donations') continue; // the ledger keeps the amount and the keyed hash only
      await del(e.store, e.key);
    }
  }
  for (const [eventId, ids] of rosterIds) {
    for (const k of [key('roster', eventId), key('checkin', eventId)]) {
      await update<Record<string, unknown>>(kv('rsvps'), k, (doc) => {
        const out = { ...doc };
        for (const [field, v] of Object.entries(doc))
          if (Array.isArray(v))
            out[field] = v.filter((x: unknown) => !(x && ids.has((x as { id?: string }).id ?? '')));
          else if (v && typeof v === 'object' && !Array.isArray(v))
            out[field] = Object.fromEntries(Object.entries(v).filter(([id]) => !ids.has(id)));
        return out;
      });
    }
  }

  // 2. Every record a list keys by one of the addresses' hashes.
  for (const s of HASH_KEYED) {
    const ks = (await allKeys(s)).filter(
      (k) => !k.startsWith(SUMMARY_PREFIX) && hashes.some((h) => k.includes(h)),
    );
    await mapLimit(ks, 16, (k) => kv(s).delete(k));
    if (ks.length) count(s, ks.length);
  }

  // 3. Copies of messages and stored files that name an address or the name.
  const needles = [...emails, ...phones, ...hashes];
  for (const [s, prefix] of CONTENT_SCANNED) {
    for (const k of await allKeys(s, prefix)) {
      const json = await kv(s)
        .get<unknown>(k)
        .catch(() => null);
      const bytes = json ? null : await kv(s).getBytes(k);
      const text = json ? JSON.stringify(json.value) : bytes ? bytesText(bytes.data) : '';
      const lower = text.toLowerCase();
      if (needles.some((n) => lower.includes(n.toLowerCase()))) {
        await kv(s).delete(k);
        count(s);
      }
    }
  }

  // 4. The people store: timelines, queue entries and merges naming them, the bridges, the persons.
  const ids = new Set(all.map((p) => p.id));
  for (const p of all) {
    const ks = [
      ...(await allKeys('people', timelinePrefix(p.id))),
      ...(await allKeys('people', noteKeyPrefix(p.id))),
    ];
    await mapLimit(ks, 16, (k) => people().delete(k));
    count('people', ks.length);
    await del('people', mergeKey(p.id));
  }
  for (const k of await allKeys('people', QUEUE_PREFIX)) {
    const [a, b] = k.slice(QUEUE_PREFIX.length).split('--');
    if (ids.has(a!) || ids.has(b!)) await del('people', k);
  }
  for (const e of emails) await del('people', bridgeOf(e));
  // Their own page's invite codes, credits and open sign-in links (docs/decisions/182-supporter-page.md).
  for (const p of all) count('people', await forgetSupporter(p.id));
  // The tombstones: the keyed hash in the key, the time in the value; no id, no address.
  const at = now.toISOString();
  let tombstones = 0;
  for (const [kind, list] of [
    ['email', emails],
    ['phone', phones],
  ] as const) {
    for (const a of list) {
      await kv('people').put(lookupKey(kind, a), { forgottenAt: at });
      tombstones += 1;
    }
  }
  for (const p of all) await del('people', personKey(p.id));
  // Forgotten while merged into someone: that person no longer lists them (nor reads their consent).
  const into = root.value.mergedInto;
  if (into) {
    await update<Person>(people(), personKey(into), (p) => ({
      ...p,
      merged: p.merged.filter((id) => id !== personId),
      rev: p.rev + 1,
    }));
    await refreshEffective(into);
  }

  // 5. Summary indexes that held a copy: dropped whole, rebuilt from the remaining records on their next read.
  const reindexed: StoreName[] = [];
  for (const s of INDEXED) {
    const ks = await allKeys(s, SUMMARY_PREFIX);
    if (!ks.length) continue;
    await mapLimit(ks, 16, (k) => kv(s).delete(k));
    reindexed.push(s);
  }
  return { personId, mergedPeople: all.length - 1, removed, tombstones, reindexed };
}
