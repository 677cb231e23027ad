import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import VolunteerPage from '../../src/components/pages/VolunteerPage.astro';
import { defaultElectionCalendar } from '../../src/content/election-calendar';
import type { ElectionCalendar } from '../../src/lib/election-stage';
import { setElectionCalendar } from '../../src/lib/server/election/calendar';
import { assertFormOpen } from '../../src/lib/server/election/open-forms';
import { startBlobs } from '../helpers/blobs';
import { render } from './render';

/*
 * A page rendered on request reads the stored calendar, the record the endpoints read
 * (docs/decisions/157-election-calendar.md, "Which calendar a page reads"): with "Campaign ended" stored, /volunteer
 * shows "stay in touch" instead of a form the server would refuse with 410; back to "none", the form returns. No
 * ELECTION_BUILD_NOW here: the page and the endpoint both read the store at the (faked) moment.
 */

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
  // The day after the 2025 primary's results date, 9:00 in New Orleans (CDT, an explicit offset).
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2025-10-12T09:00:00-05:00'));
});
afterAll(async () => {
  vi.useRealTimers();
  await blobs.stop();
});

const progress = { goals: [], metrics: [], milestones: [], unavailable: false };
const store = (mode: ElectionCalendar['mode']) =>
  setElectionCalendar({ ...defaultElectionCalendar, mode }, 'admin');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('on-demand pages follow the stored calendar', () => {
  it('ended: /volunteer has no form, and the endpoint refuses; none: the form is back and the endpoint takes it', async () => {
    expect(process.env.ELECTION_BUILD_NOW).toBeUndefined();
    await store('ended');
    const closed = await render(VolunteerPage, '/volunteer', 'en', progress);
    expect(closed.querySelector('[data-form-closed="volunteer"]')).not.toBeNull();
    expect(closed.querySelector('#volunteer-form form')).toBeNull();
    await expect(assertFormOpen('volunteer')).rejects.toMatchObject({ status: 410 });

    await store('none');
    // A read is reused for 2 seconds within an instance (one read per request's header, footer and page).
    vi.setSystemTime(new Date('2025-10-12T09:00:03-05:00'));
    await sleep(0);
    const open = await render(VolunteerPage, '/volunteer', 'es', progress);
    expect(open.querySelector('[data-form-closed="volunteer"]')).toBeNull();
    expect(open.querySelector('#volunteer-form form')).not.toBeNull();
    await expect(assertFormOpen('volunteer')).resolves.toBeUndefined();
  });
});
