import type { Page, Route } from 'playwright-core';

/*
 * An in-memory stand-in for the admin API (the contract in the helper brief),
 * installed with page.route. It lets the dashboard's UI behaviour be tested
 * without the server modules: roles, messages, modals, paging. The real
 * end-to-end flows live in admin.test.ts against the dev server.
 */

type Role = 'admin' | 'editor' | 'viewer';
type Rec = Record<string, unknown> & { id: number };

export interface MockOptions {
  /** Signed-in role, or null for signed out. */
  role?: Role | null;
  mustChangePassword?: boolean;
  articles?: number;
  inbox?: number;
}

export interface MockApi {
  calls: { method: string; path: string; body: unknown }[];
  state: Record<string, Rec[]>;
  /** Next answer for a method + path, e.g. 'POST /api/auth/login'. */
  override(key: string, status: number, body: unknown, headers?: Record<string, string>): void;
}

const now = '2025-09-01T12:00:00.000Z';

function user(id: number, role: Role, extra: Partial<Rec> = {}): Rec {
  return {
    id,
    username: role,
    email: `${role}@example.com`,
    role,
    firstName: role === 'admin' ? 'Ada' : '',
    lastName: '',
    isActive: true,
    lastLogin: null,
    createdAt: now,
    mustChangePassword: false,
    ...extra,
  };
}

/** A contact message longer than the Inbox's three lines; its last line is "Thank you, Contact 1." */
export const LONG_MESSAGE = [
  'I run the parents’ group at our school and we would like the candidate to speak at our fall meeting.',
  'We meet on the second Tuesday of the month in the cafeteria, usually forty to sixty people.',
  'Several of us have questions about the drainage work on our street and the bus routes.',
  'Could someone from the campaign call me to set a date?',
  'Thank you, Contact 1.',
].join('\n\n');

function seed(opts: MockOptions): Record<string, Rec[]> {
  const articles: Rec[] = Array.from({ length: opts.articles ?? 3 }, (_, i) => ({
    id: i + 1,
    title: `Article ${i + 1}`,
    content: '<p>Body</p>',
    excerpt: `Excerpt ${i + 1}`,
    imageUrl: '',
    author: 'Jordan Avery',
    slug: `article-${i + 1}`,
    isPublished: i % 2 === 0,
    publishedAt: i % 2 === 0 ? now : null,
    createdAt: now,
    updatedAt: now,
    translations: {},
  }));
  const inbox = (n: number, make: (i: number) => Rec) => Array.from({ length: n }, (_, i) => make(i + 1));
  return {
    users: [user(1, 'admin'), user(2, 'editor'), user(3, 'viewer', { lastLogin: now })],
    news: articles,
    events: [
      {
        id: 1,
        title: 'Town Hall East',
        description: 'Questions and answers',
        location: 'Library',
        eventDate: '2030-10-01',
        startTime: '18:00',
        endTime: '19:30',
        eventType: 'town_hall',
        isPublic: true,
        maxAttendees: null,
        registrationRequired: false,
        registrationUrl: '',
        contactEmail: 'events@example.org',
        notes: '',
        createdAt: now,
        updatedAt: now,
        translations: {},
      },
    ],
    'social-media-links': ['facebook', 'x', 'instagram', 'linkedin', 'youtube', 'tiktok'].map(
      (platform, i) => ({
        id: i + 1,
        platform,
        url: `https://${platform}.com/avery`,
        handle: '@avery',
        isActive: i < 3,
        displayOrder: i + 1,
        updatedBy: 'admin',
        updatedAt: now,
      }),
    ),
    metrics: [
      {
        id: 1,
        currentValue: 1200,
        targetValue: 5000,
        label: 'Doors knocked',
        sublabel: 'This month',
        description: '',
        trend: '+12%',
        updatedAt: now,
      },
    ],
    'volunteer-goals': [
      {
        id: 1,
        currentCount: 9,
        targetCount: 15,
        deadline: '2025-10-04',
        description: 'New recruits',
        priority: 'high',
        updatedAt: now,
      },
    ],
    milestones: [
      {
        id: 1,
        currentCount: 1350,
        targetCount: null,
        label: 'Supporters',
        description: 'Signed up',
        updatedAt: now,
      },
    ],
    volunteers: inbox(opts.inbox ?? 3, (i) => ({
      id: i,
      firstName: `Vol${i}`,
      lastName: 'Lee',
      email: `v${i}@example.com`,
      phone: '+15045550100',
      city: 'New Orleans',
      state: 'LA',
      interests: ['canvassing'],
      createdAt: now,
      // The second left (docs/decisions/155-inbox-and-staff-lists.md).
      reachStatus: i === 2 ? 'unsubscribed' : 'subscribed',
      reachStatusAt: i === 2 ? now : null,
    })),
    contacts: inbox(2, (i) => ({
      id: i,
      name: `Contact ${i}`,
      email: `c${i}@example.com`,
      phone: '',
      subject: 'press',
      // The first is long (several paragraphs): the Inbox shows three lines and a way to read the rest.
      message: i === 1 ? LONG_MESSAGE : 'Hello',
      createdAt: now,
    })),
    'text-signups': inbox(2, (i) => ({
      id: i,
      firstName: `Tex${i}`,
      phone: '+15045550101',
      email: '',
      smsStatus: i === 2 ? 'opted_out' : 'subscribed',
      consentAt: now,
      consentVersion: '2025-09-17',
      optedOutAt: i === 2 ? now : null,
      createdAt: now,
    })),
  };
}

const LIST_KEYS: Record<string, string> = {
  news: 'articles',
  events: 'events',
  users: 'users',
  'social-media-links': 'links',
  metrics: 'metrics',
  'volunteer-goals': 'goals',
  milestones: 'milestones',
};
const ONE_KEYS: Record<string, string> = {
  news: 'article',
  events: 'event',
  users: 'user',
  'social-media-links': 'link',
  metrics: 'metric',
  'volunteer-goals': 'goal',
  milestones: 'milestone',
};
const PAGED = new Set(['news', 'events', 'users', 'volunteers', 'contacts', 'text-signups']);
const WRITE_ROLES: Record<string, Role[]> = { users: ['admin'] };

export async function mockAdminApi(page: Page, opts: MockOptions = {}): Promise<MockApi> {
  const state = seed(opts);
  let me: Rec | null = opts.role
    ? {
        ...state.users!.find((u) => u.role === opts.role)!,
        mustChangePassword: Boolean(opts.mustChangePassword),
      }
    : null;
  const overrides = new Map<string, { status: number; body: unknown; headers?: Record<string, string> }[]>();
  const calls: MockApi['calls'] = [];
  let nextId = 1000;

  const reply = (route: Route, status: number, body: unknown, headers?: Record<string, string>) =>
    route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body), headers });

  await page.route('**/api/**', async (route) => {
    const req = route.request();
    const url = new URL(req.url());
    const method = req.method();
    const path = url.pathname;
    let body: unknown;
    try {
      body = req.postDataJSON();
    } catch {
      body = req.postData();
    }
    calls.push({ method, path, body });
    const queued = overrides.get(`${method} ${path}`)?.shift();
    if (queued) return reply(route, queued.status, queued.body, queued.headers);

    if (path === '/api/auth/me')
      return me
        ? reply(route, 200, { role: me.role, user: me })
        : reply(route, 401, { error: 'Unauthorized' });
    if (path === '/api/auth/login') {
      const { username, password } = body as { username: string; password: string };
      const found = state.users!.find((u) => u.username === username || u.email === username);
      if (!found || password !== `${String(found.username)}-dev-password`)
        return reply(route, 401, { error: 'Invalid credentials' });
      me = found;
      return reply(route, 200, { role: found.role, user: found });
    }
    if (path === '/api/auth/logout') {
      me = null;
      return reply(route, 200, { success: true });
    }
    if (path === '/api/auth/forgot-password') {
      return reply(route, 200, {
        success: true,
        message: 'If an account with that email exists, a temporary password has been sent.',
      });
    }
    if (path === '/api/auth/change-password') {
      if (!me) return reply(route, 401, { error: 'Unauthorized' });
      me = { ...me, mustChangePassword: false };
      return reply(route, 200, { success: true, user: me });
    }
    if (path === '/api/upload')
      return reply(route, 200, { success: true, imageUrl: '/api/uploads/abc123.png' });

    const m = /^\/api\/admin\/([a-z-]+)(?:\/(\d+))?$/.exec(path);
    if (!m) return route.fallback();
    if (!me) return reply(route, 401, { error: 'Unauthorized' });
    if (me.mustChangePassword)
      return reply(route, 403, { error: 'Please change your password', mustChangePassword: true });
    const [, name = '', idText] = m;
    const list = state[name];
    if (!list) return reply(route, 404, { error: 'Not found' });
    const role = me.role as Role;
    if (name === 'users' && role !== 'admin') return reply(route, 403, { error: 'Forbidden' });
    if (['volunteers', 'contacts', 'text-signups'].includes(name) && role === 'viewer')
      return reply(route, 403, { error: 'Forbidden' });

    if (method === 'GET') {
      if (url.searchParams.get('format') === 'csv') {
        return route.fulfill({
          status: 200,
          contentType: 'text/csv',
          body: 'id\n1\n',
          headers: { 'Content-Disposition': `attachment; filename="${name}.csv"` },
        });
      }
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const status = url.searchParams.get('status');
      const filtered = list.filter(
        (r) => (!q || JSON.stringify(r).toLowerCase().includes(q)) && (!status || r.reachStatus === status),
      );
      if (!PAGED.has(name)) return reply(route, 200, { [LIST_KEYS[name]!]: filtered });
      const pageNo = Number(url.searchParams.get('page') ?? 1);
      const pageSize = Number(url.searchParams.get('pageSize') ?? 20);
      const slice = filtered.slice((pageNo - 1) * pageSize, pageNo * pageSize);
      return reply(route, 200, {
        [LIST_KEYS[name] ?? 'items']: slice,
        total: filtered.length,
        page: pageNo,
        pageSize,
      });
    }
    const allowed = WRITE_ROLES[name] ?? ['admin', 'editor'];
    if (!allowed.includes(role)) return reply(route, 403, { error: 'Forbidden' });
    const input = (body ?? {}) as Record<string, unknown>;
    if (method === 'POST' && !idText) {
      const rec: Rec = {
        ...input,
        id: nextId++,
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
      };
      // The API stores articles and events with their translations (docs/decisions/166-spanish.md), none on a new record.
      if (name === 'news' || name === 'events') rec.translations ??= {};
      if (name === 'users') {
        delete rec.password;
        Object.assign(rec, { lastLogin: null, mustChangePassword: false });
      }
      list.unshift(rec);
      return reply(route, 201, { [ONE_KEYS[name]!]: rec });
    }
    const idx = list.findIndex((r) => r.id === Number(idText));
    if (idx < 0) return reply(route, 404, { error: 'Not found' });
    if (method === 'PUT') {
      const current = list[idx]!;
      if (typeof input.expectedUpdatedAt === 'string' && input.expectedUpdatedAt !== current.updatedAt) {
        return reply(route, 409, { error: 'This record was changed by someone else.' });
      }
      const rest = { ...input };
      delete rest.expectedUpdatedAt;
      delete rest.password;
      const updated = { ...current, ...rest, updatedAt: new Date().toISOString() };
      list[idx] = updated;
      return reply(route, 200, { [ONE_KEYS[name]!]: updated });
    }
    if (method === 'DELETE') {
      list.splice(idx, 1);
      return reply(route, 200, { success: true });
    }
    return reply(route, 405, { error: 'Method not allowed' });
  });

  return {
    calls,
    state,
    override(key, status, body, headers) {
      const q = overrides.get(key) ?? [];
      q.push({ status, body, headers });
      overrides.set(key, q);
    },
  };
}
