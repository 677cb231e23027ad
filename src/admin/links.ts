import { INBOX_KIND_NAMES, type InboxKindName } from '../lib/inbox-kinds.ts';
import { REACH_STATUSES, type ReachStatus } from '../lib/schemas/reach-status.ts';

/**
 * Links into the dashboard's lists (docs/decisions/180-overview.md, "Each figure links to the list it counts"):
 * the location hash names the tab, then what the tab opens on. Each tab reads its own part on load and on
 * `hashchange`; a hash it does not understand opens the tab as it always did.
 *
 * - `#inbox/<list>?from=<day>&to=<day>&status=<status>`: the Inbox on that list, its sign-ups of those campaign
 *   days, of that status;
 * - `#broadcasts/<id>`: that broadcast's report;
 * - `#events/<id>/shifts?title=<event title>`: that event's shifts (the title heads the dialog);
 * - `#broadcasts/recruit?gap=<place, day>&near=<zip>`: a new email to volunteers not yet on a shift (a staffing grid's
 *   gap), nearest the site's ZIP first.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export interface InboxLink {
  list: InboxKindName;
  from?: string;
  to?: string;
  status?: ReachStatus;
}

export function inboxHash({ list, from, to, status }: InboxLink): string {
  const q = new URLSearchParams();
  if (from) q.set('from', from);
  if (to) q.set('to', to);
  if (status) q.set('status', status);
  const query = q.toString();
  return `#inbox/${list}${query ? `?${query}` : ''}`;
}

/** What an Inbox link asks for, or null when the hash is not one. */
export function inboxOfHash(hash: string): InboxLink | null {
  const m = /^#inbox\/([a-z-]+)(?:\?(.*))?$/.exec(hash);
  if (!m || !(INBOX_KIND_NAMES as readonly string[]).includes(m[1]!)) return null;
  const q = new URLSearchParams(m[2] ?? '');
  const from = q.get('from') ?? '';
  const to = q.get('to') ?? '';
  const status = q.get('status') ?? '';
  return {
    list: m[1] as InboxKindName,
    ...(DAY.test(from) ? { from } : {}),
    ...(DAY.test(to) ? { to } : {}),
    ...((REACH_STATUSES as readonly string[]).includes(status) ? { status: status as ReachStatus } : {}),
  };
}

export const broadcastHash = (id: number) => `#broadcasts/${id}`;

export function broadcastOfHash(hash: string): number | null {
  const m = /^#broadcasts\/(\d{1,12})$/.exec(hash);
  return m ? Number(m[1]) : null;
}

/**
 * A gap in the staffing grid -> the composer, preset (docs/decisions/181-shifts.md); `near`, the gap's site ZIP
 * when known, orders the audience nearest first.
 */
export const recruitHash = (gap: string, near?: string | null) =>
  `#broadcasts/recruit?${new URLSearchParams(near ? { gap, near } : { gap }).toString()}`;

const recruitParams = (hash: string) => {
  const m = /^#broadcasts\/recruit(?:\?(.*))?$/.exec(hash);
  return m ? new URLSearchParams(m[1] ?? '') : null;
};

/** The gap a recruiting link names (at most 200 characters), or null. */
export function recruitOfHash(hash: string): string | null {
  const p = recruitParams(hash);
  return p ? (p.get('gap') ?? '').slice(0, 200) : null;
}

/** The site ZIP a recruiting link orders by (5 digits), or null. */
export function recruitNearOfHash(hash: string): string | null {
  const near = recruitParams(hash)?.get('near') ?? '';
  return /^\d{5}$/.test(near) ? near : null;
}

export const eventShiftsHash = (id: number, title: string) =>
  `#events/${id}/shifts?${new URLSearchParams({ title }).toString()}`;

export function eventShiftsOfHash(hash: string): { id: number; title: string } | null {
  const m = /^#events\/(\d{1,12})\/shifts(?:\?(.*))?$/.exec(hash);
  if (!m) return null;
  return { id: Number(m[1]), title: new URLSearchParams(m[2] ?? '').get('title')?.slice(0, 200) ?? '' };
}

/** Calls `read` with the location hash now and on every change (a tab's effect). */
export function onHash(read: (hash: string) => void): () => void {
  const listener = () => read(location.hash);
  addEventListener('hashchange', listener);
  return () => removeEventListener('hashchange', listener);
}
