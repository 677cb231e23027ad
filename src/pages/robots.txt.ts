import type { APIRoute } from 'astro';
import { buildRobots } from '../lib/server/public/feeds';

/* A static file (dist/robots.txt): crawlers read it before anything else, so it never waits on a function. */
export const prerender = true;

export const GET: APIRoute = ({ site, url }) =>
  new Response(buildRobots(site ?? new URL(url.origin)), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
