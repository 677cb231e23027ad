import { DEFAULT_LANG, LANGS, isLang, type Lang } from '../../lang.ts';
import type { Projection } from '../../schemas/public-projections.ts';
import { appSettings } from '../app-env.ts';
import { HttpError } from '../errors.ts';
import { json } from '../http.ts';

/**
 * Cache tags of the public lists. Pages that render the same data (the
 * on-demand article page, rss, ics) may tag their responses with these too,
 * so one purge after an admin edit refreshes everything that shows it.
 */
export const CACHE_TAGS = {
  news: 'news',
  events: 'events',
  social: 'social-media-links',
  metrics: 'campaign-metrics',
  donationGoal: 'donation-goal',
  election: 'election-calendar',
} as const;
export type CacheTag = (typeof CACHE_TAGS)[keyof typeof CACHE_TAGS];

/**
 * A public list: browsers always revalidate; Netlify's CDN keeps it 30 s
 * (the spec's public refresh interval) and may serve it stale for 60 s more
 * while refreshing. Admin edits purge the tag at once.
 *
 * The body goes through the endpoint's public projection first, which keeps
 * only the fields it lists: an internal field can reach a public answer only
 * by being added to PUBLIC_FIELDS (src/lib/schemas/public-fields.ts) or a
 * Public*Schema. The public read functions pass the zod-free projections of
 * public-fields.ts (they must not load zod); a zod response schema works too.
 */
export function publicJson<In, Out>(
  projection: Projection<In, Out>,
  data: In,
  tag: CacheTag,
  options: { varyByQuery?: readonly string[] } = {},
): Response {
  return json(projection.parse(data), {
    cache: 'public, max-age=0, must-revalidate',
    headers: {
      'Netlify-CDN-Cache-Control': 'public, s-maxage=30, stale-while-revalidate=60',
      'Netlify-Cache-Tag': tag,
      // The CDN keys a function's answer by its whole query string; name the parameters that matter.
      ...(options.varyByQuery ? { 'Netlify-Vary': `query=${options.varyByQuery.join('|')}` } : {}),
    },
  });
}

export const UNKNOWN_LANGUAGE = `Unknown language: use one of ${LANGS.join(', ')}`;

/** `?lang=` of a public list (docs/decisions/166-spanish.md): absent is English; a language the site does not have is a 400. */
export function langQuery(url: URL): Lang {
  const raw = url.searchParams.get('lang');
  if (raw === null) return DEFAULT_LANG;
  if (!isLang(raw)) throw new HttpError(400, UNKNOWN_LANGUAGE);
  return raw;
}

/** Purges CDN cache tags. */
export type CachePurger = (tags: CacheTag[]) => Promise<void>;

/** Netlify's purge API (production). Loaded on the admin write path only: the public reads never purge. */
const netlifyPurger: CachePurger = async (tags) => {
  const { purgeCache } = await import('@netlify/functions');
  await purgeCache({ tags });
};

let purgerOverride: CachePurger | null = null;

/**
 * Test hook: record purges instead of calling Netlify, whatever APP_ENV says
 * (tests/api/cache-purge.test.ts asserts every staff edit purges the right tag).
 */
export function setCachePurger(next: CachePurger | null): void {
  purgerOverride = next;
}

/**
 * Purges public cache tags after an admin edit. On Netlify (production mode)
 * through Netlify's purge API; locally there is no CDN, so nothing is called
 * unless a test set a purger. A failed purge never fails the edit: the CDN
 * copy then expires within 30 s anyway.
 */
export async function purgeTags(...tags: CacheTag[]): Promise<void> {
  const purge = purgerOverride ?? (appSettings().APP_ENV === 'production' ? netlifyPurger : null);
  if (!purge) return;
  try {
    await purge(tags);
  } catch (err) {
    console.error(`[purge] could not purge ${tags.join(', ')}`, err);
  }
}
