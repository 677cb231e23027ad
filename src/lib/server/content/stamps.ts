/**
 * Record timestamps, shared by every collection's writes (kept apart from
 * articles.ts so events, social links and progress do not bundle the article
 * code and its sanitiser).
 */

/** A new updatedAt strictly after the previous one, so the 409 check can tell any two versions apart. */
export function laterStamp(now: Date, previous: string): string {
  return new Date(Math.max(now.getTime(), Date.parse(previous) + 1 || 0)).toISOString();
}
