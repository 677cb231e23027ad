import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as adminPeople from '../../netlify/functions/admin-people.mts';
import * as contactFn from '../../netlify/functions/contact.mts';
import * as inboundFn from '../../netlify/functions/sms-inbound.mts';
import * as textSignupFn from '../../netlify/functions/text-signup.mts';
import * as unsubscribeFn from '../../netlify/functions/unsubscribe.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
import * as newsletterFn from '../../netlify/functions/email-subscribers.mts';
import * as votePlanFn from '../../netlify/functions/vote-plan.mts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import type { ElectionCalendar } from '../../src/lib/election-stage.ts';
import { setElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { oneClickUrl, sendGuardedEmail } from '../../src/lib/server/messaging/email-guard.ts';
import { sendGuardedText, type TextConsent } from '../../src/lib/server/texting/text-guard.ts';
import { link } from '../../src/lib/server/people/link.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { traces } from '../helpers/store-traces.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { DST_2026 } from '../helpers/election.ts';
import {
  localProviders,
  messageSid,
  setEnv,
  signedInbound,
  TWILIO_TOKEN,
  uniqueIp,
  validContact,
  validSignup,
  validVolunteer,
} from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { person as rsvpPerson, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import { signedIn } from '../helpers/users.ts';
import { deliver, order, useWebhookCredentials } from '../helpers/donations.ts';

/*
 * People across every form (docs/decisions/149-people.md), through the real handlers on a real local Blobs
 * server: one person per supporter, one consent state per channel that every sending path reads, the merge queue,
 * merge and undo, and "forget me" that leaves no trace in any store.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
let admin: string;
let editor: string;
let viewer: string;

/** The campaign's clock for the whole file: 2026-10-20 10:00 in New Orleans (plans to vote are open). */
const NOW = new Date('2026-10-20T10:00:00-05:00');

beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
  setEnv({ TWILIO_AUTH_TOKEN: TWILIO_TOKEN });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  const calendar: ElectionCalendar = {
    sites: defaultElectionCalendar.sites,
    mode: 'none',
    runoff: null,
    primary: DST_2026,
  };
  await setElectionCalendar(calendar, 'test');
  admin = (await signedIn('admin')).cookie;
  editor = (await signedIn('editor')).cookie;
  viewer = (await signedIn('viewer')).cookie;
});
afterEach(() => vi.setSystemTime(NOW));
afterAll(async () => {
  vi.useRealTimers();
  localProviders();
  await blobs.stop();
});

let seq = 0;
/** A supporter of her own: unique email and phone, so tests share no person. */
function supporter(first: string, last: string) {
  seq += 1;
  const n = String(1000 + seq).slice(-4);
  return {
    first,
    last,
    name: `${first} ${last}`,
    email: `${first.toLowerCase()}.${seq}-${Date.now()}@example.org`,
    phone: `+1504555${n}`,
    dashed: `504-555-${n}`,
  };
}
type Supporter = ReturnType<typeof supporter>;

const volunteer = (s: Supporter, over: Record<string, unknown> = {}) =>
  call(volunteersFn, '/api/volunteers-sendgrid', {
    json: validVolunteer({ firstName: s.first, lastName: s.last, email: s.email, phone: s.dashed, ...over }),
    ip: uniqueIp(),
  });
const plan = (s: Supporter) =>
  call(votePlanFn, '/api/vote-plan', {
    json: {
      captcha: TURNSTILE_TEST_TOKEN,
      day: '2026-11-02',
      method: 'in-person',
      name: s.name,
      phone: s.dashed,
      email: s.email,
      smsConsent: true,
      emailConsent: true,
    },
    ip: uniqueIp(),
  });
/** A minute later on the campaign's clock: each step of a story at its own time. */
const tick = () => vi.setSystemTime(new Date(Date.now() + 60_000));
const inbound = (from: string, body: string) => {
  const signed = signedInbound({ MessageSid: messageSid(), From: from, Body: body });
  return call(inboundFn, '/api/sms/inbound', { method: 'POST', body: signed.body, headers: signed.headers });
};

interface Row {
  id: string;
  name: string;
  emails: string[] | null;
  phones: string[] | null;
  emailState: string;
  textState: string;
  sources: string[];
}
interface View {
  person: Row & { merged: string[]; mergedInto: string | null };
  timeline: {
    at: string;
    source: string;
    personId: string;
    detail: Record<string, unknown>;
    link: string | null;
  }[];
}

async function get<T>(path: string, cookie = editor): Promise<T> {
  const res = await call(adminPeople, path, { cookie });
  expect(res.status, `${path}: ${res.status}`).toBe(200);
  return (await res.json()) as T;
}
const search = (q: string, cookie = editor) =>
  get<{ items: Row[]; total: number }>(`/api/admin/people?q=${encodeURIComponent(q)}`, cookie);
const view = (id: string, cookie = editor) => get<View>(`/api/admin/people/${id}`, cookie);
const post = (path: string, json: unknown = undefined, cookie = editor) =>
  call(adminPeople, path, { method: 'POST', cookie, ...(json === undefined ? {} : { json }) });

/** The one listed person with this address (a search by it answers exactly one). */
async function personOf(address: string): Promise<View> {
  const found = await search(address);
  expect(found.items).toHaveLength(1);
  return view(found.items[0]!.id);
}

const textPaths = (s: Supporter, eventId: number): TextConsent[] => [
  { purpose: 'signup_confirmation' },
  { purpose: 'broadcast', broadcastId: 1 },
  { purpose: 'rsvp_reminder', eventId, rsvpId: hashed(s.email) },
  { purpose: 'plan_reminder', round: 'primary', planId: hashed(s.phone), reminder: 'eve' },
];
/** Inside the send window in New Orleans, so quiet hours refuse nothing. */
const text = (to: string, consent: TextConsent) =>
  sendGuardedText({
    to,
    body: 'Canvass Saturday',
    lang: 'en',
    consent,
    now: new Date('2026-10-20T11:00:00-05:00'),
  });
const email = (to: string) =>
  sendGuardedEmail({ to, subject: 'News', preview: '', html: '<p>News</p>', lang: 'en' });

describe('one person across every form', () => {
  it('a volunteer who RSVPs twice, makes a plan and texts ALTO is one person with five timeline entries, and no text reaches her', async () => {
    const maria = supporter('Maria', 'Lopez');
    const [first, second] = [await rsvpEventFixture(null), await rsvpEventFixture(null)];
    expect((await volunteer(maria, { zip: '70119' })).status).toBe(201);
    for (const e of [first, second]) {
      tick();
      const res = await rsvpTo(
        e.id,
        rsvpPerson({ name: maria.name, email: maria.email, phone: maria.dashed, smsReminder: true }),
      );
      expect(res.status).toBe(201);
    }
    tick();
    expect((await plan(maria)).status).toBe(201);
    tick();
    expect((await inbound(maria.phone, 'ALTO')).status).toBe(200);

    const found = await search(maria.email);
    expect(found.total).toBe(1);
    const v = await view(found.items[0]!.id);
    expect(v.timeline.map((e) => e.source)).toEqual(['volunteer', 'rsvp', 'rsvp', 'vote_plan', 'consent']);
    expect(v.timeline.at(-1)!.detail).toMatchObject({ channel: 'text', action: 'revoke' });
    expect(v.person).toMatchObject({ textState: 'revoked', emails: [maria.email], phones: [maria.phone] });
    // Found the same by her phone and her name.
    expect((await search(maria.phone)).items.map((r) => r.id)).toEqual([v.person.id]);
    expect((await search('maria lopez')).items.map((r) => r.id)).toContain(v.person.id);

    // Every sending path refuses her texts; her emails still go.
    for (const consent of textPaths(maria, first.id))
      expect(await text(maria.phone, consent)).toEqual({ sent: false, refusal: 'opted_out' });
    expect((await email(maria.email)).sent).toBe(true);
  });

  it('a STOP from one of her phones stops texts to every phone of hers, on every path', async () => {
    const rita = supporter('Rita', 'Comeaux');
    expect((await volunteer(rita)).status).toBe(201);
    // Her second phone, signed up for texts with the same email and name: the same person, subscribed.
    const other = `+1504556${rita.phone.slice(-4)}`;
    const signup = await call(textSignupFn, '/api/newsletter', {
      json: validSignup({ firstName: 'Rita Comeaux', phone: other, email: rita.email }),
      ip: uniqueIp(),
    });
    expect(signup.status).toBe(201);
    const v = await personOf(rita.email);
    expect(v.person.phones).toEqual([rita.phone, other]);
    expect((await text(other, { purpose: 'broadcast', broadcastId: 4 })).sent).toBe(true);
    tick();
    await inbound(rita.phone, 'STOP');
    // The other number never replied STOP itself: the person's one text state stops it.
    expect(await text(other, { purpose: 'broadcast', broadcastId: 4 })).toEqual({
      sent: false,
      refusal: 'opted_out',
    });
    expect(await text(other, { purpose: 'signup_confirmation' })).toEqual({
      sent: false,
      refusal: 'opted_out',
    });
  });

  it('an email unsubscribe stops her emails, every address of hers, and leaves her texts as she chose', async () => {
    const ana = supporter('Ana', 'Reyes');
    expect((await volunteer(ana)).status).toBe(201);
    const signup = await call(textSignupFn, '/api/newsletter', {
      json: validSignup({ firstName: ana.first, phone: ana.dashed, email: ana.email }),
      ip: uniqueIp(),
    });
    expect(signup.status).toBe(201);
    // A second address of hers (same phone and name).
    const other = `reyes.${seq}@example.net`;
    expect((await volunteer(ana, { email: other })).status).toBe(201);
    const before = await personOf(ana.phone);
    expect(before.person.emails).toEqual([ana.email, other]);

    const oneClick = new URL(oneClickUrl(ana.email));
    const res = await call(unsubscribeFn, `${oneClick.pathname}${oneClick.search}`, {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      crossSite: true,
    });
    expect(res.status).toBe(200);
    expect(await email(ana.email)).toMatchObject({ sent: false, refusal: 'suppressed' });
    // The other address has no suppression of its own: the person's state stops it.
    expect(await email(other)).toMatchObject({ sent: false, refusal: 'suppressed' });
    expect((await text(ana.phone, { purpose: 'broadcast', broadcastId: 2 })).sent).toBe(true);
    const after = await view(before.person.id);
    expect(after.person).toMatchObject({ emailState: 'revoked', textState: '' });

    // Staff record a request to stop everything: both channels, and each channel's own ledger says so.
    const stop = await post(`/api/admin/people/${before.person.id}/consent`, { channel: 'all' });
    expect(stop.status).toBe(200);
    expect(await text(ana.phone, { purpose: 'broadcast', broadcastId: 2 })).toEqual({
      sent: false,
      refusal: 'opted_out',
    });
    expect(
      (await kv('signups').get<{ smsStatus: string }>(`person/${hashed(ana.phone)}`))?.value.smsStatus,
    ).toBe('opted_out');
    expect(await kv('subscribers').get(`suppressed/${hashed(other)}`)).not.toBeNull();
    expect((await view(before.person.id)).person).toMatchObject({
      emailState: 'revoked',
      textState: 'revoked',
    });
    // A viewer may not record it.
    expect(
      (await post(`/api/admin/people/${before.person.id}/consent`, { channel: 'all' }, viewer)).status,
    ).toBe(403);
  });

  it('a START from her phone opts her back in, with its wording on the ledger; a typed form never does', async () => {
    const lea = supporter('Lea', 'Baptiste');
    const signup = await call(textSignupFn, '/api/newsletter', {
      json: validSignup({ firstName: lea.first, phone: lea.dashed, email: lea.email }),
      ip: uniqueIp(),
    });
    expect(signup.status).toBe(201);
    tick();
    await inbound(lea.phone, 'STOP');
    // Someone types her number into a form again: still stopped.
    await call(textSignupFn, '/api/newsletter', {
      json: validSignup({ firstName: lea.first, phone: lea.dashed, email: lea.email }),
      ip: uniqueIp(),
    });
    expect((await personOf(lea.phone)).person.textState).toBe('revoked');
    tick();
    await inbound(lea.phone, 'START');
    const v = await personOf(lea.phone);
    expect(v.person.textState).toBe('granted');
    expect(v.timeline.at(-1)!.detail).toMatchObject({ action: 'opt_in', wording: 'Replied START' });
    expect((await text(lea.phone, { purpose: 'broadcast', broadcastId: 3 })).sent).toBe(true);
  });
});

describe('donations', () => {
  it("attach to the donor's person by the refcode, storing nothing more; an unknown donor makes no person", async () => {
    useWebhookCredentials();
    const dee = supporter('Dee', 'Marchand');
    expect((await volunteer(dee)).status).toBe(201);
    const peopleBefore = (await get<{ total: number }>('/api/admin/people')).total;
    expect(
      (
        await deliver(
          order(900_000 + seq, { email: dee.email.toUpperCase(), refcode: 'doorknock', day: '2026-10-20' }),
        )
      ).status,
    ).toBe(201);
    expect((await deliver(order(910_000 + seq, { email: `stranger.${seq}@example.com` }))).status).toBe(201);
    const v = await personOf(dee.email);
    expect(v.timeline.map((e) => e.source)).toEqual(['volunteer', 'donation']);
    expect(v.timeline[1]!.detail).toMatchObject({ refcode: 'doorknock' });
    expect(JSON.stringify(v.timeline[1]!.detail)).not.toContain('@');
    expect(v.person.sources).toContain('donation');
    expect((await get<{ total: number }>('/api/admin/people')).total).toBe(peopleBefore);
  });
});

describe('the merge queue, merge and undo', () => {
  async function twoWithOneEmail() {
    const a = supporter('Rosa', 'Parker');
    const b = { ...supporter('Bea', 'Stone'), email: a.email };
    expect((await volunteer(a)).status).toBe(201);
    expect((await volunteer(b)).status).toBe(201);
    const queue = await get<{ entries: { a: string; b: string; reason: string }[] }>(
      '/api/admin/people/queue',
    );
    const entry = queue.entries.find((e) => e.reason === 'same_email_different_details' && e.a);
    const pa = await personOf(a.phone);
    const pb = await personOf(b.phone);
    return { a, b, pa, pb, queue, entry };
  }

  it('two sign-ups with the same email and different names and phones go to the queue, not merged', async () => {
    const { pa, pb, queue } = await twoWithOneEmail();
    expect(pa.person.id).not.toBe(pb.person.id);
    expect(queue.entries).toContainEqual(expect.objectContaining({ a: pa.person.id, b: pb.person.id }));
    expect(pa.timeline).toHaveLength(1);
    expect(pb.timeline).toHaveLength(1);
    // Viewers see neither the queue nor any contact detail, and cannot search by one.
    expect((await call(adminPeople, '/api/admin/people/queue', { cookie: viewer })).status).toBe(403);
    const seen = await view(pa.person.id, viewer);
    expect(seen.person.emails).toBeNull();
    expect(seen.person.phones).toBeNull();
    expect(seen.timeline.every((e) => e.link === null)).toBe(true);
    expect(
      (await call(adminPeople, `/api/admin/people?q=${pb.person.phones![0]}`, { cookie: viewer })).status,
    ).toBe(403);
  });

  it('a merge shows both timelines on the person kept, and its undo restores both exactly', async () => {
    const { pa, pb } = await twoWithOneEmail();
    const merged = await post(`/api/admin/people/${pa.person.id}/merge`, { mergeId: pb.person.id });
    expect(merged.status).toBe(200);
    const kept = await view(pa.person.id);
    expect(kept.person.merged).toEqual([pb.person.id]);
    expect(kept.timeline).toHaveLength(pa.timeline.length + pb.timeline.length);
    expect((await search(pb.person.phones![0]!)).total).toBe(0); // listed once, as the person kept
    const queue = await get<{ entries: { a: string; b: string }[] }>('/api/admin/people/queue');
    expect(queue.entries.filter((e) => e.a === pa.person.id && e.b === pb.person.id)).toEqual([]);
    // Viewers may not merge; a merged person cannot be merged again.
    expect(
      (await post(`/api/admin/people/${pa.person.id}/merge`, { mergeId: pb.person.id }, viewer)).status,
    ).toBe(403);
    expect((await post(`/api/admin/people/${pa.person.id}/merge`, { mergeId: pb.person.id })).status).toBe(
      409,
    );

    expect((await post(`/api/admin/people/${pb.person.id}/unmerge`)).status).toBe(200);
    const [a2, b2] = [await view(pa.person.id), await view(pb.person.id)];
    expect(a2.timeline).toEqual(pa.timeline);
    expect(b2.timeline).toEqual(pb.timeline);
    expect(a2.person).toEqual(pa.person);
    expect(b2.person).toEqual(pb.person);
  });
});

describe('forget me', () => {
  it('takes her out of the merge queue: no pair names her any more, other pairs stay', async () => {
    const a = supporter('Marisol', 'Vega');
    const b = { ...supporter('Teo', 'Vega'), email: a.email };
    const x = supporter('Xavi', 'Roca');
    const y = { ...supporter('Yara', 'Roca'), email: x.email };
    for (const s of [a, b, x, y]) expect((await volunteer(s)).status).toBe(201);
    const [pa, px, py] = [await personOf(a.phone), await personOf(x.phone), await personOf(y.phone)];
    // The queue's own keys (`queue/<a>--<b>`), read whole: the API pages them in key order, not by this test.
    const queueKeys = async () => {
      const ks: string[] = [];
      for await (const page of kv('people').keys('queue/')) ks.push(...page);
      return ks;
    };
    const naming = (ks: string[], id: string) => ks.filter((k) => k.includes(id));
    expect(naming(await queueKeys(), pa.person.id).length).toBeGreaterThan(0);
    const theirs = naming(await queueKeys(), px.person.id).filter((k) => k.includes(py.person.id));
    expect(theirs).toHaveLength(1);

    expect((await post(`/api/admin/people/${pa.person.id}/forget`, undefined, admin)).status).toBe(200);
    const after = await queueKeys();
    expect(naming(after, pa.person.id)).toEqual([]);
    expect(after).toEqual(expect.arrayContaining(theirs));
    const shown = await get<{ entries: { a: string; b: string }[] }>('/api/admin/people/queue');
    expect(shown.entries.filter((e) => e.a === pa.person.id || e.b === pa.person.id)).toEqual([]);
  });

  it('deletes her everywhere, leaves only keyed hashes, refuses a re-import, and her next sign-up is a new person', async () => {
    const eva = supporter('Evangelina', 'Quintanilla');
    const event = await rsvpEventFixture(null);
    expect((await volunteer(eva, { zip: '70119' })).status).toBe(201);
    await rsvpTo(
      event.id,
      rsvpPerson({ name: eva.name, email: eva.email, phone: eva.dashed, smsReminder: true }),
    );
    expect((await plan(eva)).status).toBe(201);
    await call(textSignupFn, '/api/newsletter', {
      json: validSignup({ firstName: eva.first, phone: eva.dashed, email: eva.email }),
      ip: uniqueIp(),
    });
    await call(newsletterFn, '/api/email-subscribers', {
      json: { email: eva.email, captcha: TURNSTILE_TEST_TOKEN },
      ip: uniqueIp(),
    });
    await call(contactFn, '/api/contact', {
      json: validContact({ name: eva.name, email: eva.email, phone: eva.dashed, message: 'Please call me' }),
      ip: uniqueIp(),
    });
    await inbound(eva.phone, 'STOP');
    const before = await personOf(eva.email);
    expect(before.timeline.map((e) => e.source).sort()).toEqual(
      ['consent', 'contact', 'newsletter', 'rsvp', 'text_signup', 'volunteer', 'vote_plan'].sort(),
    );
    const needles = [eva.email, eva.phone, eva.dashed, eva.last, hashed(eva.email), hashed(eva.phone)];
    expect((await traces(needles)).length).toBeGreaterThan(10);

    // Editors may not; an admin may.
    expect((await post(`/api/admin/people/${before.person.id}/forget`)).status).toBe(403);
    const res = await post(`/api/admin/people/${before.person.id}/forget`, undefined, admin);
    expect(res.status).toBe(200);
    const { report } = (await res.json()) as {
      report: { removed: Record<string, number>; tombstones: number };
    };
    expect(report.tombstones).toBe(2);
    // The newsletter record and its pending confirmation.
    expect(report.removed).toMatchObject({ volunteers: 1, contacts: 1, subscribers: 2 });
    expect(report.removed.outbox).toBeGreaterThan(0);

    expect(await traces(needles)).toEqual([]);
    expect(
      (await call(adminPeople, `/api/admin/people/${before.person.id}`, { cookie: editor })).status,
    ).toBe(404);
    expect((await search(eva.email)).total).toBe(0);

    // An old CSV brought back: refused. Her own next sign-up: a new person.
    const at = new Date();
    expect(
      await link({
        source: 'volunteer',
        store: 'volunteers',
        key: 'x',
        email: eva.email,
        at,
        origin: 'import',
      }),
    ).toEqual({ outcome: 'refused', reason: 'forgotten' });
    expect((await volunteer(eva)).status).toBe(201);
    const again = await personOf(eva.email);
    expect(again.person.id).not.toBe(before.person.id);
    expect(again.timeline.map((e) => e.source)).toEqual(['volunteer']);
    expect(again.person.textState).toBe('');
  });
});
