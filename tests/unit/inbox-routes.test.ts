import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { config } from '../../netlify/functions/admin-inbox.mts';
import { INBOX_ROUTES, inboxKindOf } from '../../src/lib/inbox-kinds.ts';

/*
 * The Inbox's routes are declared once, in src/lib/inbox-kinds.ts. Netlify reads a function's `config.path` from
 * its source as a literal, so the function writes the paths out; this holds the two equal.
 */
describe('the Inbox routes', () => {
  it("the function's config.path is exactly the declared routes", () => {
    expect([config.path].flat().sort()).toEqual(Object.values(INBOX_ROUTES).sort());
  });

  it('config.path is a literal Netlify can read from the source', () => {
    const source = readFileSync('netlify/functions/admin-inbox.mts', 'utf8');
    for (const path of Object.values(INBOX_ROUTES)) expect(source).toContain(`'${path}'`);
  });

  it('each path names its list, with or without a trailing slash; others none', () => {
    for (const [kind, path] of Object.entries(INBOX_ROUTES)) {
      expect(inboxKindOf(path)).toBe(kind);
      expect(inboxKindOf(`${path}/`)).toBe(kind);
    }
    expect(inboxKindOf('/api/admin/users')).toBeNull();
  });
});
