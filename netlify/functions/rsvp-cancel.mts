import type { Config } from '@netlify/functions';
import { RSVP_MESSAGES, RsvpCancelSchema } from '../../src/lib/schemas/rsvp.ts';
import { cancelRsvp } from '../../src/lib/server/events/rsvp.ts';
import { allowMethods, handle, json, readInput, requireSameOrigin } from '../../src/lib/server/http.ts';

/**
 * POST /api/rsvp/cancel {event, token, lang?}: the link in the RSVP emails (a keyed token:
 * docs/decisions/150-rsvp.md). Frees the seat; the waitlist moves up.
 */
export default handle(async (req: Request) => {
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  const { alreadyCancelled } = await cancelRsvp(
    await readInput(req, 'rsvp-cancel', RsvpCancelSchema, 2 * 1024),
  );
  return json({ message: alreadyCancelled ? RSVP_MESSAGES.alreadyCancelled : RSVP_MESSAGES.cancelled });
});

export const config: Config = { path: '/api/rsvp/cancel' };
