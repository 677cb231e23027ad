import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchRoute, type RouteConfig } from '../../scripts/dev/function-routes.mts';

/*
 * Every function lives under /api/ (docs/decisions/182-supporter-page.md): the dev server hands only /api/* to the
 * functions (scripts/dev/functions-in-process.mts) and the built on-demand page function is told to leave only
 * /api/* alone (scripts/ssr-exclude-api.mjs), so a function path elsewhere meets the page router (a supporter's
 * sign-in button once posted to a 404 page there). And each of the supporter page's paths is one function's.
 */

const DIR = join(import.meta.dirname, '../../netlify/functions');
const modules = await Promise.all(
  readdirSync(DIR)
    .filter((f) => f.endsWith('.mts'))
    .sort()
    .map(async (f) => ({
      name: f.replace(/\.mts$/, ''),
      config: ((await import(join(DIR, f))) as { config?: RouteConfig }).config ?? {},
    })),
);

const serving = (path: string, method: string) =>
  modules.filter((m) => matchRoute(m.config, path, method) !== null).map((m) => m.name);

describe('function paths', () => {
  it('every path a function serves is under /api/', () => {
    const outside = modules.flatMap((m) =>
      [m.config.path ?? []]
        .flat()
        .filter((p) => !p.startsWith('/api/'))
        .map((p) => `${m.name}: ${p}`),
    );
    expect(outside).toEqual([]);
  });

  it.each([
    ['/api/my/link', 'my-link'],
    ['/api/my/code', 'my-code'],
    ['/api/my/session', 'my-account'],
    ['/api/my/code-session', 'my-account'],
    ['/api/my/cancel-shift', 'my-account'],
    ['/api/my/switch-shift', 'my-account'],
  ])('POST %s is served by %s alone', (path, fn) => {
    expect(serving(path, 'POST')).toEqual([fn]);
  });
});
