import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/*
 * Every function file is findable from its path by name (docs/decisions/155-inbox-and-staff-lists.md):
 * the file is named for the path it serves (`/api/admin/events/:id/rsvps` -> admin-event-rsvps.mts; parameters
 * dropped, singular or plural alike), or it is listed here with the reason its name differs.
 */
const NAMED_OTHERWISE: Record<string, string> = {
  'admin-inbox': "the staff Inbox's four lists (src/lib/inbox-kinds.ts)",
  'audit-checkpoint': 'a scheduled function: no path',
  'admin-revisions': "an article's or an event's history: /api/admin/{news,events}/:id/revisions",
  'broadcasts-worker': 'a scheduled function: no path',
  'event-reminders': 'a scheduled function: no path',
  'export-cleanup': 'a scheduled function: no path',
  'shift-sequence': 'a scheduled function: no path',
  'summary-compaction': 'a scheduled function: no path',
  'overview-rollup': 'a scheduled function: no path',
  'my-account': "the supporter's own page's actions, /api/my/:action (docs/decisions/182-supporter-page.md)",
  'stage-rebuild': 'a scheduled function: no path',
  'vote-plan-reminders': 'a scheduled function: no path',
  'text-signup': "the text-message sign-up; its public path /api/newsletter is the spec's",
};

const DIR = 'netlify/functions';
const functions = readdirSync(DIR)
  .filter((f) => f.endsWith('.mts'))
  .map((f) => f.replace(/\.mts$/, ''));

/** The paths in a function's `config` (literals: Netlify reads them from the source). */
function pathsOf(name: string): string[] {
  const source = readFileSync(`${DIR}/${name}.mts`, 'utf8');
  const config = source.slice(source.indexOf('export const config'));
  return [...config.matchAll(/'(\/api\/[^']*)'/g)].map((m) => m[1]!);
}

const singular = (word: string) => word.replace(/s$/, '');
const nameFor = (path: string) =>
  path
    .replace(/^\/api\//, '')
    .split('/')
    .filter((segment) => segment && !segment.startsWith(':'))
    .flatMap((segment) => segment.split('-'))
    .map(singular)
    .join('-');

describe('function file names', () => {
  it.each(functions)('%s.mts is named for a path it serves, or listed with its reason', (name) => {
    if (name in NAMED_OTHERWISE) return;
    const wanted = name.split('-').map(singular).join('-');
    expect(pathsOf(name).map(nameFor), `${name}.mts serves ${pathsOf(name).join(', ')}`).toContain(wanted);
  });

  it('lists no function that does not exist', () => {
    for (const name of Object.keys(NAMED_OTHERWISE)) expect(functions).toContain(name);
  });
});
