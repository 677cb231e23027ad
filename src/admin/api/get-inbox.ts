import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { Page } from '../../lib/schemas/paging.ts';
import { INBOX_ROUTES, type InboxKindName } from '../../lib/inbox-kinds.ts';
import { listKey } from './shared.ts';

/**
 * The Inbox tab's lists (admin and editor), each paged and filterable with ?q, in tab order: their labels and
 * the statuses each list's Status filter offers (docs/decisions/155-inbox-and-staff-lists.md;
 * contact messages keep none), from each kind's definition (src/lib/inbox-kinds.ts).
 */
export { INBOX_KINDS, INBOX_KIND_NAMES } from '../../lib/inbox-kinds.ts';

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
  days: { from?: string; to?: string } = {},
) {
  return useSWR<InboxPage, Error>(
    listKey(INBOX_ROUTES[kind], {
      page,
      pageSize,
      q: q.trim() || undefined,
      lang: lang || undefined,
      status: status || undefined,
      from: days.from || undefined,
      to: days.to || undefined,
    }),
    queryFetcher,
  );
}

/**
 * The parameters of the list's CSV export (POST /api/admin/exports, source `inbox`): what the list shows,
 * empty filters left out (docs/decisions/156-exports.md).
 */
export function inboxExportParams(
  kind: InboxKindName,
  q: string,
  lang: string,
  status = '',
  days: { from?: string; to?: string } = {},
): Record<string, string> {
  return {
    kind,
    ...(q.trim() ? { q: q.trim() } : {}),
    ...(lang ? { lang } : {}),
    ...(status ? { status } : {}),
    ...(days.from ? { from: days.from } : {}),
    ...(days.to ? { to: days.to } : {}),
  };
}
