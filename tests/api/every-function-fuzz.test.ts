import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ArticleSchema } from '../../src/lib/schemas/article.ts';
import { EventSchema } from '../../src/lib/schemas/event.ts';
import { StoredSubscriberSchema } from '../../src/lib/schemas/inbox.ts';
import { StoredVotePlanSchema } from '../../src/lib/schemas/vote-plan.ts';
import { setElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import { FUTURE_CALENDAR } from '../helpers/election.ts';
import { MetricSchema, MilestoneSchema, VolunteerGoalSchema } from '../../src/lib/schemas/progress.ts';
import { SocialLinkSchema } from '../../src/lib/schemas/social.ts';
import { StoredContributionSchema, StoredGoalSchema } from '../../src/lib/schemas/donations.ts';
import { StoredExportJobSchema } from '../../src/lib/schemas/exports.ts';
import { articles } from '../../src/lib/server/content/articles.ts';
import { events } from '../../src/lib/server/content/events.ts';
import { goals, metrics, milestones } from '../../src/lib/server/content/progress.ts';
import { socialLinks } from '../../src/lib/server/content/social.ts';
import { getUser } from '../../src/lib/server/auth/users.ts';
import { staffPhoneStatus } from '../../src/lib/server/broadcasts/staff-phone.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { basic, useWebhookCredentials, WEBHOOK_PASSWORD, WEBHOOK_USER } from '../helpers/donations.ts';
import { localProviders, valuesOf } from '../helpers/forms.ts';
import { anyValue, formOf } from '../helpers/fuzz.ts';
import { call, ORIGIN, type CallOptions } from '../helpers/http.ts';
import { verifyPhone } from '../helpers/staff-phone.ts';
import { signedIn } from '../helpers/users.ts';

/**
 * Property: EVERY function in netlify/functions/ (the list is the directory, so a new function is
 * fuzzed without anyone adding it here) answers whatever arrives with a 2xx or 4xx, never a 5xx or a
 * stack trace, and nothing it stored fails its schema. Each function gets arbitrary paths of its
 * own `config.path` (route params from real ids, junk and out-of-range numbers), every method,
 * anonymous and staff sessions (admin, editor, viewer), and bodies that are either a mutation of a
 * valid example (so the accepting path runs too) or arbitrary JSON, text or multipart garbage.
 * The deeper, field-by-field fuzz of the public forms, auth, RSVP and donations endpoints is in
 * forms-fuzz, auth-fuzz and ops-fuzz.
 */

type Handler = Parameters<typeof call>[0];
const DIR = join(process.cwd(), 'netlify', 'functions');
const FILES = readdirSync(DIR)
  .filter((f) => /\.(mts|ts|mjs|js)$/.test(f))
  .sort();
// Vite's glob import: the same directory, loaded by the test runner (a plain dynamic import of a
// computed path would bypass its TypeScript transform).
const LOADERS = import.meta.glob<Handler>('../../netlify/functions/*.{mts,ts,mjs,js}');
const loaderOf = (file: string) => LOADERS[`../../netlify/functions/${file}`];

const RUNS = 30;

let stop: () => Promise<void>;
const cookies: Record<'admin' | 'editor' | 'viewer', string> = { admin: '', editor: '', viewer: '' };
const ids: Record<string, number[]> = {};

beforeAll(async () => {
  ({ stop } = await startBlobs());
  localProviders();
  useWebhookCredentials();
  // An election still ahead, so the plan-to-vote example is accepted (the seeded 2025 one is over).
  await setElectionCalendar(FUTURE_CALENDAR, 'fuzz');
});
afterAll(() => stop());

let phoneN = 0;
/** The signed-in admin's own verified phone (the one a test text may go to). */
let adminPhone = '';

/** The signed-in staff's user ids (the admin's phone is read off its record). */
let adminId = 0;

/**
 * Whether the staff signed in for an earlier test are still as a fresh sign-in leaves them: each session
 * answers /api/auth/me with its role, the account active and its password not to be changed, and the admin's
 * record still holds its own verified phone with a test text left today. Reads only: a fuzz that signed
 * one out, changed a role or a phone, or used up the test texts makes the next test sign in anew.
 */
async function staffAsSignedIn(): Promise<boolean> {
  if (!adminId) return false;
  const me = await import('../../netlify/functions/auth-me.mts');
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    const res = await call(me, '/api/auth/me', { method: 'GET', cookie: cookies[role] });
    if (res.status !== 200) return false;
    const body = (await res.json()) as {
      role: string;
      user: { isActive: boolean; mustChangePassword?: boolean };
    };
    if (body.role !== role || !body.user.isActive || body.user.mustChangePassword) return false;
  }
  const admin = await getUser(adminId);
  if (admin?.phone !== adminPhone || !admin.phoneVerifiedAt) return false;
  return (await staffPhoneStatus(admin)).testsLeftToday > 0;
}

/**
 * Each test's staff, signed in, the admin with a verified phone of its own: a fuzz that ran before may have
 * signed one out, changed its phone or used up its codes, so new staff are made unless those of the test before
 * are still exactly as signed in (`staffAsSignedIn`: a few reads instead of three accounts, three sign-ins and a
 * phone verification per test; docs/decisions/163-tests.md, "Less work per check").
 */
async function signInStaff(): Promise<void> {
  if (await staffAsSignedIn()) return;
  const admin = await signedIn('admin');
  adminId = admin.user.id;
  cookies.admin = admin.cookie;
  for (const role of ['editor', 'viewer'] as const) cookies[role] = (await signedIn(role)).cookie;
  // A test text goes nowhere else (docs/decisions/152-broadcasts.md); a number per admin (5 codes a
  // day per number).
  adminPhone = `+1504555${String(100 + ++phoneN).padStart(4, '0')}`;
  await verifyPhone(cookies.admin, adminPhone);
}

/** A valid example body per path pattern (mutated by formOf): the accepting path is fuzzed too. */
const ARTICLE = {
  title: 'Fuzzed article',
  slug: 'fuzzed-article',
  content: '<p>Body</p>',
  excerpt: 'Short.',
  author: 'Press Office',
  isPublished: true,
};
const EVENT = {
  title: 'Fuzzed rally',
  location: 'Mid-City',
  eventDate: '2031-01-01',
  startTime: '10:00',
  eventType: 'rally',
  isPublic: true,
};
interface Example {
  method: string;
  pattern: string;
  /** The concrete path, from the records made in the set-up test. */
  path: () => string;
  body: Record<string, unknown>;
}
const at = (pattern: string, id: () => number | undefined) => () => pattern.replace(':id', String(id()));
const made: {
  article?: number;
  event?: number;
  metric?: number;
  goal?: number;
  milestone?: number;
  link?: number;
  user?: number;
  broadcast?: number;
} = {};
const BROADCAST = {
  name: 'Fuzzed broadcast',
  channel: 'text',
  audience: { kind: 'text_subscribers', lang: 'es' },
  text: { body: 'Hi {firstName}, polls are open.', bodyEs: 'Hola {firstName}.', firstNameFallback: 'friend' },
};
const EXAMPLES: Example[] = [
  {
    method: 'POST',
    pattern: '/api/admin/news',
    path: () => '/api/admin/news',
    body: { ...ARTICLE, slug: 'fuzz-new' },
  },
  {
    method: 'PUT',
    pattern: '/api/admin/news/:id',
    path: at('/api/admin/news/:id', () => made.article),
    body: ARTICLE,
  },
  { method: 'POST', pattern: '/api/admin/preview', path: () => '/api/admin/preview', body: ARTICLE },
  { method: 'POST', pattern: '/api/admin/events', path: () => '/api/admin/events', body: EVENT },
  {
    method: 'PUT',
    pattern: '/api/admin/events/:id',
    path: at('/api/admin/events/:id', () => made.event),
    body: EVENT,
  },
  {
    method: 'PUT',
    pattern: '/api/admin/metrics/:id',
    path: at('/api/admin/metrics/:id', () => made.metric),
    body: { currentValue: 5, targetValue: 10, label: 'Doors', sublabel: '', trend: '' },
  },
  {
    method: 'PUT',
    pattern: '/api/admin/volunteer-goals/:id',
    path: at('/api/admin/volunteer-goals/:id', () => made.goal),
    body: {
      currentCount: 3,
      targetCount: 10,
      deadline: '2031-01-01',
      description: 'Canvassers',
      priority: 'high',
    },
  },
  {
    method: 'PUT',
    pattern: '/api/admin/milestones/:id',
    path: at('/api/admin/milestones/:id', () => made.milestone),
    body: { currentCount: 2, targetCount: 5, label: 'Yard signs', description: '' },
  },
  {
    method: 'PUT',
    pattern: '/api/admin/social-media-links/:id',
    path: at('/api/admin/social-media-links/:id', () => made.link),
    body: { url: 'https://facebook.com/example', handle: 'Example', isActive: true, displayOrder: 1 },
  },
  {
    method: 'POST',
    pattern: '/api/admin/users',
    path: () => '/api/admin/users',
    body: {
      username: 'fuzzed-user',
      email: 'fuzzed-user@example.org',
      password: 'a-long-enough-password-1',
      role: 'viewer',
    },
  },
  {
    method: 'PUT',
    pattern: '/api/admin/donations/goal',
    path: () => '/api/admin/donations/goal',
    body: { enabled: true, targetDollars: 50_000, label: 'Goal', since: '2025-09-01' },
  },
  {
    method: 'PUT',
    pattern: '/api/admin/two-factor',
    path: () => '/api/admin/two-factor',
    body: { requireForAdmins: false, requireForAllStaff: false },
  },
  { method: 'POST', pattern: '/api/admin/broadcasts', path: () => '/api/admin/broadcasts', body: BROADCAST },
  {
    method: 'PUT',
    pattern: '/api/admin/broadcasts/:id',
    path: at('/api/admin/broadcasts/:id', () => made.broadcast),
    body: BROADCAST,
  },
  {
    method: 'POST',
    pattern: '/api/admin/broadcasts/:id/test',
    path: at('/api/admin/broadcasts/:id/test', () => made.broadcast),
    get body() {
      return { to: adminPhone, lang: 'es' };
    },
  },
  {
    method: 'POST',
    pattern: '/api/admin/broadcasts/:id/prepare',
    path: at('/api/admin/broadcasts/:id/prepare', () => made.broadcast),
    body: {},
  },
  {
    method: 'POST',
    pattern: '/api/admin/exports',
    path: () => '/api/admin/exports',
    body: { source: 'inbox', params: { kind: 'volunteers', q: 'a' } },
  },
  {
    method: 'POST',
    pattern: '/api/email-subscribers',
    path: () => '/api/email-subscribers',
    body: { email: 'fuzz@example.org', sourcePage: '/blog', captcha: TURNSTILE_TEST_TOKEN },
  },
  {
    method: 'POST',
    pattern: '/api/vote-plan',
    path: () => '/api/vote-plan',
    body: {
      day: '2031-01-04',
      method: 'in-person',
      name: 'Fuzz',
      email: 'fuzz@example.org',
      emailConsent: true,
      captcha: TURNSTILE_TEST_TOKEN,
    },
  },
  {
    method: 'POST',
    pattern: '/api/contact',
    path: () => '/api/contact',
    body: {
      name: 'Fuzz',
      email: 'fuzz@example.org',
      subject: 'general',
      message: 'A message.',
      captcha: TURNSTILE_TEST_TOKEN,
    },
  },
];
let uniq = 0;
/** An example with its unique fields (slug, username, email) made unique, so it can be sent again. */
function unique(body: Record<string, unknown>): Record<string, unknown> {
  uniq += 1;
  const out = { ...body };
  if (typeof out.slug === 'string') out.slug = `${out.slug}-${uniq}`;
  if (typeof out.username === 'string') out.username = `${out.username}-${uniq}`;
  if (out.password && typeof out.email === 'string') out.email = `u${uniq}-${out.email}`;
  return out;
}
const exampleFor = (pattern: string) => EXAMPLES.find((e) => e.pattern === pattern);

/** Route parameter values: mostly real ids of what exists, sometimes junk. */
function param(name: string): fc.Arbitrary<string> {
  const known = (ids[name] ?? []).map(String);
  const junk = fc.oneof(
    fc.constantFrom('0', '-1', '999999', '1.5', 'abc', '%00', '9'.repeat(30), 'x'.repeat(300)),
    // A segment of dots only, plain or encoded ('.', '%2E', '..'), is resolved away by URL parsing (another route).
    fc.string({ maxLength: 12 }).map((s) => {
      const segment = encodeURIComponent(s).replaceAll('.', '%2E');
      return /^(%2E)*$/i.test(segment) ? `x${segment}` : segment;
    }),
  );
  if (name === 'kind') return fc.oneof(fc.constantFrom('article', 'event', 'news', 'events'), junk);
  if (name === 'name') return fc.oneof(fc.constantFrom('a.png', 'nope.jpg', '..%2Fsecret'), junk);
  return known.length ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 3 }, junk) : junk;
}

function concrete(pattern: string): fc.Arbitrary<string> {
  const parts = pattern.split('/');
  return fc
    .tuple(...parts.map((p) => (p.startsWith(':') ? param(p.slice(1)) : fc.constant(p))))
    .map((xs) => xs.join('/'));
}

const multipartGarbage = fc
  .tuple(
    fc.uint8Array({ maxLength: 2048 }),
    fc.constantFrom('image/png', 'image/jpeg', 'text/html', 'application/pdf', ''),
    fc.oneof(fc.constantFrom('a.png', 'x.svg', '../../etc/passwd', ''), fc.string({ maxLength: 20 })),
    fc.constantFrom('file', 'image', 'upload', 'x'),
  )
  .map(([bytes, type, name, field]) => {
    const form = new FormData();
    form.set(field, new Blob([bytes], { type }), name);
    return { body: form, headers: {} };
  });

/** A body: a mutated valid example, arbitrary JSON, text, or multipart (valid framing, garbage inside). */
function bodyFor(
  pattern: string,
): fc.Arbitrary<{ json?: unknown; body?: BodyInit; headers?: Record<string, string> }> {
  const example = exampleFor(pattern)?.body;
  const arbitrary = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }).map((json) => ({ json })),
    fc.string({ maxLength: 200 }).map((s) => ({ body: s, headers: { 'content-type': 'text/plain' } })),
    fc
      .string({ maxLength: 200 })
      .map((s) => ({ body: s, headers: { 'content-type': 'multipart/form-data; boundary=zz' } })),
    multipartGarbage,
    fc.constant({}),
  );
  if (!example) return arbitrary;
  const mutated = formOf(
    Object.fromEntries(Object.entries(example).map(([k, v]) => [k, fc.oneof(fc.constant(v), anyValue)])),
  ).map((json) => ({ json }));
  return fc.oneof(
    { arbitrary: mutated, weight: 3 },
    { arbitrary: fc.constant({ json: example }), weight: 1 },
    arbitrary,
  );
}

function pathsOf(mod: Handler): string[] {
  const p = mod.config?.path;
  return Array.isArray(p) ? p : p ? [p] : [];
}

async function expectClean(name: string, path: string, opts: CallOptions, res: Response, seen: Set<number>) {
  seen.add(res.status);
  const text = await res.text();
  expect(res.status, `${name}: ${opts.method} ${path} -> ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(res.status).toBeGreaterThanOrEqual(200);
  expect(text).not.toMatch(/at .*\.m?ts:\d+/);
}

describe('property-based fuzz of every function in netlify/functions/', () => {
  it('finds every function file and loads each (the list is the directory)', async () => {
    expect(FILES.length).toBeGreaterThan(30);
    for (const f of FILES) {
      const mod = await loaderOf(f)!();
      expect(typeof mod.default, f).toBe('function');
    }
  });

  // Before each test, records to aim route params at (staff writes, real ids), made anew: a fuzz that ran
  // before may have deleted the last ones.
  beforeEach(async () => {
    // Staff signed in as a fresh sign-in leaves them: a fuzz that ran before may have signed one out or changed its password.
    await signInStaff();
    const news = await import('../../netlify/functions/admin-news.mts');
    const ev = await import('../../netlify/functions/admin-events.mts');
    const res = await call(news, '/api/admin/news', {
      json: unique({ ...ARTICLE, slug: 'fuzz-target' }),
      cookie: cookies.admin,
    });
    expect(res.status).toBe(201);
    const article = ((await res.json()) as { article: { id: number } }).article;
    const e = await call(ev, '/api/admin/events', { json: EVENT, cookie: cookies.admin });
    expect(e.status).toBe(201);
    const event = ((await e.json()) as { event: { id: number } }).event;
    made.article = article.id;
    made.event = event.id;
    made.metric = (await metrics.list())[0]?.id;
    made.goal = (await goals.list())[0]?.id;
    made.milestone = (await milestones.list())[0]?.id;
    made.link = (await socialLinks.list())[0]?.id;
    const bc = await import('../../netlify/functions/admin-broadcasts.mts');
    const draft = await call(bc, '/api/admin/broadcasts', { json: BROADCAST, cookie: cookies.admin });
    expect(draft.status).toBe(201);
    made.broadcast = ((await draft.json()) as { broadcast: { id: number } }).broadcast.id;
    expect(made).not.toMatchObject({ metric: undefined });
    ids.id = Object.values(made).filter((v): v is number => v !== undefined);
    ids.n = [1, 2];
  });

  it('aims route params at real records (staff writes, real ids)', () => {
    for (const kind of ['article', 'event', 'metric', 'broadcast'] as const)
      expect(typeof made[kind], kind).toBe('number');
    expect(ids.id).toContain(made.article);
  });

  it.each(FILES)(
    '%s: arbitrary requests -> only 2xx/4xx',
    async (file) => {
      const mod = await loaderOf(file)!();
      const patterns = pathsOf(mod);
      const name = file.replace(/\.[^.]+$/, '');
      const seen = new Set<number>();
      // A scheduled function (no path) is called as the platform calls it: POST with a JSON body.
      const pathArb = patterns.length
        ? fc.constantFrom(...patterns)
        : fc.constant('/.netlify/functions/' + name);
      const who = fc.constantFrom<keyof typeof cookies | 'anonymous'>(
        'admin',
        'admin',
        'editor',
        'viewer',
        'anonymous',
      );
      const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'POST', 'PUT');
      const request = pathArb.chain((pattern) =>
        fc.record({
          path: patterns.length ? concrete(pattern) : fc.constant(pattern),
          query: fc.oneof(
            { arbitrary: fc.constant(''), weight: 4 },
            fc
              .dictionary(
                fc.constantFrom('page', 'limit', 'format', 'from', 'to', 'q', 'id', 'lang'),
                fc.string({ maxLength: 12 }),
                {
                  maxKeys: 3,
                },
              )
              .map((d) => `?${new URLSearchParams(d)}`),
          ),
          method,
          who,
          payload: bodyFor(pattern),
        }),
      );
      // The accepting path runs too: each valid example once, as an admin, before the fuzz (which may delete what it names).
      for (const example of EXAMPLES.filter((e) => patterns.includes(e.pattern))) {
        const res = await call(mod, example.path(), {
          method: example.method,
          json: unique(example.body),
          cookie: cookies.admin,
        });
        expect(res.status, `${name}: ${example.method} ${example.path()} ${await res.text()}`).toBeLessThan(
          300,
        );
      }
      await fc.assert(
        fc.asyncProperty(request, async ({ path, query, method: m, who: w, payload }) => {
          const headers: Record<string, string> = { ...payload.headers };
          // The ActBlue webhook authenticates with Basic auth, not a session: half the time with the right one.
          if (name === 'donations-actblue' && w !== 'anonymous')
            headers.authorization = basic(WEBHOOK_USER, WEBHOOK_PASSWORD);
          const hasBody = m !== 'GET';
          const opts: CallOptions = {
            method: m,
            headers,
            ...(w === 'anonymous' ? {} : { cookie: cookies[w] }),
            ...(hasBody && payload.json !== undefined ? { json: payload.json } : {}),
            ...(hasBody && payload.body !== undefined ? { body: payload.body } : {}),
          };
          const target = `${path}${query}`;
          if (!patterns.length) {
            // Not routed by path: the handler itself, with the request as the scheduler sends it.
            const res = await mod.default(
              new Request(new URL(target, ORIGIN), {
                method: 'POST',
                body: JSON.stringify(payload.json ?? { next_run: '2031-01-01T00:00:00Z' }),
              }),
              { waitUntil: () => undefined } as never,
            );
            await expectClean(name, target, opts, res, seen);
            return;
          }
          await expectClean(name, target, opts, await call(mod, target, opts), seen);
        }),
        { numRuns: RUNS },
      );
    },
    120_000,
  );

  // After every fuzz test, whatever order they ran in.
  afterAll(async () => {
    // The articles index holds summaries: each record is read itself.
    for (const a of await articles.list()) ArticleSchema.parse(await articles.get(a.id));
    for (const e of await events.list()) EventSchema.parse(e);
    for (const m of await metrics.list()) MetricSchema.parse(m);
    for (const g of await goals.list()) VolunteerGoalSchema.parse(g);
    for (const m of await milestones.list()) MilestoneSchema.parse(m);
    for (const s of await socialLinks.list()) SocialLinkSchema.parse(s);
    // The subscribers store also keeps the confirmation links' hashed tokens (confirm/...).
    for (const s of await valuesOf('subscribers', 'subscriber/')) StoredSubscriberSchema.parse(s);
    for (const p of await valuesOf('vote-plans', 'plan/')) StoredVotePlanSchema.parse(p);
    for (const c of await valuesOf('donations', 'contribution/')) StoredContributionSchema.parse(c);
    for (const g of await valuesOf('donations', 'settings/')) StoredGoalSchema.parse(g);
    for (const j of await valuesOf('exports', 'job/')) StoredExportJobSchema.parse(j);
    expect((await articles.list()).length).toBeGreaterThan(0);
  });
});
