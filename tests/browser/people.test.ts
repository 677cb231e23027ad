import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from './helpers/axe';
import { buildURL, launchBrowser, type BrowserSession } from './helpers/browser';
import { mockAdminApi, type MockOptions } from './helpers/admin-mock';
import { serveProductionBuild } from './helpers/prod-server';
import { dashboardBrowser, openDashboard } from './helpers/staff';

/*
 * The People tab and a person's page (docs/decisions/149-people.md). The UI states run against a stubbed People API
 * (below, on top of helpers/admin-mock.ts); the last block runs merge, undo and forget-me end to end on the dev
 * server's real endpoints and store.
 */

const idOf = (n: number) => n.toString(16).padStart(32, '0');
const now = '2026-11-02T15:00:00.000Z';

interface MockPerson {
  id: string;
  name: string;
  names: string[];
  emails: string[];
  phones: string[];
  zip: string;
  city: string;
  lang: string;
  sources: string[];
  emailState: string;
  textState: string;
  createdAt: string;
  mergedInto: string | null;
  merged: string[];
}

function makePeople(n: number): MockPerson[] {
  return Array.from({ length: n }, (_, i) => ({
    id: idOf(i + 1),
    name: i === 0 ? '<b>Maria</b> Lopez' : `Person ${i + 1}`,
    names: [i === 0 ? '<b>Maria</b> Lopez' : `Person ${i + 1}`],
    emails: [`p${i + 1}@example.com`],
    phones: [`+1504555${String(1000 + i).slice(-4)}`],
    zip: '70119',
    city: 'New Orleans',
    lang: i % 2 ? 'es' : 'en',
    sources: i === 0 ? ['volunteer', 'rsvp', 'vote_plan'] : ['newsletter'],
    emailState: 'granted',
    textState: i === 0 ? 'revoked' : '',
    createdAt: now,
    mergedInto: null,
    merged: [],
  }));
}

/** The People API, stubbed: list (q, source, has=volunteered, page), a person, the queue, merge, unmerge, consent, forget. */
async function mockPeople(page: Page, role: 'admin' | 'editor' | 'viewer', count = 3) {
  const people = makePeople(count);
  const queue = [
    {
      key: `queue/${idOf(1)}--${idOf(2)}`,
      a: idOf(1),
      b: idOf(2),
      at: now,
      reason: 'same_email_different_details',
    },
  ];
  const calls: { method: string; path: string; search: string; body: unknown }[] = [];
  const overrides = new Map<string, { status: number; body: unknown }>();
  const contacts = role !== 'viewer';
  const row = (p: MockPerson) => ({
    ...p,
    emails: contacts ? p.emails : null,
    phones: contacts ? p.phones : null,
  });
  const reply = (route: Route, status: number, body: unknown) =>
    route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
  await page.route('**/api/admin/people**', async (route) => {
    const req = route.request();
    const url = new URL(req.url());
    const method = req.method();
    let body: unknown;
    try {
      body = req.postDataJSON();
    } catch {
      body = null;
    }
    calls.push({ method, path: url.pathname, search: url.search, body });
    const o = overrides.get(`${method} ${url.pathname}`);
    if (o) {
      overrides.delete(`${method} ${url.pathname}`);
      return reply(route, o.status, o.body);
    }
    const parts = url.pathname.split('/').slice(4); // ['', 'api', 'admin', 'people', ...]
    const find = (id: string) => people.find((p) => p.id === id);
    if (parts.length === 0) {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const source = url.searchParams.get('source');
      const has = url.searchParams.get('has');
      const pageNo = Number(url.searchParams.get('page') ?? 1);
      const found = people.filter(
        (p) =>
          !p.mergedInto &&
          (!q || JSON.stringify(p).toLowerCase().includes(q)) &&
          (!source || p.sources.includes(source)) &&
          (!has || (has === 'volunteered' && p.sources.includes('volunteer'))),
      );
      return reply(route, 200, {
        items: found.slice((pageNo - 1) * 50, pageNo * 50).map(row),
        total: found.length,
        page: pageNo,
        pageSize: 50,
      });
    }
    if (parts[0] === 'queue') {
      if (role === 'viewer') return reply(route, 403, { error: 'Forbidden' });
      return reply(route, 200, { entries: queue, total: queue.length });
    }
    const p = find(parts[0]!);
    if (!p) return reply(route, 404, { error: 'Person not found' });
    if (parts.length === 1) {
      const own = [p, ...p.merged.map((m) => find(m)!)];
      return reply(route, 200, {
        person: row(p),
        timeline: own.flatMap((x) =>
          x === people[0]
            ? [
                {
                  at: '2026-10-01T14:00:00.000Z',
                  source: 'volunteer',
                  personId: x.id,
                  detail: {},
                  link: null,
                },
                {
                  at: '2026-10-03T14:00:00.000Z',
                  source: 'rsvp',
                  personId: x.id,
                  detail: { eventId: 7 },
                  link: null,
                },
                {
                  at: '2026-10-05T14:00:00.000Z',
                  source: 'vote_plan',
                  personId: x.id,
                  detail: { round: 1 },
                  link: null,
                },
                {
                  at: '2026-10-06T14:00:00.000Z',
                  source: 'consent',
                  personId: x.id,
                  detail: { channel: 'text', action: 'revoke', via: 'sms_stop', wording: null, ref: null },
                  link: null,
                },
              ]
            : [{ at: now, source: 'newsletter', personId: x.id, detail: {}, link: null }],
        ),
      });
    }
    if (role === 'viewer') return reply(route, 403, { error: 'Forbidden' });
    const action = parts[1];
    if (action === 'merge') {
      const gone = find((body as { mergeId: string }).mergeId)!;
      gone.mergedInto = p.id;
      p.merged.push(gone.id);
      queue.splice(0, queue.length);
      return reply(route, 200, { kept: p.id, merged: gone.id });
    }
    if (action === 'unmerge') {
      const kept = find(p.mergedInto!)!;
      kept.merged = kept.merged.filter((m) => m !== p.id);
      p.mergedInto = null;
      return reply(route, 200, { kept: kept.id, restored: p.id });
    }
    if (action === 'consent') {
      const { channel } = body as { channel: string };
      if (channel !== 'text') p.emailState = 'revoked';
      if (channel !== 'email') p.textState = 'revoked';
      return reply(route, 200, { stopped: channel, emails: 1, phones: 1 });
    }
    if (action === 'forget') {
      if (role !== 'admin') return reply(route, 403, { error: 'Forbidden' });
      people.splice(people.indexOf(p), 1);
      // As the server's forget does (forget-person.ts): no queue entry names her any more.
      queue.splice(0, queue.length, ...queue.filter((e) => e.a !== p.id && e.b !== p.id));
      return reply(route, 200, {
        report: {
          personId: p.id,
          mergedPeople: 0,
          removed: { volunteers: 2, rsvps: 1, 'vote-plans': 1, people: 9 },
          tombstones: 2,
          reindexed: ['volunteers'],
        },
      });
    }
    return reply(route, 404, { error: 'Not found' });
  });
  return {
    people,
    calls,
    override: (key: string, status: number, body: unknown) => overrides.set(key, { status, body }),
  };
}

describe('People tab (stubbed API)', () => {
  let server: Awaited<ReturnType<typeof serveProductionBuild>>;
  let browser: BrowserSession;
  beforeAll(async () => {
    server = await serveProductionBuild(process.cwd());
    browser = await launchBrowser({ baseURL: server.url });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(role: NonNullable<MockOptions['role']>, count = 3, hash = '#people') {
    const page = await browser.newPage('desktop');
    await mockAdminApi(page, { role });
    const people = await mockPeople(page, role, count);
    await page.goto(`/admin${hash}`);
    return { page, people };
  }

  it('admins and editors: the list with contact details, search, the filters and server paging; axe 0 on each state', async () => {
    const { page, people } = await open('editor', 120);
    await page.getByRole('heading', { name: 'People', level: 2 }).waitFor();
    await page.getByText('120 people', { exact: true }).waitFor();
    const table = page.getByRole('table', { name: 'People' });
    for (const h of ['Name', 'Email', 'Phone', 'Place', 'Sources', 'Emails', 'Texts'])
      await table.getByRole('columnheader', { name: h, exact: true }).waitFor();
    // A name is text, never markup.
    await table.getByRole('link', { name: '<b>Maria</b> Lopez' }).waitFor();
    expect(await page.locator('.admin-app table b').count()).toBe(0);
    await table.getByRole('cell', { name: 'p1@example.com' }).waitFor();
    await expectNoAxeViolations(page);
    // Paging is the server's.
    await page.getByText('Page 1 of 3').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 3').waitFor();
    expect(people.calls.some((c) => c.path === '/api/admin/people' && c.search.includes('page=2'))).toBe(
      true,
    );
    // Search and filter go to the server and reset the page.
    await page.getByLabel('Search').fill('p7@example.com');
    await page.getByText('1 person', { exact: true }).waitFor();
    expect(
      people.calls.some((c) => c.search.includes('q=p7%40example.com') && c.search.includes('page=1')),
    ).toBe(true);
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Source').selectOption('volunteer');
    await page.getByText('1 person', { exact: true }).waitFor();
    expect(people.calls.some((c) => c.search.includes('source=volunteer'))).toBe(true);
    await page.getByLabel('Source').selectOption('');
    await page.getByText('120 people', { exact: true }).waitFor();
    // Every filter the server has is a control; "has" goes to the server as its parameter.
    for (const label of ['Tag', 'Language', 'Email consent', 'Text consent', 'Has not'])
      await page.getByLabel(label, { exact: true }).waitFor();
    await page.getByLabel('Has', { exact: true }).selectOption('volunteered');
    await page.getByText('1 person', { exact: true }).waitFor();
    expect(
      people.calls.some((c) => c.search.includes('has=volunteered') && c.search.includes('page=1')),
    ).toBe(true);
    await expectNoAxeViolations(page);
    await page.getByLabel('Search').fill('nobody-matches');
    await page.getByText('No matches for this search and these filters.').waitFor();
    await expectNoAxeViolations(page);
    // The merge queue is there for editors.
    await page.getByRole('heading', { name: 'Merge queue' }).waitFor();
    // A failed load says so.
    people.override('GET /api/admin/people', 500, { error: 'Storage is not answering' });
    await page.getByLabel('Search').fill('fails');
    await page.getByText('Storage is not answering').waitFor();
    await expectNoAxeViolations(page);
    await page.close();
  });

  it('viewers: no emails or phones, search by name, city or ZIP, no merge queue, stop or forget; axe 0', async () => {
    const { page, people } = await open('viewer');
    const table = page.getByRole('table', { name: 'People' });
    await table.getByRole('link', { name: 'Person 2' }).waitFor();
    expect(await table.getByRole('columnheader', { name: 'Email', exact: true }).count()).toBe(0);
    expect(await table.getByRole('columnheader', { name: 'Phone', exact: true }).count()).toBe(0);
    expect(
      await page.locator('section[aria-labelledby="people-heading"]').getByText('@example.com').count(),
    ).toBe(0);
    await page.getByText('Name, city or ZIP', { exact: true }).waitFor();
    expect(await page.getByRole('heading', { name: 'Merge queue' }).count()).toBe(0);
    await expectNoAxeViolations(page);
    await table.getByRole('link', { name: 'Person 2' }).click();
    await page.getByRole('heading', { name: 'Person 2', level: 2 }).waitFor();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    expect(await page.locator('section.person-page').getByText('@example.com').count()).toBe(0);
    expect(
      await page.getByRole('button', { name: /Record stop|Forget this person|Review and merge/ }).count(),
    ).toBe(0);
    expect(people.calls.some((c) => c.path === '/api/admin/people/queue')).toBe(false);
    await expectNoAxeViolations(page);
    await page.close();
  });

  it("a person's page: reached by keyboard, its own heading, kept on reload; timeline, consent per channel, record a stop", async () => {
    const { page, people } = await open('editor');
    const link = page
      .getByRole('table', { name: 'People' })
      .getByRole('link', { name: '<b>Maria</b> Lopez' });
    await link.focus();
    await page.keyboard.press('Enter');
    const heading = page.getByRole('heading', { name: '<b>Maria</b> Lopez', level: 2 });
    await heading.waitFor();
    expect(new URL(page.url()).hash).toBe(`#people/${idOf(1)}`);
    await expect.poll(() => heading.evaluate((h) => h === document.activeElement)).toBe(true);
    // Timeline: newest first, each entry in words.
    const items = page.locator('.timeline li');
    await expect.poll(() => items.count()).toBe(4);
    expect(await items.first().innerText()).toContain('Texts stopped (sms stop)');
    expect(await items.nth(1).innerText()).toContain('Plan to vote');
    expect(await items.nth(2).innerText()).toContain('Event 7');
    const consent = page.getByRole('table', { name: 'Consent per channel' });
    await consent.getByRole('row', { name: /Emails Opted in/ }).waitFor();
    await consent.getByRole('row', { name: /Texts Stopped/ }).waitFor();
    // Editors see the queue entries of this person but not "Forget this person".
    await page.getByRole('heading', { name: 'Possible duplicates of this person' }).waitFor();
    expect(await page.getByRole('button', { name: 'Forget this person' }).count()).toBe(0);
    await expectNoAxeViolations(page);
    // Record a stop: emails only, by keyboard.
    await page.getByRole('radio', { name: 'Emails', exact: true }).check();
    await page.getByRole('button', { name: 'Record stop' }).click();
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Stop recorded' }).first().waitFor();
    expect(people.calls.find((c) => c.path.endsWith('/consent'))?.body).toEqual({ channel: 'email' });
    await consent.getByRole('row', { name: /Emails Stopped/ }).waitFor();
    await expectNoAxeViolations(page);
    // A reload keeps the person; Back to People returns to the list.
    await page.reload();
    await heading.waitFor();
    await page.getByRole('link', { name: '← Back to People' }).click();
    await page.getByRole('table', { name: 'People' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#people');
    await page.close();
  });

  it('merge from the queue, then undo it from the kept person; axe 0 in the dialog and after', async () => {
    const { page, people } = await open('editor');
    const queue = page.getByRole('table', { name: 'Merge queue' });
    await queue.getByRole('cell', { name: 'Same email, different name and phone' }).waitFor();
    await queue.getByRole('button', { name: /Review and merge/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Merge two people' });
    await dialog.getByText('p2@example.com', { exact: false }).waitFor();
    await expectNoAxeViolations(page);
    // Keep the second; Escape-free keyboard path: arrow keys move within the radio group.
    await dialog.getByRole('radio', { name: '<b>Maria</b> Lopez' }).focus();
    await page.keyboard.press('ArrowDown');
    expect(await dialog.getByRole('radio', { name: 'Person 2' }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('[data-sonner-toast]').filter({ hasText: 'People merged' }).first().waitFor();
    expect(people.calls.find((c) => c.path.endsWith('/merge'))).toMatchObject({
      method: 'POST',
      path: `/api/admin/people/${idOf(2)}/merge`,
      body: { mergeId: idOf(1) },
    });
    // The merged person leaves the list; the kept one shows both timelines and an Undo.
    await page
      .getByRole('table', { name: 'People' })
      .getByRole('link', { name: '<b>Maria</b> Lopez' })
      .waitFor({ state: 'detached' });
    await page.getByRole('table', { name: 'People' }).getByRole('link', { name: 'Person 2' }).click();
    await page.getByRole('heading', { name: 'Merged into this person' }).waitFor();
    await expect.poll(() => page.locator('.timeline li').count()).toBe(5);
    await page.getByText('From a merged person').first().waitFor();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: /Undo merge/ }).click();
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Merge undone' }).first().waitFor();
    expect(people.calls.find((c) => c.path.endsWith('/unmerge'))?.path).toBe(
      `/api/admin/people/${idOf(1)}/unmerge`,
    );
    await page.getByRole('heading', { name: 'Merged into this person' }).waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('.timeline li').count()).toBe(1);
    await expectNoAxeViolations(page);
    await page.close();
  });

  it('forget-me (admins): a confirmation in plain words, then the removal report; axe 0 on each', async () => {
    const { page, people } = await open('admin', 3, `#people/${idOf(1)}`);
    await page.getByRole('heading', { name: '<b>Maria</b> Lopez', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Forget this person' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Forget <b>Maria</b> Lopez?' });
    await confirm.waitFor();
    const words = await confirm.innerText();
    for (const w of [
      'every form they sent',
      'RSVPs',
      'plan to vote',
      'text and email lists',
      'keyed hash',
      'cannot be undone',
    ])
      expect(words).toContain(w);
    // The safe choice has focus.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(people.calls.some((c) => c.path.endsWith('/forget'))).toBe(false);
    await page.getByRole('button', { name: 'Forget this person' }).click();
    await confirm.getByRole('button', { name: 'Forget this person' }).click();
    const report = page.getByRole('dialog', { name: 'Person forgotten' });
    await report.getByRole('row', { name: 'Volunteer sign-ups 2' }).waitFor();
    await report.getByText('Keyed hashes kept so they are not imported again: 2').waitFor();
    await expectNoAxeViolations(page);
    await report.getByRole('button', { name: 'Back to People' }).click();
    await page.getByRole('table', { name: 'People' }).getByRole('link', { name: 'Person 2' }).waitFor();
    // The queue is read again: her pair is gone from it (the server's forget removes it).
    await page.locator('section.people-queue').getByText('No pairs to check.').waitFor();
    await expect.poll(() => page.getByRole('link', { name: '<b>Maria</b> Lopez' }).count()).toBe(0);
    expect(new URL(page.url()).hash).toBe('#people');
    await page.close();
  });
});

/** Axe on the page once no toast is mid-way through its exit animation (a fading toast is not a state). */
async function axeSettled(page: Page) {
  await expect.poll(() => page.locator('[data-sonner-toast][data-removed="true"]').count()).toBe(0);
  await expectNoAxeViolations(page);
}

describe('People end to end (dev server)', () => {
  const browser = dashboardBrowser();
  const run = Date.now().toString(36);

  async function contact(page: Page, name: string, email: string, phone: string) {
    const res = await page.request.fetch('/api/contact', {
      method: 'POST',
      data: { name, email, phone, subject: 'general', message: 'Hello', captcha: 'XXXX.DUMMY.TOKEN.XXXX' },
      headers: { Origin: buildURL, 'Content-Type': 'application/json' },
    });
    expect(res.status(), await res.text()).toBe(201);
  }

  it('two people who share an email are queued, merged, unmerged, and one is forgotten', async () => {
    const page = await openDashboard(browser, 'admin');
    const email = `people-${run}@example.org`;
    await contact(page, `Ana ${run}`, email, '(504) 555-0142');
    await contact(page, `Beto ${run}`, email, '(504) 555-0143');
    await page.getByRole('tab', { name: 'People' }).click();
    await page.getByLabel('Search').fill(run);
    const table = page.getByRole('table', { name: 'People' });
    await table.getByRole('link', { name: `Ana ${run}` }).waitFor();
    await table.getByRole('link', { name: `Beto ${run}` }).waitFor();
    await axeSettled(page);
    await table.getByRole('link', { name: `Ana ${run}` }).click();
    await page.getByRole('heading', { name: `Ana ${run}`, level: 2 }).waitFor();
    await page.getByRole('heading', { name: 'Possible duplicates of this person' }).waitFor();
    await axeSettled(page);
    // The shared dev server may hold other pairs from other files: this run's pair is the first on Ana's page.
    await page
      .getByRole('button', { name: /Review and merge/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Merge two people' });
    await dialog.getByRole('radio', { name: `Ana ${run}` }).check();
    await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Merged into this person' }).waitFor();
    await page.getByRole('link', { name: `Beto ${run}` }).waitFor();
    await axeSettled(page);
    await page.getByRole('button', { name: /Undo merge/ }).click();
    await page.getByRole('heading', { name: 'Merged into this person' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Forget this person' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Forget this person' }).click();
    const report = page.getByRole('dialog', { name: 'Person forgotten' });
    await report.getByRole('row', { name: /Contact messages \d/ }).waitFor();
    await axeSettled(page);
    await report.getByRole('button', { name: 'Back to People' }).click();
    await page.getByLabel('Search').fill(run);
    await table.getByRole('link', { name: `Beto ${run}` }).waitFor();
    await expect.poll(() => table.getByRole('link', { name: `Ana ${run}` }).count()).toBe(0);
    await page.close();
  });

  it("the event picker narrows has / has not RSVP'd to one event; axe 0", async () => {
    const page = await openDashboard(browser, 'admin');
    const headers = { Origin: buildURL, 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin' };
    // Dated years ahead: the picker lists the newest events first, so this run's are among them.
    const date = `${new Date().getUTCFullYear() + 3}-06-01`;
    const title = `Picker Walk ${run}`;
    const newEvent = async (name: string) => {
      const created = await page.request.fetch('/api/admin/events', {
        method: 'POST',
        headers,
        data: {
          title: name,
          location: 'Riverfront',
          eventDate: date,
          startTime: '09:00',
          endTime: '10:00',
          eventType: 'community_event',
          isPublic: true,
          registrationRequired: true,
          maxAttendees: 20,
        },
      });
      expect(created.status(), await created.text()).toBe(201);
      return ((await created.json()) as { event: { id: number } }).event.id;
    };
    const rsvpTo = async (id: number, name: string) => {
      const rsvp = await page.request.fetch(`/api/events/${id}/rsvp`, {
        method: 'POST',
        headers,
        data: {
          name,
          email: `${name.toLowerCase().replace(' ', '-')}@example.org`,
          guests: 0,
          captchaResponse: 'XXXX.DUMMY.TOKEN.XXXX',
          lang: 'en',
        },
      });
      expect(rsvp.status(), await rsvp.text()).toBe(201);
    };
    const eventId = await newEvent(title);
    // Dino RSVP'd too, to another event: only the event picked tells them apart.
    await rsvpTo(eventId, `Cora ${run}`);
    await rsvpTo(await newEvent(`Other Walk ${run}`), `Dino ${run}`);
    await page.getByRole('tab', { name: 'People' }).click();
    await page.getByLabel('Search').fill(run);
    const table = page.getByRole('table', { name: 'People' });
    await table.getByRole('link', { name: `Cora ${run}` }).waitFor();
    await table.getByRole('link', { name: `Dino ${run}` }).waitFor();
    // The picker is there only for the kinds that take an event.
    expect(await page.getByLabel('Has: which event').count()).toBe(0);
    await page.getByLabel('Has', { exact: true }).selectOption('rsvp');
    await page.getByLabel('Has: which event').selectOption({ label: `${title} (${date})` });
    await expect.poll(() => table.getByRole('link', { name: `Dino ${run}` }).count()).toBe(0);
    await table.getByRole('link', { name: `Cora ${run}` }).waitFor();
    await axeSettled(page);
    // Has not RSVP'd to it: the other way round. A kind without an event drops the event picked.
    await page.getByLabel('Has', { exact: true }).selectOption('');
    expect(await page.getByLabel('Has: which event').count()).toBe(0);
    await page.getByLabel('Has', { exact: true }).selectOption('rsvp');
    expect(await page.getByLabel('Has: which event').inputValue()).toBe('');
    await page.getByLabel('Has', { exact: true }).selectOption('');
    await page.getByLabel('Has not', { exact: true }).selectOption('rsvp');
    await page.getByLabel('Has not: which event').selectOption(String(eventId));
    await table.getByRole('link', { name: `Dino ${run}` }).waitFor();
    await expect.poll(() => table.getByRole('link', { name: `Cora ${run}` }).count()).toBe(0);
    await axeSettled(page);
    await page.close();
  });
});
