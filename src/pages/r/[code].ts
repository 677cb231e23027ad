import type { APIRoute } from 'astro';
import { inviteVisit } from '../../lib/server/supporters/invites';

/*
 * A supporter's invite link, /r/<code> (docs/decisions/182-supporter-page.md): an on-demand route, not a function,
 * because every function of this site lives under /api/ (the dev server and the on-demand page function route by
 * that). A visit sets the invite cookie of a live code and lands on the home page.
 */
export const prerender = false;

export const GET: APIRoute = ({ params }) => inviteVisit(params.code ?? '');
export const HEAD = GET;
