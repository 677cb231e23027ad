/**
 * Texts in the voter's language. A sign-up from a Spanish
 * form records Spanish consent wording and is confirmed in Spanish; HELP is
 * answered in the language the person signed up in; the Spanish stop, start
 * and help words work like the English ones; volunteer and contact
 * submissions keep their language for staff (inbox and CSV).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as newsletter from '../../netlify/functions/text-signup.mts';
import * as inbound from '../../netlify/functions/sms-inbound.mts';
import * as volunteers from '../../netlify/functions/volunteers-sendgrid.mts';
import * as contact from '../../netlify/functions/contact.mts';
import * as inbox from '../../netlify/functions/admin-inbox.mts';
import * as subscribers from '../../netlify/functions/email-subscribers.mts';
import * as rsvpFn from '../../netlify/functions/event-rsvp.mts';
import { EMAIL_CONSENT, SMS_CONSENT } from '../../src/content/consent.ts';
import { IDENTITY } from '../../src/content/identity.ts';
import { rsvpSmsConsentText, rsvpSmsConsentVersion } from '../../src/lib/schemas/rsvp.ts';
import {
  ConsentEventSchema,
  StoredContactSchema,
  StoredSubscriberSchema,
  StoredTextSignupSchema,
  StoredVolunteerSchema,
  type ConsentEvent,
  type StoredTextSignup,
} from '../../src/lib/schemas/inbox.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { confirmationText, helpText, stoppedText } from '../../src/content/sms-program.ts';
import { classifyInbound, INBOUND_KEYWORDS } from '../../src/lib/server/texting/inbound-keywords.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { makeUsers, type Who } from '../helpers/content-users.ts';
import { call } from '../helpers/http.ts';
import { person as rsvpPerson, rsvpEventFixture, rsvpTo } from '../helpers/rsvp.ts';
import {
  keysOf,
  localProviders,
  messageSid,
  setEnv,
  signedInbound,
  TWILIO_TOKEN,
  uniqueIp,
  validContact,
  validSignup,
  validVolunteer,
  valuesOf,
} from '../helpers/forms.ts';

let blobs: Awaited<ReturnType<typeof startBlobs>>;
let users: Record<Who, string | undefined>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
  users = await makeUsers();
});
afterAll(async () => {
  localProviders();
  await blobs.stop();
});
beforeEach(() => {
  localProviders();
  setEnv({ TWILIO_AUTH_TOKEN: TWILIO_TOKEN });
});

let n = 0;
const phone = () => `+1504${String(4_100_000 + ++n)}`;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const signUp = (json: unknown) =>
  call(newsletter, '/api/newsletter', { json, ip: uniqueIp(), headers: { 'user-agent': 'vitest' } });
const person = async (p: string) => (await valuesOf<StoredTextSignup>('signups', `person/${hashed(p)}`))[0];
const ledger = (p: string) => valuesOf<ConsentEvent>('signups', `consent/${hashed(p)}/`);
const textsTo = async (p: string) =>
  (await valuesOf<{ to: string; body: string; createdAt?: string }>('outbox', 'sms/')).filter(
    (m) => m.to === p,
  );
const inboundText = async (From: string, Body: string) => {
  const s = signedInbound({ MessageSid: messageSid(), From, Body });
  const res = await call(inbound, '/api/sms/inbound', {
    method: 'POST',
    body: s.body,
    headers: s.headers,
    crossSite: true,
  });
  expect(res.status).toBe(200);
  return res.text();
};
/** The text of the TwiML reply, or '' when there is none. */
const replyOf = (twiml: string) =>
  /<Message>([\s\S]*)<\/Message>/
    .exec(twiml)?.[1]
    ?.replace(/&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&') ?? '';

describe('text sign-up in Spanish', () => {
  it('stores lang es with the Spanish wording, its version and sha256; the outbox has a Spanish confirmation', async () => {
    const p = phone();
    const res = await signUp(validSignup({ phone: p, lang: 'es', sourcePage: '/es/' }));
    expect(res.status).toBe(201);

    const stored = StoredTextSignupSchema.parse(await person(p));
    expect(stored).toMatchObject({ lang: 'es', consentVersion: SMS_CONSENT.es.version });
    const optIn = (await ledger(p))
      .map((e) => ConsentEventSchema.parse(e))
      .find((e) => e.type === 'web_opt_in');
    expect(optIn).toMatchObject({
      lang: 'es',
      consentText: SMS_CONSENT.es.text,
      consentVersion: SMS_CONSENT.es.version,
      consentTextSha256: sha256(SMS_CONSENT.es.text),
      sourcePage: '/es/',
    });
    expect(SMS_CONSENT.es.version).not.toBe(SMS_CONSENT.en.version);

    const texts = await textsTo(p);
    expect(texts).toHaveLength(1);
    expect(texts[0]?.body).toBe(confirmationText('es'));
    expect(texts[0]?.body).toMatch(/Gracias/);
    expect(texts[0]?.body).toMatch(/AYUDA/);
    expect(texts[0]?.body).toMatch(/ALTO/);
  });

  it('a browser form post with the hidden lang field (no JavaScript) records Spanish too', async () => {
    const p = phone();
    const body = new URLSearchParams({
      firstName: 'Lucía',
      phone: p,
      smsConsent: 'on',
      sourcePage: '/es/',
      lang: 'es',
    });
    const res = await call(newsletter, '/api/newsletter', {
      body: body.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      ip: uniqueIp(),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/es/forms/text-signup/sent'); // the Spanish outcome page;
    expect(await person(p)).toMatchObject({ lang: 'es', firstName: 'Lucía' });
    expect((await textsTo(p))[0]?.body).toBe(confirmationText('es'));
  });

  it('without lang the sign-up is English, as before', async () => {
    const p = phone();
    expect((await signUp(validSignup({ phone: p }))).status).toBe(201);
    expect(await person(p)).toMatchObject({ lang: 'en', consentVersion: SMS_CONSENT.en.version });
    const optIn = (await ledger(p)).find((e) => e.type === 'web_opt_in');
    expect(optIn).toMatchObject({ lang: 'en', consentText: SMS_CONSENT.en.text });
    expect((await textsTo(p))[0]?.body).toBe(confirmationText('en'));
  });

  it('a language the site does not have -> 400, nothing stored or texted', async () => {
    for (const lang of ['fr', 'ES', '', 1, null]) {
      const p = phone();
      const res = await signUp(validSignup({ phone: p, lang }));
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: unknown }).error).toEqual(expect.any(String));
      expect(await keysOf('signups', `consent/${hashed(p)}`)).toHaveLength(0);
      expect(await textsTo(p)).toHaveLength(0);
    }
  });

  it('records stored before languages were recorded (no lang) read as English', () => {
    const old = {
      id: 'a'.repeat(64),
      firstName: 'Old',
      phone: '+15045550100',
      email: null,
      smsStatus: 'subscribed',
      consentAt: '2025-09-20T00:00:00.000Z',
      consentVersion: SMS_CONSENT.en.version,
      optedOutAt: null,
      sourcePage: '/',
      createdAt: '2025-09-20T00:00:00.000Z',
      updatedAt: '2025-09-20T00:00:00.000Z',
      confirmation: null,
    };
    expect(StoredTextSignupSchema.parse(old).lang).toBe('en');
    const meta = {
      id: 'x',
      createdAt: old.createdAt,
      updatedAt: old.createdAt,
      emailStatus: 'sent',
      emailError: null,
      ip: null,
      userAgent: null,
    };
    const { captchaResponse: _c, ...vol } = validVolunteer({ phone: '+15045550101', zip: '' });
    expect(StoredVolunteerSchema.parse({ ...vol, interests: [], ...meta }).lang).toBe('en');
    const { captcha: _k, ...msg } = validContact();
    expect(StoredContactSchema.parse({ ...msg, phone: undefined, ...meta }).lang).toBe('en');
  });
});

describe('inbound Spanish keywords', () => {
  it('ALTO opts a Spanish subscriber out (Twilio confirms a keyword: no reply of ours) and nothing more is sent', async () => {
    const p = phone();
    await signUp(validSignup({ phone: p, lang: 'es' }));
    expect(replyOf(await inboundText(p, 'ALTO'))).toBe('');
    expect(await person(p)).toMatchObject({ smsStatus: 'opted_out', lang: 'es' });
    const stop = (await ledger(p)).find((e) => e.type === 'stop');
    expect(stop).toMatchObject({ inboundBody: 'ALTO', lang: 'es' });
    // A web sign-up for the number is refused now, and nothing is texted.
    const again = await signUp(validSignup({ phone: p, lang: 'es' }));
    expect(((await again.json()) as { status: string }).status).toBe('opted_out');
    expect(await textsTo(p)).toHaveLength(1);
  });

  it.each(['PARAR', 'cancelar', 'Detener', ' alto. '])('%s opts the number out', async (word) => {
    const p = phone();
    await signUp(validSignup({ phone: p, lang: 'es' }));
    await inboundText(p, word);
    expect((await person(p))?.smsStatus).toBe('opted_out');
  });

  it('AYUDA (or HELP) from a Spanish subscriber gets the Spanish HELP; from an English one, the English HELP', async () => {
    const es = phone();
    const en = phone();
    await signUp(validSignup({ phone: es, lang: 'es' }));
    await signUp(validSignup({ phone: en }));
    expect(replyOf(await inboundText(es, 'AYUDA'))).toBe(helpText('es'));
    expect(replyOf(await inboundText(es, 'help'))).toBe(helpText('es'));
    expect(replyOf(await inboundText(en, 'HELP'))).toBe(helpText('en'));
    // The person's language wins over the keyword's.
    expect(replyOf(await inboundText(en, 'Ayúda'))).toBe(helpText('en'));
    expect(helpText('es')).toMatch(/Ayuda: .*@.*\(504\)/);
    const help = (await ledger(es)).filter((e) => e.type === 'help');
    expect(help.map((e) => e.lang)).toEqual(['es', 'es']);
  });

  it('AYUDA from a number not on the list is answered in Spanish', async () => {
    expect(replyOf(await inboundText(phone(), 'ayuda'))).toBe(helpText('es'));
  });

  it('COMENZAR and INICIAR resubscribe a Spanish subscriber who stopped', async () => {
    for (const word of ['COMENZAR', 'iniciar']) {
      const p = phone();
      await signUp(validSignup({ phone: p, lang: 'es' }));
      await inboundText(p, 'PARAR');
      expect((await person(p))?.smsStatus).toBe('opted_out');
      await inboundText(p, word);
      expect(await person(p)).toMatchObject({ smsStatus: 'subscribed', lang: 'es' });
    }
  });

  it('a Spanish sentence asking to stop opts out and is confirmed in Spanish', async () => {
    const p = phone();
    await signUp(validSignup({ phone: p, lang: 'es' }));
    const reply = replyOf(await inboundText(p, 'Por favor no me manden más mensajes'));
    expect(reply).toBe(stoppedText('es'));
    expect(reply).toMatch(/COMENZAR/);
    expect((await person(p))?.smsStatus).toBe('opted_out');
  });

  it('classifies every listed keyword by kind and language, case- and accent-insensitively', () => {
    for (const [kind, byLang] of Object.entries(INBOUND_KEYWORDS))
      for (const [lang, words] of Object.entries(byLang))
        for (const w of words as readonly string[]) {
          expect(classifyInbound(w)).toEqual({ kind, keyword: true, lang });
          expect(classifyInbound(` ${w.toLowerCase()}! `).kind).toBe(kind);
        }
    expect(classifyInbound('ÁLTO')).toMatchObject({ kind: 'stop', lang: 'es' });
    expect(classifyInbound('¿Quién es?').kind).toBe('other');
    expect(classifyInbound('ya no quiero recibir mensajes')).toEqual({
      kind: 'stop',
      keyword: false,
      lang: 'es',
    });
  });

  it('docs/deploy.md lists every keyword the webhook handles (Twilio Advanced Opt-Out must match)', () => {
    const deploy = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
    // The keyword table: one row per kind, each naming exactly the webhook's words.
    const rows = deploy.split('\n').filter((l) => /^\s*\| (Opt-out|Opt-in|Help)/.test(l));
    expect(rows).toHaveLength(3);
    const listed = rows.map((r) => [...r.matchAll(/`([A-Z]+)`/g)].map((m) => m[1]).sort());
    const handled = Object.values(INBOUND_KEYWORDS).map((byLang) =>
      Object.values(byLang)
        .flatMap((w: readonly string[]) => [...w])
        .sort(),
    );
    expect(listed).toEqual(handled);
  });
});

describe('volunteer and contact submissions keep their language', () => {
  it('stores lang, mails staff the language, and the inbox and the CSV show it', async () => {
    expect(
      (
        await call(volunteers, '/api/volunteers-sendgrid', {
          json: validVolunteer({ email: 'maria@example.com', firstName: 'María', lang: 'es' }),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call(volunteers, '/api/volunteers-sendgrid', {
          json: validVolunteer({ email: 'john@example.com', firstName: 'John' }),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call(contact, '/api/contact', {
          json: validContact({ email: 'rosa@example.com', name: 'Rosa', message: 'Hola', lang: 'es' }),
        })
      ).status,
    ).toBe(201);

    const vols = await valuesOf<{ email: string; lang: string }>('volunteers', 'volunteer/');
    expect(vols.find((v) => v.email === 'maria@example.com')?.lang).toBe('es');
    expect(StoredVolunteerSchema.parse(vols.find((v) => v.email === 'john@example.com')).lang).toBe('en');
    const msgs = await valuesOf<{ email: string; lang: string }>('contacts', 'message/');
    expect(msgs.find((m) => m.email === 'rosa@example.com')?.lang).toBe('es');

    const emails = await valuesOf<{ subject: string; text: string }>('outbox', 'email/');
    expect(emails.find((e) => e.subject.includes('María'))?.text).toContain('Language: Spanish');
    expect(emails.find((e) => e.subject.includes('John'))?.text).toContain('Language: English');
    expect(emails.find((e) => e.subject.includes('Rosa'))?.text).toContain('Language: Spanish');

    const page = (await (
      await call(inbox, '/api/admin/volunteers?q=maria', { cookie: users.editor })
    ).json()) as { items: { lang: string }[] };
    expect(page.items.map((i) => i.lang)).toEqual(['es']);
    // Searching the language's name finds the Spanish submissions.
    const spanish = (await (
      await call(inbox, '/api/admin/contacts?q=spanish', { cookie: users.admin })
    ).json()) as { items: { email: string }[] };
    expect(spanish.items.map((i) => i.email)).toEqual(['rosa@example.com']);

    const csv = await (await call(inbox, '/api/admin/volunteers?format=csv', { cookie: users.admin })).text();
    const [head, ...rows] = csv.trim().split('\r\n');
    const col = head!.split(',').indexOf('language');
    expect(col).toBeGreaterThan(-1);
    const byEmail: Record<string, string | undefined> = Object.fromEntries(
      rows.map((r) => [r.split(',')[2] ?? '', r.split(',')[col]]),
    );
    expect(byEmail).toMatchObject({ 'maria@example.com': 'es', 'john@example.com': 'en' });
    const contactsCsv = await (
      await call(inbox, '/api/admin/contacts?format=csv', { cookie: users.admin })
    ).text();
    expect(contactsCsv.split('\r\n')[0]).toContain(',language,');
    expect(contactsCsv).toMatch(/rosa@example\.com,,General[^,]*,Hola,es,/);
  });

  it('the text sign-ups CSV has the language of each sign-up', async () => {
    const p = phone();
    await signUp(validSignup({ phone: p, lang: 'es', email: '' }));
    const csv = await (
      await call(inbox, '/api/admin/text-signups?format=csv', { cookie: users.editor })
    ).text();
    const [head, ...rows] = csv.trim().split('\r\n');
    const cols = head!.split(',');
    const row = rows.map((r) => r.split(',')).find((r) => r[cols.indexOf('phone')] === p);
    expect(row?.[cols.indexOf('language')]).toBe('es');
    expect(row?.[cols.indexOf('consent_version')]).toBe(SMS_CONSENT.es.version);
  });

  it('an unknown language on a volunteer or contact form -> 400, nothing stored', async () => {
    const before = (await keysOf('volunteers')).length + (await keysOf('contacts')).length;
    expect(
      (
        await call(volunteers, '/api/volunteers-sendgrid', {
          json: validVolunteer({ email: 'x1@example.com', lang: 'fr' }),
        })
      ).status,
    ).toBe(400);
    expect((await call(contact, '/api/contact', { json: validContact({ lang: ['es'] }) })).status).toBe(400);
    expect((await keysOf('volunteers')).length + (await keysOf('contacts')).length).toBe(before);
  });
});

describe('newsletter box and RSVP in Spanish (docs/decisions/166-spanish.md)', () => {
  const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
  const subscriber = async (email: string) =>
    StoredSubscriberSchema.parse((await valuesOf('subscribers', `subscriber/${hashed(email)}`))[0]);

  it('a subscription from the Spanish box records the Spanish consent wording and its version', async () => {
    const res = await call(subscribers, '/api/email-subscribers', {
      json: {
        email: 'lector@example.org',
        sourcePage: '/es/blog',
        lang: 'es',
        captcha: TURNSTILE_TEST_TOKEN,
      },
      ip: uniqueIp(),
    });
    expect(res.status).toBe(202);
    expect(await subscriber('lector@example.org')).toMatchObject({
      lang: 'es',
      consentText: EMAIL_CONSENT.es.text,
      consentVersion: EMAIL_CONSENT.es.version,
      sourcePage: '/es/blog',
    });
    expect(EMAIL_CONSENT.es.version).not.toBe(EMAIL_CONSENT.en.version);
    // Without lang: English, as before.
    await call(subscribers, '/api/email-subscribers', {
      json: { email: 'reader2@example.org', captcha: TURNSTILE_TEST_TOKEN },
      ip: uniqueIp(),
    });
    expect(await subscriber('reader2@example.org')).toMatchObject({
      lang: 'en',
      consentText: EMAIL_CONSENT.en.text,
    });
  });

  it('a Spanish browser post lands on the Spanish outcome pages, sent or refused', async () => {
    const ok = await call(subscribers, '/api/email-subscribers', {
      body: new URLSearchParams({
        email: 'sinjs@example.org',
        sourcePage: '/es/blog',
        lang: 'es',
        'cf-turnstile-response': TURNSTILE_TEST_TOKEN,
      }).toString(),
      headers: FORM,
      ip: uniqueIp(),
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/es/forms/newsletter/sent');
    expect(await subscriber('sinjs@example.org')).toMatchObject({
      lang: 'es',
      consentText: EMAIL_CONSENT.es.text,
    });
    const bad = await call(subscribers, '/api/email-subscribers', {
      body: new URLSearchParams({ email: 'no-es-correo', sourcePage: '/es/blog', lang: 'es' }).toString(),
      headers: FORM,
      ip: uniqueIp(),
    });
    expect(bad.headers.get('location')).toMatch(/^\/es\/forms\/newsletter\?outcome=\d{13}-[a-f0-9]{32}$/);
  });

  it('an unknown language -> 400, nothing stored', async () => {
    for (const lang of ['fr', '', 1]) {
      const email = `x${String(lang)}-${Math.random().toString(36).slice(2, 6)}@example.org`;
      const res = await call(subscribers, '/api/email-subscribers', {
        json: { email, lang },
        ip: uniqueIp(),
      });
      expect(res.status).toBe(400);
      expect(await keysOf('subscribers', `subscriber/${hashed(email)}`)).toHaveLength(0);
      const rsvp = await rsvpTo((await rsvpEventFixture(5)).id, rsvpPerson({ lang }));
      expect(rsvp.status).toBe(400);
    }
  });

  it('an RSVP from the Spanish event page logs the Spanish reminder consent and its page', async () => {
    const event = await rsvpEventFixture(null);
    const p = phone();
    const res = await rsvpTo(event.id, rsvpPerson({ smsReminder: true, phone: p, lang: 'es' }));
    expect(res.status).toBe(201);
    const [entry] = (await ledger(p)).map((e) => ConsentEventSchema.parse(e));
    expect(entry).toMatchObject({
      type: 'rsvp_reminder_opt_in',
      lang: 'es',
      consentText: rsvpSmsConsentText(IDENTITY.committeeName, 'es'),
      consentVersion: rsvpSmsConsentVersion(IDENTITY.committeeName, 'es'),
      consentTextSha256: sha256(rsvpSmsConsentText(IDENTITY.committeeName, 'es')),
      sourcePage: `/es/events/${event.id}`,
    });
    expect(entry?.consentText).toMatch(/AYUDA/);
    expect(rsvpSmsConsentVersion(IDENTITY.committeeName, 'es')).not.toBe(
      rsvpSmsConsentVersion(IDENTITY.committeeName, 'en'),
    );
  });

  it('a Spanish RSVP form post goes to the Spanish outcome pages; a refusal keeps the way back to the event', async () => {
    const event = await rsvpEventFixture(1);
    const post = (fields: Record<string, string>) =>
      call(rsvpFn, `/api/events/${event.id}/rsvp`, {
        body: new URLSearchParams(fields).toString(),
        headers: FORM,
        ip: uniqueIp(),
      });
    const fieldsOf = (p: ReturnType<typeof rsvpPerson>) => ({
      name: p.name,
      email: p.email,
      guests: '0',
      captchaResponse: p.captchaResponse,
      lang: 'es',
    });
    expect((await post(fieldsOf(rsvpPerson()))).headers.get('location')).toBe('/es/forms/rsvp/sent');
    expect((await post(fieldsOf(rsvpPerson()))).headers.get('location')).toBe('/es/forms/rsvp/waitlisted');
    const refused = await post({ ...fieldsOf(rsvpPerson()), captchaResponse: '' });
    const loc = refused.headers.get('location') ?? '';
    expect(loc).toMatch(/^\/es\/forms\/rsvp\?outcome=\d{13}-[a-f0-9]{32}$/);
    const { takeOutcome } = await import('../../src/lib/server/form-post.ts');
    expect(await takeOutcome('rsvp', loc.split('=')[1]!)).toMatchObject({
      back: `/events/${event.id}#rsvp-heading`, // the refused page shows it in its own language (/es/events/...)
    });
  });
});
