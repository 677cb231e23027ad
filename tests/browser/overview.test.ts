import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_KINDS, type ActivityKind, type Overview } from '../../src/lib/schemas/overview.ts';
import { DEFAULT_SEQUENCE } from '../../src/lib/schemas/shift-sequence.ts';
import { expectNoAxeViolations } from './helpers/axe';
import { mockAdminApi, type MockApi, type MockOptions } from './helpers/admin-mock';
import { launchBrowser, type BrowserSession, type ViewportName } from './helpers/browser';
import { serveProductionBuild } from './helpers/prod-server';

/*
 * The Overview tab (docs/decisions/180-overview.md) with the admin API stubbed in the page, on the production
 * build: each chart has its table and a one-line summary, a figure links to the tab that lists it (when the role
 * has that tab), on a laptop and a phone, axe 0. The counts themselves are proven in tests/api/overview.test.ts.
 */

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

const DAYS = [
  '2026-10-28',
  '2026-10-29',
  '2026-10-30',
  '2026-10-31',
  '2026-11-01',
  '2026-11-02',
  '2026-11-03',
];
const WEEK_AHEAD = [
  '2026-11-03',
  '2026-11-04',
  '2026-11-05',
  '2026-11-06',
  '2026-11-07',
  '2026-11-08',
  '2026-11-09',
];
const zero = () => Object.fromEntries(ACTIVITY_KINDS.map((k) => [k, 0])) as Record<ActivityKind, number>;
function fixture(): Overview {
  const days = DAYS.map((day, i) => ({
    day,
    counts: {
      ...zero(),
      'signup.text': i,
      'signup.volunteer': i % 2,
      'text.optin': i,
      'text.optout': i === 4 ? 2 : 0,
    },
  }));
  const totals = zero();
  for (const d of days) for (const k of ACTIVITY_KINDS) totals[k] += d.counts[k];
  return {
    period: '7',
    from: DAYS[0]!,
    to: DAYS[6]!,
    days,
    totals,
    sources: [
      { source: 'page:volunteer', kind: 'signup.text', count: 15 },
      { source: 'invite', kind: 'signup.text', count: 6 },
    ],
    broadcasts: [
      {
        id: 4,
        name: 'Early voting starts Saturday',
        channel: 'text',
        status: 'completed',
        recipients: 120,
        sent: 117,
        failed: 1,
        skipped: 2,
        delivered: 110,
        undelivered: 3,
        startedAt: '2026-11-01T15:00:00.000Z',
        optOutsAfter: 2,
      },
    ],
    donations: {
      netCents: 125_000,
      count: 14,
      goalCents: 500_000,
      byDay: [],
      byRefcode: [{ refcode: 'fall-mailer', netCents: 100_000, count: 9 }],
    },
    events: [
      {
        id: 7,
        title: 'Canvass kickoff',
        date: '2026-11-01',
        going: 18,
        waitlisted: 2,
        attended: 15,
        capacity: 20,
      },
    ],
    goals: [{ label: 'Canvass shifts filled', current: 30, target: 50, kind: 'goal' }],
    shifts: WEEK_AHEAD.map((day, i) => ({
      day,
      needed: i === 0 ? 5 : i === 6 ? 2 : 0,
      filled: i === 0 ? 3 : 0,
      gaps:
        i === 0
          ? [
              {
                eventId: 7,
                title: 'Early vote canvass',
                slotId: 'morning',
                start: '09:00',
                end: '12:00',
                label: 'Mid-City',
                needed: 3,
                filled: 1,
              },
            ]
          : i === 6
            ? [
                {
                  eventId: 7,
                  title: 'Early vote canvass',
                  slotId: 'late',
                  start: '15:00',
                  end: '18:00',
                  label: '',
                  needed: 2,
                  filled: 0,
                },
              ]
            : [],
    })),
    behind: null,
  };
}

async function openOverview(opts: MockOptions, viewport: ViewportName = 'desktop') {
  const page = await browser.newPage(viewport);
  const api: MockApi = await mockAdminApi(page, opts);
  for (let i = 0; i < 10; i++) api.override('GET /api/admin/overview', 200, fixture());
  await page.goto('/admin#overview');
  await page.getByRole('heading', { name: 'Overview', level: 2 }).waitFor();
  return { page, api };
}

describe('the Overview tab', () => {
  it('a viewer on a laptop: figures, each chart with its table and summary, no links to tabs they lack; axe 0', async () => {
    const { page, api } = await openOverview({ role: 'viewer' });
    const totals = page.getByLabel('Totals');
    await expect.poll(() => totals.innerText()).toContain('New sign-ups');
    expect(await totals.innerText()).toContain('24'); // 21 text + 3 volunteer sign-ups
    expect(await totals.innerText()).toContain('$1,250.00');
    const chart = page.getByRole('img', { name: 'Sign-ups per day, Oct 28 to Nov 3' });
    await chart.waitFor();
    expect(await page.getByText('24 sign-ups from Oct 28 to Nov 3; the most, 6, on Nov 2.').count()).toBe(1);
    // Sign-ups by source: the invite link beside the page, chart and table.
    await page.getByRole('img', { name: 'Sign-ups by source, Oct 28 to Nov 3' }).waitFor();
    const sources = page.getByRole('table', { name: 'Sign-ups by source' });
    expect(await sources.getByRole('row', { name: /Invite link/ }).innerText()).toMatch(
      /Invite link\s+Text sign-ups\s+6/,
    );
    // The next seven days' shifts: every role has Events, so each shift with places open links to its event's.
    const shifts = page.getByRole('table', { name: 'Shift places per day, and the shifts with places open' });
    expect(await shifts.getByRole('row', { name: /Nov 3/ }).innerText()).toMatch(
      /Nov 3\s+5\s+3\s+2\s+Early vote canvass, 09:00–12:00 \(Mid-City\): 1 of 3/,
    );
    expect(
      await shifts
        .getByRole('link', { name: 'Early vote canvass, 09:00–12:00 (Mid-City)' })
        .getAttribute('href'),
    ).toBe('#events/7/shifts?title=Early+vote+canvass');
    const table = page.getByRole('table', { name: 'Sign-ups per day, by form' });
    expect(await table.getByRole('row').count()).toBe(1 + DAYS.length);
    expect(await table.getByRole('row', { name: /Nov 3/ }).innerText()).toMatch(/Nov 3\s+6\s+0\s+0\s+0\s+0/);
    // A viewer has no Inbox: the heading names the list without a link that would go nowhere.
    expect(await table.getByRole('link', { name: 'Text sign-ups' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Open Campaign Progress' }).count()).toBe(1);
    const events = page.getByRole('table', { name: 'Events in this period: signed up against checked in' });
    expect(await events.getByRole('row', { name: /Canvass kickoff/ }).innerText()).toMatch(
      /Nov 1\s+18\s+2\s+15\s+20/,
    );
    const sent = page.getByRole('table', { name: 'The latest broadcasts that went out' });
    expect(await sent.getByRole('row', { name: /Early voting starts Saturday/ }).innerText()).toMatch(/\s2$/);
    await expectNoAxeViolations(page);

    const asked = () => api.calls.filter((c) => c.path === '/api/admin/overview').length;
    const before = asked();
    await page.getByLabel('Period', { exact: true }).selectOption({ label: 'Last 30 days' });
    await expect.poll(asked).toBeGreaterThan(before);
    await page.close();
  });

  it('an admin on a phone: a figure opens the list it counts; the behind notice; axe 0', async () => {
    const { page } = await openOverview({ role: 'admin' }, 'mobile');
    await page.getByRole('img', { name: /Text opt-ins and opt-outs per day/ }).waitFor();
    expect(await page.getByText('21 opt-ins against 2 opt-outs (net +19).').count()).toBe(1);
    await expectNoAxeViolations(page);
    await page
      .getByRole('table', { name: 'Sign-ups per day, by form' })
      .getByRole('link', { name: 'Volunteers' })
      .click();
    await expect
      .poll(() => page.getByRole('tab', { name: 'Inbox' }).getAttribute('aria-selected'))
      .toBe('true');
    await page.close();

    const late = await browser.newPage('desktop');
    const api2 = await mockAdminApi(late, { role: 'admin' });
    for (let i = 0; i < 10; i++)
      api2.override('GET /api/admin/overview', 200, {
        ...fixture(),
        behind: { since: '2026-11-03T14:00:00.000Z' },
      });
    await late.goto('/admin#overview');
    const notice = late.getByRole('status').filter({ hasText: 'The daily counts are behind' });
    await notice.waitFor();
    expect(await notice.innerText()).toMatch(/November 3, 2026,? (at )?8:00\sAM/);
    await expectNoAxeViolations(late);
    await late.close();
  });

  for (const viewport of ['desktop', 'mobile'] as const)
    it(`an admin (${viewport}): a figure's link opens the list it counts, filtered; a gap opens its event's shifts; axe 0`, async () => {
      const { page, api } = await openOverview({ role: 'admin' }, viewport);
      const asked: string[] = [];
      page.on('request', (r) => asked.push(r.url()));
      for (let i = 0; i < 6; i++)
        api.override('GET /api/admin/text-signups', 200, {
          items: [
            {
              id: 'linked-1',
              firstName: `Linked ${viewport}`,
              phone: '+15045550199',
              email: '',
              consentAt: '2026-10-30T15:00:00.000Z',
              consentVersion: '2025-09-17',
              createdAt: '2026-10-30T15:00:00.000Z',
              reachStatus: 'subscribed',
              reachStatusAt: null,
            },
          ],
          total: 1,
          page: 1,
          pageSize: 20,
        });
      // Text sign-ups of the period -> the Inbox on the text list, those days.
      await page
        .getByRole('table', { name: 'Sign-ups per day, by form' })
        .getByRole('link', { name: 'Text sign-ups' })
        .click();
      await expect
        .poll(() => page.getByRole('tab', { name: 'Inbox' }).getAttribute('aria-selected'))
        .toBe('true');
      await page.getByRole('cell', { name: `Linked ${viewport}` }).waitFor();
      expect(await page.getByLabel('Show', { exact: true }).inputValue()).toBe('text-signups');
      expect(
        await page
          .getByText('Signed up from Wednesday, October 28, 2026 to Tuesday, November 3, 2026')
          .count(),
      ).toBe(1);
      expect(asked.some((u) => /\/api\/admin\/text-signups\?.*from=2026-10-28.*to=2026-11-03/.test(u))).toBe(
        true,
      );
      await expectNoAxeViolations(page);

      // STOP replies -> the text list of people who opted out.
      await page.goto('/admin#overview');
      await page
        .getByRole('table', { name: 'Text list per day' })
        .getByRole('link', { name: 'STOP replies' })
        .click();
      await expect.poll(() => page.getByLabel('Status', { exact: true }).inputValue()).toBe('stopped');
      expect(await page.getByLabel('Show', { exact: true }).inputValue()).toBe('text-signups');

      // A shift with places open -> that event's shifts.
      for (let i = 0; i < 4; i++) {
        api.override('GET /api/admin/events/7/shifts', 200, {
          slots: [
            {
              id: 'morning',
              date: '2026-11-03',
              start: '09:00',
              end: '12:00',
              capacity: 3,
              siteId: null,
              label: 'Mid-City',
            },
          ],
          places: [
            {
              id: 'morning',
              date: '2026-11-03',
              start: '09:00',
              end: '12:00',
              label: 'Mid-City',
              capacity: 3,
              seatsLeft: 2,
              waitlisted: 0,
            },
          ],
          sequence: DEFAULT_SEQUENCE,
        });
        api.override('GET /api/admin/shift-plan', 200, { rows: [] });
      }
      for (let i = 0; i < 10; i++) api.override('GET /api/admin/overview', 200, fixture());
      await page.goto('/admin#overview');
      await page
        .getByRole('table', { name: 'Shift places per day, and the shifts with places open' })
        .getByRole('link', { name: 'Early vote canvass, 09:00–12:00 (Mid-City)' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Shifts: Early vote canvass' });
      await dialog.waitFor();
      await dialog.getByRole('table', { name: 'Shifts' }).getByText('Mid-City').first().waitFor();
      expect(await page.getByRole('tab', { name: 'Events' }).getAttribute('aria-selected')).toBe('true');
      await expectNoAxeViolations(page);
      await page.close();
    });
});
