import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as textSignup from '../../netlify/functions/text-signup.mts';
import * as volunteers from '../../netlify/functions/volunteers-sendgrid.mts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import type { PostElectionMode } from '../../src/lib/election-stage.ts';
import { setElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import { FORM_CLOSED_MESSAGES } from '../../src/lib/server/election/open-forms.ts';
import { startBlobs } from '../helpers/blobs.ts';
import {
  keysOf,
  localProviders,
  uniqueIp,
  uniquePhone,
  validSignup,
  validVolunteer,
} from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { FUTURE_CALENDAR } from '../helpers/election.ts';
import { person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';

/*
 * The post-election modes on the server (docs/decisions/157-election-calendar.md): "ended" closes the volunteer
 * and text sign-ups at the moment of the post (a stale cached page cannot take one), 410 with a clear message and
 * nothing stored; the other modes, and a campaign whose results are not in, keep them open. RSVPs to the events
 * staff keep public stay open in every mode.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
});
afterAll(() => blobs.stop());

const mode = (m: PostElectionMode) => setElectionCalendar({ ...defaultElectionCalendar, mode: m }, 'test');
const volunteer = (n: number) =>
  call(volunteers, '/api/volunteers-sendgrid', {
    json: validVolunteer({ email: `v${n}@example.org` }),
    ip: uniqueIp(),
  });
const signup = () =>
  call(textSignup, '/api/newsletter', { json: validSignup({ phone: uniquePhone() }), ip: uniqueIp() });

describe('post-election modes on the server', () => {
  it('"ended" refuses volunteer and text sign-ups (410, the message, nothing stored), by JSON and form post', async () => {
    await mode('ended');
    const before = { v: (await keysOf('volunteers')).length, s: (await keysOf('signups', 'person/')).length };
    const v = await volunteer(1);
    expect(v.status).toBe(410);
    expect(((await v.json()) as { error: string }).error).toBe(FORM_CLOSED_MESSAGES.volunteer);
    const s = await signup();
    expect(s.status).toBe(410);
    expect(((await s.json()) as { error: string }).error).toBe(FORM_CLOSED_MESSAGES['text-signup']);
    const form = await call(volunteers, '/api/volunteers-sendgrid', {
      body: new URLSearchParams(validVolunteer({ email: 'nojs@example.org' })),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      ip: uniqueIp(),
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toMatch(/^\/forms\/volunteer\?outcome=/);
    expect((await keysOf('volunteers')).length).toBe(before.v);
    expect((await keysOf('signups', 'person/')).length).toBe(before.s);
  });

  it.each(['won', 'lost', 'none'] as const)('"%s" keeps them open', async (m) => {
    await mode(m);
    expect((await volunteer(m.length + 10)).status).toBeLessThan(300);
    expect((await signup()).status).toBeLessThan(300);
  });

  it('"ended" keeps RSVPs to upcoming events open: staff decide which events stay public', async () => {
    await mode('ended');
    const event = await rsvpEventFixture(null);
    const res = await rsvpTo(event.id, person());
    expect(res.status).toBe(201);
    expect(((await res.json()) as { status: string }).status).toBe('going');
  });

  it('"ended" chosen before the polls close changes nothing until the results are in', async () => {
    await setElectionCalendar({ ...FUTURE_CALENDAR, mode: 'ended' }, 'test');
    expect((await volunteer(99)).status).toBeLessThan(300);
  });
});
