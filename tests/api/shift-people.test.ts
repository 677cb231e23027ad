import { beforeAll, describe, expect, it } from 'vitest';
import * as adminPeople from '../../netlify/functions/admin-people.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
import { useLocalBlobs } from '../helpers/blobs.ts';
import { uniqueIp, validVolunteer } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import { morningAndAfternoon, putShifts } from '../helpers/shifts.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * Shift sign-ups on the person (docs/decisions/181-shifts.md, docs/decisions/149-people.md): a sign-up for shifts
 * links its person like an RSVP does (source 'shift'), so the timeline shows it; and "volunteers not yet on a shift"
 * (has volunteered, has not shift) is a People filter, the audience a gap is recruited from.
 */

useLocalBlobs();
let editor: string;
beforeAll(async () => {
  editor = (await signedIn('editor')).cookie;
});

/** A surname no other test uses: the search scopes every count to this file's people. */
const family = `Shiftwell${Math.random()
  .toString(36)
  .replace(/[^a-z]/g, '')
  .slice(0, 6)}`;
const emailOf = (first: string) => `${first.toLowerCase()}.${family.toLowerCase()}@example.org`;

const volunteer = (first: string, phone: string) =>
  call(volunteersFn, '/api/volunteers-sendgrid', {
    json: validVolunteer({ firstName: first, lastName: family, email: emailOf(first), phone }),
    ip: uniqueIp(),
  });

interface Row {
  id: string;
  name: string;
  sources: string[];
}
async function people(query: string): Promise<{ items: Row[]; total: number }> {
  const res = await call(adminPeople, `/api/admin/people?q=${family}&${query}`, { cookie: editor });
  expect(res.status).toBe(200);
  return (await res.json()) as { items: Row[]; total: number };
}

describe('shift sign-ups on the person', () => {
  it("a sign-up for two shifts is one 'shift' entry on the person's timeline; volunteers not yet on a shift are counted apart", async () => {
    const event = await rsvpEventFixture(null, { title: 'Early vote canvass' });
    expect((await putShifts(event.id, morningAndAfternoon(5), editor)).status).toBe(200);
    // Ana volunteers and takes two shifts; Ben volunteers only; Cy takes a shift without the volunteer form.
    expect((await volunteer('Ana', '504-555-0171')).status).toBe(201);
    expect((await volunteer('Ben', '504-555-0172')).status).toBe(201);
    const ana = await rsvpTo(
      event.id,
      person({ name: `Ana ${family}`, email: emailOf('Ana'), slots: ['am', 'pm'] }),
    );
    expect(ana.status).toBe(201);
    const cy = await rsvpTo(event.id, person({ name: `Cy ${family}`, email: emailOf('Cy'), slots: ['am'] }));
    expect(cy.status).toBe(201);

    const all = await people('');
    expect(all.items.map((r) => r.name).sort()).toEqual([`Ana ${family}`, `Ben ${family}`, `Cy ${family}`]);
    const anaRow = all.items.find((r) => r.name === `Ana ${family}`)!;
    expect([...anaRow.sources].sort()).toEqual(['shift', 'volunteer']);
    expect(all.items.find((r) => r.name === `Cy ${family}`)!.sources).toEqual(['shift']);

    const view = await call(adminPeople, `/api/admin/people/${anaRow.id}`, { cookie: editor });
    expect(view.status).toBe(200);
    const { timeline } = (await view.json()) as {
      timeline: { source: string; detail: Record<string, unknown> }[];
    };
    expect(timeline.map((e) => e.source)).toEqual(['volunteer', 'shift']);
    expect(timeline[1]!.detail).toMatchObject({ eventId: event.id, slots: 'am pm' });

    // The audience of a gap: volunteers not yet on a shift.
    const notOnAShift = await people('has=volunteered&hasNot=shift');
    expect(notOnAShift.total).toBe(1);
    expect(notOnAShift.items.map((r) => r.name)).toEqual([`Ben ${family}`]);
    expect((await people('has=shift')).total).toBe(2);
    expect((await call(adminPeople, '/api/admin/people?hasNot=shifts', { cookie: editor })).status).toBe(400);
  });
});
