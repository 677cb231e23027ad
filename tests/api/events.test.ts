import { IDENTITY } from '../../src/content/identity.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as adminEvents from '../../netlify/functions/admin-events.mts';
import * as eventsFn from '../../netlify/functions/events.mts';
import type { CampaignEvent } from '../../src/lib/schemas/event.ts';
import { campaignToday, publicEvents } from '../../src/lib/server/content/events.ts';
import { eventCalendarResponse } from '../../src/lib/server/public/event-calendar.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { makeUsers } from '../helpers/content-users.ts';
import { call } from '../helpers/http.ts';

let stop: () => Promise<void>;
let editor: string;
let viewer: string;

beforeAll(async () => {
  ({ stop } = await startBlobs());
  const users = await makeUsers();
  editor = users.editor!;
  viewer = users.viewer!;
});
afterAll(() => stop());

const inDays = (n: number) => campaignToday(new Date(Date.now() + n * 86_400_000));

function payload(over: Record<string, unknown> = {}) {
  return {
    title: 'Town Hall',
    description: 'Open questions.',
    location: 'Gentilly, New Orleans',
    eventDate: inDays(5),
    startTime: '18:30',
    endTime: '20:00',
    eventType: 'town_hall',
    isPublic: true,
    maxAttendees: '',
    registrationRequired: false,
    registrationUrl: '',
    contactEmail: '',
    notes: '',
    ...over,
  };
}

async function create(over: Record<string, unknown> = {}): Promise<CampaignEvent> {
  const res = await call(adminEvents, '/api/admin/events', {
    method: 'POST',
    json: payload(over),
    cookie: editor,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { event: CampaignEvent }).event;
}

async function publicList(): Promise<CampaignEvent[]> {
  const res = await call(eventsFn, '/api/events');
  expect(res.status).toBe(200);
  expect(res.headers.get('netlify-cache-tag')).toBe('events');
  expect(res.headers.get('netlify-cdn-cache-control')).toBe('public, s-maxage=30, stale-while-revalidate=60');
  return ((await res.json()) as { events: CampaignEvent[] }).events;
}

describe('events', () => {
  it('creates with defaults: unlimited attendees, the campaign events email', async () => {
    const e = await create();
    expect(e.maxAttendees).toBeNull();
    expect(e.contactEmail).toBe(IDENTITY.emails.events);
    expect(e.id).toBeGreaterThan(0);
  });

  it('public list: public upcoming only, soonest first; private and past events absent', async () => {
    const later = await create({ title: 'Later', eventDate: inDays(20) });
    const sooner = await create({ title: 'Sooner', eventDate: inDays(1), maxAttendees: 50 });
    const hidden = await create({ title: 'Private', eventDate: inDays(2), isPublic: false });
    const past = await create({ title: 'Past', eventDate: inDays(-3) });
    const list = await publicList();
    const ids = list.map((e) => e.id);
    expect(ids).toContain(later.id);
    expect(ids).toContain(sooner.id);
    expect(ids).not.toContain(hidden.id);
    expect(ids).not.toContain(past.id);
    expect(ids.indexOf(sooner.id)).toBeLessThan(ids.indexOf(later.id));
    const dates = list.map((e) => e.eventDate + e.startTime);
    expect([...dates].sort()).toEqual(dates);
    expect((await publicEvents()).map((e) => e.id)).toEqual(ids);
  });

  it('making an event private removes it from the public list; 409 on a stale expectedUpdatedAt', async () => {
    const e = await create({ title: 'Toggle' });
    const res = await call(adminEvents, `/api/admin/events/${e.id}`, {
      method: 'PUT',
      json: payload({ isPublic: false, expectedUpdatedAt: e.updatedAt }),
      cookie: editor,
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { event: CampaignEvent }).event.isPublic).toBe(false);
    expect((await publicList()).map((x) => x.id)).not.toContain(e.id);
    const stale = await call(adminEvents, `/api/admin/events/${e.id}`, {
      method: 'PUT',
      json: payload({ expectedUpdatedAt: e.updatedAt }),
      cookie: editor,
    });
    expect(stale.status).toBe(409);
  });

  it("one event's .ics file (the Add to calendar link): public upcoming only, in the page's language", async () => {
    const site = new URL('https://www.example.org');
    const e = await create({
      title: 'Calendar Night',
      eventDate: inDays(4),
      startTime: '18:00',
      endTime: '19:30',
    });
    const res = await eventCalendarResponse(String(e.id), 'en', site);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="calendar-night-${e.eventDate}.ics"`,
    );
    expect(res.headers.get('netlify-cache-tag')).toBe('events');
    const ics = await res.text();
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(ics).toContain('SUMMARY:Calendar Night');
    expect(ics).toContain(`X-WR-CALNAME:${IDENTITY.smsProgramName} Events`);
    expect(ics).toContain(`@www.example.org`);
    const es = await (await eventCalendarResponse(String(e.id), 'es', site)).text();
    expect(es).toContain(`X-WR-CALNAME:Eventos de ${IDENTITY.smsProgramName}`);
    expect(es).toContain('SUMMARY:Calendar Night'); // no Spanish version: the English text
    const hidden = await create({ title: 'Private', eventDate: inDays(2), isPublic: false });
    const past = await create({ title: 'Past', eventDate: inDays(-3) });
    for (const raw of [String(hidden.id), String(past.id), '999999999', 'abc', '1.ics', undefined])
      expect((await eventCalendarResponse(raw, 'en', site)).status, String(raw)).toBe(404);
  });

  it('validation: messages, unknown fields, end before start', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: ' ' }, 'Title is required'],
      [{ location: '' }, 'Location is required'],
      [{ eventDate: '05/01/2026' }, 'Use the format YYYY-MM-DD'],
      [{ startTime: '7pm' }, 'Use the format HH:MM'],
      [{ endTime: '17:00' }, 'End time must be after the start time'],
      [{ registrationUrl: 'javascript:alert(1)' }, 'Must be an http or https URL'],
      [{ id: 0 }, 'Unknown field: id'],
    ];
    for (const [over, message] of cases) {
      const res = await call(adminEvents, '/api/admin/events', {
        method: 'POST',
        json: payload(over),
        cookie: editor,
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(message);
    }
    const bad = await call(adminEvents, '/api/admin/events', {
      method: 'POST',
      json: payload({ eventType: 'party' }),
      cookie: editor,
    });
    expect(bad.status).toBe(400);
  });

  it('413 oversize, 405 wrong method, 404 unknown id, delete', async () => {
    const big = await call(adminEvents, '/api/admin/events', {
      method: 'POST',
      json: payload({ notes: 'x'.repeat(70 * 1024) }),
      cookie: editor,
    });
    expect(big.status).toBe(413);
    expect((await call(adminEvents, '/api/admin/events', { method: 'DELETE', cookie: editor })).status).toBe(
      405,
    );
    expect((await call(eventsFn, '/api/events', { method: 'POST', json: {} })).status).toBe(405);
    expect(
      (
        await call(adminEvents, '/api/admin/events/424242', {
          method: 'PUT',
          json: payload(),
          cookie: editor,
        })
      ).status,
    ).toBe(404);
    const e = await create({ title: 'Delete me' });
    const del = await call(adminEvents, `/api/admin/events/${e.id}`, { method: 'DELETE', cookie: editor });
    expect(await del.json()).toEqual({ success: true });
    expect((await publicList()).map((x) => x.id)).not.toContain(e.id);
    expect(
      (await call(adminEvents, `/api/admin/events/${e.id}`, { method: 'DELETE', cookie: editor })).status,
    ).toBe(404);
  });

  it('admin list includes private events, paginated, no-store', async () => {
    // What it reads, whatever ran before: a private event and a public one.
    await create({ isPublic: false });
    await create({ isPublic: true });
    const res = await call(adminEvents, '/api/admin/events?pageSize=2', { cookie: viewer });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { events: CampaignEvent[]; total: number; pageSize: number };
    expect(body.events).toHaveLength(2);
    expect(body.pageSize).toBe(2);
    const all = (await (
      await call(adminEvents, '/api/admin/events', { cookie: viewer })
    ).json()) as typeof body;
    expect(all.events.some((e) => !e.isPublic)).toBe(true);
    expect(all.total).toBe(all.events.length);
  });
});
