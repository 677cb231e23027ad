import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as inbox from '../../netlify/functions/admin-inbox.mts';
import * as volunteers from '../../netlify/functions/volunteers-sendgrid.mts';
import { INBOX_ROUTES } from '../../src/lib/inbox-kinds.ts';
import { EXPORT_KINDS } from '../../src/lib/server/exports/registry.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { localProviders, uniqueIp, validVolunteer } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * The lists the Overview's figures link to (docs/decisions/180-overview.md): an Inbox list of some campaign days
 * (`from`/`to`, the sign-up's day in America/Chicago), as the page and as its export; a malformed day is a 400 that
 * says what it wants. The moments are written with their UTC offsets, each one's campaign day by hand.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
let editor: string;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
  editor = (await signedIn('editor')).cookie;
});
afterAll(() => blobs.stop());

async function volunteerAt(moment: string, firstName: string) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(moment));
  try {
    const res = await call(volunteers, '/api/volunteers-sendgrid', {
      json: validVolunteer({ firstName, email: `${firstName.toLowerCase()}@example.org` }),
      ip: uniqueIp(),
    });
    expect(res.status).toBe(201);
  } finally {
    vi.useRealTimers();
  }
}

describe('the Inbox of some campaign days', () => {
  it('lists the sign-ups of those days only, as the page and as the export; a bad day is a 400', async () => {
    await volunteerAt('2026-10-27T23:59:00-05:00', 'Before'); // 27 October
    await volunteerAt('2026-10-28T00:01:00-05:00', 'First'); // 28 October
    await volunteerAt('2026-11-04T05:30:00Z', 'Last'); // 3 November, 23:30 CST
    await volunteerAt('2026-11-04T06:00:00Z', 'After'); // 4 November
    const names = async (query: string) => {
      const res = await call(inbox, `${INBOX_ROUTES.volunteers}${query}`, { cookie: editor });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { items: { firstName: string }[] };
      return body.items.map((i) => i.firstName).sort();
    };
    expect(await names('')).toEqual(['After', 'Before', 'First', 'Last']);
    expect(await names('?from=2026-10-28&to=2026-11-03')).toEqual(['First', 'Last']);
    expect(await names('?from=2026-11-04')).toEqual(['After']);

    const bad = await call(inbox, `${INBOX_ROUTES.volunteers}?from=28-10-2026`, { cookie: editor });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe('from must be a date (YYYY-MM-DD)');

    const params = EXPORT_KINDS.inbox!.params({ kind: 'volunteers', from: '2026-10-28', to: '2026-11-03' });
    const source = await EXPORT_KINDS.inbox!.open(params, new Date());
    expect(source.total).toBe(2);
    expect(() => EXPORT_KINDS.inbox!.params({ kind: 'volunteers', to: 'soon' })).toThrow(
      'to must be a date (YYYY-MM-DD)',
    );
  });
});
