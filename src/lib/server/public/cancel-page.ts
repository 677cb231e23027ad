import type { Lang } from '../../lang.ts';
import type { PublicEvent } from '../../schemas/event.ts';
import { toPublicEvent } from '../../schemas/public-projections.ts';
import { RsvpCancelSchema } from '../../schemas/rsvp.ts';
import { HttpError } from '../errors.ts';
import { rsvpForLink } from '../events/rsvp.ts';
import type { PageResponse } from './page-data.ts';

/* The RSVP cancellation page's data (its own module: only that page loads the RSVP code). */

export type CancelLinkData =
  | { state: 'bad' | 'unavailable' }
  | {
      state: 'active' | 'cancelled';
      event: PublicEvent;
      link: { event: number; token: string };
    };

/**
 * /rsvp/cancel (and /es/rsvp/cancel): what the emailed link is for. Opening it
 * changes nothing (mail scanners open links); a link whose token checks out
 * names its event and says whether the RSVP is still active or already
 * cancelled; any other link says only that it is not valid
 * (docs/decisions/150-rsvp.md). Never cached: the token is in
 * the address.
 */
export async function loadCancelLink(
  response: PageResponse,
  query: URLSearchParams,
  lang: Lang,
): Promise<CancelLinkData> {
  response.headers.set('Cache-Control', 'no-store');
  const parsed = RsvpCancelSchema.safeParse({ event: query.get('event'), token: query.get('token') });
  if (!parsed.success) {
    response.status = 400;
    return { state: 'bad' };
  }
  try {
    const found = await rsvpForLink(parsed.data);
    if (!found.event) throw new HttpError(404, 'Event not found');
    return {
      state: found.status === 'cancelled' ? 'cancelled' : 'active',
      event: toPublicEvent(found.event, lang),
      link: { event: parsed.data.event, token: parsed.data.token },
    };
  } catch (err) {
    if (err instanceof HttpError && err.status === 404) {
      response.status = 404;
      return { state: 'bad' };
    }
    console.error('[rsvp cancel page] could not check the link', err);
    response.status = 503;
    response.headers.set('Retry-After', '30');
    return { state: 'unavailable' };
  }
}
