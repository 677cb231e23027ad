import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as broadcastsFn from '../../netlify/functions/admin-broadcasts.mts';
import { STAFF_PHONE_MESSAGES as M, STAFF_TESTS_PER_DAY } from '../../src/lib/schemas/staff-phone.ts';
import { runBroadcasts } from '../../src/lib/server/broadcasts/engine.ts';
import { getBroadcast } from '../../src/lib/server/broadcasts/repo.ts';
import { reserveTestSend } from '../../src/lib/server/broadcasts/test-sends.ts';
import { INBOX_SPECS } from '../../src/lib/server/inbox/summaries.ts';
import { noteSummary } from '../../src/lib/server/inbox/summary-shapes.ts';
import { hashed, key } from '../../src/lib/server/storage/keys.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { markOptedOut } from '../../src/lib/server/texting/text-list.ts';
import { sendGuardedText } from '../../src/lib/server/texting/text-guard.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { FakeClock, textSubscriber } from '../helpers/broadcasts.ts';
import { localProviders } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { outboxTexts, verifyPhone } from '../helpers/staff-phone.ts';
import { outboxEmails, signedIn } from '../helpers/users.ts';

/**
 * A broadcast's test goes only to the sender (docs/decisions/152-broadcasts.md). The outside
 * attack of 2026-11-29: as editor, `POST /api/admin/broadcasts/{id}/test {"to": "<any subscribed number>"}` on a
 * never-approved draft texted that stranger, twice if repeated, and spent the number's texts a day, so the admin's
 * real broadcast skipped it that day. Now a test text goes to the member's own verified phone only, spends no
 * allowance of that number and touches nothing of the broadcast, and a member sends STAFF_TESTS_PER_DAY tests a
 * campaign day at most.
 */

let stop: () => Promise<void>;
let admin: Awaited<ReturnType<typeof signedIn>>;
beforeAll(async () => {
  ({ stop } = await startBlobs());
  localProviders();
  admin = await signedIn('admin');
});
afterAll(() => stop());

const json = async <T>(res: Response) => (await res.json()) as T;
const post = (path: string, cookie: string, body?: unknown) =>
  call(broadcastsFn, path, { method: 'POST', cookie, ...(body !== undefined ? { json: body } : {}) });
const test = (id: number, cookie: string, body: unknown = {}) =>
  post(`/api/admin/broadcasts/${id}/test`, cookie, body);

/** A subscriber of the text list, written as the sign-up path writes one (record, then its Inbox summary). */
async function subscribed(phone: string, sourcePage: string): Promise<void> {
  const person = textSubscriber(phone, '2026-10-01T12:00:00.000Z', { firstName: 'Sam', sourcePage });
  const k = key('person', hashed(phone));
  await kv(INBOX_SPECS['text-signups'].store).put(k, person);
  await noteSummary('text-signups', INBOX_SPECS['text-signups'].fromRecord(person, k)!);
}

async function textDraft(cookie: string, source: string): Promise<number> {
  const res = await call(broadcastsFn, '/api/admin/broadcasts', {
    json: {
      name: `Early voting ${source}`,
      channel: 'text',
      audience: { kind: 'text_subscribers', source },
      text: { body: 'Early voting starts Saturday.' },
    },
    cookie,
  });
  expect(res.status).toBe(201);
  return (await json<{ broadcast: { id: number } }>(res)).broadcast.id;
}

/**
 * The delivery job's clock: noon at UTC-6 on today's UTC date, inside every US zone's send window (10:00 Pacific,
 * 13:00 Eastern), and less than a day from the test sends just made, so a per-number count they spent would still
 * be in its window when the broadcast goes out.
 */
const deliveryClock = () => new FakeClock(`${new Date().toISOString().slice(0, 10)}T12:00:00-06:00`);

/** Prepares, approves (admin) and delivers a broadcast, as the scheduled job would. */
async function deliver(id: number, editorCookie: string): Promise<void> {
  const clock = deliveryClock();
  const until = async (status: string) => {
    for (let i = 0; i < 30; i += 1) {
      if ((await getBroadcast(id))?.status === status) return;
      await runBroadcasts({ clock, deadline: clock.now() + 25_000 });
      clock.advance(60_000);
    }
    throw new Error(`the job did not get to ${status}`);
  };
  expect((await post(`/api/admin/broadcasts/${id}/prepare`, editorCookie)).status).toBe(200);
  await until('ready');
  // The admin approves the version they reviewed (docs/decisions/152-broadcasts.md).
  const view = await call(broadcastsFn, `/api/admin/broadcasts/${id}`, { cookie: admin.cookie });
  const { version } = (await view.json()) as { version: string };
  expect((await post(`/api/admin/broadcasts/${id}/send`, admin.cookie, { version })).status).toBe(200);
  await until('completed');
}

const textsTo = async (phone: string) => (await outboxTexts()).filter((t) => t.to === phone);
const isTest = (t: { body: string }) => t.body.includes('[Test]');

describe('the outside reproduction', () => {
  it('an editor’s test text to a subscriber is refused; the subscriber gets nothing, and the real broadcast reaches them', async () => {
    const subscriber = '+14155550190';
    await subscribed(subscriber, '/replay');
    const editor = await signedIn('editor');
    const id = await textDraft(editor.cookie, '/replay');

    // Without a verified phone of one's own: told to verify one under Security.
    for (const body of [{ to: subscriber }, {}]) {
      const res = await test(id, editor.cookie, body);
      expect(res.status).toBe(400);
      expect((await json<{ error: string }>(res)).error).toBe(M.noVerifiedPhone);
    }
    // With one: another number is refused, as often as it is asked (the finding texted it each time).
    await verifyPhone(editor.cookie, '+12125550191');
    for (const to of [subscriber, '(415) 555-0190', '415-555-0190']) {
      const res = await test(id, editor.cookie, { to });
      expect(res.status).toBe(400);
      expect((await json<{ error: string }>(res)).error).toBe(M.testToOwnPhone);
    }
    expect(await textsTo(subscriber)).toEqual([]);

    await deliver(id, editor.cookie);
    const b = (await getBroadcast(id))!;
    expect(b.run.counts).toMatchObject({ sent: 1, skipped_limit: 0 });
    const got = await textsTo(subscriber);
    expect(got).toHaveLength(1);
    expect(got[0]!.body).toContain('Early voting starts Saturday.');
  });
});

describe('a test text goes to the member’s own verified phone', () => {
  it('with `to` left out or naming it; it spends none of the number’s allowance and touches nothing of the broadcast', async () => {
    const own = '+13035550192';
    // The member is on the list too: the broadcast must still reach them after their tests.
    await subscribed(own, '/own');
    const editor = await signedIn('editor');
    await verifyPhone(editor.cookie, own);
    const id = await textDraft(editor.cookie, '/own');
    const before = await getBroadcast(id);

    // More tests than the number's texts a day (3): none of them may crowd out the real text.
    const answers = [];
    for (const body of [{}, { to: '303-555-0192' }, { to: own, lang: 'es' }, {}, {}])
      answers.push(await json<{ sent: boolean; to: string }>(await test(id, editor.cookie, body)));
    expect(answers).toEqual(Array(5).fill({ sent: true, to: '(•••) •••-0192' }));
    expect((await textsTo(own)).filter(isTest)).toHaveLength(5);
    // The broadcast's own record (status, run, recipients' state) is as it was.
    expect(await getBroadcast(id)).toEqual(before);

    await deliver(id, editor.cookie);
    expect((await getBroadcast(id))!.run.counts).toMatchObject({ sent: 1, skipped_limit: 0 });
    expect((await textsTo(own)).filter((t) => !isTest(t) && t.body.includes('Early voting'))).toHaveLength(1);
  });

  it('STOP still holds: a member whose phone opted out is told, and texted nothing', async () => {
    const own = '+16025550193';
    const editor = await signedIn('editor');
    await verifyPhone(editor.cookie, own);
    await markOptedOut(own, '2026-11-01T12:00:00.000Z', 'en');
    const id = await textDraft(editor.cookie, '/stopped');
    const res = await test(id, editor.cookie);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ sent: false, to: '(•••) •••-0193', reason: 'Opted out' });
    expect((await textsTo(own)).filter(isTest)).toEqual([]);
  });
});

describe('the guard’s own check, whoever calls it', () => {
  it('a staff test text goes to the member’s verified phone only; a code only to the number the member asked for', async () => {
    const editor = await signedIn('editor');
    await verifyPhone(editor.cookie, '+12125550195');
    const subscriber = '+14155550196';
    await subscribed(subscriber, '/guard');
    const consent = { purpose: 'staff_test', userId: editor.user.id, broadcastId: 1 } as const;
    expect(await sendGuardedText({ to: subscriber, body: '[Test] x', lang: 'en', consent })).toEqual({
      sent: false,
      refusal: 'no_consent',
    });
    expect(
      await sendGuardedText({
        to: subscriber,
        body: 'code 123456',
        lang: 'en',
        consent: { purpose: 'staff_phone_code', userId: editor.user.id },
      }),
    ).toEqual({ sent: false, refusal: 'no_consent' });
    expect(await textsTo(subscriber)).toEqual([]);
    expect(
      await sendGuardedText({ to: '+12125550195', body: '[Test] x', lang: 'en', consent }),
    ).toMatchObject({
      sent: true,
    });
  });
});

describe(`${STAFF_TESTS_PER_DAY} test sends a member a day, texts and emails together`, () => {
  it(`the ${STAFF_TESTS_PER_DAY + 1}st is refused with 429; another member is not`, async () => {
    const editor = await signedIn('editor');
    await verifyPhone(editor.cookie, '+18085550194');
    const text = await textDraft(editor.cookie, '/count');
    const res = await call(broadcastsFn, '/api/admin/broadcasts', {
      json: {
        name: 'Count',
        channel: 'email',
        audience: { kind: 'newsletter_subscribers' },
        email: { subject: 'Doors', html: '<p>Knock</p>' },
      },
      cookie: editor.cookie,
    });
    const email = (await json<{ broadcast: { id: number } }>(res)).broadcast.id;
    const statuses: number[] = [];
    for (let i = 0; i < STAFF_TESTS_PER_DAY; i += 1)
      statuses.push((await test(i % 2 ? text : email, editor.cookie)).status);
    expect(statuses).toEqual(Array(STAFF_TESTS_PER_DAY).fill(200));
    for (const id of [text, email]) {
      const over = await test(id, editor.cookie);
      expect(over.status).toBe(429);
      expect((await json<{ error: string }>(over)).error).toBe(M.tooManyTests);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await textsTo('+18085550194')).filter(isTest)).toHaveLength(STAFF_TESTS_PER_DAY / 2);
    expect((await outboxEmails()).filter((m) => m.to === editor.user.email)).toHaveLength(
      STAFF_TESTS_PER_DAY / 2,
    );
    const other = await signedIn('editor');
    expect((await test(email, other.cookie)).status).toBe(200);
  });

  it('the day is the campaign’s: it ends at midnight in New Orleans, not in UTC', async () => {
    const member = 900_001;
    for (let i = 0; i < STAFF_TESTS_PER_DAY; i += 1)
      await reserveTestSend(member, new Date('2026-11-03T10:00:00-06:00'));
    // 23:59 in New Orleans is already the next day in UTC: still the same campaign day, still refused.
    await expect(reserveTestSend(member, new Date('2026-11-03T23:59:00-06:00'))).rejects.toMatchObject({
      status: 429,
      headers: { 'Retry-After': '60' },
    });
    await expect(reserveTestSend(member, new Date('2026-11-04T00:00:30-06:00'))).resolves.toBeUndefined();
  });
});
