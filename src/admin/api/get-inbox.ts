import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { Page } from '../../lib/schemas/paging.ts';
import { INBOX_ROUTES, type InboxKindName } from '../../lib/inbox-routes.ts';
import {
  EMAIL_REACH_STATUSES,
  TEXT_REACH_STATUSES,
  type ReachStatus,
} from '../../lib/schemas/reach-status.ts';
import { listKey } from './shared.ts';

/** The Inbox tab's lists (admin and editor), each paged and filterable with ?q: their labels, in tab order. */
export const INBOX_TABS: Record<InboxKindName, { label: string }> = {
  volunteers: { label: 'Volunteer sign-ups' },
  contacts: { label: 'Contact messages' },
  'text-signups': { label: 'Text sign-ups' },
  'email-subscribers': { label: 'Newsletter subscribers' },
};

/**
 * The statuses each list's Status filter offers (docs/decisions/136-one-suppression-state-shown-everywhere.md);
 * contact messages keep none.
 */
export const INBOX_STATUSES: Record<InboxKindName, readonly ReachStatus[]> = {
  volunteers: EMAIL_REACH_STATUSES,
  contacts: [],
  'text-signups': TEXT_REACH_STATUSES,
  'email-subscribers': EMAIL_REACH_STATUSES,
};

/**
 * Rows as stored (StoredVolunteer, StoredContact, StoredTextSignup, StoredSubscriber in
 * src/lib/schemas/inbox.ts); read field by field so one odd record cannot break the table.
 */
export type InboxItem = Record<string, unknown>;

export type InboxPage = Page<'items', InboxItem>;

export const INBOX_PAGE_SIZE = 50;

/** `lang`: '' for every language, else one of LANGS (the list's ?lang filter); `status` likewise (?status). */
export function useInbox(
  kind: InboxKindName,
  page: number,
  q: string,
  lang = '',
  pageSize = INBOX_PAGE_SIZE,
  status = '',
) {
  return useSWR<InboxPage, Error>(
    listKey(INBOX_ROUTES[kind], {
      page,
      pageSize,
      q: q.trim() || undefined,
      lang: lang || undefined,
      status: status || undefined,
    }),
    queryFetcher,
  );
}

/**
 * The parameters of the list's CSV export (POST /api/admin/exports, source `inbox`): what the list shows,
 * empty filters left out (docs/decisions/101-exports-of-any-size.md).
 */
export function inboxExportParams(
  kind: InboxKindName,
  q: string,
  lang: string,
  status = '',
): Record<string, string> {
  return {
    kind,
    ...(q.trim() ? { q: q.trim() } : {}),
    ...(lang ? { lang } : {}),
    ...(status ? { status } : {}),
  };
}
