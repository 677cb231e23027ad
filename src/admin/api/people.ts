import useSWR, { useSWRConfig } from 'swr';
import { useCallback } from 'react';
import { queryFetcher } from '../../lib/client/api.ts';
import { listKey, send } from './shared.ts';
import type { ShiftAttendanceCounts } from '../../lib/schemas/shifts.ts';
import type { PeoplePage, PersonRow } from '../../lib/schemas/people-views.ts';

export type { PersonRow };

/**
 * The People tab's API (netlify/functions/admin-people.mts, docs/decisions/149-people.md): the list (every role;
 * viewers get no emails or phones), a person with their timeline, the merge queue, merge and undo, a stop staff
 * recorded (editors, admins) and "forget me" (admins).
 */
export const ADMIN_PEOPLE = '/api/admin/people';
export const PEOPLE_PAGE_SIZE = 50;

/** The timeline's sources (src/lib/server/people/person.ts SOURCES) and how staff read them. */
export const PERSON_SOURCE_LABELS: Record<string, string> = {
  text_signup: 'Text sign-up',
  newsletter: 'Newsletter',
  volunteer: 'Volunteer',
  contact: 'Contact message',
  rsvp: 'RSVP',
  shift: 'Shift sign-up',
  vote_plan: 'Plan to vote',
  donation: 'Donation',
  consent: 'Consent',
};
/** The sources the list's Source filter offers (a consent change is not a source of a person). */
export const PERSON_FILTER_SOURCES = [
  'volunteer',
  'text_signup',
  'newsletter',
  'contact',
  'rsvp',
  'vote_plan',
] as const;

export const sourceLabel = (s: string) => PERSON_SOURCE_LABELS[s] ?? s;

/**
 * The list's filter controls (the server's filters: src/lib/schemas/people-filter.ts, docs/decisions/149-people.md):
 * each a query parameter, '' for any.
 */
export interface PeopleListFilter {
  source: string;
  tag: string;
  lang: string;
  email: string;
  text: string;
  has: string;
  hasNot: string;
  /** The event `has` is about when it is `rsvp` or `attended` ('' any event): sent as `has=rsvp:<id>`. */
  hasEvent: string;
  /** Likewise for `hasNot`. */
  hasNotEvent: string;
}
export const NO_PEOPLE_FILTER: PeopleListFilter = {
  source: '',
  tag: '',
  lang: '',
  email: '',
  text: '',
  has: '',
  hasNot: '',
  hasEvent: '',
  hasNotEvent: '',
};
/** The consent filters (CONSENT_FILTERS) as staff read them. */
export const CONSENT_FILTER_LABELS = { granted: 'Opted in', revoked: 'Stopped', none: 'No record' } as const;
/** The has / has not filters the tab offers (HAS; `rsvp` and `attended` take an event: EVENT_HAS). */
export const HAS_FILTER_LABELS = {
  volunteered: 'Volunteered',
  rsvp: "RSVP'd",
  attended: 'Attended an event',
  plan: 'Made a plan',
  donated: 'Donated',
  shift: 'Signed up for a shift',
} as const;

/** The has / has not kinds an event narrows (the API's `rsvp:<id>`, `attended:<id>`). */
export const EVENT_HAS: readonly string[] = ['rsvp', 'attended'];

/** A has / has not control's API value: the kind, with `:<event id>` when it takes an event and one is chosen. */
export function hasParam(kind: string, event: string): string {
  return event && EVENT_HAS.includes(kind) ? `${kind}:${event}` : kind;
}

/** A channel's consent state as the server folds it ('' when the person never said). */
export function consentLabel(state: string): string {
  return state === 'revoked' ? 'Stopped' : state === 'granted' ? 'Opted in' : 'No record';
}

export interface TimelineItem {
  at: string;
  source: string;
  personId: string;
  detail: Record<string, string | number | null>;
  link: string | null;
}

export interface PersonView {
  person: PersonRow & {
    names: string[];
    mergedInto: string | null;
    merged: string[];
    /** Their shifts (docs/decisions/181-shifts.md). */
    shifts?: ShiftAttendanceCounts;
  };
  timeline: TimelineItem[];
}

export interface QueueEntry {
  key: string;
  a: string;
  b: string;
  at: string;
  reason: string;
}

export interface ForgetReport {
  personId: string;
  mergedPeople: number;
  removed: Record<string, number>;
  tombstones: number;
  reindexed: string[];
}

/** Why a pair is in the merge queue (src/lib/server/people/link.ts), in plain words. */
export function queueReason(reason: string): string {
  if (reason === 'email_and_phone_of_two_people')
    return 'The email belongs to one person and the phone to another';
  if (reason === 'same_email_different_details') return 'Same email, different name and phone';
  if (reason === 'same_phone_different_details') return 'Same phone, different name and email';
  return reason.replace(/_/g, ' ');
}

/** A link to a person (the People tab reads it on load and on hashchange). */
export const personHash = (id: string) => `#people/${id}`;
/** The person id a location hash names, or null. */
export function personIdOfHash(hash: string): string | null {
  const m = /^#people\/([a-f0-9]{32})$/.exec(hash);
  return m ? m[1]! : null;
}

export function usePeople(page: number, q: string, filter: PeopleListFilter) {
  const { hasEvent, hasNotEvent, ...params } = filter;
  return useSWR<PeoplePage, Error>(
    listKey(ADMIN_PEOPLE, {
      page,
      q: q.trim() || undefined,
      ...params,
      tag: filter.tag.trim().toLowerCase() || undefined,
      has: hasParam(filter.has, hasEvent),
      hasNot: hasParam(filter.hasNot, hasNotEvent),
    }),
    queryFetcher,
  );
}

export function usePerson(id: string | null) {
  return useSWR<PersonView, Error>(id ? `${ADMIN_PEOPLE}/${id}` : null, queryFetcher);
}

export function useMergeQueue(enabled: boolean, page = 1) {
  return useSWR<{ entries: QueueEntry[]; total: number }, Error>(
    enabled ? listKey(`${ADMIN_PEOPLE}/queue`, { page }) : null,
    queryFetcher,
  );
}

/**
 * The writes; each revalidates every People key (the list pages, the queue, the people shown) but `gone`: a
 * forgotten person is not asked for again.
 */
export function usePeopleActions() {
  const { mutate } = useSWRConfig();
  const after = useCallback(
    async <T>(p: Promise<T>, gone?: string): Promise<T> => {
      const r = await p;
      const goneKey = gone ? `${ADMIN_PEOPLE}/${gone}` : null;
      await mutate(
        (key) =>
          typeof key === 'string' &&
          key !== goneKey &&
          (key === ADMIN_PEOPLE || key.startsWith(`${ADMIN_PEOPLE}?`) || key.startsWith(`${ADMIN_PEOPLE}/`)),
      );
      return r;
    },
    [mutate],
  );
  return {
    merge: (keepId: string, mergeId: string) =>
      after(send<{ kept: string; merged: string }>('POST', `${ADMIN_PEOPLE}/${keepId}/merge`, { mergeId })),
    unmerge: (mergedId: string) =>
      after(send<{ kept: string; restored: string }>('POST', `${ADMIN_PEOPLE}/${mergedId}/unmerge`)),
    stop: (id: string, channel: 'email' | 'text' | 'all') =>
      after(send<{ stopped: string }>('POST', `${ADMIN_PEOPLE}/${id}/consent`, { channel })),
    forget: (id: string) => after(send<{ report: ForgetReport }>('POST', `${ADMIN_PEOPLE}/${id}/forget`), id),
  };
}
