import type { APIRoute } from 'astro';
import { shiftCalendarResponse } from '../../../../lib/server/public/shift-calendar';

/** One shift of an upcoming public event as an .ics file (src/lib/server/public/shift-calendar.ts). */
export const prerender = false;
export const GET: APIRoute = ({ params, site, url }) =>
  shiftCalendarResponse(params.id, params.slot, 'en', site ?? new URL(url.origin));
