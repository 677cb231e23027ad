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
