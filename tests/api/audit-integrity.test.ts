import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as activityFn from '../../netlify/functions/admin-activity.mts';
import * as verificationFn from '../../netlify/functions/admin-activity-verification.mts';
import * as adminTwoFactorFn from '../../netlify/functions/admin-two-factor.mts';
import * as adminNews from '../../netlify/functions/admin-news.mts';
import * as loginFn from '../../netlify/functions/auth-login.mts';
import type { AuditEntry, AuditPage } from '../../src/lib/schemas/audit.ts';
import { confirmEnrolment, startEnrolment } from '../../src/lib/server/auth/two-factor.ts';
import { totpCode } from '../../src/lib/server/auth/totp.ts';
import { ANCHORING_RESTARTED } from '../../src/lib/server/audit/audit.ts';
import { MAX_NAME_CHARS } from '../../src/lib/server/audit/refused-sign-ins.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/**
 * The attacks of docs/decisions/154-audit-trail.md, each by someone with
 * write access to the store (but not the server secret), against the real
 * handlers and a local Blobs server (a fresh site per test: each attack starts
 * from a chain that holds).
 */
let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeEach(async () => {
  blobs = await startBlobs();
});
afterEach(async () => {
  vi.useRealTimers();
  await blobs.stop();
});

const audit = () => kv('audit');
const chainKey = (seq: number) => `chain/${String(seq).padStart(10, '0')}`;

async function activity(cookie: string, query = ''): Promise<AuditPage> {
  const res = await call(activityFn, `/api/admin/activity?pageSize=200${query}`, { cookie });
  expect(res.status).toBe(200);
  return (await res.json()) as AuditPage;
}

/**
 * The full verification, as the Activity tab runs it: started through its background function (a
 * test awaits the handler to the end), its result read back with GET /verify?full. (The incremental
 * check, GET /verify, sees only entries newer than its checkpoint: tests/api/audit-scale.test.ts.)
 */
async function check(
  cookie: string,
): Promise<{ ok: boolean; entries: number; brokenAt?: number; reason?: string }> {
  const started = await call(verificationFn, '/api/admin/activity/verification', { method: 'POST', cookie });
  expect(started.status).toBe(202);
  const res = await call(activityFn, '/api/admin/activity/verify?full', { cookie });
  expect(res.status).toBe(200);
  const { full } = (await res.json()) as {
    full: { state: string; result: { ok: boolean; entries: number } };
  };
  expect(full.state).toBe('done');
  return full.result;
}

async function keysUnder(prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const page of audit().keys(prefix)) out.push(...page);
  return out.sort();
}

/** The index key of an entry (the listing Activity pages from). */
async function indexKeyOf(seq: number): Promise<string> {
  const inv = String(9_999_999_999 - seq).padStart(10, '0');
  const k = (await keysUnder('log/')).find((x) => x.split('+')[1] === inv);
  if (!k) throw new Error(`no index key for ${seq}`);
  return k;
}

/** An admin, a member with two-factor, the admin resetting it (audited; signs the member out), two more actions. */
async function scene() {
  const boss = await signedIn('admin');
  const member = await signedIn('editor');
  const { secret } = await startEnrolment(member.user);
  await confirmEnrolment(member.user, totpCode(secret));
  const reset = await call(adminTwoFactorFn, `/api/admin/users/${member.user.id}/two-factor`, {
    method: 'DELETE',
    cookie: boss.cookie,
  });
  expect(reset.status).toBe(200);
  for (const title of ['One', 'Two'])
    expect(
      (
        await call(adminNews, '/api/admin/news', {
          json: { title, slug: `t-${title.toLowerCase()}`, content: '<p>x</p>', author: 'A' },
          cookie: boss.cookie,
        })
      ).status,
    ).toBe(201);
  const page = await activity(boss.cookie);
  const resetEntry = page.entries.find((e) => e.kind === 'auth.two_factor_reset')!;
  expect(resetEntry).toBeDefined();
  expect(await check(boss.cookie)).toEqual({ ok: true, entries: page.total });
  return { boss, member, resetEntry, total: page.total };
}

describe('Activity shows only what the check verifies', () => {
  it('an edited actor name fails the check, and Activity and the CSV do not show the forged text', async () => {
    const { boss, resetEntry } = await scene();
    const k = chainKey(resetEntry.seq);
    const cur = (await audit().get<AuditEntry>(k))!.value;
    await audit().put(k, { ...cur, actorName: 'framed-colleague' });
    expect(await check(boss.cookie)).toMatchObject({
      ok: false,
      brokenAt: resetEntry.seq,
      reason: 'entry altered',
    });
    const page = await activity(boss.cookie);
    expect(JSON.stringify(page)).not.toContain('framed-colleague');
    expect(page.problems).toEqual([{ seq: resetEntry.seq, reason: 'altered' }]);
    const csv = await (
      await call(activityFn, '/api/admin/activity?format=csv', { cookie: boss.cookie })
    ).text();
    expect(csv).not.toContain('framed-colleague');
    expect(csv).toContain(`Failed the integrity check (altered)`);
  });

  it('a forged full entry written into the index key is never read (the index holds only a position)', async () => {
    const { boss, resetEntry } = await scene();
    const ik = await indexKeyOf(resetEntry.seq);
    expect((await audit().get(ik))!.value).toEqual({ seq: resetEntry.seq });
    await audit().put(ik, { ...resetEntry, actorName: 'framed-colleague' });
    expect(JSON.stringify(await activity(boss.cookie))).not.toContain('framed-colleague');
    expect((await check(boss.cookie)).ok).toBe(true);
  });

  it('an index key renamed to another person or kind is not shown under the forged name, and fails the check', async () => {
    const { boss, member, resetEntry } = await scene();
    const ik = await indexKeyOf(resetEntry.seq);
    await audit().delete(ik);
    const forged = ik.replace(/\+auth\.two_factor_reset\+\d+$/, `+article.update+${member.user.id}`);
    await audit().put(forged, { seq: resetEntry.seq });
    const page = await activity(boss.cookie, `&actor=${member.user.id}`);
    expect(page.entries.some((e) => e.seq === resetEntry.seq)).toBe(false);
    // Activity finds the newest entries from the head's own list, not the index keys' names
    // (docs/decisions/154-audit-trail.md): the renamed key moves nothing; the entry stays under its true person.
    const own = await activity(boss.cookie, `&actor=${boss.user.id}&kind=auth.two_factor_reset`);
    expect(own.entries.map((e) => e.seq)).toEqual([resetEntry.seq]);
    expect(await check(boss.cookie)).toMatchObject({ ok: false, reason: 'listing altered' });
  });
});

describe('a deleted entry is detected', () => {
  it('the two-factor reset deleted from the chain and the index', async () => {
    const { boss, resetEntry } = await scene();
    await audit().delete(await indexKeyOf(resetEntry.seq));
    await audit().delete(chainKey(resetEntry.seq));
    expect(await check(boss.cookie)).toMatchObject({
      ok: false,
      brokenAt: resetEntry.seq,
      reason: 'missing entry',
    });
  });

  it('the two-factor reset deleted from the chain only: Activity names the gap, the check fails', async () => {
    const { boss, resetEntry } = await scene();
    await audit().delete(chainKey(resetEntry.seq));
    expect((await activity(boss.cookie)).problems).toEqual([{ seq: resetEntry.seq, reason: 'missing' }]);
    expect(await check(boss.cookie)).toMatchObject({ ok: false, reason: 'missing entry' });
  });

  it('the two-factor reset hidden by deleting its index key only (Activity would not list it)', async () => {
    const { boss, resetEntry } = await scene();
    await audit().delete(await indexKeyOf(resetEntry.seq));
    expect(await check(boss.cookie)).toMatchObject({
      ok: false,
      brokenAt: resetEntry.seq,
      reason: 'entry not listed',
    });
  });
});

describe('the head is anchored: removing the newest entries is detected', () => {
  /** Deletes the newest `n` entries (chain and index), as an attacker truncating the trail would. */
  async function truncate(total: number, n: number): Promise<AuditEntry> {
    for (let seq = total; seq > total - n; seq--) {
      await audit().delete(await indexKeyOf(seq));
      await audit().delete(chainKey(seq));
    }
    return (await audit().get<AuditEntry>(chainKey(total - n)))!.value;
  }

  it('an unsigned head moved back', async () => {
    const { boss, total } = await scene();
    const last = await truncate(total, 3);
    await audit().put('head', { seq: last.seq, hash: last.hash });
    expect(await check(boss.cookie)).toMatchObject({ ok: false, reason: 'head altered' });
  });

  it('the head left as it was', async () => {
    const { boss, total } = await scene();
    await truncate(total, 3);
    expect(await check(boss.cookie)).toMatchObject({ ok: false, reason: 'entries missing at the end' });
  });

  it('the head deleted', async () => {
    const { boss, total } = await scene();
    await truncate(total, 3);
    await audit().delete('head');
    expect(await check(boss.cookie)).toMatchObject({ ok: false, reason: 'head missing' });
  });

  it('a signed head copied earlier and put back: the day anchor still names the removed entries', async () => {
    const { boss, total } = await scene();
    const earlier = (await audit().get('head'))!.value;
    for (const title of ['Three', 'Four'])
      await call(adminNews, '/api/admin/news', {
        json: { title, slug: `t-${title.toLowerCase()}`, content: '<p>x</p>', author: 'A' },
        cookie: boss.cookie,
      });
    // (The Activity page read in between adds no entry.)
    const now = (await check(boss.cookie)).entries;
    expect(now).toBe(total + 2);
    await truncate(now, 2);
    await audit().put('head', earlier);
    expect(await check(boss.cookie)).toMatchObject({ ok: false, reason: 'entries missing at the end' });
    // Deleting the day's anchor as well does not help: the day's remaining entries need one.
    for (const k of await keysUnder('anchor/')) await audit().delete(k);
    expect(await check(boss.cookie)).toMatchObject({ ok: false, reason: 'day anchor missing' });
  });

  it('a forged anchor (no secret) fails the check', async () => {
    const { boss, total } = await scene();
    const last = await truncate(total, 2);
    const [anchor] = await keysUnder('anchor/');
    const a = (await audit().get<{ mac: string }>(anchor!))!.value;
    await audit().put(anchor!, { ...a, seq: last.seq, hash: last.hash });
    const h = (await audit().get<{ mac: string }>('head'))!.value;
    await audit().put('head', { ...h, seq: last.seq, hash: last.hash });
    expect((await check(boss.cookie)).ok).toBe(false);
  });

  it('head, anchors and the newest entries all deleted: the next action restarts anchoring, visibly', async () => {
    const { boss, total } = await scene();
    await truncate(total, 3);
    for (const k of ['head', ...(await keysUnder('anchor/'))]) await audit().delete(k);
    expect(await check(boss.cookie)).toMatchObject({ ok: false, reason: 'head missing' });
    // A genuine action afterwards cannot sign a head over what it cannot trust without saying so.
    await call(adminNews, '/api/admin/news', {
      json: { title: 'After', slug: 't-after', content: '<p>x</p>', author: 'A' },
      cookie: boss.cookie,
    });
    const report = await check(boss.cookie);
    expect(report).toEqual({ ok: true, entries: total - 2, anchoredFrom: total - 2 });
    const marked = (await activity(boss.cookie)).entries.find((e) => e.seq === total - 2)!;
    expect(marked.details.anchoring).toBe(ANCHORING_RESTARTED);
  });

  it('the documented limit: head and anchors copied at one moment and all put back together pass', async () => {
    // Nothing inside the store can tell a complete rollback to a state it once had (the decision record says
    // what does: an off-site export, and the head position the check reports).
    const { boss, total } = await scene();
    const snapshot = await Promise.all(
      ['head', ...(await keysUnder('anchor/'))].map(async (k) => [k, (await audit().get(k))!.value] as const),
    );
    await call(adminNews, '/api/admin/news', {
      json: { title: 'Five', slug: 't-five', content: '<p>x</p>', author: 'A' },
      cookie: boss.cookie,
    });
    await truncate(total + 1, 1);
    for (const [k, v] of snapshot) await audit().put(k, v);
    expect(await check(boss.cookie)).toEqual({ ok: true, entries: total });
  });
});

describe('refused sign-ins are aggregated per source and window', () => {
  it('120 refused attempts from one IP, passwords typed as names: one entry with the count, no free text', async () => {
    const boss = await signedIn('admin');
    const victim = await signedIn('editor');
    const t0 = Date.parse('2026-11-25T10:00:00Z');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(t0);
    const before = (await check(boss.cookie)).entries;
    const secretish = (i: number) => `Hunter2-Secret-Password-${i}-typed-into-the-username-box`;
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) {
      const username = i % 3 === 0 ? victim.username : secretish(i);
      const res = await call(loginFn, '/api/auth/login', {
        json: { username, password: `wrong-${i}` },
        ip: '192.0.2.66',
      });
      statuses.push(res.status);
    }
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    // While the window is open nothing is written; a second source gets its own window.
    await call(loginFn, '/api/auth/login', { json: { username: 'x', password: 'y' }, ip: '192.0.2.67' });
    expect((await check(boss.cookie)).entries).toBe(before);

    vi.setSystemTime(t0 + 16 * 60_000);
    const page = await activity(boss.cookie, '&kind=auth.sign_in_failed');
    expect(page.total).toBe(2);
    const mine = page.entries.find((e) => e.ip === '192.0.2.66')!;
    expect(mine.details).toMatchObject({ attempts: '120' });
    expect(Number(mine.details.wrongCredentials) + Number(mine.details.rateLimited)).toBe(120);
    expect(mine.details.names).toContain(victim.username);
    expect(page.entries.find((e) => e.ip === '192.0.2.67')!.details).toMatchObject({ attempts: '1' });

    // No typed text beyond a short, sanitised form, anywhere in the trail.
    const all = await activity(boss.cookie);
    const text = JSON.stringify(all);
    expect(text).not.toMatch(/Hunter2|Secret-Password|typed-into/i);
    for (const e of all.entries) expect(e.actorName.length).toBeLessThanOrEqual(MAX_NAME_CHARS);
    for (const name of mine.details.names!.replace(/ and \d+ more$/, '').split(', '))
      expect(name).toMatch(new RegExp(`^(${victim.username}|unknown name [0-9a-f]{8})$`));
    // Written once: later reads and refusals in a new window do not write the closed window again.
    await call(loginFn, '/api/auth/login', { json: { username: 'x', password: 'y' }, ip: '192.0.2.66' });
    expect((await activity(boss.cookie, '&kind=auth.sign_in_failed')).total).toBe(2);
    expect((await check(boss.cookie)).ok).toBe(true);
  });
});

describe('the incremental check (GET /verify) sees what is new since its checkpoint', () => {
  async function step(
    cookie: string,
  ): Promise<{ ok: boolean; entries: number; pending: number; reason?: string }> {
    const res = await call(activityFn, '/api/admin/activity/verify', { cookie });
    expect(res.status).toBe(200);
    return (await res.json()) as { ok: boolean; entries: number; pending: number; reason?: string };
  }
  const newArticle = (cookie: string, title: string) =>
    call(adminNews, '/api/admin/news', {
      json: { title, slug: `t-${title.toLowerCase()}`, content: '<p>x</p>', author: 'A' },
      cookie,
    });

  it('an entry changed after the last check fails the next one; one before it is left to the full verification', async () => {
    const { boss, total } = await scene();
    expect(await step(boss.cookie)).toMatchObject({ ok: true, pending: 0 });
    for (const title of ['Six', 'Seven']) await newArticle(boss.cookie, title);
    const k = chainKey(total + 1);
    const cur = (await audit().get<AuditEntry>(k))!.value;
    await audit().put(k, { ...cur, actorName: 'framed-colleague' });
    expect(await step(boss.cookie)).toMatchObject({
      ok: false,
      brokenAt: total + 1,
      reason: 'entry altered',
    });
    await audit().put(k, cur);
    expect(await step(boss.cookie)).toMatchObject({ ok: true, pending: 0 });
    // Behind the checkpoint now: the step does not read it again; the full verification does.
    await audit().put(k, { ...cur, actorName: 'framed-colleague' });
    expect(await step(boss.cookie)).toMatchObject({ ok: true });
    expect(await check(boss.cookie)).toMatchObject({
      ok: false,
      brokenAt: total + 1,
      reason: 'entry altered',
    });
  });

  it('the newest entries removed and the head moved back behind the checkpoint: found at once', async () => {
    const { boss, total } = await scene();
    expect(await step(boss.cookie)).toMatchObject({ ok: true, pending: 0 });
    const last = (await audit().get<AuditEntry>(chainKey(total - 2)))!.value;
    for (let seq = total; seq > total - 2; seq--) {
      await audit().delete(await indexKeyOf(seq));
      await audit().delete(chainKey(seq));
    }
    await audit().put('head', { seq: last.seq, hash: last.hash });
    expect(await step(boss.cookie)).toMatchObject({ ok: false, reason: 'head altered' });
  });
});
