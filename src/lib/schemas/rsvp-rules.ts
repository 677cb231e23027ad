/**
 * Which events take RSVPs on this site: public, registration required, and
 * no outside registration link. Zod-free (like category.ts) so the blog's
 * event cards can use the same rule without shipping zod to the page.
 */
export function takesRsvps(e: {
  isPublic: boolean;
  registrationRequired: boolean;
  registrationUrl: string;
}): boolean {
  return e.isPublic && e.registrationRequired && !e.registrationUrl;
}

export const eventPagePath = (eventId: number) => `/events/${eventId}`;
/** One event as an .ics file (src/lib/server/public/event-calendar.ts). */
export const eventCalendarPath = (eventId: number) => `${eventPagePath(eventId)}/calendar.ics`;

/** What the RSVP endpoints and pages say (zod-free: the outcome pages' copy uses it too). */
export const RSVP_MESSAGES = {
  name: 'Please enter your name',
  phoneForSms: 'Please enter a mobile number for the text reminder',
  notTaking: 'This event does not take RSVPs on this site.',
  going: "You're going! We've emailed your confirmation.",
  /** Under a "You're going!" heading: the rest of `going`, so the page does not say it twice. */
  goingDetail: "We've emailed your confirmation, with a link to cancel if your plans change.",
  waitlisted: "This event is full, so you're on the waitlist. We'll email you if a seat opens up.",
  alreadyGoing: "You've already RSVP'd: you're going.",
  alreadyWaitlisted: "You've already RSVP'd: you're on the waitlist.",
  cancelled: 'Your RSVP is cancelled. Thank you for letting us know.',
  alreadyCancelled: 'This RSVP was already cancelled.',
  badLink: 'This cancellation link is not valid. Please use the link from your confirmation email.',
} as const;
