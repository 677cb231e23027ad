import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as adminDonations from '../../netlify/functions/admin-donations.mts';
import * as adminRsvps from '../../netlify/functions/admin-event-rsvps.mts';
import * as adminRevisions from '../../netlify/functions/admin-revisions.mts';
import * as adminTrash from '../../netlify/functions/admin-trash.mts';
import * as adminUsers from '../../netlify/functions/admin-users.mts';
import type { RosterEntry, RsvpStaffView, StoredRsvp } from '../../src/lib/schemas/rsvp.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import { cancelToken } from '../../src/lib/server/events/cancel-link.ts';
import { checkInsKey, rosterKey, rsvpKey } from '../../src/lib/server/events/rsvp.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { useCountingStores, type CountingStores } from '../helpers/counting-store.ts';
import { deliver, order, useWebhookCredentials } from '../helpers/donations.ts';
import { localProviders } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { cancel, person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * Staff lists and the writes of a rush, with thousands of records in the store (atomic in-memory store
 * behind a counting wrapper; docs/decisions/155-inbox-and-staff-lists.md and
 * docs/decisions/153-storage.md): each costs a fixed number of store calls, whatever
 * the store holds. Every call counts: the session's user and the two-factor policy, rate limits, the
 * captcha's single use, the consent log, the outbox.
 */

const BOUNDS = {
  /** The user and policy (2), the event (1), the roster (1), the check-ins (1): any page, any size, any search (measured 5). */
  attendeePage: 5,
  /** The same reads, then the export's audit entry (an append: 6; measured 11). */
  attendeeCsv: 12,
  /**
   * A new RSVP, uncontended: the event, the person's record (read, create, status and delivery updates),
   * the per-IP limit and the captcha, the op (create, reads until answered, delete), the lease (read,
   * create, delete), the fold (op listing and read, roster read and write, the op's answer) and the
   * confirmation email into the outbox (measured 22), and the person (docs/decisions/149-people.md: 6 for a new
   * person with an email only, 8 with a phone too; measured 28).
   */
  rsvp: 34,
  /** A cancellation by its link: the roster (to find the link's place), the record, the op and the fold (measured 17). */
  cancel: 20,
  /**
   * A check-in: the user and policy, the record (read, write), the check-in document (read, write), the
   * event and the audit entry (measured 13).
   */
  checkIn: 14,
  /** An ActBlue delivery of one gift: the record (read, create), the op, the lease and the fold of its day (measured 14). */
  delivery: 16,
  /** The Donations tab for 30 days: the user and policy, the day keys of the year (1), one read per day with gifts (30). */
  donations30Days: 33,
  /** A page of 50 users: the user and policy, the user keys (one listing per 1,000: 2 here), the 50 records. */
  usersPage: 54,
  /** A page of 50 of the Trash: the user and policy, the order keys and the entry keys of both stores (4), the 50 entries. */
  trashPage: 56,
  /** A page of 50 versions of one article: the user and policy, the version numbers (1), the 50 versions. */
  revisionsPage: 53,
} as const;

const RSVPS = 2500;
const CHECKED_IN = 300;
/** Places taken before the roster kept people's details: read from their records. */
const LEGACY = 5;

let counting: CountingStores;
let editor: string;
let eventId: number;
/** An event with the same roster for the rush test, whose RSVP, cancellation and check-in change it. */
let rushEventId: number;

/** An event with 2,500 RSVPs written straight into the store, as 2,500 RSVPs would leave it. */
async function eventWithRoster(): Promise<number> {
  const eventId = (await rsvpEventFixture(2000)).id;
  const entries: RosterEntry[] = [];
  const checkIns: Record<string, { at: string; by: string }> = {};
  const at0 = Date.parse('2026-11-20T12:00:00.000Z');
  for (let i = 0; i < RSVPS; i++) {
    const p = person();
    const id = hashed(p.email);
    const at = new Date(at0 + i * 1000).toISOString();
    const going = i < 2000;
    const rec: StoredRsvp = {
      id,
      eventId,
      name: p.name,
      email: p.email,
      phone: null,
      guests: 0,
      smsReminder: false,
      status: going ? 'going' : 'waitlisted',
      lang: 'en',
      statusEmailAt: null,
      createdAt: at,
      updatedAt: at,
      cancelledAt: null,
      checkedInAt: i < CHECKED_IN ? at : null,
      checkedInBy: i < CHECKED_IN ? 'door' : null,
      confirmation: null,
      promotion: null,
      reminderEmail: null,
      reminderSms: null,
      ip: null,
      userAgent: null,
    };
    await kv('rsvps').put(rsvpKey(eventId, id), rec);
    entries.push({
      id,
      seats: 1,
      status: going ? 'going' : 'waitlisted',
      at,
      promotedAt: null,
      cancelledAt: null,
      ...(i < LEGACY ? {} : { person: { name: p.name, email: p.email, phone: null, smsReminder: false } }),
    });
    if (i < CHECKED_IN) checkIns[id] = { at, by: 'door' };
  }
  await kv('rsvps').put(rosterKey(eventId), { eventId, entries });
  await kv('rsvps').put(checkInsKey(eventId), { eventId, people: checkIns });
  return eventId;
}

beforeAll(async () => {
  process.env.APP_ENV ??= 'test';
  resetEnv();
  localProviders();
  useWebhookCredentials();
  counting = useCountingStores();
  editor = (await signedIn('editor')).cookie;
  eventId = await eventWithRoster();
  rushEventId = await eventWithRoster();
}, 120_000);
afterAll(() => setStoreFactory(null));

const cost = <T>(work: () => Promise<T>) => counting.cost(work);

const view = (query = '') =>
  cost(async () => {
    const res = await call(adminRsvps, `/api/admin/events/${eventId}/rsvps${query}`, { cookie: editor });
    expect(res.status).toBe(200);
    return (await res.json()) as RsvpStaffView;
  });

describe(`an event's attendee list with ${RSVPS.toLocaleString('en-US')} RSVPs (counting store)`, () => {
  it(`any page, any size, any search: at most ${BOUNDS.attendeePage} calls (older places without details: one read each on the page)`, async () => {
    const first = await view('?pageSize=50');
    expect(first.value).toMatchObject({
      goingPeople: 2000,
      waitlistedPeople: 500,
      checkedIn: CHECKED_IN,
      total: RSVPS,
    });
    expect(first.value.items).toHaveLength(50);
    expect(first.calls).toBeLessThanOrEqual(BOUNDS.attendeePage + LEGACY);
    const deep = await view('?page=40&pageSize=50');
    const deepPage = await view('?page=45&pageSize=50');
    expect(deepPage.value.items.map((r) => r.position)).toEqual(
      Array.from({ length: 50 }, (_, i) => 201 + i),
    );
    expect(deepPage.calls).toBeLessThanOrEqual(BOUNDS.attendeePage);
    expect(deep.calls).toBeLessThanOrEqual(BOUNDS.attendeePage);
    const big = await view('?page=3&pageSize=200');
    expect(big.value.items).toHaveLength(200);
    expect(big.calls).toBeLessThanOrEqual(BOUNDS.attendeePage);
    const name = deep.value.items[7]!.name;
    const search = await view(`?q=${encodeURIComponent(name)}`);
    expect(search.value.items.map((r) => r.name)).toContain(name);
    expect(search.calls).toBeLessThanOrEqual(BOUNDS.attendeePage + LEGACY);
  });

  it(`the CSV of every attendee: at most ${BOUNDS.attendeeCsv} calls`, async () => {
    const { calls, value } = await cost(async () => {
      const res = await call(adminRsvps, `/api/admin/events/${eventId}/rsvps?format=csv`, { cookie: editor });
      expect(res.status).toBe(200);
      return res.text();
    });
    expect(value.trim().split('\r\n')).toHaveLength(RSVPS + 1);
    expect(calls).toBeLessThanOrEqual(BOUNDS.attendeeCsv + LEGACY);
  });
});

describe('each write of a rush costs a fixed number of calls, whatever the roster or the day holds', () => {
  it(`an RSVP: at most ${BOUNDS.rsvp}; a cancellation: at most ${BOUNDS.cancel}; a check-in: at most ${BOUNDS.checkIn}`, async () => {
    const p = person();
    const made = await cost(() => rsvpTo(rushEventId, p));
    expect(made.value.status).toBe(201);
    expect(made.calls).toBeLessThanOrEqual(BOUNDS.rsvp);
    const id = hashed(p.email);
    const cancelled = await cost(() => cancel({ event: rushEventId, token: cancelToken(rushEventId, id) }));
    expect(cancelled.value.status).toBe(200);
    expect(cancelled.calls).toBeLessThanOrEqual(BOUNDS.cancel);
    const someone = (await kv('rsvps').get<{ entries: RosterEntry[] }>(rosterKey(rushEventId)))!.value
      .entries[900]!;
    const checked = await cost(() =>
      call(adminRsvps, `/api/admin/events/${rushEventId}/rsvps/${someone.id}`, {
        method: 'PUT',
        json: { checkedIn: true },
        cookie: editor,
      }),
    );
    expect(checked.value.status).toBe(200);
    expect(checked.calls).toBeLessThanOrEqual(BOUNDS.checkIn);
  });

  it(`an ActBlue delivery: at most ${BOUNDS.delivery} calls, with a thousand gifts already on its day`, async () => {
    for (let i = 0; i < 1000; i += 50)
      await Promise.all(Array.from({ length: 50 }, (_, j) => deliver(order(i + j, { day: '2026-11-20' }))));
    // And a gift on each of the 29 days before it (the Donations tab reads one document per day with gifts).
    for (let d = 1; d < 30; d++)
      await deliver(
        order(2000 + d, {
          day: new Date(Date.parse('2026-11-20') - d * 86_400_000).toISOString().slice(0, 10),
        }),
      );
    const one = await cost(() => deliver(order(5000, { day: '2026-11-20' })));
    expect(one.value.status).toBe(201);
    expect(one.calls).toBeLessThanOrEqual(BOUNDS.delivery);
    const tab = await cost(() =>
      call(adminDonations, '/api/admin/donations?from=2026-10-22&to=2026-11-20', { cookie: editor }),
    );
    expect(tab.value.status).toBe(200);
    expect(((await tab.value.json()) as { totals: { count: number } }).totals.count).toBe(1030);
    expect(tab.calls).toBeLessThanOrEqual(BOUNDS.donations30Days);
  }, 120_000);
});

describe("users, the Trash and an article's history: a page reads its own records only", () => {
  it(`users: at most ${BOUNDS.usersPage}; the Trash: at most ${BOUNDS.trashPage}; 50 of 600 versions: at most ${BOUNDS.revisionsPage}`, async () => {
    const admin = await signedIn('admin');
    // 1,200 staff accounts, 700 deleted events, an article saved 600 times: written straight into the store.
    const me = (await kv('users').get<Record<string, unknown>>(`user/${admin.user.id}`))!.value;
    for (let i = 0; i < 1200; i++)
      await kv('users').put(`user/${10_000 + i}`, {
        ...me,
        id: 10_000 + i,
        username: `staff${i}`,
        email: `s${i}@example.org`,
        role: 'viewer',
      });
    const deletedAt = new Date(Date.now() - 3_600_000).toISOString();
    for (let i = 0; i < 700; i++)
      await kv('events').put(`trash/${50_000 + i}`, {
        kind: 'event',
        id: 50_000 + i,
        title: `Deleted ${i}`,
        deletedAt,
        deletedById: 1,
        deletedByName: 'a',
        record: { id: 50_000 + i },
      });
    for (let n = 1; n <= 600; n++)
      await kv('articles').put(`rev/77/${String(n).padStart(6, '0')}`, {
        n,
        at: deletedAt,
        actorId: 1,
        actorName: 'a',
        action: 'update',
        restoredFrom: null,
        changed: ['title'],
        snapshot: { id: 77, title: `Take ${n}` },
      });
    const usersPage = await cost(() => call(adminUsers, '/api/admin/users?page=3', { cookie: admin.cookie }));
    const users = (await usersPage.value.json()) as { users: unknown[]; total: number };
    expect(users.users).toHaveLength(50);
    expect(users.total).toBeGreaterThan(1200);
    expect(usersPage.calls).toBeLessThanOrEqual(BOUNDS.usersPage);
    // The Trash's first listing gives the older entries their order keys (once); then a page is bounded.
    await call(adminTrash, '/api/admin/trash', { cookie: admin.cookie });
    const trashPage = await cost(() => call(adminTrash, '/api/admin/trash?page=2', { cookie: admin.cookie }));
    const trash = (await trashPage.value.json()) as { items: unknown[]; total: number };
    expect(trash.items).toHaveLength(50);
    expect(trash.total).toBe(700);
    expect(trashPage.calls).toBeLessThanOrEqual(BOUNDS.trashPage);
    const history = await cost(() =>
      call(adminRevisions, '/api/admin/news/77/revisions?page=2', { cookie: editor }),
    );
    const revs = (await history.value.json()) as { revisions: { n: number }[]; total: number };
    expect(revs.revisions.map((r) => r.n)).toEqual(Array.from({ length: 50 }, (_, i) => 550 - i));
    expect(revs.total).toBe(600);
    expect(history.calls).toBeLessThanOrEqual(BOUNDS.revisionsPage);
  }, 120_000);
});
