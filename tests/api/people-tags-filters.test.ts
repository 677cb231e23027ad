import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as broadcastsFn from '../../netlify/functions/admin-broadcasts.mts';
import * as adminEventRsvps from '../../netlify/functions/admin-event-rsvps.mts';
import * as adminExports from '../../netlify/functions/admin-exports.mts';
import * as adminPeople from '../../netlify/functions/admin-people.mts';
import * as votePlanFn from '../../netlify/functions/vote-plan.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import type { BroadcastView } from '../../src/lib/schemas/broadcast-views.ts';
import { auditPage } from '../../src/lib/server/audit/audit.ts';
import { runBroadcasts } from '../../src/lib/server/broadcasts/engine.ts';
import { getBroadcast } from '../../src/lib/server/broadcasts/repo.ts';
import { setElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { DST_2026 } from '../helpers/election.ts';
import { localProviders, uniqueIp, validVolunteer } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { person as rsvpPerson, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import { FakeClock } from '../helpers/broadcasts.ts';
import { outboxEmails, signedIn } from '../helpers/users.ts';
import { vi } from 'vitest';

/*
 * Tags, private notes, the People filters and the People CSV (docs/decisions/149-people.md, "Tags, notes and
 * filters"), through the real handlers on a real local Blobs server. Each test tags its own people with a tag of
 * its own, so the filters of one test see none of another's.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
let editor: string;
let viewer: string;
const NOW = new Date('2026-10-20T10:00:00-05:00');

beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  await setElectionCalendar(
    { sites: defaultElectionCalendar.sites, mode: 'none', runoff: null, primary: DST_2026 },
    'test',
  );
  editor = (await signedIn('editor')).cookie;
  viewer = (await signedIn('viewer')).cookie;
});
afterAll(async () => {
  vi.useRealTimers();
  await blobs.stop();
});

let seq = 0;
function supporter(first: string) {
  seq += 1;
  const n = String(2000 + seq).slice(-4);
  return {
    first,
    last: `Tagtest${seq}`,
    email: `${first.toLowerCase()}.${seq}.${Math.random().toString(36).slice(2, 7)}@example.org`,
    phone: `+1504556${n}`,
    dashed: `504-556-${n}`,
  };
}
type Supporter = ReturnType<typeof supporter>;
const runTag = () => `t${Math.random().toString(36).slice(2, 10)}`;

const volunteer = (s: Supporter, zip = '70119') =>
  call(volunteersFn, '/api/volunteers-sendgrid', {
    json: validVolunteer({ firstName: s.first, lastName: s.last, email: s.email, phone: s.dashed, zip }),
    ip: uniqueIp(),
  });
const plan = (s: Supporter) =>
  call(votePlanFn, '/api/vote-plan', {
    json: {
      captcha: TURNSTILE_TEST_TOKEN,
      day: '2026-11-02',
      method: 'in-person',
      name: `${s.first} ${s.last}`,
      phone: s.dashed,
      email: s.email,
      smsConsent: true,
      emailConsent: true,
    },
    ip: uniqueIp(),
  });
const rsvp = async (eventId: number, s: Supporter) => {
  const res = await rsvpTo(
    eventId,
    rsvpPerson({ name: `${s.first} ${s.last}`, email: s.email, phone: s.dashed }),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { id?: string; rsvp?: { id: string } }).id;
};

interface Row {
  id: string;
  name: string;
  emails: string[] | null;
  tags: string[];
}
interface Page {
  items: Row[];
  total: number;
}
const list = async (query: string, cookie = editor): Promise<Page> => {
  const res = await call(adminPeople, `/api/admin/people?${query}`, { cookie });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Page;
};
const idOf = async (s: Supporter) => {
  const found = await list(`q=${encodeURIComponent(s.email)}`);
  expect(found.total).toBe(1);
  return found.items[0]!.id;
};
const post = (path: string, cookie: string, json: unknown) =>
  call(adminPeople, path, { method: 'POST', cookie, json });

describe('tags and private notes', () => {
  it('editors tag and write notes; viewers read tags, never notes or contacts; notes are text and audited without their text', async () => {
    const ana = supporter('Ana');
    expect((await volunteer(ana)).status).toBe(201);
    const id = await idOf(ana);
    const tag = runTag();
    const tagged = await post(`/api/admin/people/${id}/tags`, editor, { add: [tag, 'Canvasser'] });
    expect(tagged.status).toBe(200);
    expect(await tagged.json()).toEqual({ tags: [tag, 'canvasser'] });
    const removed = await post(`/api/admin/people/${id}/tags`, editor, { remove: ['canvasser'] });
    expect(await removed.json()).toEqual({ tags: [tag] });
    expect((await post(`/api/admin/people/${id}/tags`, editor, { add: ['two words'] })).status).toBe(400);
    expect((await post(`/api/admin/people/${id}/tags`, editor, {})).status).toBe(400);

    const text = '<img src=x onerror=alert(1)> =cmd| prefers evenings';
    const wrote = await post(`/api/admin/people/${id}/notes`, editor, { text });
    expect(wrote.status).toBe(201);
    expect((await post(`/api/admin/people/${id}/notes`, editor, { text: '  ' })).status).toBe(400);

    // Viewers: read-only, tags yes, notes and contacts no.
    expect((await post(`/api/admin/people/${id}/tags`, viewer, { add: ['x'] })).status).toBe(403);
    expect((await post(`/api/admin/people/${id}/notes`, viewer, { text: 'x' })).status).toBe(403);
    const asViewer = await call(adminPeople, `/api/admin/people/${id}`, { cookie: viewer });
    const seen = await asViewer.text();
    expect(JSON.parse(seen)).toMatchObject({
      person: { tags: [tag], emails: null, phones: null },
      notes: null,
    });
    expect(seen).not.toContain('prefers evenings');
    expect((await list(`tag=${tag}`, viewer)).items.map((r) => r.tags)).toEqual([[tag]]);

    // Editors: the note as JSON text (the markup is data: a JSON string, served as JSON, never HTML).
    const asEditor = await call(adminPeople, `/api/admin/people/${id}`, { cookie: editor });
    expect(asEditor.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const v = (await asEditor.json()) as { notes: { text: string; by: string }[] };
    expect(v.notes.map((n) => n.text)).toEqual([text]);
    // Not in the list, the list's search, or the audit trail.
    expect(JSON.stringify(await list(`tag=${tag}`))).not.toContain('prefers evenings');
    expect((await list('q=prefers%20evenings')).total).toBe(0);
    const entries = (await auditPage({ page: 1, pageSize: 50, format: 'json' })).entries.filter(
      (e) => e.target?.id === id,
    );
    expect(entries.map((e) => e.kind).sort()).toEqual(['person.note', 'person.tags', 'person.tags']);
    expect(JSON.stringify(entries)).not.toContain('prefers evenings');
  });
});

describe('filters', () => {
  it('source, tag, ZIP, language, consent and has / has not: volunteered, RSVP to X, attended, plan', async () => {
    const tag = runTag();
    const [x, y] = [await rsvpEventFixture(null), await rsvpEventFixture(null)];
    const a = supporter('Alma'); // volunteer 70119, RSVP'd to X
    const b = supporter('Bea'); // volunteer 70119, RSVP'd to Y only
    const c = supporter('Cruz'); // volunteer 70117
    const d = supporter('Dora'); // RSVP'd to X, checked in, no plan
    const e = supporter('Eli'); // RSVP'd to X, checked in, made a plan
    for (const [s, zip] of [
      [a, '70119'],
      [b, '70119'],
      [c, '70117'],
    ] as const)
      expect((await volunteer(s, zip)).status).toBe(201);
    await rsvp(x.id, a);
    await rsvp(y.id, b);
    for (const s of [d, e]) await rsvp(x.id, s);
    expect((await plan(e)).status).toBe(201);
    // Check-ins at the door (the RSVP ids from the staff list).
    const roster = await call(adminEventRsvps, `/api/admin/events/${x.id}/rsvps`, { cookie: editor });
    const items = ((await roster.json()) as { items: { id: string; email: string }[] }).items;
    for (const s of [d, e]) {
      const r = items.find((i) => i.email === s.email)!;
      const res = await call(adminEventRsvps, `/api/admin/events/${x.id}/rsvps/${r.id}`, {
        method: 'PUT',
        json: { checkedIn: true },
        cookie: editor,
      });
      expect(res.status).toBe(200);
    }
    for (const s of [a, b, c, d, e])
      expect((await post(`/api/admin/people/${await idOf(s)}/tags`, editor, { add: [tag] })).status).toBe(
        200,
      );

    const names = async (q: string) =>
      (await list(`tag=${tag}&${q}`)).items.map((r) => r.name.split(' ')[0]).sort();
    expect(await names('')).toEqual(['Alma', 'Bea', 'Cruz', 'Dora', 'Eli']);
    expect(await names('source=volunteer')).toEqual(['Alma', 'Bea', 'Cruz']);
    expect(await names('has=volunteered&zip=70119')).toEqual(['Alma', 'Bea']);
    // "volunteers in 70119 who have not RSVP'd to X"
    expect(await names(`has=volunteered&zip=70119&hasNot=rsvp:${x.id}`)).toEqual(['Bea']);
    expect(await names(`has=rsvp:${x.id}`)).toEqual(['Alma', 'Dora', 'Eli']);
    // "attended an event but made no plan"
    expect(await names('has=attended&hasNot=plan')).toEqual(['Dora']);
    expect(await names(`has=attended:${x.id},plan`)).toEqual(['Eli']);
    expect(await names(`hasNot=attended:${y.id}&has=rsvp`)).toEqual(['Alma', 'Bea', 'Dora', 'Eli']);
    expect(await names('has=donated')).toEqual([]);
    expect(await names('lang=en&email=none&text=granted')).toEqual([]);
    expect(await names('text=revoked')).toEqual([]);

    // Bad filters: 400 with a message, never 5xx.
    for (const q of ['has=everything', 'source=nowhere', 'email=maybe', 'zip=7011', 'lang=fr', 'tag=a%20b']) {
      const res = await call(adminPeople, `/api/admin/people?${q}`, { cookie: editor });
      expect(res.status, q).toBe(400);
      expect(((await res.json()) as { error: string }).error.length).toBeGreaterThan(0);
    }
  });
});

describe('the People CSV', () => {
  it('through the export mechanism: editors only, filtered, consent per channel in its columns, cells never formulas, no notes', async () => {
    const tag = runTag();
    const f = supporter('Fay');
    f.last = '=HYPERLINK("http://x")';
    expect((await volunteer(f)).status).toBe(201);
    const id = await idOf(f);
    await post(`/api/admin/people/${id}/tags`, editor, { add: [tag] });
    await post(`/api/admin/people/${id}/notes`, editor, { text: 'secret note text' });
    await post(`/api/admin/people/${id}/consent`, editor, { channel: 'text' });

    const start = (cookie: string, params: Record<string, string>) =>
      call(adminExports, '/api/admin/exports', { json: { source: 'people', params }, cookie });
    expect((await start(viewer, { tag })).status).toBe(403);
    expect((await start(editor, { tag: 'a b' })).status).toBe(400);
    expect((await start(editor, { nope: 'x' })).status).toBe(400);
    const res = await start(editor, { tag });
    expect(res.status, await res.clone().text()).toBe(201);
    const job = ((await res.json()) as { job: { status: string; downloads: { url: string }[] } }).job;
    expect(job.status).toBe('done');
    const file = await call(adminExports, job.downloads[0]!.url, {
      cookie: editor,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(file.status).toBe(200);
    const csv = gunzipSync(Buffer.from(await file.arrayBuffer()))
      .subarray(3)
      .toString('utf8');
    const rows = csv.split('\r\n').filter(Boolean);
    expect(rows[0]).toBe(
      'id,name,emails,phones,zip,city,lang,sources,tags,email_consent,text_consent,created_at,created_at_local,shifts_signed_up,shifts_confirmed,shifts_attended,shifts_no_show,call_dont_text',
    );
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(`${id},`);
    expect(rows[1]).toContain(f.email);
    expect(rows[1]).toContain(',none,revoked,');
    expect(rows[1]).not.toContain('secret note text');
    // The name starting with '=' is a cell of text, not a formula.
    expect(rows[1]).not.toMatch(/(^|,)"?=/);
    const entries = (await auditPage({ page: 1, pageSize: 50, format: 'json' })).entries;
    expect(entries.find((e) => e.kind === 'person.export')?.details).toMatchObject({ tag, rows: '1' });
  });
});

describe('forget me removes notes too', () => {
  it('a forgotten person leaves no note behind', async () => {
    const g = supporter('Gus');
    expect((await volunteer(g)).status).toBe(201);
    const id = await idOf(g);
    await post(`/api/admin/people/${id}/notes`, editor, { text: 'note to forget' });
    const admin = (await signedIn('admin')).cookie;
    expect(
      (await call(adminPeople, `/api/admin/people/${id}/forget`, { method: 'POST', cookie: admin })).status,
    ).toBe(200);
    const keys: string[] = [];
    for await (const page of kv('people').keys(`note/${id}`)) keys.push(...page);
    expect(keys).toEqual([]);
  });
});

describe('audiences from people', () => {
  /** The delivery job, as the scheduled function runs it, until `done` (a fake clock: no waiting). */
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
  const bpost = (path: string, cookie: string, body?: unknown) =>
    call(broadcastsFn, path, { method: 'POST', cookie, ...(body !== undefined ? { json: body } : {}) });

  it("volunteers in 70119 who have not RSVP'd to X: counted before sending, revoked consent left out, the guard stops a later STOP", async () => {
    const tag = runTag();
    const x = await rsvpEventFixture(null);
    const hal = supporter('Hal'); // in
    const ivy = supporter('Ivy'); // RSVP'd to X: out
    const jo = supporter('Jo'); // 70117: out
    const kim = supporter('Kim'); // in at the count, stops her email before the send
    const lee = supporter('Lee'); // email revoked before the count: not counted
    for (const [s, zip] of [
      [hal, '70119'],
      [ivy, '70119'],
      [jo, '70117'],
      [kim, '70119'],
      [lee, '70119'],
    ] as const)
      expect((await volunteer(s, zip)).status).toBe(201);
    await rsvp(x.id, ivy);
    const ids: Record<string, string> = {};
    for (const s of [hal, ivy, jo, kim, lee]) {
      ids[s.first] = await idOf(s);
      await post(`/api/admin/people/${ids[s.first]}/tags`, editor, { add: [tag] });
    }
    expect((await post(`/api/admin/people/${ids.Lee}/consent`, editor, { channel: 'all' })).status).toBe(200);

    const admin = await signedIn('admin');
    const draft = await call(broadcastsFn, '/api/admin/broadcasts', {
      cookie: editor,
      json: {
        name: `People ${tag}`,
        channel: 'email',
        audience: {
          kind: 'people',
          people: { tag, has: ['volunteered'], zip: '70119', hasNot: [`rsvp:${x.id}`] },
        },
        email: { subject: 'Canvass Saturday', html: '<p>Hi {firstName}</p>' },
      },
    });
    expect(draft.status, await draft.clone().text()).toBe(201);
    const id = ((await draft.json()) as { broadcast: { id: number } }).broadcast.id;
    // A bad filter is a 400, never stored.
    const bad = await call(broadcastsFn, '/api/admin/broadcasts', {
      cookie: editor,
      json: {
        name: 'Bad',
        channel: 'email',
        audience: { kind: 'people', people: { has: ['everything'] } },
        email: { subject: 'x', html: '<p>x</p>' },
      },
    });
    expect(bad.status).toBe(400);

    expect((await bpost(`/api/admin/broadcasts/${id}/prepare`, editor)).status).toBe(200);
    await runUntil(id, (s) => s === 'ready');
    const view = async () =>
      (await (
        await call(broadcastsFn, `/api/admin/broadcasts/${id}`, { cookie: editor })
      ).json()) as BroadcastView;
    expect((await view()).estimate.recipients).toBe(2); // Hal and Kim

    // Kim stops her emails after the count: the one guard at dispatch still refuses her.
    expect((await post(`/api/admin/people/${ids.Kim}/consent`, editor, { channel: 'email' })).status).toBe(
      200,
    );
    const sent = await bpost(`/api/admin/broadcasts/${id}/send`, admin.cookie, {
      version: (await view()).version,
    });
    expect(sent.status, await sent.clone().text()).toBe(200);
    await runUntil(id, (s) => s === 'completed');
    const got = (await outboxEmails())
      .filter((m) => m.subject === 'Canvass Saturday')
      .map((m) => m.to)
      .filter((to) => [hal, ivy, jo, kim, lee].some((s) => s.email === to));
    expect(got).toEqual([hal.email]);

    // The same people by text: Lee's texts are revoked on her person, so the count leaves her out (Hal and Kim).
    const texted = await call(broadcastsFn, '/api/admin/broadcasts', {
      cookie: editor,
      json: {
        name: `People by text ${tag}`,
        channel: 'text',
        audience: {
          kind: 'people',
          people: { tag, has: ['volunteered'], zip: '70119', hasNot: [`rsvp:${x.id}`] },
        },
        text: { body: 'Canvass Saturday, {firstName}?' },
      },
    });
    expect(texted.status, await texted.clone().text()).toBe(201);
    const tid = ((await texted.json()) as { broadcast: { id: number } }).broadcast.id;
    expect((await bpost(`/api/admin/broadcasts/${tid}/prepare`, editor)).status).toBe(200);
    await runUntil(tid, (s) => s === 'ready');
    const tview = (await (
      await call(broadcastsFn, `/api/admin/broadcasts/${tid}`, { cookie: editor })
    ).json()) as BroadcastView;
    expect(tview.estimate.recipients).toBe(2);
  });
});
