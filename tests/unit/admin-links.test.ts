import { describe, expect, it } from 'vitest';
import {
  broadcastHash,
  broadcastOfHash,
  eventShiftsHash,
  eventShiftsOfHash,
  inboxHash,
  inboxOfHash,
  recruitHash,
  recruitNearOfHash,
  recruitOfHash,
} from '../../src/admin/links.ts';
import { kindHref } from '../../src/admin/tabs/OverviewTab.tsx';
import { ACTIVITY_KINDS } from '../../src/lib/schemas/overview.ts';

/*
 * The dashboard's links to a filtered list (docs/decisions/180-overview.md): what a link asks for is what the tab
 * reads back; anything else in the hash opens the tab unfiltered, and a figure's link names its own list.
 */
describe('links into the dashboard lists', () => {
  it('an Inbox link reads back as written; an unknown list, day or status filters nothing', () => {
    const link = { list: 'text-signups', from: '2026-10-28', to: '2026-11-03', status: 'stopped' } as const;
    expect(inboxHash(link)).toBe('#inbox/text-signups?from=2026-10-28&to=2026-11-03&status=stopped');
    expect(inboxOfHash(inboxHash(link))).toEqual(link);
    expect(inboxOfHash('#inbox/volunteers')).toEqual({ list: 'volunteers' });
    expect(inboxOfHash('#inbox/nope?from=2026-10-28')).toBeNull();
    expect(inboxOfHash('#inbox/volunteers?from=soon&status=angry')).toEqual({ list: 'volunteers' });
    expect(inboxOfHash('#inbox')).toBeNull();
  });

  it("a broadcast's report and an event's shifts", () => {
    expect(broadcastOfHash(broadcastHash(4))).toBe(4);
    expect(broadcastOfHash('#broadcasts/x')).toBeNull();
    expect(eventShiftsOfHash(eventShiftsHash(7, 'Early vote & <b>canvass</b>'))).toEqual({
      id: 7,
      title: 'Early vote & <b>canvass</b>',
    });
    expect(eventShiftsOfHash('#events/7')).toBeNull();
    // A staffing gap's recruiting link (docs/decisions/181-shifts.md): the gap reads back as written, as text.
    expect(recruitOfHash(recruitHash('City Hall & <b>Annex</b>, Oct 4, 2025'))).toBe(
      'City Hall & <b>Annex</b>, Oct 4, 2025',
    );
    expect(recruitOfHash('#broadcasts/recruit')).toBe('');
    expect(recruitOfHash(broadcastHash(4))).toBeNull();
    expect(broadcastOfHash(recruitHash('x'))).toBeNull();
    // The gap's site ZIP orders the audience nearest first; anything but 5 digits is no ZIP.
    expect(recruitNearOfHash(recruitHash('City Hall, Oct 4, 2025', '70112'))).toBe('70112');
    expect(recruitOfHash(recruitHash('City Hall, Oct 4, 2025', '70112'))).toBe('City Hall, Oct 4, 2025');
    expect(recruitNearOfHash(recruitHash('Election Day polls, Oct 11, 2025', null))).toBeNull();
    expect(recruitNearOfHash('#broadcasts/recruit?gap=x&near=7011')).toBeNull();
  });

  it('each count links to the list it counts: sign-ups with the period, losses with their status', () => {
    const o = { from: '2026-10-28', to: '2026-11-03' };
    const hrefs = Object.fromEntries(ACTIVITY_KINDS.map((k) => [k, kindHref(k, o)]));
    expect(hrefs).toEqual({
      'signup.text': '#inbox/text-signups?from=2026-10-28&to=2026-11-03',
      'signup.newsletter': '#inbox/email-subscribers?from=2026-10-28&to=2026-11-03',
      'signup.volunteer': '#inbox/volunteers?from=2026-10-28&to=2026-11-03',
      'signup.rsvp': '#events',
      'signup.plan': '#plans',
      'text.optin': '#inbox/text-signups?from=2026-10-28&to=2026-11-03',
      'text.optout': '#inbox/text-signups?status=stopped',
      'text.carrier_optout': '#inbox/text-signups?status=stopped',
      'email.optin': '#inbox/email-subscribers?status=subscribed',
      'email.unsubscribe': '#inbox/email-subscribers?status=unsubscribed',
      'email.bounce': '#inbox/email-subscribers?status=bounced',
      'email.spam': '#inbox/email-subscribers?status=spam_reported',
    });
  });
});
