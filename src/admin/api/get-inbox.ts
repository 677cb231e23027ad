import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { Page } from '../../lib/schemas/paging.ts';
import { listKey } from './shared.ts';

/** The inbox lists (admin and editor), each paged and filterable with ?q. */
export const INBOX_KINDS = {
  volunteers: { path: '/api/admin/volunteers', label: 'Volunteer sign-ups' },
  contacts: { path: '/api/admin/contacts', label: 'Contact messages' },
  'text-signups': { path: '/api/admin/text-signups', label: 'Text sign-ups' },
  'email-subscribers': { path: '/api/admin/email-subscribers', label: 'Newsletter subscribers' },
} as const;
export type InboxKind = keyof typeof INBOX_KINDS;

/**
 * Rows as stored (StoredVolunteer, StoredContact, StoredTextSignup, StoredSubscriber in
 * src/lib/schemas/inbox.ts); read field by field so one odd record cannot break the table.
 */
export type InboxItem = Record<string, unknown>;

export type InboxPage = Page<'items', InboxItem>;

export const INBOX_PAGE_SIZE = 50;

export function useInbox(kind: InboxKind, page: number, q: string, pageSize = INBOX_PAGE_SIZE) {
  return useSWR<InboxPage, Error>(
    listKey(INBOX_KINDS[kind].path, { page, pageSize, q: q.trim() || undefined }),
    queryFetcher,
  );
}

/** The CSV export of the (filtered) list: a plain link, the server answers with an attachment. */
export function inboxCsvUrl(kind: InboxKind, q: string): string {
  return listKey(INBOX_KINDS[kind].path, { format: 'csv', q: q.trim() || undefined });
}
