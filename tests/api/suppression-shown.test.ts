import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as broadcastsFn from '../../netlify/functions/admin-broadcasts.mts';
import * as inbox from '../../netlify/functions/admin-inbox.mts';
import * as emailEvents from '../../netlify/functions/email-events.mts';
import * as confirmFn from '../../netlify/functions/email-subscribers-confirm.mts';
import * as subscribersFn from '../../netlify/functions/email-subscribers.mts';
import * as inbound from '../../netlify/functions/sms-inbound.mts';
import * as textSignup from '../../netlify/functions/text-signup.mts';
import * as unsubscribeFn from '../../netlify/functions/unsubscribe.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
import type { BroadcastView } from '../../src/lib/schemas/broadcast-views.ts';
import type { InboxKindName } from '../../src/lib/inbox-kinds.ts';
import { runBroadcasts } from '../../src/lib/server/broadcasts/engine.ts';
import { getBroadcast } from '../../src/lib/server/broadcasts/repo.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { INBOX_SPECS, reindexInbox } from '../../src/lib/server/inbox/summaries.ts';
import { getPerson } from '../../src/lib/server/texting/text-list.ts';
import { oneClickUrl, suppressionOf } from '../../src/lib/server/messaging/email-guard.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { FakeClock } from '../helpers/broadcasts.ts';
import {
  localProviders,
  messageSid,
  setEnv,
  signedInbound,
  TWILIO_TOKEN,
  uniqueIp,
  validSignup,
  validVolunteer,
} from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { outboxEmails, signedIn } from '../helpers/users.ts';

/**
 * One suppression state, shown everywhere (docs/decisions/155-inbox-and-staff-lists.md). The
 * outside attack's finding of 2026-11-29, replayed: after a one-click unsubscribe (or a bounce or a spam
 * report) the Inbox and the newsletter CSV still said "subscribed", and an email broadcast to two subscribers who
 * had both left counted "Recipients 2". Now the rows, the Status filter and every CSV say who left and when, from
 * the ledger the senders read, and a broadcast's count leaves them out.
 */

const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const SENDGRID_KEY = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

let stop: () => Promise<void>;
let editor = '';
let admin = '';
beforeAll(async () => {
  ({ stop } = await startBlobs());
  localProviders();
  setEnv({ SENDGRID_WEBHOOK_PUBLIC_KEY: SENDGRID_KEY, TWILIO_AUTH_TOKEN: TWILIO_TOKEN });
  editor = (await signedIn('editor')).cookie;
  admin = (await signedIn('admin')).cookie;
});
afterAll(async () => {
  localProviders();
  await stop();
});

let seq = 0;
const address = (tag: string) => `${tag}-${Date.now().toString(36)}-${++seq}@example.org`;

/** The newsletter box and the Confirm press, as a person does them. */
async function subscribed(email: string, sourcePage = '/blog'): Promise<void> {
  const res = await call(subscribersFn, '/api/email-subscribers', {
    json: { email, sourcePage, captcha: TURNSTILE_TEST_TOKEN },
    ip: uniqueIp(),
  });
  expect(res.status).toBe(202);
  const text = (await outboxEmails()).filter((m) => m.to === email).at(-1)?.text ?? '';
  const token = /confirm\?token=([\w-]{43})/.exec(text)?.[1];
  expect(token, text).toBeDefined();
  const confirmed = await call(confirmFn, '/api/email-subscribers/confirm', {
    json: { token },
    ip: uniqueIp(),
  });
  expect(confirmed.status).toBe(200);
}

/** The mail client's one-click button (RFC 8058): a POST to the List-Unsubscribe URL. */
async function oneClick(email: string): Promise<void> {
  const url = new URL(oneClickUrl(email));
  const res = await call(unsubscribeFn, `${url.pathname}${url.search}`, {
    method: 'POST',
    body: 'List-Unsubscribe=One-Click',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    crossSite: true,
  });
  expect(res.status).toBe(200);
}

/** SendGrid's Event Webhook, signed as SendGrid signs it. */
async function sendgrid(events: Record<string, string>[]): Promise<void> {
  const body = JSON.stringify(events);
  const ts = String(Math.floor(Date.now() / 1000));
  const signature = sign('sha256', Buffer.from(ts + body), privateKey).toString('base64');
  const res = await call(emailEvents, '/api/email/events', {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-twilio-email-event-webhook-signature': signature,
      'x-twilio-email-event-webhook-timestamp': ts,
    },
  });
  expect(res.status).toBe(200);
}

async function texted(phone: string, Body: string): Promise<void> {
  const s = signedInbound({ MessageSid: messageSid(), From: phone, Body });
  const res = await call(inbound, '/api/sms/inbound', {
    method: 'POST',
    body: s.body,
    headers: s.headers,
    crossSite: true,
  });
  expect(res.status).toBe(200);
}

type Item = Record<string, unknown>;

/** An Inbox list as the dashboard asks for it (`query` without the `?`). */
async function rows(kind: InboxKindName, query = ''): Promise<Item[]> {
  const res = await call(inbox, `/api/admin/${kind}?pageSize=200&${query}`, { cookie: editor });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { items: Item[] }).items;
}
const rowOf = async (kind: InboxKindName, needle: string) => {
  const found = (await rows(kind, `q=${encodeURIComponent(needle)}`)).filter(
    (r) => r.email === needle || r.phone === needle,
  );
  expect(found.length, needle).toBeGreaterThan(0);
  return found;
};

/** A list's CSV, as header names and rows of cells (no cell here holds a comma or a quote but the consent text). */
async function csv(kind: InboxKindName, query = ''): Promise<Record<string, string>[]> {
  const res = await call(inbox, `/api/admin/${kind}?format=csv&${query}`, { cookie: editor });
  expect(res.status).toBe(200);
  const [head, ...lines] = (await res.text())
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  const names = head!.split(',');
  // The consent text is the one quoted cell; blank it so the split stays aligned.
  return lines.map((line) => {
    const cells = line.replace(/"(?:[^"]|"")*"/g, 'QUOTED').split(',');
    return Object.fromEntries(names.map((n, i) => [n, cells[i] ?? '']));
  });
}
const csvRowOf = async (kind: InboxKindName, column: string, value: string, query = '') => {
  const found = (await csv(kind, query)).filter((r) => r[column] === value);
  expect(found, `${kind} CSV row of ${value}`).toHaveLength(1);
  return found[0]!;
};

describe('the finding, replayed: who left shows as having left', () => {
  const left = address('left');
  const stays = address('stays');
  const bounced = address('bounced');
  const spam = address('spam');
  const phone = '+15045550161';
  const ours = new Set([left, stays, bounced, spam]);
  /** The state each test reads, made once (no test depends on another having run). */
  beforeAll(async () => {
    for (const email of [left, stays, bounced, spam]) await subscribed(email);
    const volunteer = await call(volunteersFn, '/api/volunteers-sendgrid', {
      json: validVolunteer({ email: bounced }),
      ip: uniqueIp(),
    });
    expect(volunteer.status).toBe(201);
    const signup = await call(textSignup, '/api/newsletter', {
      json: validSignup({ phone, firstName: 'Tess' }),
      ip: uniqueIp(),
    });
    expect(signup.status).toBe(201);
    // Each list's index is built now, before anyone leaves: what follows shows by the writes, not by a rebuild.
    expect((await rowOf('email-subscribers', left))[0]).toMatchObject({ reachStatus: 'subscribed' });
    expect((await rowOf('volunteers', bounced))[0]).toMatchObject({ reachStatus: 'subscribed' });
    expect((await rowOf('text-signups', phone))[0]).toMatchObject({ reachStatus: 'subscribed' });
    await oneClick(left);
    await sendgrid([
      { email: bounced, event: 'bounce', sg_event_id: `b-${seq}` },
      { email: spam, event: 'spamreport', sg_event_id: `s-${seq}` },
    ]);
    // A second sign-up from the address after it bounced.
    const again = await call(volunteersFn, '/api/volunteers-sendgrid', {
      json: validVolunteer({ email: bounced, city: 'Gretna' }),
      ip: uniqueIp(),
    });
    expect(again.status).toBe(201);
    await texted(phone, 'STOP');
  }, 60_000);

  it('before and after a one-click unsubscribe: the row says subscribed, then unsubscribed with the date', async () => {
    const email = address('oneclick');
    await subscribed(email);
    expect((await rowOf('email-subscribers', email))[0]).toMatchObject({ reachStatus: 'subscribed' });
    expect((await csvRowOf('email-subscribers', 'email', email)).status).toBe('subscribed');
    await oneClick(email);
    const at = (await suppressionOf(email))?.at;
    expect(at).toMatch(/Z$/);
    expect((await rowOf('email-subscribers', email))[0]).toMatchObject({
      reachStatus: 'unsubscribed',
      reachStatusAt: at,
    });
    expect(await csvRowOf('email-subscribers', 'email', email)).toMatchObject({
      status: 'unsubscribed',
      status_at: at,
    });
  });

  it('an address suppressed before it confirms (its confirmation marked as spam) is listed as such once it confirms', async () => {
    const email = address('early');
    const res = await call(subscribersFn, '/api/email-subscribers', {
      json: { email, sourcePage: '/blog', captcha: TURNSTILE_TEST_TOKEN },
      ip: uniqueIp(),
    });
    expect(res.status).toBe(202);
    const text = (await outboxEmails()).filter((m) => m.to === email).at(-1)?.text ?? '';
    await sendgrid([{ email, event: 'spamreport', sg_event_id: `early-${seq}` }]);
    const confirmed = await call(confirmFn, '/api/email-subscribers/confirm', {
      json: { token: /confirm\?token=([\w-]{43})/.exec(text)?.[1] },
      ip: uniqueIp(),
    });
    expect(confirmed.status).toBe(200);
    expect((await rowOf('email-subscribers', email))[0]).toMatchObject({
      reachStatus: 'spam_reported',
      reachStatusAt: (await suppressionOf(email))?.at,
    });
  });

  it('an unsubscribed newsletter address: its row and the CSV say so, with the date; the others are untouched', async () => {
    const at = (await suppressionOf(left))?.at;
    expect(at).toMatch(/Z$/);
    expect((await rowOf('email-subscribers', left))[0]).toMatchObject({
      email: left,
      reachStatus: 'unsubscribed',
      reachStatusAt: at,
    });
    expect((await rowOf('email-subscribers', stays))[0]).toMatchObject({ reachStatus: 'subscribed' });
    expect(await csvRowOf('email-subscribers', 'email', left)).toMatchObject({
      status: 'unsubscribed',
      status_at: at,
    });
    expect((await csvRowOf('email-subscribers', 'email', stays)).status).toBe('subscribed');
  });

  it('a bounce and a spam report from SendGrid: the same, on the newsletter and on a volunteer of that address', async () => {
    const bouncedAt = (await suppressionOf(bounced))?.at;
    const spamAt = (await suppressionOf(spam))?.at;
    expect(bouncedAt).toMatch(/Z$/);
    expect((await rowOf('email-subscribers', bounced))[0]).toMatchObject({
      reachStatus: 'bounced',
      reachStatusAt: bouncedAt,
    });
    expect((await rowOf('email-subscribers', spam))[0]).toMatchObject({
      reachStatus: 'spam_reported',
      reachStatusAt: spamAt,
    });
    expect(await csvRowOf('email-subscribers', 'email', spam)).toMatchObject({
      status: 'spam_reported',
      status_at: spamAt,
    });
    // Both sign-ups of the address: the one before the bounce, and the one after it.
    const both = await rowOf('volunteers', bounced);
    expect(both).toHaveLength(2);
    expect(both.map((r) => [r.reachStatus, r.reachStatusAt])).toEqual([
      ['bounced', bouncedAt],
      ['bounced', bouncedAt],
    ]);
    const files = (await csv('volunteers')).filter((r) => r.email === bounced);
    expect(files.map((r) => [r.status, r.status_at])).toEqual([
      ['bounced', bouncedAt],
      ['bounced', bouncedAt],
    ]);
  });

  it('a STOP by text: the text sign-up row and its CSV say stopped, with the date', async () => {
    const optedOutAt = (await getPerson(hashed(phone)))?.optedOutAt;
    expect(optedOutAt).toMatch(/Z$/);
    expect((await rowOf('text-signups', phone))[0]).toMatchObject({
      reachStatus: 'stopped',
      reachStatusAt: optedOutAt,
    });
    expect(await csvRowOf('text-signups', 'phone', phone)).toMatchObject({
      status: 'stopped',
      status_at: optedOutAt,
    });
  });

  it('the Status filter returns only those, in the list and in its CSV; an unknown status is a 400', async () => {
    /** The filter's rows: each of that status, and of this test's people, exactly the ones expected. */
    const emails = async (kind: InboxKindName, status: string) => {
      const found = await rows(kind, `status=${status}`);
      expect(found.every((r) => r.reachStatus === status)).toBe(true);
      return found.map((r) => r.email as string).filter((e) => ours.has(e));
    };
    expect(await emails('email-subscribers', 'unsubscribed')).toEqual([left]);
    expect(await emails('email-subscribers', 'bounced')).toEqual([bounced]);
    expect(await emails('email-subscribers', 'spam_reported')).toEqual([spam]);
    expect(await emails('email-subscribers', 'subscribed')).toEqual([stays]);
    expect(await emails('volunteers', 'bounced')).toEqual([bounced, bounced]);
    expect(await emails('volunteers', 'subscribed')).toEqual([]);
    const stopped = await rows('text-signups', 'status=stopped');
    expect(stopped.map((r) => r.phone)).toContain(phone);
    expect(stopped.every((r) => r.reachStatus === 'stopped')).toBe(true);
    expect((await rows('text-signups', 'status=subscribed')).map((r) => r.phone)).not.toContain(phone);
    // With a search, and in the CSV the list exports.
    expect(await rows('email-subscribers', `status=unsubscribed&q=${encodeURIComponent(stays)}`)).toEqual([]);
    const file = await csv('email-subscribers', 'status=unsubscribed');
    expect(file.every((r) => r.status === 'unsubscribed')).toBe(true);
    expect(file.map((r) => r.email).filter((e) => ours.has(e!))).toEqual([left]);
    const refused = await call(inbox, '/api/admin/email-subscribers?status=gone', { cookie: editor });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toMatch(/status must be one of/);
  });

  it('npm run reindex derives the status from the ledger, with every summary written before it gone', async () => {
    for (const kind of ['email-subscribers', 'volunteers', 'text-signups'] as const) {
      const store = kv(INBOX_SPECS[kind].store);
      for await (const page of store.keys('summary/')) for (const k of page) await store.delete(k);
      await reindexInbox(kind);
    }
    expect((await rowOf('email-subscribers', left))[0]).toMatchObject({ reachStatus: 'unsubscribed' });
    expect((await rowOf('email-subscribers', spam))[0]).toMatchObject({ reachStatus: 'spam_reported' });
    expect((await rowOf('email-subscribers', stays))[0]).toMatchObject({ reachStatus: 'subscribed' });
    expect((await rowOf('volunteers', bounced)).map((r) => r.reachStatus)).toEqual(['bounced', 'bounced']);
    expect((await rowOf('text-signups', phone))[0]).toMatchObject({ reachStatus: 'stopped' });
  });
});

describe('an email broadcast counts who will be tried', () => {
  const json = async <T>(res: Response) => (await res.json()) as T;
  const post = (path: string, cookie: string, json?: unknown) =>
    call(broadcastsFn, path, { method: 'POST', cookie, ...(json === undefined ? {} : { json }) });
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
  const view = async (id: number) =>
    json<BroadcastView>(await call(broadcastsFn, `/api/admin/broadcasts/${id}`, { cookie: editor }));
  async function drafted(source: string): Promise<number> {
    const res = await call(broadcastsFn, '/api/admin/broadcasts', {
      cookie: editor,
      json: {
        name: `Newsletter ${source}`,
        channel: 'email',
        audience: { kind: 'newsletter_subscribers', source },
        email: {
          subject: 'Polls open at 7',
          subjectEs: 'Las urnas abren a las 7',
          preview: 'Find your polling place',
          previewEs: 'Encuentre su lugar de votación',
          html: '<p>Vote.</p>',
          htmlEs: '<p>Vote.</p>',
          firstNameFallback: 'neighbor',
        },
      },
    });
    expect(res.status).toBe(201);
    return (await json<{ broadcast: { id: number } }>(res)).broadcast.id;
  }

  it('both newsletter subscribers unsubscribed: Recipients 0, not 2', async () => {
    const source = `/left-${seq}`;
    const pair = [address('pair'), address('pair')];
    for (const email of pair) await subscribed(email, source);
    for (const email of pair) await oneClick(email);
    const id = await drafted(source);
    expect((await post(`/api/admin/broadcasts/${id}/prepare`, editor)).status).toBe(200);
    await runUntil(id, (s) => s === 'ready');
    expect((await view(id)).estimate.recipients).toBe(0);
  });

  it('one of three left: Recipients 2; one who leaves after the count is still skipped when it sends', async () => {
    const source = `/three-${seq}`;
    const [gone, late, kept] = [address('gone'), address('late'), address('kept')];
    for (const email of [gone, late, kept]) await subscribed(email, source);
    await sendgrid([{ email: gone, event: 'unsubscribe', sg_event_id: `u-${seq}` }]);
    const id = await drafted(source);
    await post(`/api/admin/broadcasts/${id}/prepare`, editor);
    await runUntil(id, (s) => s === 'ready');
    expect((await view(id)).estimate.recipients).toBe(2);
    await oneClick(late);
    const before = (await outboxEmails()).length;
    const { version } = await view(id);
    expect((await post(`/api/admin/broadcasts/${id}/send`, admin, { version })).status).toBe(200);
    await runUntil(id, (s) => s === 'completed');
    const v = await view(id);
    expect(v.progress.counts).toMatchObject({ sent: 1, skipped_opted_out: 1 });
    expect((await outboxEmails()).slice(before).map((m) => m.to)).toEqual([kept]);
  });
});
