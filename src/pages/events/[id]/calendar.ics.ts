import type { APIRoute } from 'astro';
import { eventCalendarResponse } from '../../../lib/server/public/event-calendar';

/** One upcoming public event as an .ics file (src/lib/server/public/event-calendar.ts). */
export const prerender = false;
export const GET: APIRoute = ({ params, site, url }) =>
  eventCalendarResponse(params.id, 'en', site ?? new URL(url.origin));
