import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as adminPeopleInvite from '../../netlify/functions/admin-people-invite.mts';
import * as adminRecruits from '../../netlify/functions/admin-recruits.mts';
import * as newsletterFn from '../../netlify/functions/email-subscribers.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
import { auditPage } from '../../src/lib/server/audit/audit.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { lookupKey } from '../../src/lib/server/people/keys.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { inviteCodeOf, readInvite } from '../../src/lib/server/supporters/invites.ts';
import { myLeaderboard } from '../../src/lib/server/supporters/recruits.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { localProviders, uniqueIp, validVolunteer } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * Staff and supporters' invite links (docs/decisions/182-supporter-page.md), through the real handlers on a real
 * local Blobs server: editors and admins turn a person's link off from the person page (audited; a viewer cannot),
 * every role reads the recruits leaderboard, only an admin shows it on /my, and /my then shows counts, never names.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
});
afterAll(() => blobs.stop());

let seq = 0;
async function supporter(first: string) {
  seq += 1;
  const email = `${first.toLowerCase()}.${seq}-${Date.now()}@example.org`;
  const res = await call(volunteersFn, '/api/volunteers-sendgrid', {
    json: validVolunteer({ firstName: first, lastName: 'Recruiter', email, phone: `504-552-${1000 + seq}` }),
    ip: uniqueIp(),
  });
  expect(res.status).toBe(201);
  const id = (await kv('people').get<{ id: string }>(lookupKey('email', email)))!.value.id;
  return { id, code: await inviteCodeOf(id) };
}

/** `n` newsletter sign-ups through `code`'s invite cookie. */
async function recruit(code: string, n: number) {
  for (let i = 0; i < n; i++) {
    const res = await call(newsletterFn, '/api/email-subscribers', {
      json: { email: `friend-${code}-${i}@example.org`, captcha: TURNSTILE_TEST_TOKEN },
      ip: uniqueIp(),
      cookie: `invite=${code}`,
    });
    expect(res.status).toBeLessThan(300);
  }
}

const revoke = (id: string, cookie: string) =>
  call(adminPeopleInvite, `/api/admin/people/${id}/invite/revoke`, { method: 'POST', cookie });

describe("staff and a supporter's invite link", () => {
  it('editors and admins revoke a code (audited); a viewer reads it but cannot revoke', async () => {
    const [viewer, editor] = [await signedIn('viewer'), await signedIn('editor')];
    const s = await supporter('Reva');

    const seen = await call(adminPeopleInvite, `/api/admin/people/${s.id}/invite`, { cookie: viewer.cookie });
    expect(seen.status).toBe(200);
    expect(((await seen.json()) as { invite: { code: string } }).invite.code).toBe(s.code);

    expect((await revoke(s.id, viewer.cookie)).status).toBe(403);
    expect((await readInvite(s.code))!.revokedAt).toBeNull();
    expect(
      (await call(adminPeopleInvite, `/api/admin/people/${s.id}/invite/revoke`, { method: 'POST' })).status,
    ).toBe(401);

    const res = await revoke(s.id, editor.cookie);
    expect(res.status).toBe(200);
    expect(await readInvite(s.code)).toEqual(expect.objectContaining({ revokedBy: 'staff' }));
    const entries = (
      await auditPage({ page: 1, pageSize: 100, format: 'json', kind: 'person.invite_revoke' })
    ).entries;
    expect(entries.filter((e) => e.target?.id === s.id)).toHaveLength(1);
    // Revoked: nothing to revoke again; the owner's page makes a new code.
    expect((await revoke(s.id, editor.cookie)).status).toBe(409);
    expect(await inviteCodeOf(s.id)).not.toBe(s.code);
    expect((await revoke('f'.repeat(32), editor.cookie)).status).toBe(404);
  });

  it('staff read the leaderboard with names; only an admin shows it on /my, which shows counts, never names', async () => {
    const [viewer, editor, admin] = [
      await signedIn('viewer'),
      await signedIn('editor'),
      await signedIn('admin'),
    ];
    const top = await supporter('Topsy');
    const next = await supporter('Nextia');
    await recruit(top.code, 3);
    await recruit(next.code, 2);

    const board = await call(adminRecruits, '/api/admin/recruits', { cookie: viewer.cookie });
    expect(board.status).toBe(200);
    const { leaders } = (await board.json()) as {
      leaders: { personId: string; name: string; count: number }[];
    };
    const mine = leaders.filter((l) => [top.id, next.id].includes(l.personId));
    expect(mine.map((l) => [l.name, l.count])).toEqual([
      ['Topsy Recruiter', 3],
      ['Nextia Recruiter', 2],
    ]);

    // Off until an admin turns it on.
    expect(await myLeaderboard(next.id)).toBeNull();
    const put = (cookie: string) =>
      call(adminRecruits, '/api/admin/recruits', { method: 'PUT', json: { showOnMy: true }, cookie });
    expect((await put(viewer.cookie)).status).toBe(403);
    expect((await put(editor.cookie)).status).toBe(403);
    expect(await myLeaderboard(next.id)).toBeNull();
    expect((await put(admin.cookie)).status).toBe(200);
    expect(
      (await auditPage({ page: 1, pageSize: 100, format: 'json', kind: 'recruits.settings' })).entries,
    ).toHaveLength(1);

    const shown = await myLeaderboard(next.id);
    expect(shown!.mine).toEqual({ rank: 2, count: 2 });
    expect(shown!.top.slice(0, 2)).toEqual([3, 2]);
    // Counts only: nothing that names anyone.
    expect(JSON.stringify(shown)).not.toMatch(/Topsy|Nextia|Recruiter|[a-f0-9]{32}/);
  });
});
