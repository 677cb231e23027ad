import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as broadcastsFn from '../../netlify/functions/admin-broadcasts.mts';
import * as planFn from '../../netlify/functions/admin-shift-plan.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import type { BroadcastView } from '../../src/lib/schemas/broadcast-views.ts';
import type { Recipient } from '../../src/lib/server/broadcasts/audiences.ts';
import { runBroadcasts } from '../../src/lib/server/broadcasts/engine.ts';
import { bstore, chunkKey, getBroadcast } from '../../src/lib/server/broadcasts/repo.ts';
import { setElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import type { PlanRow } from '../../src/lib/server/events/shift-plan.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { FakeClock } from '../helpers/broadcasts.ts';
import { localProviders, uniqueIp, validVolunteer } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * Recruiting for a staffing gap (docs/decisions/181-shifts.md, "Recruiting nearest first"), through the real
 * handlers on a real local Blobs server: the plan view names each site's ZIP (given, or the address's trailing
 * one), and the broadcast audience a gap opens (volunteers not yet on a shift) is queued nearest that ZIP first,
 * people whose ZIP is unknown last, and nobody already on a shift.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
});
afterAll(() => blobs.stop());

/** A surname no other test uses: the audience's search keeps to this file's people. */
const family = `Nearby${Math.random()
  .toString(36)
  .replace(/[^a-z]/g, '')
  .slice(0, 6)}`;
const emailOf = (first: string) => `${first.toLowerCase()}.${family.toLowerCase()}@example.org`;
let phone = 100;
const volunteer = (first: string, zip: string) => {
  phone += 1;
  return call(volunteersFn, '/api/volunteers-sendgrid', {
    json: validVolunteer({
      firstName: first,
      lastName: family,
      email: emailOf(first),
      phone: `504-555-0${phone}`,
      zip,
    }),
    ip: uniqueIp(),
  });
};

async function runUntil(id: number, done: (s: string) => boolean) {
  const clock = new FakeClock(Date.now());
  for (let i = 0; i < 50; i += 1) {
    const b = await getBroadcast(id);
    if (b && done(b.status)) return b;
    await runBroadcasts({ clock, deadline: clock.now() + 25_000 });
    clock.advance(60_000);
  }
  throw new Error('the job did not get there');
}

describe('recruit for a gap: nearest ZIP first', () => {
  it('a gap at City Hall (70112) queues its volunteers nearest first, unknown ZIPs last, and no one on a shift', async () => {
    const [admin, editor] = [await signedIn('admin'), await signedIn('editor')];
    // Algiers gives its ZIP as a field (its address has none); the others' come from their addresses.
    await setElectionCalendar(
      {
        ...defaultElectionCalendar,
        sites: defaultElectionCalendar.sites.map((s) =>
          s.id === 'algiers-courthouse' ? { ...s, address: '225 Morgan St., New Orleans', zip: '70114' } : s,
        ),
      },
      'test',
    );
    const event = await rsvpEventFixture(null, { title: 'Cover the sites' });
    const made = await call(planFn, '/api/admin/shift-plan', {
      json: { eventId: event.id, shiftMinutes: 240, needed: 3 },
      cookie: admin.cookie,
    });
    expect(made.status).toBe(201);
    const { rows } = (await (
      await call(planFn, `/api/admin/shift-plan?event=${event.id}`, { cookie: editor.cookie })
    ).json()) as { rows: PlanRow[] };
    const zipOf = (place: string) => rows.find((r) => r.place === place)!.zip;
    expect(zipOf('city-hall')).toBe('70112');
    expect(zipOf('algiers-courthouse')).toBe('70114');
    expect(rows.filter((r) => r.polls).map((r) => r.zip)).toEqual([null]);

    // Signed up in an order unlike the expected one: unknown ZIPs, far, on a shift, near, mid.
    for (const [first, zip] of [
      ['Una', ''], // no ZIP
      ['Zed', '00000'], // a ZIP the data does not know
      ['Fay', '70458'], // Slidell, across the lake
      ['Otis', '70112'], // same ZIP as the site, but already on a shift
      ['Nia', '70112-4321'], // the site's own ZIP (ZIP+4)
      ['Mo', '70119'], // Mid-City
    ] as const)
      expect((await volunteer(first, zip)).status).toBe(201);
    const slot = `city-hall-${rows.find((r) => r.place === 'city-hall')!.date}-0830`;
    const onShift = await rsvpTo(
      event.id,
      person({ name: `Otis ${family}`, email: emailOf('Otis'), slots: [slot] }),
    );
    expect(onShift.status).toBe(201);

    // The audience the gap's link opens (BroadcastsTab `recruiting`), kept to this file's people by a search.
    const draft = await call(broadcastsFn, '/api/admin/broadcasts', {
      cookie: editor.cookie,
      json: {
        name: 'Recruit: City Hall',
        channel: 'email',
        audience: {
          kind: 'people',
          people: { q: family, has: ['volunteered'], hasNot: ['shift'] },
          near: zipOf('city-hall'),
        },
        email: { subject: 'Cover City Hall', html: '<p>Hi {firstName}</p>' },
      },
    });
    expect(draft.status, await draft.clone().text()).toBe(201);
    const id = ((await draft.json()) as { broadcast: { id: number } }).broadcast.id;
    const prepared = await call(broadcastsFn, `/api/admin/broadcasts/${id}/prepare`, {
      method: 'POST',
      cookie: editor.cookie,
    });
    expect(prepared.status).toBe(200);
    const b = await runUntil(id, (s) => s === 'ready');
    const view = (await (
      await call(broadcastsFn, `/api/admin/broadcasts/${id}`, { cookie: editor.cookie })
    ).json()) as BroadcastView;
    expect(view.estimate.recipients).toBe(5);

    // The queue, in the order it is sent: chunk by chunk, each chunk's recipients in order.
    const queued: string[] = [];
    for (const c of b.run.chunks) {
      const chunk = await bstore().get<{ recipients: Recipient[] }>(chunkKey(id, b.run.gen, c.id));
      for (const r of chunk!.value.recipients) queued.push(r.to.split('.')[0]!);
    }
    expect(queued.slice(0, 3)).toEqual(['nia', 'mo', 'fay']);
    // Unknown ZIPs last (their own order is the stable key order, which the test does not fix).
    expect([...queued.slice(3)].sort()).toEqual(['una', 'zed']);
    expect(queued).not.toContain('otis');
  });
});
