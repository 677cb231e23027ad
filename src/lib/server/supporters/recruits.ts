import { getPerson, people } from '../people/person.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { key } from '../storage/keys.ts';

/**
 * The recruits leaderboard (docs/decisions/182-supporter-page.md): sign-ups credited to each supporter's invite
 * link (`credit/<owner>/...`, invites.ts), counted per owner. Staff see names and counts; volunteers on /my see the
 * top counts only, and only when an admin turned that on: no name of anyone else ever reaches the page.
 */
export interface RecruitsSettings {
  /** Show the top counts (no names) to signed-in supporters on /my. */
  showOnMy: boolean;
  updatedAt: string | null;
  updatedBy: string | null;
}
const SETTINGS_KEY = key('settings', 'recruits');
export const LEADERBOARD_SIZE = 10;

export async function getRecruitsSettings(): Promise<RecruitsSettings> {
  const r = await people().get<RecruitsSettings>(SETTINGS_KEY);
  return r?.value ?? { showOnMy: false, updatedAt: null, updatedBy: null };
}

export async function setRecruitsSettings(showOnMy: boolean, by: string, now = new Date()) {
  const next: RecruitsSettings = { showOnMy, updatedAt: now.toISOString(), updatedBy: by };
  await people().put(SETTINGS_KEY, next);
  return next;
}

/** Credited sign-ups per owner (donations apart), most first (ties: the owner's id, so the order is stable). */
export async function recruitCounts(): Promise<{ personId: string; count: number }[]> {
  const counts = new Map<string, number>();
  for await (const page of people().keys('credit/'))
    for (const k of page) {
      const [, owner, credit] = k.split('/');
      // Sign-ups only: donors through a link are the owner's own count, not a race.
      if (owner && !credit?.startsWith('donation-')) counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
  return [...counts]
    .map(([personId, count]) => ({ personId, count }))
    .sort((a, b) => b.count - a.count || a.personId.localeCompare(b.personId));
}

/** Staff's leaderboard: the top recruiters with their names (a forgotten person has no credits left). */
export async function staffLeaderboard(limit = 25) {
  const top = (await recruitCounts()).slice(0, limit);
  return mapLimit(top, 8, async ({ personId, count }) => {
    const p = await getPerson(personId);
    return { personId, name: p?.value.names[0] ?? '', count };
  });
}

/** What /my shows when staff turned it on: the top counts and the viewer's own place; null when off. */
export async function myLeaderboard(
  personId: string,
): Promise<{ top: number[]; mine: { rank: number; count: number } | null } | null> {
  if (!(await getRecruitsSettings()).showOnMy) return null;
  const all = await recruitCounts();
  const i = all.findIndex((r) => r.personId === personId);
  return {
    top: all.slice(0, LEADERBOARD_SIZE).map((r) => r.count),
    mine: i < 0 ? null : { rank: i + 1, count: all[i]!.count },
  };
}
