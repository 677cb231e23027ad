/**
 * The staff Inbox's lists and the API path of each, declared once: the admin client fetches them, the Inbox
 * function answers them, and the function's `config.path` (which Netlify reads from the source as a literal, so it
 * cannot be built from this object) is held equal to it by tests/unit/inbox-routes.test.ts
 * (docs/decisions/084-inbox-routes-and-function-names.md).
 */
export const INBOX_ROUTES = {
  volunteers: '/api/admin/volunteers',
  contacts: '/api/admin/contacts',
  'text-signups': '/api/admin/text-signups',
  'email-subscribers': '/api/admin/email-subscribers',
} as const;

export type InboxKindName = keyof typeof INBOX_ROUTES;

/** The Inbox list a request path names, if any (a trailing slash is ignored). */
export function inboxKindOf(pathname: string): InboxKindName | null {
  const path = pathname.replace(/\/$/, '');
  const found = (Object.keys(INBOX_ROUTES) as InboxKindName[]).find((k) => INBOX_ROUTES[k] === path);
  return found ?? null;
}

/** Whether a string names an Inbox list. */
export function isInboxKind(value: string): value is InboxKindName {
  return Object.hasOwn(INBOX_ROUTES, value);
}
