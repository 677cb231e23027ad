import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as adminDonations from '../../netlify/functions/admin-donations.mts';
import * as adminRsvps from '../../netlify/functions/admin-event-rsvps.mts';
import * as goalFn from '../../netlify/functions/donation-goal.mts';
import * as rsvpFn from '../../netlify/functions/event-rsvp.mts';
import { RsvpInputSchema } from '../../src/lib/schemas/rsvp.ts';
import { rsvp } from '../../src/lib/server/events/rsvp.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { makeUsers, type Who } from '../helpers/content-users.ts';
import {
  basic,
  deliver,
  order,
  useWebhookCredentials,
  WEBHOOK_PASSWORD,
  WEBHOOK_USER,
} from '../helpers/donations.ts';
import { localProviders } from '../helpers/forms.ts';
import { call, type CallOptions } from '../helpers/http.ts';
import { person, rsvpEventFixture } from '../helpers/rsvp.ts';

let stop: () => Promise<void>;
let users: Record<Who, string | undefined>;
let eventId: number;
let rsvpId: string;

beforeAll(async () => {
  ({ stop } = await startBlobs());
  localProviders();
  useWebhookCredentials();
  users = await makeUsers();
  eventId = (await rsvpEventFixture(10)).id;
  const p = person();
  await rsvp(eventId, RsvpInputSchema.parse(p), { ip: null, userAgent: null });
  rsvpId = (await import('../../src/lib/server/storage/keys.ts')).hashed(p.email);
});
afterAll(() => stop());

const WHO: Who[] = ['anonymous', 'viewer', 'editor', 'admin', 'inactive'];
type Mod = Parameters<typeof call>[0];
interface Route {
  name: string;
  kind: 'read' | 'write';
  ok: number;
  req: () => [Mod, string, CallOptions];
}

const ROUTES: Route[] = [
  {
    name: 'GET /api/admin/donations',
    kind: 'read',
    ok: 200,
    req: () => [adminDonations, '/api/admin/donations?from=2025-09-01&to=2025-09-30', {}],
  },
  {
    name: 'GET /api/admin/donations?format=csv',
    kind: 'read',
    ok: 200,
    req: () => [adminDonations, '/api/admin/donations?format=csv', {}],
  },
  {
    name: 'GET /api/admin/donations/goal',
    kind: 'read',
    ok: 200,
    req: () => [adminDonations, '/api/admin/donations/goal', {}],
  },
  {
    name: 'PUT /api/admin/donations/goal',
    kind: 'write',
    ok: 200,
    req: () => [
      adminDonations,
      '/api/admin/donations/goal',
      { method: 'PUT', json: { enabled: false, targetDollars: 50000, label: 'Goal' } },
    ],
  },
  {
    name: 'GET /api/admin/events/:id/rsvps',
    kind: 'read',
    ok: 200,
    req: () => [adminRsvps, `/api/admin/events/${eventId}/rsvps`, {}],
  },
  {
    name: 'GET /api/admin/events/:id/rsvps?format=csv',
    kind: 'read',
    ok: 200,
    req: () => [adminRsvps, `/api/admin/events/${eventId}/rsvps?format=csv`, {}],
  },
  {
    name: 'PUT /api/admin/events/:id/rsvps/:rsvpId (check-in)',
    kind: 'write',
    ok: 200,
    req: () => [
      adminRsvps,
      `/api/admin/events/${eventId}/rsvps/${rsvpId}`,
      { method: 'PUT', json: { checkedIn: true } },
    ],
  },
];

function expected(route: Route, who: Who): number {
  if (who === 'anonymous' || who === 'inactive') return 401;
  if (who === 'viewer') return route.kind === 'read' ? 200 : 403;
  return route.ok;
}

describe('permission matrix: the donations and RSVP staff routes x {anonymous, viewer, editor, admin, inactive}', () => {
  for (const route of ROUTES) {
    it(route.name, async () => {
      const got: Record<string, number> = {};
      const want: Record<string, number> = {};
      for (const who of WHO) {
        const [mod, path, opts] = route.req();
        const res = await call(mod, path, { ...opts, cookie: users[who] });
        got[who] = res.status;
        want[who] = expected(route, who);
        // A refusal says why.
        const error = res.status >= 400 ? ((await res.json()) as { error?: unknown }).error : 'not refused';
        expect(typeof error === 'string' && error !== '', `${res.status}`).toBe(true);
      }
      expect(got).toEqual(want);
    });
  }

  it('staff writes are refused cross-site (CSRF) even for an admin', async () => {
    const res = await call(adminRsvps, `/api/admin/events/${eventId}/rsvps/${rsvpId}`, {
      method: 'PUT',
      json: { checkedIn: false },
      cookie: users.admin,
      crossSite: true,
      headers: { origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
  });

  it('check-in of an unknown person or event is 404', async () => {
    const unknown = 'f'.repeat(64);
    for (const path of [
      `/api/admin/events/${eventId}/rsvps/${unknown}`,
      `/api/admin/events/${eventId}/rsvps/not-an-id`,
      `/api/admin/events/999999/rsvps/${rsvpId}`,
    ]) {
      const res = await call(adminRsvps, path, {
        method: 'PUT',
        json: { checkedIn: true },
        cookie: users.editor,
      });
      expect(res.status, path).toBe(404);
    }
    expect((await call(adminRsvps, '/api/admin/events/999999/rsvps', { cookie: users.viewer })).status).toBe(
      404,
    );
  });
});

describe('public routes need no session; the webhook accepts only its own credentials', () => {
  it('GET /api/donations/goal and GET /api/events/:id/rsvp answer everyone', async () => {
    for (const who of WHO) {
      expect((await call(goalFn, '/api/donations/goal', { cookie: users[who] })).status).toBe(200);
      expect((await call(rsvpFn, `/api/events/${eventId}/rsvp`, { cookie: users[who] })).status).toBe(200);
    }
  });

  it('POST /api/donations/actblue: a staff session is no credential; only the Basic pair is', async () => {
    const results: Record<string, number> = {};
    for (const who of WHO) {
      const res = await call(
        await import('../../netlify/functions/donations-actblue.mts'),
        '/api/donations/actblue',
        { method: 'POST', json: order(5000), cookie: users[who] },
      );
      results[who] = res.status;
    }
    expect(results).toEqual({ anonymous: 401, viewer: 401, editor: 401, admin: 401, inactive: 401 });
    expect(
      (await deliver(order(5000), { authorization: basic(WEBHOOK_USER, `${WEBHOOK_PASSWORD} `) })).status,
    ).toBe(401);
    expect((await deliver(order(5000))).status).toBe(201);
  });
});
