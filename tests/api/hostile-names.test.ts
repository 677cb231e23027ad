import { Window } from 'happy-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as broadcastsFn from '../../netlify/functions/admin-broadcasts.mts';
import * as contactFn from '../../netlify/functions/contact.mts';
import * as textSignupFn from '../../netlify/functions/text-signup.mts';
import * as volunteersFn from '../../netlify/functions/volunteers-sendgrid.mts';
import * as votePlanFn from '../../netlify/functions/vote-plan.mts';
import type { BroadcastView } from '../../src/lib/schemas/broadcast-views.ts';
import { SUBJECT_ONE_LINE_MESSAGE } from '../../src/lib/schemas/broadcasts.ts';
import { VolunteerSignupSchema } from '../../src/lib/schemas/forms.ts';
import { NAME_CHARACTERS_MESSAGE } from '../../src/lib/schemas/public-forms.ts';
import type { StoredRsvp } from '../../src/lib/schemas/rsvp.ts';
import type { StoredVotePlan } from '../../src/lib/schemas/vote-plan.ts';
import { runBroadcasts } from '../../src/lib/server/broadcasts/engine.ts';
import { getBroadcast, listBroadcasts, updateBroadcast } from '../../src/lib/server/broadcasts/repo.ts';
import { env, TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { confirmationEmail, reminderEmail } from '../../src/lib/server/events/rsvp-email.ts';
import { runReminders } from '../../src/lib/server/events/reminders.ts';
import { INBOX_SPECS } from '../../src/lib/server/inbox/summaries.ts';
import { noteSummary } from '../../src/lib/server/inbox/summary-shapes.ts';
import { volunteerRecord } from '../../src/lib/server/public-forms/submissions.ts';
import { composeBulkEmail } from '../../src/lib/server/messaging/email-guard.ts';
import { hashed, key } from '../../src/lib/server/storage/keys.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { NEW_PLAN_STATE } from '../../src/lib/server/vote-plans/record.ts';
import { reminderMessages } from '../../src/lib/server/vote-plans/reminders.ts';
import { countSegments } from '../../src/lib/sms-segments.ts';
import { compliantText } from '../../src/lib/text-compliance.ts';
import { HOSTILE, INVISIBLE, REAL, REPRODUCTIONS, TOO_LONG } from '../fixtures/hostile-names.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { FakeClock, textSubscriber } from '../helpers/broadcasts.ts';
import { FUTURE_CALENDAR } from '../helpers/election.ts';
import {
  keysOf,
  localProviders,
  uniqueIp,
  uniquePhone,
  validContact,
  validSignup,
  validVolunteer,
  valuesOf,
} from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { person, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import { signedIn } from '../helpers/users.ts';

/**
 * A supporter's words stay words (the outside attack of 2026-11-29; docs/decisions/075-names-are-not-a-channel.md): a corpus of
 * hostile names (tests/fixtures/hostile-names.ts) through every template that carries one, delivered by the real
 * code to the local outbox. Names are stored through the public forms where intake takes them, and written straight
 * into the store where intake refuses them (invisible characters, 300 characters), to prove the templates hold
 * beyond intake. Every delivered email has exactly the elements, attributes and links of its template, no subject
 * carries markup, no text a URL or host its template did not have, and real names arrive intact.
 */

const FALLBACK = 'neighbor';
const TEXT_FALLBACK = 'friend';
/** The email template: every place a name can go (subject, preheader, HTML). */
const EMAIL = {
  subject: 'Hi {firstName}, early voting starts Saturday',
  subjectEs: '',
  preview: '{firstName}, find your early voting site',
  previewEs: '',
  html: '<p>Hi {firstName},</p><p>Early voting starts Saturday. <a href="https://averyformayor.example/vote">Find your site</a>.</p>',
  htmlEs: '',
  firstNameFallback: FALLBACK,
};
const TEXT_BODY = 'Hi {firstName}! Early voting starts Saturday.';

let blobs: Awaited<ReturnType<typeof startBlobs>>;
let editor: Awaited<ReturnType<typeof signedIn>>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
  editor = await signedIn('editor');
});
afterAll(() => blobs.stop());

const window = new Window();
const parse = (html: string) => new window.DOMParser().parseFromString(html, 'text/html');
/** A link without its query: each recipient's unsubscribe link carries its own token. */
const target = (v: string) => v.replace(/\?.*$/, '');
/** Every element with its attributes and link targets, in document order: what a name must never change. */
function shape(html: string): string[] {
  return [...parse(html).querySelectorAll('*')].map((el) => {
    const attrs = [...el.attributes]
      .map((a) => `${a.name}=${a.name === 'href' || a.name === 'src' ? target(a.value ?? '') : a.value}`)
      .sort();
    return `${el.tagName.toLowerCase()}[${attrs.join(' ')}]`;
  });
}
const textOf = (html: string) => parse(html).body.textContent;
/** URLs and host names in a text, as a mail client or phone would make them links. */
const hostsIn = (text: string) =>
  new Set(
    [...text.matchAll(/(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[\p{L}\p{N}_-]+\.)+\p{L}{2,}/giu)].map((m) =>
      m[0].toLowerCase().replace(/^[a-z][a-z0-9+.-]*:\/\//, ''),
    ),
  );
const subset = (a: Set<string>, b: Set<string>) => [...a].filter((x) => !b.has(x));
const MARKUP = /[<>]/;

/** The name a recipient must be greeted by: real names as typed, anything else the fallback. */
const expectedName = (typed: string, fallback: string) => (REAL.includes(typed) ? typed : fallback);

const post = (path: string, cookie: string, body?: unknown) =>
  call(broadcastsFn, path, { method: 'POST', cookie, ...(body !== undefined ? { json: body } : {}) });
const json = async <T>(res: Response) => (await res.json()) as T;

/** Drafts a broadcast as an editor, prepares it, and sends it through the real engine to the outbox. */
async function broadcast(body: Record<string, unknown>, clock: FakeClock) {
  const res = await call(broadcastsFn, '/api/admin/broadcasts', { json: body, cookie: editor.cookie });
  expect(res.status).toBe(201);
  const id = (await json<{ broadcast: { id: number } }>(res)).broadcast.id;
  expect((await post(`/api/admin/broadcasts/${id}/prepare`, editor.cookie)).status).toBe(200);
  await until(id, 'ready', clock);
  const view = await json<BroadcastView>(
    await call(broadcastsFn, `/api/admin/broadcasts/${id}`, { cookie: editor.cookie }),
  );
  // Approval is not what this file tests (broadcasts-staff.test.ts): the job sends what was prepared.
  await updateBroadcast(id, (cur) => ({ ...cur, status: 'sending' }));
  const final = await until(id, 'completed', clock);
  return { id, view, final };
}

async function until(id: number, status: string, clock: FakeClock) {
  for (let i = 0; i < 60; i += 1) {
    const b = await getBroadcast(id);
    if (b?.status === status) return b;
    await runBroadcasts({ clock, deadline: clock.now() + 25_000 });
    clock.advance(60_000);
  }
  throw new Error(`the broadcast did not get to ${status}`);
}

interface Sent {
  to: string;
  subject: string;
  text: string;
  html?: string;
}
/** Every email in the outbox, grouped by recipient (read once per test: the outbox is read whole). */
async function outboxByRecipient(): Promise<(to: string) => Sent[]> {
  const all = await valuesOf<Sent>('outbox', 'email/');
  return (to) => all.filter((m) => m.to === to);
}
const emailsTo = async (to: string) => (await outboxByRecipient())(to);

/** The email as the template makes it for the fallback: the oracle every delivered email is held to. */
function oracle(to: string) {
  const fill = (s: string) => s.replaceAll('{firstName}', FALLBACK);
  return composeBulkEmail({
    to,
    subject: fill(EMAIL.subject),
    preview: fill(EMAIL.preview),
    html: fill(EMAIL.html),
    lang: 'en',
  });
}

/** Every delivered broadcast email against the oracle: `name` is what the recipient must be greeted by. */
function expectTemplateOnly(mail: Sent, name: string) {
  const want = oracle(mail.to);
  expect(shape(mail.html!)).toEqual(shape(want.html));
  expect(textOf(mail.html!)).toBe(textOf(want.html).replaceAll(FALLBACK, name));
  expect(mail.subject).toBe(EMAIL.subject.replace('{firstName}', name));
  expect(mail.subject).not.toMatch(MARKUP);
  expect(subset(hostsIn(mail.text), hostsIn(want.text))).toEqual([]);
  expect(subset(hostsIn(mail.subject), new Set())).toEqual([]);
}

// ---------------------------------------------------------------------------------------------------------------
describe('intake: names with invisible format characters are refused on every public form', () => {
  const forms = [
    {
      form: 'volunteer',
      fn: volunteersFn,
      path: '/api/volunteers-sendgrid',
      field: 'firstName',
      body: (name: string) =>
        validVolunteer({ firstName: name, email: `${hashed(name).slice(0, 8)}@example.org` }),
      store: 'volunteers',
    },
    {
      form: 'volunteer (last name)',
      fn: volunteersFn,
      path: '/api/volunteers-sendgrid',
      field: 'lastName',
      body: (name: string) => validVolunteer({ lastName: name }),
      store: 'volunteers',
    },
    {
      form: 'contact',
      fn: contactFn,
      path: '/api/contact',
      field: 'name',
      body: (name: string) => validContact({ name }),
      store: 'contacts',
    },
    {
      form: 'text sign-up',
      fn: textSignupFn,
      path: '/api/newsletter',
      field: 'firstName',
      body: (name: string) => validSignup({ firstName: name, phone: uniquePhone(), email: '' }),
      store: 'signups',
    },
    {
      form: 'plan to vote',
      fn: votePlanFn,
      path: '/api/vote-plan',
      field: 'name',
      body: (name: string) => ({
        day: '2031-01-04',
        method: 'in-person',
        name,
        email: 'plan@example.org',
        emailConsent: true,
        captcha: TURNSTILE_TEST_TOKEN,
      }),
      store: 'vote-plans',
    },
  ] as const;

  it.each(forms)(
    '$form: 400 with the name message, nothing stored',
    async ({ fn, path, field, body, store }) => {
      const before = (await keysOf(store)).length;
      for (const name of INVISIBLE) {
        const res = await call(fn, path, { json: body(name), ip: uniqueIp() });
        expect(res.status, JSON.stringify(name)).toBe(400);
        const answer = await json<{ fields: Record<string, string> }>(res);
        expect(answer.fields[field]).toBe(NAME_CHARACTERS_MESSAGE);
      }
      expect((await keysOf(store)).length).toBe(before);
    },
  );

  it('RSVP: 400 with the name message, nothing stored', async () => {
    const event = await rsvpEventFixture(null);
    for (const name of INVISIBLE) {
      const res = await rsvpTo(event.id, person({ name }));
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect((await json<{ fields: Record<string, string> }>(res)).fields.name).toBe(NAME_CHARACTERS_MESSAGE);
    }
    expect(await keysOf('rsvps', `rsvp/${event.id}/`)).toEqual([]);
  });

  it('real names, accents and apostrophes included, are taken as typed', async () => {
    for (const name of REAL) {
      const email = `real-${hashed(name).slice(0, 8)}@example.org`;
      const res = await call(volunteersFn, '/api/volunteers-sendgrid', {
        json: validVolunteer({ firstName: name, lastName: name, email }),
        ip: uniqueIp(),
      });
      expect(res.status, name).toBe(201);
    }
  });
});

describe('broadcast subjects are one line', () => {
  it.each(['subject', 'subjectEs'] as const)(
    'a line break in %s: 400 with a field message, nothing stored',
    async (field) => {
      const before = (await listBroadcasts()).length;
      for (const broken of ['Hi\nthere', 'Hi\r\nthere', 'Hi\u2028there']) {
        const res = await call(broadcastsFn, '/api/admin/broadcasts', {
          json: {
            name: 'Subject',
            channel: 'email',
            audience: { kind: 'volunteers' },
            email: { ...EMAIL, subject: 'One line', [field]: broken },
          },
          cookie: editor.cookie,
        });
        expect(res.status).toBe(400);
        expect((await json<{ fields: Record<string, string> }>(res)).fields[`email.${field}`]).toBe(
          SUBJECT_ONE_LINE_MESSAGE,
        );
      }
      expect((await listBroadcasts()).length).toBe(before);
    },
  );
});

// ---------------------------------------------------------------------------------------------------------------
describe('an email broadcast to volunteers with hostile names', () => {
  const CITY = 'Hostileville';
  /** Address -> the name typed. */
  const typed = new Map<string, string>();
  let view: BroadcastView;

  beforeAll(async () => {
    let n = 0;
    const email = () => `volunteer${(n += 1)}@victims.example.org`;
    // Through the public form, as the attacker did (the first is the outside reproduction, with a victim's address).
    for (const name of [...HOSTILE, ...REAL]) {
      const to = name === REPRODUCTIONS.volunteerLink ? 'victim@example.org' : email();
      const res = await call(volunteersFn, '/api/volunteers-sendgrid', {
        json: validVolunteer({ firstName: name, email: to, city: CITY }),
        ip: uniqueIp(),
      });
      expect(res.status, name).toBe(201);
      typed.set(to, name);
    }
    // Beyond intake: stored as a record kept before the rule would be.
    for (const name of [...INVISIBLE, TOO_LONG]) {
      const to = email();
      const { key: k, record } = volunteerRecord(
        { ...VolunteerSignupSchema.parse(validVolunteer({ email: to, city: CITY })), firstName: name },
        { ip: null, userAgent: null },
        new Date('2026-11-01T12:00:00-05:00'),
      );
      await kv('volunteers').put(k, record);
      await noteSummary('volunteers', INBOX_SPECS.volunteers.fromRecord(record, k)!);
      typed.set(to, name);
    }
    ({ view } = await broadcast(
      { name: 'Early voting', channel: 'email', audience: { kind: 'volunteers', place: CITY }, email: EMAIL },
      new FakeClock('2026-11-30T10:00:00-06:00'),
    ));
  }, 120_000);

  it('the outside reproduction: no live link in the body or the subject, the fallback instead', async () => {
    const [mail] = await emailsTo('victim@example.org');
    expect(mail?.html).toBeDefined();
    const links = [...parse(mail!.html!).querySelectorAll('a')].map((a) =>
      target(a.getAttribute('href') ?? ''),
    );
    expect(links.filter((h) => h.includes('evil.example'))).toEqual([]);
    expect(mail!.html).not.toContain('REJECTED');
    expect(mail!.subject).toBe(`Hi ${FALLBACK}, early voting starts Saturday`);
    expectTemplateOnly(mail!, FALLBACK);
  });

  it('every recipient: the template’s elements, attributes and links only; real names intact', async () => {
    expect(typed.size).toBe(HOSTILE.length + REAL.length + INVISIBLE.length + 1);
    const emailsTo = await outboxByRecipient();
    for (const [to, name] of typed) {
      const mails = emailsTo(to);
      expect(mails, name).toHaveLength(1);
      expectTemplateOnly(mails[0]!, expectedName(name, FALLBACK));
    }
  });

  it('the staff preview is the template with the fallback', () => {
    const p = view.preview.en;
    expect('html' in p && shape(p.html)).toEqual(shape(oracle('recipient@example.org').html));
    expect('subject' in p && p.subject).toBe(`Hi ${FALLBACK}, early voting starts Saturday`);
  });

  it('the staff notification shows each typed name as inert text: no markup part, no live link', async () => {
    const inbox = (await valuesOf<Sent>('outbox', 'email/')).filter(
      (m) => m.to === env().CAMPAIGN_INBOX_EMAIL && m.subject.startsWith('New volunteer'),
    );
    for (const name of [...HOSTILE, ...REAL]) {
      const to = [...typed].find(([, n]) => n === name)![0];
      const mail = inbox.find((m) => m.text.includes(`Email: ${to}`));
      expect(mail, name).toBeDefined();
      expect(mail!.html).toBeUndefined();
      // Only the volunteer's own (validated) address may read as a host.
      const allowed = new Set([to.split('@')[1]!]);
      expect(subset(hostsIn(`${mail!.subject}\n${mail!.text}`), allowed), name).toEqual([]);
      expect(mail!.text).not.toContain('://');
    }
    const attack = inbox.find((m) => m.text.includes('Email: victim@example.org'))!;
    // Staff still read every word of what was typed.
    expect(attack.text).toContain('Your ballot was REJECTED - fix it here');
    expect(attack.text).toContain('evil[.]example');
    for (const name of REAL)
      expect(
        inbox.some((m) => m.subject.includes(name)),
        name,
      ).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('a contact message with a hostile name and a link', () => {
  it('reaches staff as inert text', async () => {
    const res = await call(contactFn, '/api/contact', {
      json: validContact({
        name: REPRODUCTIONS.volunteerLink,
        email: 'contact-attack@example.org',
        message: 'Your ballot was rejected: fix it at https://evil.example/ballot or www.x.com',
      }),
      ip: uniqueIp(),
    });
    expect(res.status).toBe(201);
    const [mail] = (await valuesOf<Sent>('outbox', 'email/')).filter(
      (m) => m.to === env().CAMPAIGN_INBOX_EMAIL && m.text.includes('contact-attack@example.org'),
    );
    expect(mail?.html).toBeUndefined();
    expect(subset(hostsIn(`${mail!.subject}\n${mail!.text}`), new Set(['example.org']))).toEqual([]);
    expect(mail!.text).toContain('fix it at https[:]//evil[.]example/ballot or www[.]x[.]com');
    // When, as staff read a clock: the campaign's time, not a raw UTC timestamp.
    expect(mail!.text).toMatch(/^Received: \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M \(New Orleans time\)$/m);
    expect(mail!.text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('RSVPs with hostile names: confirmation, reminder and an email broadcast to the attendees', () => {
  /** Address -> the name typed. */
  const typed = new Map<string, string>();
  let eventId: number;

  beforeAll(async () => {
    const event = await rsvpEventFixture(null, { eventDate: '2099-01-15', title: 'Town Hall' });
    eventId = event.id;
    for (const name of [...HOSTILE, ...REAL]) {
      const p = person({ name, smsReminder: true, phone: uniquePhone() });
      expect((await rsvpTo(event.id, p)).status, name).toBe(201);
      typed.set(p.email, name);
    }
    // The day before, at noon in New Orleans (January: UTC-6).
    const run = await runReminders(new Date('2099-01-14T12:00:00-06:00'));
    expect(run.emails).toBe(typed.size);
    await broadcast(
      {
        name: 'Attendees',
        channel: 'email',
        audience: { kind: 'event_attendees', eventId: event.id },
        email: EMAIL,
      },
      new FakeClock('2099-01-14T13:00:00-06:00'),
    );
  }, 120_000);

  it('the outside reproduction: no <style> or heading in the email to the attendees', async () => {
    const to = [...typed].find(([, n]) => n === REPRODUCTIONS.rsvpStyle)![0];
    const mail = (await emailsTo(to)).find((m) => m.html);
    const doc = parse(mail!.html!);
    expect(doc.querySelectorAll('style, h2').length).toBe(0);
    expect(mail!.html).not.toContain('display:none}');
    expectTemplateOnly(mail!, FALLBACK);
  });

  it('each broadcast email: the template’s shape; an attendee is greeted by the first word of a real name', async () => {
    const emailsTo = await outboxByRecipient();
    for (const [to, name] of typed) {
      const mail = emailsTo(to).find((m) => m.html);
      // The attendee list greets by the first word of the name (audiences.ts); a plain word of letters is a name.
      const first = name.split(/\s+/)[0]!;
      const want = REAL.includes(name) || /^\p{L}{1,50}$/u.test(first) ? first : FALLBACK;
      expect(mail, name).toBeDefined();
      expectTemplateOnly(mail!, want);
    }
  });

  it('the confirmation and reminder emails greet by the name only when it is one, and carry nothing else typed', async () => {
    const emailsTo = await outboxByRecipient();
    const control = emailsTo([...typed].find(([, n]) => n === "O'Brien")![0]).filter((m) => !m.html);
    const allowed = new Set(control.flatMap((m) => [...hostsIn(m.text)]));
    for (const [to, name] of typed) {
      const mails = emailsTo(to).filter((m) => !m.html);
      expect(mails.map((m) => m.subject).sort(), name).toEqual([
        'Tomorrow: Town Hall',
        "You're going: Town Hall",
      ]);
      for (const m of mails) {
        expect(m.text.split('\n')[0]).toBe(REAL.includes(name) ? `Hi ${name},` : 'Hello,');
        expect(subset(hostsIn(m.text), allowed), name).toEqual([]);
        expect(m.text, name).not.toMatch(MARKUP);
        expect(m.subject).not.toMatch(MARKUP);
      }
    }
  });

  it('the reminder texts carry no name and no host', async () => {
    const texts = (await valuesOf<{ to: string; body: string }>('outbox', 'sms/')).filter((t) =>
      t.body.includes('Reminder: Town Hall'),
    );
    expect(texts).toHaveLength(typed.size);
    for (const t of texts) {
      expect(hostsIn(t.body)).toEqual(new Set());
      expect(t.body).not.toMatch(MARKUP);
    }
  });

  it('beyond intake: invisible and overlong names still get the neutral greeting', () => {
    const e = { id: eventId, title: 'Town Hall' };
    for (const name of [...INVISIBLE, TOO_LONG]) {
      const r = {
        id: 'a'.repeat(64),
        eventId,
        name,
        email: 'x@example.org',
        lang: 'en',
        guests: 0,
      } as StoredRsvp;
      const event = {
        ...e,
        eventDate: '2099-01-15',
        startTime: '18:00',
        endTime: null,
        location: 'Library',
        contactEmail: '',
      };
      for (const m of [
        confirmationEmail(event as never, r, 'going', null),
        reminderEmail(event as never, r),
      ]) {
        expect(m.text.split('\n')[0]).toBe('Hello,');
        expect(m.text).not.toMatch(/[\p{Cf}]/u);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('a text broadcast to text subscribers with hostile names', () => {
  const SOURCE = '/hostile-names';
  /** Number -> the name typed. */
  const typed = new Map<string, string>();
  let final: Awaited<ReturnType<typeof broadcast>>['final'];
  let view: BroadcastView;

  beforeAll(async () => {
    // The outside reproduction, through the public form.
    const phone = uniquePhone();
    const res = await call(textSignupFn, '/api/newsletter', {
      json: validSignup({ firstName: REPRODUCTIONS.textInstruction, phone, email: '', sourcePage: SOURCE }),
      ip: uniqueIp(),
    });
    expect(res.status).toBe(201);
    typed.set(phone, REPRODUCTIONS.textInstruction);
    // The rest written as the list keeps them (invisible characters included: defence beyond intake).
    for (const name of [
      ...HOSTILE.filter((n) => n !== REPRODUCTIONS.textInstruction),
      ...INVISIBLE,
      ...REAL,
    ]) {
      const p = uniquePhone();
      const record = textSubscriber(p, '2026-11-01T12:00:00.000Z', { firstName: name, sourcePage: SOURCE });
      const k = key('person', hashed(p));
      await kv('signups').put(k, record);
      await noteSummary('text-signups', INBOX_SPECS['text-signups'].fromRecord(record, k)!);
      typed.set(p, name);
    }
    ({ final, view } = await broadcast(
      {
        name: 'Early voting text',
        channel: 'text',
        audience: { kind: 'text_subscribers', source: SOURCE },
        text: { body: TEXT_BODY, bodyEs: '', firstNameFallback: TEXT_FALLBACK },
      },
      // Noon in New Orleans, inside every 504 number's window.
      new FakeClock('2026-12-01T12:00:00-06:00'),
    ));
  }, 120_000);

  const sent = async () =>
    (await valuesOf<{ to: string; body: string }>('outbox', 'sms/')).filter((t) => typed.has(t.to));

  it('the outside reproduction: no false instruction, no host', async () => {
    const [phone] = [...typed].find(([, n]) => n === REPRODUCTIONS.textInstruction)!;
    const texts = (await sent()).filter((t) => t.to === phone && t.body.includes('Early voting'));
    expect(texts.map((t) => t.body)).toEqual([
      compliantText(TEXT_BODY.replace('{firstName}', TEXT_FALLBACK), 'en'),
    ]);
  });

  it('every text: the template with the name or the fallback, no URL or host; real names intact', async () => {
    const texts = await sent();
    for (const [phone, name] of typed) {
      const mine = texts.filter((t) => t.to === phone && t.body.includes('Early voting'));
      expect(
        mine.map((t) => t.body),
        name,
      ).toEqual([compliantText(TEXT_BODY.replace('{firstName}', expectedName(name, TEXT_FALLBACK)), 'en')]);
      expect(hostsIn(mine[0]!.body)).toEqual(hostsIn(TEXT_BODY));
    }
  });

  it('what is counted is what is sent: the estimate’s segments are the delivered texts’ segments', async () => {
    const texts = (await sent()).filter((t) => t.body.includes('Early voting'));
    expect(texts).toHaveLength(typed.size);
    const delivered = texts.reduce((n, t) => n + countSegments(t.body).segments, 0);
    expect(final.run.segments).toBe(delivered);
    expect(view.estimate.segments).toBe(delivered);
    expect(view.preview.en).toEqual({
      text: compliantText(TEXT_BODY.replace('{firstName}', TEXT_FALLBACK), 'en'),
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('plan-to-vote reminders for plans with hostile names', () => {
  const plan = (name: string, lang: 'en' | 'es'): StoredVotePlan => ({
    ...NEW_PLAN_STATE,
    id: hashed(name + lang),
    round: 'primary',
    linkId: 'L'.repeat(22),
    day: '2031-01-04',
    method: 'in-person',
    timeOfDay: null,
    bringing: name,
    name,
    phone: '+15045550123',
    email: 'voter@example.org',
    lang,
    smsConsent: { at: '2030-12-01T12:00:00.000Z', text: 'Text me', version: '1' },
    emailConsent: { at: '2030-12-01T12:00:00.000Z', text: 'Email me', version: '1' },
    createdAt: '2030-12-01T12:00:00.000Z',
    updatedAt: '2030-12-01T12:00:00.000Z',
    ip: null,
    userAgent: null,
  });

  it('texts carry no name and no host but the site’s; emails greet by the name only when it is one', () => {
    for (const lang of ['en', 'es'] as const) {
      const control = reminderMessages(FUTURE_CALENDAR, plan('Ana', lang), 'eve');
      const allowedText = hostsIn(control.text);
      const allowedEmail = hostsIn(control.email!.text);
      for (const name of [...HOSTILE, ...INVISIBLE, TOO_LONG, ...REAL])
        for (const which of ['eve', 'morning'] as const) {
          const m = reminderMessages(FUTURE_CALENDAR, plan(name, lang), which);
          expect(subset(hostsIn(m.text), allowedText), name).toEqual([]);
          expect(m.text).not.toMatch(MARKUP);
          const first = m.email!.text.split('\n')[0];
          const greeted = REAL.includes(name);
          const es = greeted ? `Hola, ${name}:` : 'Hola:';
          expect(first).toBe(lang === 'es' ? es : greeted ? `Hi ${name},` : 'Hello,');
          expect(subset(hostsIn(m.email!.text), allowedEmail), name).toEqual([]);
          expect(m.email!.text).not.toMatch(MARKUP);
        }
    }
  });
});
