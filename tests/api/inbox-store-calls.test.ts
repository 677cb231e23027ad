import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as inbox from '../../netlify/functions/admin-inbox.mts';
import * as contact from '../../netlify/functions/contact.mts';
import * as confirmSubscriber from '../../netlify/functions/email-subscribers-confirm.mts';
import * as subscribers from '../../netlify/functions/email-subscribers.mts';
import * as inbound from '../../netlify/functions/sms-inbound.mts';
import * as textSignup from '../../netlify/functions/text-signup.mts';
import * as unsubscribe from '../../netlify/functions/unsubscribe.mts';
import * as volunteers from '../../netlify/functions/volunteers-sendgrid.mts';
import { seedScale } from '../../scripts/lib/scale-seed.mts';
import { INBOX_ROUTES, type InboxKindName } from '../../src/lib/inbox-kinds.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { compactInbox, INBOX_SPECS, reindexInbox } from '../../src/lib/server/inbox/summaries.ts';
import { oneClickUrl } from '../../src/lib/server/messaging/email-guard.ts';
import { forgetDecodedBlobs } from '../../src/lib/server/storage/summary-index/blob-cache.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { callsOf, useCountingStores, type CountingStores } from '../helpers/counting-store.ts';
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
import { outboxEmails, signedIn } from '../helpers/users.ts';

/*
 * What the Inbox costs in store calls with 100,000 records of each kind
 * (docs/decisions/155-inbox-and-staff-lists.md), on the atomic in-memory store behind a counting
 * wrapper: every get, write, delete, key listing and listed page counts, the session and
 * the user included. The store is filled by the scale seed's bulk path (records as the
 * public forms store them, each list's index written once). The bounds are the design's:
 * they do not grow with the number of records. SHOW_CALLS=1 prints each measurement.
 */

const N = 100_000;

/**
 * Store calls per request at any number of records, the session's user included (measured 2026-11-27 at
 * 100,000 in brackets). A page pays one more call per outstanding summary segment (writes not yet folded in by
 * the compaction, which runs every minute; a reader never folds them: tests/api/inbox-reads.test.ts).
 */
const BOUNDS = {
  /**
   * A page of 50, no search: the user, the manifest, the segment listing, the chunk the page comes from, the
   * per-email counts of volunteers and contacts (5; 6 with the counts).
   */
  page: 8,
  /**
   * A search or a filter: the same with the bundle instead of the page's chunk, one blob holding all 20 chunks
   * (24-25 while every chunk was its own read; 5-6 since the bundle, docs/decisions/155-inbox-and-staff-lists.md).
   */
  search: 8,
  /** Each write, everything included: limits, captcha, record, consent log, outbox, delivery status, segment. */
  volunteerSignup: 19, // (10 since 136: the address's suppression is read for its summary; 18 with the person, 149; 19 counted for the Overview, 180)
  contactMessage: 13, // (7; 13 with the person, docs/decisions/149-people.md)
  /** With its confirmation text: the text guard's checks and caps, the consent log, the person twice. */
  textSignup: 31, // (18; 29 with the person and the text guard's consent read, 149; the Overview's counts fit within it, 180)
  newsletterBox: 13, // (6; 12 with the person, 149; 13 counted for the Overview, 180)
  newsletterConfirm: 6, // (5 since 136: the address's suppression)
  stop: 13, // (6; with the person's consent state, 149)
  start: 13, // (6; with the person's consent state, 149)
  /**
   * A one-click unsubscribe: the ledger (read, create), the newsletter record and its new summary, one listing of
   * the address's volunteer sign-ups (docs/decisions/155-inbox-and-staff-lists.md).
   */
  unsubscribe: 8, // (5)
} as const;

let counting: CountingStores;
let editor: string;

beforeAll(async () => {
  process.env.APP_ENV ??= 'test';
  localProviders();
  setEnv({ TWILIO_AUTH_TOKEN: TWILIO_TOKEN });
  counting = useCountingStores();
  await seedScale(N, { parts: ['inbox'], concurrency: 256, log: () => {} });
  editor = (await signedIn('editor')).cookie;
}, 600_000);
afterAll(() => setStoreFactory(null));

const cost = (work: () => Promise<unknown>) => callsOf(counting, work);

interface Page {
  items: Record<string, unknown>[];
  total: number;
  page: number;
}

/** One Inbox request, measured as a fresh function instance makes it (nothing decoded kept from before). */
async function list(kind: InboxKindName, query = ''): Promise<{ calls: number; page: Page }> {
  forgetDecodedBlobs();
  let res!: Response;
  const calls = await cost(
    async () => (res = await call(inbox, `${INBOX_ROUTES[kind]}${query}`, { cookie: editor })),
  );
  expect(res.status, await res.clone().text()).toBe(200);
  return { calls, page: (await res.json()) as Page };
}

const KINDS = Object.keys(INBOX_ROUTES) as InboxKindName[];

describe(`the Inbox with ${N.toLocaleString('en-US')} records of each kind (counting store)`, () => {
  it.each(KINDS)(
    `%s: page 1, page 1,000 and the last page each at most ${BOUNDS.page} calls`,
    async (kind) => {
      const first = await list(kind);
      expect(first.page.total).toBe(N);
      expect(first.page.items).toHaveLength(50);
      expect(first.calls).toBeLessThanOrEqual(BOUNDS.page);
      const dates = first.page.items.map((i) => i.createdAt as string);
      expect([...dates].sort().reverse()).toEqual(dates);
      const middle = await list(kind, '?page=1000');
      expect(middle.calls).toBeLessThanOrEqual(BOUNDS.page);
      expect(middle.page.items).toHaveLength(50);
      expect((middle.page.items[0]!.createdAt as string) < dates[49]!).toBe(true);
      const last = await list(kind, '?page=2000');
      expect(last.calls).toBeLessThanOrEqual(BOUNDS.page);
      expect(last.page.items).toHaveLength(50);
    },
  );

  it(`a search or a filter: at most ${BOUNDS.search} calls, and the right rows`, async () => {
    // The 77,777th volunteer's email is unique: the search finds exactly that one.
    const { page: one } = await list('volunteers', '?page=1600&pageSize=50');
    const email = one.items[7]!.email as string;
    const found = await list('volunteers', `?q=${encodeURIComponent(email.toUpperCase())}`);
    expect(found.calls).toBeLessThanOrEqual(BOUNDS.search);
    expect(found.page.items.map((i) => i.email)).toEqual([email]);
    expect(found.page.items[0]!.submissionsFromEmail).toBe(1);
    // A city: every 7th volunteer.
    const city = await list('volunteers', '?q=metairie');
    expect(city.calls).toBeLessThanOrEqual(BOUNDS.search);
    expect(city.page.total).toBe(Math.ceil((N - 1) / 7));
    expect(city.page.items.every((i) => i.city === 'Metairie')).toBe(true);
    // Spanish sign-ups: every third person of the seed.
    const es = await list('text-signups', '?lang=es&page=3');
    expect(es.calls).toBeLessThanOrEqual(BOUNDS.search);
    expect(es.page.total).toBe(Math.ceil((N - 1) / 3));
    expect(es.page.items.every((i) => i.lang === 'es')).toBe(true);
    const subs = await list('email-subscribers', '?q=nguyen');
    expect(subs.calls).toBeLessThanOrEqual(BOUNDS.search);
    expect(subs.page.total).toBeGreaterThan(0);
    // The Status filter reads the chunks' columns like the other filters (nobody seeded has left).
    const stillThere = await list('email-subscribers', '?status=subscribed&page=7');
    expect(stillThere.calls).toBeLessThanOrEqual(BOUNDS.search);
    expect(stillThere.page.total).toBe(N);
    const stopped = await list('text-signups', '?status=stopped');
    expect(stopped.calls).toBeLessThanOrEqual(BOUNDS.search);
    expect(stopped.page.total).toBe(0);
  });
});

describe(`each write at ${N.toLocaleString('en-US')} records costs a fixed number of calls, and shows at once`, () => {
  it(`a volunteer sign-up: at most ${BOUNDS.volunteerSignup} calls; the next page 1 shows it, counted`, async () => {
    let res!: Response;
    const body = validVolunteer({ email: 'new.volunteer@example.org', city: 'Kenner' });
    expect(
      await cost(
        async () =>
          (res = await call(volunteers, '/api/volunteers-sendgrid', { json: body, ip: uniqueIp() })),
      ),
    ).toBeLessThanOrEqual(BOUNDS.volunteerSignup);
    expect(res.status).toBe(201);
    // The same person again with other details: a second submission from the email.
    await call(volunteers, '/api/volunteers-sendgrid', { json: { ...body, city: 'Gretna' }, ip: uniqueIp() });
    const { page, calls } = await list('volunteers');
    expect(calls).toBeLessThanOrEqual(BOUNDS.page + 2);
    expect(page.total).toBe(N + 2);
    expect(page.items.slice(0, 2)).toMatchObject([
      { email: 'new.volunteer@example.org', city: 'Gretna', submissionsFromEmail: 2 },
      { email: 'new.volunteer@example.org', city: 'Kenner', submissionsFromEmail: 2 },
    ]);
  });

  it(`a contact message: at most ${BOUNDS.contactMessage} calls`, async () => {
    let res!: Response;
    expect(
      await cost(
        async () =>
          (res = await call(contact, '/api/contact', {
            json: validContact({ message: 'Scale test message' }),
            ip: uniqueIp(),
          })),
      ),
    ).toBeLessThanOrEqual(BOUNDS.contactMessage);
    expect(res.status).toBe(201);
    expect((await list('contacts', '?q=scale%20test%20message')).page.items).toHaveLength(1);
  });

  it(`a text sign-up: at most ${BOUNDS.textSignup} calls (its confirmation text included); STOP ${BOUNDS.stop}; START ${BOUNDS.start}`, async () => {
    const phone = '+15045550142';
    let res!: Response;
    expect(
      await cost(
        async () =>
          (res = await call(textSignup, '/api/newsletter', {
            json: validSignup({ phone, firstName: 'Scaled' }),
            ip: uniqueIp(),
          })),
      ),
    ).toBeLessThanOrEqual(BOUNDS.textSignup);
    expect(res.status).toBe(201);
    expect((await list('text-signups')).page.items[0]).toMatchObject({ phone, smsStatus: 'subscribed' });
    const send = (Body: string) => {
      const s = signedInbound({ MessageSid: messageSid(), From: phone, Body });
      return call(inbound, '/api/sms/inbound', {
        method: 'POST',
        body: s.body,
        headers: s.headers,
        crossSite: true,
      });
    };
    expect(await cost(async () => (res = await send('STOP')))).toBeLessThanOrEqual(BOUNDS.stop);
    expect(res.status).toBe(200);
    expect((await list('text-signups')).page.items[0]).toMatchObject({ phone, smsStatus: 'opted_out' });
    expect(await cost(async () => (res = await send('START')))).toBeLessThanOrEqual(BOUNDS.start);
    expect((await list('text-signups')).page.items[0]).toMatchObject({ phone, smsStatus: 'subscribed' });
  });

  it(`the newsletter box: at most ${BOUNDS.newsletterBox} calls; the confirmation ${BOUNDS.newsletterConfirm}; listed once confirmed`, async () => {
    const email = 'scale.subscriber@example.org';
    let res!: Response;
    expect(
      await cost(
        async () =>
          (res = await call(subscribers, '/api/email-subscribers', {
            json: { email, sourcePage: '/blog', captcha: TURNSTILE_TEST_TOKEN },
            ip: uniqueIp(),
          })),
      ),
    ).toBeLessThanOrEqual(BOUNDS.newsletterBox);
    expect(res.status).toBe(202);
    expect((await list('email-subscribers')).page.total).toBe(N);
    const token = /confirm\?token=([\w-]{43})/.exec(
      (await outboxEmails()).find((m) => m.to === email)?.text ?? '',
    )?.[1];
    expect(
      await cost(
        async () =>
          (res = await call(confirmSubscriber, '/api/email-subscribers/confirm', { json: { token } })),
      ),
    ).toBeLessThanOrEqual(BOUNDS.newsletterConfirm);
    expect(res.status).toBe(200);
    const { page } = await list('email-subscribers');
    expect(page.total).toBe(N + 1);
    expect(page.items[0]).toMatchObject({ email, status: 'subscribed' });
  });

  it(`a one-click unsubscribe: at most ${BOUNDS.unsubscribe} calls; the next page shows it`, async () => {
    const { page: before } = await list('email-subscribers', '?page=3');
    const email = before.items[4]!.email as string;
    const url = new URL(oneClickUrl(email));
    let res!: Response;
    expect(
      await cost(
        async () =>
          (res = await call(unsubscribe, `${url.pathname}${url.search}`, {
            method: 'POST',
            body: 'List-Unsubscribe=One-Click',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            crossSite: true,
          })),
      ),
    ).toBeLessThanOrEqual(BOUNDS.unsubscribe);
    expect(res.status).toBe(200);
    const after = await list('email-subscribers', '?page=3');
    expect(after.calls).toBeLessThanOrEqual(BOUNDS.page + 2);
    expect(after.page.items[4]).toMatchObject({ email, reachStatus: 'unsubscribed' });
    const filtered = await list('email-subscribers', '?status=unsubscribed');
    expect(filtered.page.items.map((i) => i.email)).toEqual([email]);
  });

  it('the compaction folds those writes in: the pages are back to the bound and unchanged', async () => {
    const before = await Promise.all(KINDS.map(async (k) => (await list(k)).page));
    const run = await compactInbox(Date.now() + 60_000);
    expect(Object.values(run).reduce((n, r) => n + r.folded, 0)).toBeGreaterThan(0);
    for (const [i, kind] of KINDS.entries()) {
      const { page, calls } = await list(kind);
      expect(calls).toBeLessThanOrEqual(BOUNDS.page);
      expect(page).toEqual(before[i]);
    }
  });
});

describe(`an index lost or damaged at ${N.toLocaleString('en-US')} records is repaired once, by the repair path`, () => {
  for (const [what, damage, repair] of [
    [
      'deleted',
      (kind: InboxKindName) => kv(INBOX_SPECS[kind].store).delete('summary/manifest'),
      // The scheduled compaction (every minute) rebuilds a missing index.
      async () =>
        expect((await compactInbox(Date.now() + 300_000)).volunteers.rebuilding?.finished).toBe(true),
    ],
    [
      'with a corrupt chunk',
      async (kind: InboxKindName) => {
        const store = kv(INBOX_SPECS[kind].store);
        const m = await store.get<{ chunks: { key: string }[] }>('summary/manifest');
        const k = m!.value.chunks[0]!.key;
        await store.delete(k);
        await store.putBytes(k, new TextEncoder().encode('not gzip').buffer, {});
      },
      // npm run reindex
      async () => expect(await reindexInbox('volunteers')).toBeGreaterThan(N),
    ],
  ] as const)
    it(`volunteers index ${what}: a request reads the records and writes nothing; the repair path rebuilds it once; then the bound`, async () => {
      const before = (await list('volunteers', '?page=7')).page;
      await damage('volunteers');
      const error = console.error;
      console.error = () => {};
      let read!: Page;
      try {
        const calls = await cost(async () => (read = (await list('volunteers', '?page=7')).page));
        // One read per record, none written (tests/api/inbox-reads.test.ts counts the writes).
        expect(calls).toBeGreaterThan(N);
        await repair();
      } finally {
        console.error = error;
      }
      expect(read).toEqual(before);
      const after = await list('volunteers', '?page=7');
      expect(after.calls).toBeLessThanOrEqual(BOUNDS.page);
      expect(after.page).toEqual(before);
      expect((await list('volunteers', '?q=metairie')).calls).toBeLessThanOrEqual(BOUNDS.search);
      // A read of every record, then a rebuild: a timeout only catches a hang (10 min: a busy 2-core machine).
    }, 600_000);
});
