import { purgeCache } from '@netlify/functions';
import { z } from 'zod';
import { env } from '../env.ts';
import { HttpError, json } from '../http.ts';

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
} as const;
export type CacheTag = (typeof CACHE_TAGS)[keyof typeof CACHE_TAGS];

/**
 * A public list: browsers always revalidate; Netlify's CDN keeps it 30 s
 * (the spec's public refresh interval) and may serve it stale for 60 s more
 * while refreshing. Admin edits purge the tag at once.
 *
 * The body is parsed with the endpoint's public response schema first, which
 * strips every field the schema does not list: an internal field can reach a
 * public answer only by being added to a Public*Schema (src/lib/schemas).
 */
export function publicJson<S extends z.ZodType>(schema: S, data: z.input<S>, tag: CacheTag): Response {
  return json(schema.parse(data), {
    cache: 'public, max-age=0, must-revalidate',
    headers: {
      'Netlify-CDN-Cache-Control': 'public, s-maxage=30, stale-while-revalidate=60',
      'Netlify-Cache-Tag': tag,
    },
  });
}

/**
 * Purges public cache tags after an admin edit. Only on Netlify (production
 * mode): locally there is no CDN. A failed purge never fails the edit: the
 * CDN copy then expires within 30 s anyway.
 */
export async function purgeTags(...tags: CacheTag[]): Promise<void> {
  if (env().APP_ENV !== 'production') return;
  try {
    await purgeCache({ tags });
  } catch (err) {
    console.error(`[purge] could not purge ${tags.join(', ')}`, err);
  }
}

const PageQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'page must be a positive integer' })
    .int('page must be a positive integer')
    .min(1, 'page must be a positive integer')
    .max(1_000_000)
    .default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be between 1 and 200' })
    .int('pageSize must be between 1 and 200')
    .min(1, 'pageSize must be between 1 and 200')
    .max(200, 'pageSize must be between 1 and 200')
    .default(50),
});

/** `?page` (from 1) and `?pageSize` (default 50, max 200) of an admin list; 400 when malformed. */
export function pageQuery(req: Request): { page: number; pageSize: number } {
  const params = new URL(req.url).searchParams;
  const raw = {
    page: params.get('page') || undefined,
    pageSize: params.get('pageSize') || undefined,
  };
  const r = PageQuerySchema.safeParse(raw);
  if (!r.success) throw new HttpError(400, r.error.issues[0]?.message ?? 'Invalid page');
  return r.data;
}

/** One page of an admin list under the collection's own key (`articles`, `events`, ...). */
export function adminPage<K extends string, T>(name: K, all: T[], req: Request): Response {
  const { page, pageSize } = pageQuery(req);
  const start = (page - 1) * pageSize;
  return json({ [name]: all.slice(start, start + pageSize), total: all.length, page, pageSize });
}
