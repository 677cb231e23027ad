import type { lookup as zipcodesLookup } from 'zipcodes';

/**
 * Nearest ZIP first (docs/decisions/181-shifts.md, "Recruiting nearest first"): US ZIP centroids from the
 * `zipcodes` package (about 42,000 US and Canadian codes with latitude and longitude, no dependencies), read in
 * memory on the server only: this module is under src/lib/server, which browser code cannot import, and
 * tests/unit/client-deps.test.ts keeps the package out of the pages' dependencies. The distance is the great
 * circle between two centroids (miles, not rounded: the package's own `distance` rounds to whole miles, which
 * ties most of one city's ZIPs). The table (about 5 MB of code) is loaded on first use, not with the module: most
 * functions that import the audiences never order by distance, and their cold start should not pay for it.
 */

type Lookup = typeof zipcodesLookup;
let loaded: Promise<Lookup> | null = null;
const zipLookup = () => (loaded ??= import('zipcodes').then((m) => m.lookup));

const EARTH_MILES = 3958.7613;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** A ZIP's centroid, or null for a ZIP the data does not know (or anything that is not 5 digits, ZIP+4 read as 5). */
function centroid(lookup: Lookup, zip: string | null | undefined): { lat: number; lon: number } | null {
  const five = /^(\d{5})(?:-\d{4})?$/.exec((zip ?? '').trim())?.[1];
  if (!five) return null;
  const c = lookup(five);
  return c && Number.isFinite(c.latitude) && Number.isFinite(c.longitude)
    ? { lat: c.latitude, lon: c.longitude }
    : null;
}

/** Miles between two centroids (or null when either is unknown). */
function miles(
  p: { lat: number; lon: number } | null,
  q: { lat: number; lon: number } | null,
): number | null {
  if (!p || !q) return null;
  const h =
    Math.sin(rad(q.lat - p.lat) / 2) ** 2 +
    Math.cos(rad(p.lat)) * Math.cos(rad(q.lat)) * Math.sin(rad(q.lon - p.lon) / 2) ** 2;
  return 2 * EARTH_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Miles between two ZIPs' centroids, or null when either is unknown. */
export async function zipMiles(
  a: string | null | undefined,
  b: string | null | undefined,
): Promise<number | null> {
  const lookup = await zipLookup();
  return miles(centroid(lookup, a), centroid(lookup, b));
}

/**
 * `items` nearest to `near` first: by the miles from `near`'s ZIP to each item's, items whose ZIP is unknown (none,
 * or not in the data) last; equal distances keep their order (a stable sort). With no known `near`, the order is
 * unchanged. One lookup per item, no store call.
 */
export async function nearestFirst<T>(
  near: string | null | undefined,
  items: T[],
  zipOf: (t: T) => string | null,
): Promise<T[]> {
  if (!near) return items;
  const lookup = await zipLookup();
  const from = centroid(lookup, near);
  if (!from) return items;
  const away = items.map((t) => miles(from, centroid(lookup, zipOf(t))) ?? Number.POSITIVE_INFINITY);
  return items
    .map((t, i) => ({ t, i }))
    .sort((x, y) => away[x.i]! - away[y.i]! || x.i - y.i)
    .map((x) => x.t);
}
