import type { APIRoute } from 'astro';
import { planCalendarResponse } from '../../lib/server/public/plan-page';

/** A plan to vote as an .ics file ("add to calendar"; src/lib/server/public/plan-page.ts). */
export const prerender = false;
export const GET: APIRoute = ({ site, url }) =>
  planCalendarResponse(url.searchParams, site ?? new URL(url.origin));
