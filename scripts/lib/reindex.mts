import { articles } from '../../src/lib/server/content/articles.ts';
import { events } from '../../src/lib/server/content/events.ts';
import { goals, metrics, milestones } from '../../src/lib/server/content/progress.ts';
import { socialLinks } from '../../src/lib/server/content/social.ts';

/**
 * Every maintained index and view, rebuilt from the records (the records are the
 * source of truth): `npm run reindex`, and the last step of `npm run seed`, so a
 * seeded store never starts in the repair path
 * (docs/decisions/089-article-summaries-and-self-repairing-indexes.md).
 */
export const INDEXED_COLLECTIONS = { articles, events, socialLinks, metrics, goals, milestones } as const;

/** Rebuilds every index; returns how many entries each now holds. */
export async function reindexAll(): Promise<Record<keyof typeof INDEXED_COLLECTIONS, number>> {
  const out = {} as Record<keyof typeof INDEXED_COLLECTIONS, number>;
  for (const [name, collection] of Object.entries(INDEXED_COLLECTIONS))
    out[name as keyof typeof INDEXED_COLLECTIONS] = await collection.reindex();
  return out;
}
