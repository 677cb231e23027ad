import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedScale } from '../../scripts/lib/scale-seed.mts';
import { CSV_WINDOW } from '../../src/lib/server/audit/activity.ts';
import { adminEvents } from '../../src/lib/server/content/events.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import { EXPORT_KINDS } from '../../src/lib/server/exports/registry.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { VOTE_PLAN_CSV_WINDOW } from '../../src/lib/server/vote-plans/staff.ts';
import { useCountingStores, type CountingStores } from '../helpers/counting-store.ts';
import { deliver, order, useWebhookCredentials } from '../helpers/donations.ts';
import { localProviders } from '../helpers/forms.ts';
import { seedPlans } from '../helpers/vote-plans.ts';

/*
 * What each registered export's source costs (docs/decisions/156-exports.md),
 * on the counting store: opening it reads key listings and a few documents (bounded by the listing pages, not
 * the records), and its rows are read a window at a time, each window a bounded number of calls whatever the
 * store holds; so the background export holds one window in memory and its reads grow with the rows it writes.
 */

const PLANS = 1_200;
/** The scale seed's n: 2n audit entries, an event with n/10 RSVPs. */
const N = 1_000;
const GIFT_DAYS = 20;

let counting: CountingStores;
let eventId = 0;

beforeAll(async () => {
  process.env.APP_ENV ??= 'test';
  resetEnv();
  localProviders();
  useWebhookCredentials();
  counting = useCountingStores();
  await seedScale(N, { parts: ['audit', 'rsvps'], log: () => {} });
  eventId = (await adminEvents())[0]!.id;
  await seedPlans(PLANS);
  for (let i = 0; i < GIFT_DAYS; i++)
    expect(
      (await deliver(order(700 + i, { refcode: `r${i}`, day: `2025-09-${String(i + 1).padStart(2, '0')}` })))
        .status,
    ).toBe(201);
}, 180_000);
afterAll(() => setStoreFactory(null));

/**
 * Opens an export and reads its rows: the calls of the opening, and the most calls between two `window`
 * boundaries of the rows (the reads of one window).
 */
async function costOf(
  name: string,
  params: Record<string, string>,
  window: number,
): Promise<{ open: number; perWindow: number; rows: number; total: number | undefined }> {
  const kind = EXPORT_KINDS[name]!;
  const { calls: open, value: source } = await counting.cost(() =>
    kind.open(kind.params(params), new Date()),
  );
  counting.reset();
  let rows = 0;
  let perWindow = 0;
  let mark = 0;
  for await (const _ of source.rows()) {
    rows += 1;
    if (rows % window === 0) {
      perWindow = Math.max(perWindow, counting.calls() - mark);
      mark = counting.calls();
    }
  }
  perWindow = Math.max(perWindow, counting.calls() - mark);
  if (process.env.SHOW_CALLS) console.log(name, { open, perWindow, rows });
  return { open, perWindow, rows, total: source.total };
}

describe('each export reads a bounded number of calls per window of rows (counting store)', () => {
  it(`plans to vote (${PLANS.toLocaleString('en-US')}): the markers' listing (1,000 a call), then ${VOTE_PLAN_CSV_WINDOW} reads a window`, async () => {
    const c = await costOf('vote_plans', { round: 'primary' }, VOTE_PLAN_CSV_WINDOW);
    expect(c.rows).toBe(PLANS);
    expect(c.total).toBe(PLANS);
    expect(c.open).toBeLessThanOrEqual(Math.ceil(PLANS / 1000) + 1);
    expect(c.perWindow).toBeLessThanOrEqual(VOTE_PLAN_CSV_WINDOW);
  });

  it(`Activity (${(2 * N).toLocaleString('en-US')} entries): the selection, then at most ${CSV_WINDOW} entries and a few segment reads a window`, async () => {
    const c = await costOf('activity', {}, CSV_WINDOW);
    expect(c.rows).toBe(c.total);
    expect(c.rows).toBeGreaterThanOrEqual(2 * N);
    expect(c.open).toBeLessThanOrEqual(10);
    expect(c.perWindow).toBeLessThanOrEqual(CSV_WINDOW + 3);
  });

  it(`an event's attendees (${N / 10}): the event, its roster and check-ins, nothing per row`, async () => {
    const c = await costOf('attendees', { event: String(eventId) }, 500);
    expect(c.rows).toBe(N / 10);
    expect(c.total).toBe(N / 10);
    expect(c.open).toBeLessThanOrEqual(3);
    expect(c.perWindow).toBe(0);
  });

  it(`donations (${GIFT_DAYS} days with gifts): the day keys and one read per day, nothing per row`, async () => {
    const c = await costOf('donations', { from: '2025-09-01', to: '2025-09-30' }, 10);
    expect(c.total).toBe(c.rows);
    expect(c.open).toBeLessThanOrEqual(1 + GIFT_DAYS);
    expect(c.perWindow).toBe(0);
  });
});
