import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as activityFn from '../../netlify/functions/admin-activity.mts';
import * as adminBroadcasts from '../../netlify/functions/admin-broadcasts.mts';
import * as adminDonations from '../../netlify/functions/admin-donations.mts';
import * as adminElection from '../../netlify/functions/admin-election.mts';
import * as adminVotePlans from '../../netlify/functions/admin-vote-plans.mts';
import * as adminEventRsvps from '../../netlify/functions/admin-event-rsvps.mts';
import * as adminEvents from '../../netlify/functions/admin-events.mts';
import * as adminEventShifts from '../../netlify/functions/admin-event-shifts.mts';
import * as adminShiftPlan from '../../netlify/functions/admin-shift-plan.mts';
import * as adminExports from '../../netlify/functions/admin-exports.mts';
import * as adminInbox from '../../netlify/functions/admin-inbox.mts';
import * as adminMetrics from '../../netlify/functions/admin-metrics.mts';
import * as adminMilestones from '../../netlify/functions/admin-milestones.mts';
import * as adminNews from '../../netlify/functions/admin-news.mts';
import * as adminPeople from '../../netlify/functions/admin-people.mts';
import * as adminPeopleInvite from '../../netlify/functions/admin-people-invite.mts';
import * as adminRecruits from '../../netlify/functions/admin-recruits.mts';
import * as adminRevisions from '../../netlify/functions/admin-revisions.mts';
import * as adminSocial from '../../netlify/functions/admin-social-media-links.mts';
import * as adminTrash from '../../netlify/functions/admin-trash.mts';
import * as adminTwoFactor from '../../netlify/functions/admin-two-factor.mts';
import * as adminUsers from '../../netlify/functions/admin-users.mts';
import * as adminGoals from '../../netlify/functions/admin-volunteer-goals.mts';
import * as changePasswordFn from '../../netlify/functions/auth-change-password.mts';
import * as forgotFn from '../../netlify/functions/auth-forgot-password.mts';
import * as loginFn from '../../netlify/functions/auth-login.mts';
import * as logoutFn from '../../netlify/functions/auth-logout.mts';
import * as resetFn from '../../netlify/functions/auth-reset-password.mts';
import * as twoFactorFn from '../../netlify/functions/auth-two-factor.mts';
import * as phoneFn from '../../netlify/functions/auth-phone.mts';
import * as uploadFn from '../../netlify/functions/upload.mts';
import type { AuditEntry, AuditKind } from '../../src/lib/schemas/audit.ts';
import { auditPage, verifyChain } from '../../src/lib/server/audit/audit.ts';
import { getBroadcast, updateBroadcast } from '../../src/lib/server/broadcasts/repo.ts';
import { broadcastVersion } from '../../src/lib/server/broadcasts/version.ts';
import type { BroadcastStatus } from '../../src/lib/schemas/broadcasts.ts';
import { totpCode } from '../../src/lib/server/auth/totp.ts';
import { link } from '../../src/lib/server/people/link.ts';
import { mergePeople } from '../../src/lib/server/people/merge.ts';
import { inviteCodeOf } from '../../src/lib/server/supporters/invites.ts';
import { defaultElectionCalendar } from '../../src/content/election-calendar.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call, sessionCookie } from '../helpers/http.ts';
import { person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { outboxEmails, signedIn } from '../helpers/users.ts';
import { lastCodeTo, verifyPhone } from '../helpers/staff-phone.ts';

/**
 * Every staff write is audited (docs/decisions/154-audit-trail.md).
 *
 * The write endpoints are not listed by hand: every function module's own
 * `config.path` is probed with each method other than GET/HEAD, and whatever
 * the module does not refuse with 405 is a write endpoint. Each must be in
 * WRITES (a valid staff write that must leave an audit entry) or in NOT_STAFF
 * (with the reason); a new endpoint in neither fails, as does a listed one
 * that no longer exists. Staff exports (GET ?format=csv, any module that
 * answers a download) are listed and checked the same way.
 */

const FUNCTIONS_DIR = join(import.meta.dirname, '../../netlify/functions');
const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Route params filled in for the probe (any value that matches the route). */
const PARAM_VALUES: Record<string, string> = {
  id: '1',
  n: '1',
  kind: 'article',
  rsvpId: 'a'.repeat(64),
  name: '0123456789abcdef0123456789abcdef.png',
};

/**
 * Write endpoints that are not staff actions, so they leave no audit entry.
 * Each says why.
 */
const NOT_STAFF: Record<string, string> = {
  // Public forms: people, not staff (their own protections: captcha, limits, consent).
  'POST /api/contact': 'public contact form',
  'POST /api/email-subscribers': 'public newsletter box',
  'POST /api/email-subscribers/confirm':
    'public: a subscriber confirms their own address by the emailed link',
  'POST /api/newsletter': 'public newsletter form',
  'POST /api/volunteers-sendgrid': 'public volunteer form',
  'POST /api/events/:id/rsvp': 'public RSVP',
  'POST /api/rsvp/cancel': 'the attendee cancelling by their own link',
  'POST /api/shifts/answer': "the volunteer's own keyed link: confirm, cancel, or how the shift went",
  'POST /api/vote-plan': 'public plan to vote',
  'POST /api/vote-plan/update': "the voter's own plan link (I voted, stop, resume, change the plan)",
  // A supporter's own page (docs/decisions/182-supporter-page.md): their own records, by their own sign-in link;
  // each action is in their timeline, not the staff audit trail.
  'POST /api/my/link': 'anyone may ask for a sign-in link; it goes to the address typed, answered alike',
  'POST /api/my/code': 'anyone may ask for a sign-in code; it goes to the number typed, answered alike',
  ...Object.fromEntries(
    ['POST', 'PUT', 'PATCH', 'DELETE'].map((m) => [
      `${m} /api/my/:action`,
      'a supporter acting on their own records, by their own session',
    ]),
  ),
  // Machine callers, authenticated by their own secrets.
  'POST /api/sms/inbound': 'the SMS provider (STOP/HELP), signed',
  'POST /api/sms/status': 'the SMS provider’s delivery reports for broadcast texts, signed',
  'POST /api/email/events':
    'the email provider’s Event Webhook (bounces, spam reports, unsubscribes), signed',
  'POST /api/unsubscribe': 'a recipient unsubscribing by their own signed link',
  'POST /api/donations/actblue': 'the ActBlue webhook, signed',
  'POST /api/donations/actblue/refunds': 'the ActBlue webhook, signed',
  'POST /api/donations/actblue/cancellations': 'the ActBlue webhook, signed',
  // Anonymous: anyone may ask; the mail goes to the account's own address, and signing in with the temporary
  // password is audited ('auth.sign_in' with "temporary password"), as is the reset it links to.
  'POST /api/auth/forgot-password': 'anonymous request for a reset email',
  // Not writes: they change nothing that stays.
  'POST /api/admin/preview': 'renders a preview; stores nothing',
  'POST /api/auth/two-factor/setup': 'a pending secret that changes nothing until /enable, which is audited',
  'POST /api/admin/activity/verification':
    'starts the full verification of the audit trail: a read of every entry that stores only its own progress',
  // The background half of a staff export: it runs a job the member's POST /api/admin/exports stored (and
  // audited), authenticated by that job's own run token.
  'POST /api/exports/run': 'the background worker of an export already audited when it was started',
};

const json = async <T>(res: Response) => (await res.json()) as T;

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(() => blobs.stop());

interface Mod {
  default: (req: Request, context: never) => Promise<Response>;
  config: { path?: string | string[] };
}

async function functionModules(): Promise<{ file: string; mod: Mod; source: string }[]> {
  const files = (await readdir(FUNCTIONS_DIR)).filter((f) => f.endsWith('.mts')).sort();
  return Promise.all(
    files.map(async (file) => ({
      file,
      mod: (await import(join(FUNCTIONS_DIR, file))) as Mod,
      source: await readFile(join(FUNCTIONS_DIR, file), 'utf8'),
    })),
  );
}

const fill = (pattern: string) => pattern.replace(/:(\w+)/g, (_, p: string) => PARAM_VALUES[p] ?? 'x');

/** "METHOD /pattern" of every route a module answers with something other than 405. */
async function discoverWrites(): Promise<string[]> {
  const found: string[] = [];
  for (const { mod } of await functionModules()) {
    const paths = [mod.config.path ?? []].flat();
    for (const pattern of paths)
      for (const method of WRITE_METHODS) {
        const res = await call(mod as never, fill(pattern), { method, ip: '192.0.2.250' });
        if (res.status !== 405) found.push(`${method} ${pattern}`);
      }
  }
  return found.sort();
}

// ---------------------------------------------------------------------------
// Fixtures and the valid staff write of each endpoint

type Staff = Awaited<ReturnType<typeof signedIn>>;
let admin: Staff;
let editor: Staff;

const eventBody = (over: Record<string, unknown> = {}) => ({
  title: 'Audit coverage',
  description: 'x',
  location: 'Library',
  eventDate: new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10),
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
});
let articles = 0;
const articleBody = () => ({
  title: `Coverage ${++articles}`,
  slug: `coverage-${articles}-${Date.now().toString(36)}`,
  content: '<p>a</p>',
  author: 'A',
});

async function newArticle(cookie = editor.cookie): Promise<{ id: number }> {
  const res = await call(adminNews, '/api/admin/news', { json: articleBody(), cookie });
  expect(res.status).toBe(201);
  return (await json<{ article: { id: number } }>(res)).article;
}
async function newEvent(): Promise<{ id: number }> {
  const res = await call(adminEvents, '/api/admin/events', { json: eventBody(), cookie: editor.cookie });
  expect(res.status).toBe(201);
  return (await json<{ event: { id: number } }>(res)).event;
}
async function newUser(): Promise<{ id: number }> {
  const res = await call(adminUsers, '/api/admin/users', {
    json: {
      username: `cov${Date.now().toString(36)}${++articles}`.slice(0, 30),
      email: `cov${Date.now()}${articles}@example.org`,
      password: 'secret-pass',
      role: 'viewer',
    },
    cookie: admin.cookie,
  });
  expect(res.status).toBe(201);
  return (await json<{ user: { id: number } }>(res)).user;
}
async function rsvpId(): Promise<{ eventId: number; id: string }> {
  const event = await rsvpEventFixture(null);
  expect((await rsvpTo(event.id, person())).status).toBe(201);
  const view = await json<{ items: { id: string }[] }>(
    await call(adminEventRsvps, `/api/admin/events/${event.id}/rsvps`, { cookie: editor.cookie }),
  );
  return { eventId: event.id, id: view.items[0]!.id };
}
/** An event with one shift (docs/decisions/181-shifts.md) and one person on it. */
async function shiftPerson(): Promise<{ eventId: number; id: string }> {
  const event = await rsvpEventFixture(null);
  const slots = [{ id: 'door', date: '2031-01-04', start: '09:00', end: '12:00', capacity: 5, label: '' }];
  const put = await call(adminEventShifts, `/api/admin/events/${event.id}/shifts`, {
    method: 'PUT',
    json: { slots },
    cookie: editor.cookie,
  });
  expect(put.status).toBe(200);
  const p = person();
  expect((await rsvpTo(event.id, { ...p, slots: ['door'] })).status).toBe(201);
  return { eventId: event.id, id: hashed(p.email) };
}
/** An editor with two-factor on: its secret, recovery codes, password and a session cookie. */
async function enrolled() {
  const u = await signedIn('editor');
  const setup = await json<{ secret: string }>(
    await call(twoFactorFn, '/api/auth/two-factor/setup', { method: 'POST', cookie: u.cookie }),
  );
  const enable = await call(twoFactorFn, '/api/auth/two-factor/enable', {
    json: { password: u.password, code: totpCode(setup.secret) },
    cookie: u.cookie,
  });
  expect(enable.status).toBe(200);
  const { recoveryCodes } = await json<{ recoveryCodes: string[] }>(enable);
  // Turning two-factor on signs out every other session and re-issues the caller's cookie.
  return { ...u, cookie: sessionCookie(enable), secret: setup.secret, recoveryCodes };
}
const gif = () => {
  const f = new FormData();
  const data = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
  f.append('image', new Blob([new Uint8Array(data)], { type: 'image/gif' }), 'pixel.gif');
  return f;
};

/** A broadcast (an admin's draft), put in the status an action needs. */
async function broadcast(status: BroadcastStatus = 'draft'): Promise<number> {
  const res = await call(adminBroadcasts, '/api/admin/broadcasts', {
    json: {
      name: 'Coverage',
      channel: 'email',
      audience: { kind: 'newsletter_subscribers' },
      email: { subject: 'S', html: '<p>Hi</p>' },
    },
    cookie: admin.cookie,
  });
  const id = (await json<{ broadcast: { id: number } }>(res)).broadcast.id;
  // Past ready: as if approved (resuming checks the content is the version approved).
  if (status !== 'draft')
    await updateBroadcast(id, (b) => ({
      ...b,
      status,
      approvedVersion: status === 'ready' ? null : broadcastVersion(b),
      run: { ...b.run, recipients: 1, resolved: true },
    }));
  return id;
}
/** An action on a broadcast in `status`; send and schedule name the version an admin reviewing it sees. */
const broadcastAction =
  (status: BroadcastStatus, action: string, body?: Record<string, unknown>) => async () => {
    const id = await broadcast(status);
    const approval = action === 'send' || action === 'schedule';
    const version = broadcastVersion((await getBroadcast(id))!);
    const payload = approval ? { ...body, version } : body;
    return [
      await call(adminBroadcasts, `/api/admin/broadcasts/${id}/${action}`, {
        method: 'POST',
        cookie: admin.cookie,
        ...(payload ? { json: payload } : {}),
      }),
      `broadcast.${action === 'test' ? 'test_send' : action}` as AuditKind,
    ] as [Response, AuditKind];
  };

let personSeq = 0;
/** Two people of their own (docs/decisions/149-people.md). */
async function twoPeople(): Promise<[string, string]> {
  const one = async () => {
    personSeq += 1;
    const r = await link({
      source: 'volunteer',
      store: 'volunteers',
      key: `volunteer/audit/${personSeq}`,
      email: `audit-person${personSeq}@example.org`,
      phone: `+1504555${String(3000 + personSeq)}`,
      name: `Audit Person ${personSeq}`,
      at: new Date(),
    });
    return 'personId' in r ? r.personId : '';
  };
  return [await one(), await one()];
}
const peopleAction = (path: string, cookie: string, json?: unknown) =>
  call(adminPeople, path, { method: 'POST', cookie, ...(json === undefined ? {} : { json }) });

/** A valid staff write of each endpoint: the response, and the kind of entry it must leave. */
const WRITES: Record<string, () => Promise<[Response, AuditKind]>> = {
  'POST /api/admin/people/:id/merge': async () => {
    const [a, b] = await twoPeople();
    return [
      await peopleAction(`/api/admin/people/${a}/merge`, editor.cookie, { mergeId: b }),
      'person.merge',
    ];
  },
  'POST /api/admin/people/:id/unmerge': async () => {
    const [a, b] = await twoPeople();
    await mergePeople(a, b, editor.user.id);
    return [await peopleAction(`/api/admin/people/${b}/unmerge`, editor.cookie), 'person.unmerge'];
  },
  'POST /api/admin/people/:id/consent': async () => {
    const [a] = await twoPeople();
    return [
      await peopleAction(`/api/admin/people/${a}/consent`, editor.cookie, { channel: 'all' }),
      'person.consent',
    ];
  },
  'POST /api/admin/people/:id/tags': async () => {
    const [a] = await twoPeople();
    return [
      await peopleAction(`/api/admin/people/${a}/tags`, editor.cookie, { add: ['canvasser'] }),
      'person.tags',
    ];
  },
  'POST /api/admin/people/:id/invite/revoke': async () => {
    const [a] = await twoPeople();
    await inviteCodeOf(a);
    return [
      await call(adminPeopleInvite, `/api/admin/people/${a}/invite/revoke`, {
        method: 'POST',
        cookie: editor.cookie,
      }),
      'person.invite_revoke',
    ];
  },
  'PUT /api/admin/recruits': async () => [
    await call(adminRecruits, '/api/admin/recruits', {
      method: 'PUT',
      json: { showOnMy: false },
      cookie: admin.cookie,
    }),
    'recruits.settings',
  ],
  'POST /api/admin/people/:id/notes': async () => {
    const [a] = await twoPeople();
    return [
      await peopleAction(`/api/admin/people/${a}/notes`, editor.cookie, { text: 'Called back.' }),
      'person.note',
    ];
  },
  'POST /api/admin/people/:id/forget': async () => {
    const [a] = await twoPeople();
    return [await peopleAction(`/api/admin/people/${a}/forget`, admin.cookie), 'person.forget'];
  },
  'POST /api/admin/exports': async () => [
    await call(adminExports, '/api/admin/exports', {
      json: { source: 'inbox', params: { kind: 'contacts', q: 'x' } },
      cookie: editor.cookie,
    }),
    'inbox.export',
  ],
  'POST /api/admin/broadcasts': async () => [
    await call(adminBroadcasts, '/api/admin/broadcasts', {
      json: {
        name: 'Drafted',
        channel: 'text',
        audience: { kind: 'text_subscribers' },
        text: { body: 'Hi' },
      },
      cookie: editor.cookie,
    }),
    'broadcast.draft',
  ],
  'PUT /api/admin/broadcasts/:id': async () => [
    await call(adminBroadcasts, `/api/admin/broadcasts/${await broadcast()}`, {
      method: 'PUT',
      json: {
        name: 'Renamed',
        channel: 'email',
        audience: { kind: 'volunteers' },
        email: { subject: 'S', html: '<p>Hi</p>' },
      },
      cookie: editor.cookie,
    }),
    'broadcast.update',
  ],
  'POST /api/admin/broadcasts/:id/prepare': broadcastAction('draft', 'prepare'),
  'POST /api/admin/broadcasts/:id/test': broadcastAction('draft', 'test', {}),
  'POST /api/admin/broadcasts/:id/send': broadcastAction('ready', 'send'),
  'POST /api/admin/broadcasts/:id/schedule': broadcastAction('ready', 'schedule', {
    at: new Date(Date.now() + 86_400_000).toISOString(),
  }),
  'POST /api/admin/broadcasts/:id/pause': broadcastAction('sending', 'pause'),
  'POST /api/admin/broadcasts/:id/resume': broadcastAction('paused', 'resume'),
  'POST /api/admin/broadcasts/:id/cancel': broadcastAction('scheduled', 'cancel'),
  'POST /api/admin/news': async () => [
    await call(adminNews, '/api/admin/news', { json: articleBody(), cookie: editor.cookie }),
    'article.create',
  ],
  'PUT /api/admin/news/:id': async () => {
    const a = await newArticle();
    const body = { ...articleBody(), title: 'Changed' };
    return [
      await call(adminNews, `/api/admin/news/${a.id}`, { method: 'PUT', json: body, cookie: editor.cookie }),
      'article.update',
    ];
  },
  'DELETE /api/admin/news/:id': async () => [
    await call(adminNews, `/api/admin/news/${(await newArticle()).id}`, {
      method: 'DELETE',
      cookie: editor.cookie,
    }),
    'article.delete',
  ],
  'POST /api/admin/news/:id/revisions/:n/restore': async () => {
    const a = await newArticle();
    await call(adminNews, `/api/admin/news/${a.id}`, {
      method: 'PUT',
      json: { ...articleBody(), title: 'Second' },
      cookie: editor.cookie,
    });
    return [
      await call(adminRevisions, `/api/admin/news/${a.id}/revisions/1/restore`, {
        method: 'POST',
        cookie: editor.cookie,
      }),
      'article.restore',
    ];
  },
  'POST /api/admin/events': async () => [
    await call(adminEvents, '/api/admin/events', { json: eventBody(), cookie: editor.cookie }),
    'event.create',
  ],
  'PUT /api/admin/events/:id': async () => [
    await call(adminEvents, `/api/admin/events/${(await newEvent()).id}`, {
      method: 'PUT',
      json: eventBody({ title: 'Renamed' }),
      cookie: editor.cookie,
    }),
    'event.update',
  ],
  'DELETE /api/admin/events/:id': async () => [
    await call(adminEvents, `/api/admin/events/${(await newEvent()).id}`, {
      method: 'DELETE',
      cookie: editor.cookie,
    }),
    'event.delete',
  ],
  'POST /api/admin/events/:id/revisions/:n/restore': async () => {
    const e = await newEvent();
    await call(adminEvents, `/api/admin/events/${e.id}`, {
      method: 'PUT',
      json: eventBody({ title: 'Second' }),
      cookie: editor.cookie,
    });
    return [
      await call(adminRevisions, `/api/admin/events/${e.id}/revisions/1/restore`, {
        method: 'POST',
        cookie: editor.cookie,
      }),
      'event.restore',
    ];
  },
  'POST /api/admin/trash/:kind/:id/restore': async () => {
    const a = await newArticle();
    await call(adminNews, `/api/admin/news/${a.id}`, { method: 'DELETE', cookie: editor.cookie });
    return [
      await call(adminTrash, `/api/admin/trash/article/${a.id}/restore`, {
        method: 'POST',
        cookie: admin.cookie,
      }),
      'article.restore',
    ];
  },
  'PUT /api/admin/social-media-links/:id': async () => [
    await call(adminSocial, '/api/admin/social-media-links/1', {
      method: 'PUT',
      json: { url: 'https://facebook.com/avery', handle: 'avery', isActive: true, displayOrder: 1 },
      cookie: editor.cookie,
    }),
    'social.update',
  ],
  'PUT /api/admin/metrics/:id': async () => [
    await call(adminMetrics, '/api/admin/metrics/1', {
      method: 'PUT',
      json: { currentValue: 5, targetValue: 10, label: 'Volunteers' },
      cookie: admin.cookie,
    }),
    'metric.update',
  ],
  'PUT /api/admin/volunteer-goals/:id': async () => [
    await call(adminGoals, '/api/admin/volunteer-goals/1', {
      method: 'PUT',
      json: {
        currentCount: 1,
        targetCount: 15,
        deadline: '2026-05-03',
        description: 'Recruits',
        priority: 'high',
      },
      cookie: editor.cookie,
    }),
    'goal.update',
  ],
  'PUT /api/admin/milestones/:id': async () => [
    await call(adminMilestones, '/api/admin/milestones/2', {
      method: 'PUT',
      json: { currentCount: 3, targetCount: '', label: 'Yard signs' },
      cookie: editor.cookie,
    }),
    'milestone.update',
  ],
  'PUT /api/admin/donations/goal': async () => [
    await call(adminDonations, '/api/admin/donations/goal', {
      method: 'PUT',
      json: { enabled: true, targetDollars: 1000, label: 'September push', since: '2025-09-01' },
      cookie: editor.cookie,
    }),
    'donation.goal_update',
  ],
  'PUT /api/admin/election': async () => [
    await call(adminElection, '/api/admin/election', {
      method: 'PUT',
      json: { ...defaultElectionCalendar, mode: 'ended' },
      cookie: admin.cookie,
    }),
    'settings.election_calendar',
  ],
  'POST /api/admin/election/sites': async () => [
    await call(adminElection, '/api/admin/election/sites', {
      json: {
        csv: `id,name,address\r\n${defaultElectionCalendar.sites.map((s) => `${s.id},"${s.name}","${s.address}"`).join('\r\n')}`,
      },
      cookie: admin.cookie,
    }),
    'settings.election_calendar',
  ],
  'POST /api/admin/election/next': async () => [
    // The stored calendar holds a past election (the seed's, or the one the PUT above stored).
    await call(adminElection, '/api/admin/election/next', {
      json: { electionDay: '2099-11-07' },
      cookie: admin.cookie,
    }),
    'settings.election_calendar',
  ],
  'PUT /api/admin/events/:id/rsvps/:rsvpId': async () => {
    const r = await rsvpId();
    return [
      await call(adminEventRsvps, `/api/admin/events/${r.eventId}/rsvps/${r.id}`, {
        method: 'PUT',
        json: { checkedIn: true },
        cookie: editor.cookie,
      }),
      'rsvp.check_in',
    ];
  },
  'PUT /api/admin/events/:id/shifts': async () => {
    const event = await rsvpEventFixture(null);
    return [
      await call(adminEventShifts, `/api/admin/events/${event.id}/shifts`, {
        method: 'PUT',
        json: { slots: [] },
        cookie: editor.cookie,
      }),
      'shift.update',
    ];
  },
  'PUT /api/admin/events/:id/shifts/:slot': async () => {
    const r = await shiftPerson();
    return [
      await call(adminEventShifts, `/api/admin/events/${r.eventId}/shifts/door`, {
        method: 'PUT',
        json: { person: r.id, checkedIn: true },
        cookie: editor.cookie,
      }),
      'rsvp.check_in',
    ];
  },
  'POST /api/admin/shift-plan': async () => {
    const event = await rsvpEventFixture(null);
    return [
      await call(adminShiftPlan, '/api/admin/shift-plan', {
        json: { eventId: event.id, shiftMinutes: 240, needed: 1 },
        cookie: editor.cookie,
      }),
      'shift.plan',
    ];
  },
  'POST /api/upload': async () => [
    await call(uploadFn, '/api/upload', { method: 'POST', body: gif(), cookie: editor.cookie }),
    'upload.create',
  ],
  'POST /api/admin/users': async () => {
    const res = await call(adminUsers, '/api/admin/users', {
      json: {
        username: `covu${Date.now().toString(36)}`.slice(0, 30),
        email: `covu${Date.now()}@example.org`,
        password: 'secret-pass',
        role: 'viewer',
      },
      cookie: admin.cookie,
    });
    return [res, 'user.create'];
  },
  'PUT /api/admin/users/:id': async () => [
    await call(adminUsers, `/api/admin/users/${(await newUser()).id}`, {
      method: 'PUT',
      json: { role: 'editor' },
      cookie: admin.cookie,
    }),
    'user.update',
  ],
  'DELETE /api/admin/users/:id': async () => [
    await call(adminUsers, `/api/admin/users/${(await newUser()).id}`, {
      method: 'DELETE',
      cookie: admin.cookie,
    }),
    'user.delete',
  ],
  'PUT /api/admin/two-factor': async () => [
    await call(adminTwoFactor, '/api/admin/two-factor', {
      method: 'PUT',
      json: { requireForAdmins: false, requireForAllStaff: false },
      cookie: admin.cookie,
    }),
    'settings.two_factor_policy',
  ],
  'DELETE /api/admin/users/:id/two-factor': async () => {
    const member = await enrolled();
    return [
      await call(adminTwoFactor, `/api/admin/users/${member.user.id}/two-factor`, {
        method: 'DELETE',
        cookie: admin.cookie,
      }),
      'auth.two_factor_reset',
    ];
  },
  'POST /api/auth/login': async () => {
    const u = await signedIn('viewer');
    return [
      await call(loginFn, '/api/auth/login', {
        json: { username: u.username, password: u.password },
        ip: '192.0.2.240',
      }),
      'auth.sign_in',
    ];
  },
  'POST /api/auth/logout': async () => [
    await call(logoutFn, '/api/auth/logout', { method: 'POST', cookie: (await signedIn('viewer')).cookie }),
    'auth.sign_out',
  ],
  'POST /api/auth/change-password': async () => {
    const u = await signedIn('viewer');
    return [
      await call(changePasswordFn, '/api/auth/change-password', {
        json: { currentPassword: u.password, newPassword: 'a brand new password' },
        cookie: u.cookie,
      }),
      'auth.password_change',
    ];
  },
  'POST /api/auth/reset-password': async () => {
    const u = await signedIn('viewer');
    await call(forgotFn, '/api/auth/forgot-password', { json: { email: u.user.email }, ip: '192.0.2.241' });
    const mail = (await outboxEmails()).find((m) => m.to === u.user.email)!;
    const token = /token=([\w-]+)/.exec(mail.text)![1]!;
    return [
      await call(resetFn, '/api/auth/reset-password', { json: { token, password: 'reset password 1' } }),
      'auth.password_reset',
    ];
  },
  'POST /api/auth/two-factor/enable': async () => {
    const u = await signedIn('editor');
    const setup = await json<{ secret: string }>(
      await call(twoFactorFn, '/api/auth/two-factor/setup', { method: 'POST', cookie: u.cookie }),
    );
    return [
      await call(twoFactorFn, '/api/auth/two-factor/enable', {
        json: { password: u.password, code: totpCode(setup.secret) },
        cookie: u.cookie,
      }),
      'auth.two_factor_enable',
    ];
  },
  'POST /api/auth/two-factor/recovery-codes': async () => {
    const u = await enrolled();
    return [
      await call(twoFactorFn, '/api/auth/two-factor/recovery-codes', {
        json: { password: u.password, recoveryCode: u.recoveryCodes[0] },
        cookie: u.cookie,
      }),
      'auth.recovery_codes_new',
    ];
  },
  'POST /api/auth/two-factor/verify': async () => {
    const u = await enrolled();
    const first = await call(loginFn, '/api/auth/login', {
      json: { username: u.username, password: u.password },
      ip: '192.0.2.242',
    });
    const pending = first.headers
      .getSetCookie()
      .find((c) => c.startsWith('twofactor='))!
      .split(';')[0]!;
    return [
      await call(twoFactorFn, '/api/auth/two-factor/verify', {
        json: { code: totpCode(u.secret, Date.now() + 30_000) },
        cookie: pending,
      }),
      'auth.sign_in',
    ];
  },
  // A member's own phone for test texts (docs/decisions/152-broadcasts.md).
  'POST /api/auth/phone/code': async () => [
    await call(phoneFn, '/api/auth/phone/code', {
      json: { phone: '+12125550301' },
      cookie: (await signedIn('viewer')).cookie,
    }),
    'auth.phone_code_sent',
  ],
  'POST /api/auth/phone/verify': async () => {
    const u = await signedIn('editor');
    await call(phoneFn, '/api/auth/phone/code', { json: { phone: '+12125550302' }, cookie: u.cookie });
    return [
      await call(phoneFn, '/api/auth/phone/verify', {
        json: { code: await lastCodeTo('+12125550302') },
        cookie: u.cookie,
      }),
      'auth.phone_verified',
    ];
  },
  'DELETE /api/auth/phone': async () => {
    const u = await signedIn('editor');
    await verifyPhone(u.cookie, '+12125550303');
    return [
      await call(phoneFn, '/api/auth/phone', { method: 'DELETE', cookie: u.cookie }),
      'auth.phone_removed',
    ];
  },
  'POST /api/auth/two-factor/disable': async () => {
    const u = await enrolled();
    return [
      await call(twoFactorFn, '/api/auth/two-factor/disable', {
        json: { password: u.password, recoveryCode: u.recoveryCodes[0] },
        cookie: u.cookie,
      }),
      'auth.two_factor_disable',
    ];
  },
};

/** A small export started by `who` (POST /api/admin/exports, answered at once), and its file by its signed link. */
async function exported(
  source: string,
  params: Record<string, string>,
  who: { cookie: string },
  kind: AuditKind,
): Promise<[Response, AuditKind]> {
  const res = await call(adminExports, '/api/admin/exports', {
    json: { source, params },
    cookie: who.cookie,
  });
  const { job } = (await res.json()) as { job: { downloads: { url: string }[] } };
  return [await call(adminExports, job.downloads[0]!.url, { cookie: who.cookie }), kind];
}

/** Staff exports of lists (GET ?format=csv): each must leave an entry too. */
const EXPORTS: Record<string, { module: string; run: () => Promise<[Response, AuditKind]> }> = {
  'GET /api/admin/broadcasts/:id?format=csv': {
    module: 'admin-broadcasts.mts',
    run: async () => [
      await call(adminBroadcasts, `/api/admin/broadcasts/${await broadcast()}?format=csv`, {
        cookie: editor.cookie,
      }),
      'broadcast.export',
    ],
  },
  'GET /api/admin/volunteers?format=csv': {
    module: 'admin-inbox.mts',
    run: async () => [
      await call(adminInbox, '/api/admin/volunteers?format=csv', { cookie: editor.cookie }),
      'inbox.export',
    ],
  },
  'GET /api/admin/contacts?format=csv': {
    module: 'admin-inbox.mts',
    run: async () => [
      await call(adminInbox, '/api/admin/contacts?format=csv', { cookie: editor.cookie }),
      'inbox.export',
    ],
  },
  'GET /api/admin/text-signups?format=csv': {
    module: 'admin-inbox.mts',
    run: async () => [
      await call(adminInbox, '/api/admin/text-signups?format=csv', { cookie: editor.cookie }),
      'inbox.export',
    ],
  },
  'GET /api/admin/email-subscribers?format=csv': {
    module: 'admin-inbox.mts',
    run: async () => [
      await call(adminInbox, '/api/admin/email-subscribers?format=csv', { cookie: editor.cookie }),
      'inbox.export',
    ],
  },
  // The background export of any list (docs/decisions/156-exports.md): audited when started; its file
  // is downloaded by a signed link.
  'GET /api/admin/exports/:id/download': {
    module: 'admin-exports.mts',
    run: () => exported('inbox', { kind: 'volunteers' }, editor, 'inbox.export'),
  },
  // Every other list's export (docs/decisions/156-exports.md): its own entry kind.
  'GET /api/admin/exports/:id/download (Activity)': {
    module: 'admin-exports.mts',
    run: () => exported('activity', {}, admin, 'audit.export'),
  },
  "GET /api/admin/exports/:id/download (an event's attendees)": {
    module: 'admin-exports.mts',
    run: async () =>
      exported('attendees', { event: String((await rsvpId()).eventId) }, editor, 'rsvp.export'),
  },
  'GET /api/admin/exports/:id/download (donations)': {
    module: 'admin-exports.mts',
    run: () => exported('donations', {}, editor, 'donation.export'),
  },
  'GET /api/admin/exports/:id/download (plans to vote)': {
    module: 'admin-exports.mts',
    run: () => exported('vote_plans', { round: 'primary' }, editor, 'vote_plan.export'),
  },
  'GET /api/admin/vote-plans?format=csv': {
    module: 'admin-vote-plans.mts',
    run: async () => [
      await call(adminVotePlans, '/api/admin/vote-plans?format=csv', { cookie: editor.cookie }),
      'vote_plan.export',
    ],
  },
  'GET /api/admin/events/:id/rsvps?format=csv': {
    module: 'admin-event-rsvps.mts',
    run: async () => {
      const r = await rsvpId();
      return [
        await call(adminEventRsvps, `/api/admin/events/${r.eventId}/rsvps?format=csv`, {
          cookie: editor.cookie,
        }),
        'rsvp.export',
      ];
    },
  },
  'GET /api/admin/events/:id/shifts/:slot?format=csv': {
    module: 'admin-event-shifts.mts',
    run: async () => {
      const r = await shiftPerson();
      return [
        await call(adminEventShifts, `/api/admin/events/${r.eventId}/shifts/door?format=csv`, {
          cookie: editor.cookie,
        }),
        'rsvp.export',
      ];
    },
  },
  'GET /api/admin/donations?format=csv': {
    module: 'admin-donations.mts',
    run: async () => [
      await call(adminDonations, '/api/admin/donations?format=csv', { cookie: editor.cookie }),
      'donation.export',
    ],
  },
  'GET /api/admin/activity?format=csv': {
    module: 'admin-activity.mts',
    run: async () => [
      await call(activityFn, '/api/admin/activity?format=csv', { cookie: admin.cookie }),
      'audit.export',
    ],
  },
};

async function newEntries(after: number): Promise<AuditEntry[]> {
  const page = await auditPage({ page: 1, pageSize: 100, format: 'json' });
  return page.entries.filter((e) => e.seq > after);
}

beforeAll(async () => {
  admin = await signedIn('admin');
  editor = await signedIn('editor');
});

describe('every staff write is audited', () => {
  it('the write endpoints found in the function modules are exactly those listed', async () => {
    const listed = [...Object.keys(WRITES), ...Object.keys(NOT_STAFF)].sort();
    expect(await discoverWrites()).toEqual(listed);
  });

  it('every module that answers a download is covered by the staff exports listed', async () => {
    // download(): a CSV answered at once; directExport, startExport, exportDownload: the export mechanism.
    const downloading = (await functionModules())
      .filter((m) => /\b(download|directExport|startExport|exportDownload)\(/.test(m.source))
      .map((m) => m.file);
    const covered = new Set(Object.values(EXPORTS).map((e) => e.module));
    expect(downloading.filter((f) => !covered.has(f))).toEqual([]);
  });

  for (const [route, write] of Object.entries(WRITES))
    it(`${route} leaves an entry`, async () => {
      const before = (await verifyChain()).entries;
      const [res, kind] = await write();
      expect(res.status, await res.clone().text()).toBeLessThan(300);
      const mine = await newEntries(before);
      expect(mine.map((e) => e.kind)).toContain(kind);
    });

  for (const [route, { run }] of Object.entries(EXPORTS))
    it(`${route} leaves an entry`, async () => {
      const before = (await verifyChain()).entries;
      const [res, kind] = await run();
      expect(res.status, await res.clone().text()).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      expect((await newEntries(before)).map((e) => e.kind)).toContain(kind);
    });

  it('the chain holds after all of it', async () => {
    expect((await verifyChain()).ok).toBe(true);
  });
});
