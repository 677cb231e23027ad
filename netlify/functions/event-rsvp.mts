import type { Config, Context } from '@netlify/functions';
import { RsvpInputSchema } from '../../src/lib/schemas/rsvp.ts';
import { availability, rsvp } from '../../src/lib/server/events/rsvp.ts';
import { getShifts, publicSlots } from '../../src/lib/server/events/shifts.ts';
import { acceptPublicForm } from '../../src/lib/server/public-forms/accept.ts';
import { allowMethods, handle, idFrom, json } from '../../src/lib/server/http.ts';

/** POST: an RSVP, through the steps of every public form (src/lib/server/public-forms/accept.ts). */
const acceptRsvp = acceptPublicForm({
  id: 'rsvp',
  schema: RsvpInputSchema,
  maxBytes: 8 * 1024,
  providers: { captcha: true, email: true },
  asksForText: (input) => input.smsReminder,
  store: ({ input, meta, context }) => rsvp(idFrom(context), input, meta),
  answer: (result) => json(result, { status: 201 }),
});

/**
 * GET /api/events/:id/rsvp: seats left and the waitlist (no personal data).
 * POST: an RSVP (captcha like the volunteer form): 201 going or waitlisted, a repeat answered alike
 * (docs/decisions/150-rsvp.md). A reminder text asked for takes a slot of this IP's texts per hour
 * (429 with Retry-After; docs/decisions/159-public-forms.md, 080-text-guard.md).
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'GET', 'POST');
  const eventId = idFrom(context);
  if (req.method === 'GET') {
    const open = await availability(eventId);
    // An event with shifts: each slot's places and waitlist too (docs/decisions/181-shifts.md).
    const shifts = await getShifts(eventId);
    return json(shifts.slots.length ? { ...open, slots: await publicSlots(eventId, shifts) } : open);
  }
  return acceptRsvp(req, context);
});

export const config: Config = { path: '/api/events/:id/rsvp' };
