import { INBOX_KIND_NAMES, type InboxKindName } from '../../src/lib/inbox-kinds.ts';
import { articles } from '../../src/lib/server/content/articles.ts';
import { events } from '../../src/lib/server/content/events.ts';
import { goals, metrics, milestones } from '../../src/lib/server/content/progress.ts';
import { socialLinks } from '../../src/lib/server/content/social.ts';
import { rebuildActivity, rebuildShiftDays } from '../../src/lib/server/overview/rebuild.ts';
import { repairInboxIndex, reindexInbox } from '../../src/lib/server/inbox/summaries.ts';

/**
 * Every maintained index and view, rebuilt from the records (the records are the
 * source of truth): `npm run reindex`, and the last step of `npm run seed`, so a
 * seeded store never starts in the repair path
 * (docs/decisions/153-storage.md), including the
 * Inbox lists' summary indexes (docs/decisions/155-inbox-and-staff-lists.md).
 */
export const INDEXED_COLLECTIONS = { articles, events, socialLinks, metrics, goals, milestones } as const;

export type Reindexed = Record<
  keyof typeof INDEXED_COLLECTIONS | `inbox ${InboxKindName}` | 'overview days' | 'overview shift days',
  number
>;

/**
 * Rebuilds every index; returns how many entries each now holds. The Inbox lists' indexes
 * (one read per record: minutes at 100,000) are `rebuild`: rebuilt (npm run reindex);
 * `check`: read with repair (repairInboxIndex), so a missing, damaged or outdated one is rebuilt and a sound one
 * left as it is (npm run seed, before every npm run dev); `skip`: left alone (the scale seed's bulk
 * path has just written them from the same records).
 */
export async function reindexAll({
  inbox = 'rebuild',
}: { inbox?: 'rebuild' | 'check' | 'skip' } = {}): Promise<Partial<Reindexed>> {
  const out: Partial<Reindexed> = {};
  for (const [name, collection] of Object.entries(INDEXED_COLLECTIONS))
    out[name as keyof typeof INDEXED_COLLECTIONS] = await collection.reindex();
  if (inbox !== 'skip')
    for (const kind of INBOX_KIND_NAMES)
      out[`inbox ${kind}`] = inbox === 'rebuild' ? await reindexInbox(kind) : await repairInboxIndex(kind);
  // The Overview's daily rollups (docs/decisions/180-overview.md): rebuilt with the Inbox lists.
  if (inbox === 'rebuild') out['overview days'] = await rebuildActivity();
  if (inbox === 'rebuild') out['overview shift days'] = await rebuildShiftDays();
  return out;
}
