import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as confirmFn from '../../netlify/functions/email-subscribers-confirm.mts';
import * as subscribers from '../../netlify/functions/email-subscribers.mts';
import * as inbox from '../../netlify/functions/admin-inbox.mts';
import { EMAIL_CONSENT } from '../../src/content/consent.ts';
import { NEWSLETTER_LINK_INVALID } from '../../src/lib/schemas/forms.ts';
import { StoredSubscriberSchema, type StoredSubscriber } from '../../src/lib/schemas/inbox.ts';
import { NEWSLETTER_CONFIRM } from '../../src/lib/schemas/public-forms.ts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import {
  CONFIRM_TTL_MS,
  confirmSubscription,
  subscribeEmail,
  subscriberKey,
} from '../../src/lib/server/public-forms/subscribers.ts';
import { reindexInbox } from '../../src/lib/server/inbox/summaries.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { keysOf, localProviders, setEnv, uniqueIp } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { outboxEmails, signedIn } from '../helpers/users.ts';

/**
 * The newsletter box had no bot check and no
 * confirmation (150 posts from one IP, all 201, 150 strangers in the staff
 * export). Now: the captcha first, then a pending record and one
 * confirmation email; only a confirmed address is a subscriber
 * (docs/decisions/167-email-and-newsletter.md).
 */
let blobs: Awaited<ReturnType<typeof startBlobs>>;
let staff = '';
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
  staff = (await signedIn('editor')).cookie;
});
afterAll(() => blobs.stop());

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
let seq = 0;
const address = (tag: string) => `${tag}-${Date.now().toString(36)}-${++seq}@example.org`;

const subscribe = (email: string, over: Record<string, unknown> = {}) =>
  call(subscribers, '/api/email-subscribers', {
    json: { email, sourcePage: '/blog', captcha: TURNSTILE_TEST_TOKEN, ...over },
    ip: uniqueIp(),
  });
const confirm = (token: string, over: Record<string, unknown> = {}) =>
  call(confirmFn, '/api/email-subscribers/confirm', { json: { token, ...over }, ip: uniqueIp() });

async function stored(email: string): Promise<StoredSubscriber | null> {
  const r = await kv('subscribers').get(subscriberKey(email));
  return r ? StoredSubscriberSchema.parse(r.value) : null;
}
/** A stored blob as text, whatever it holds: a JSON record, or gzip (a summary index chunk). */
async function storedText(k: string): Promise<string> {
  const bytes = Buffer.from((await kv('subscribers').getBytes(k))!.data);
  return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
}
async function mailsTo(email: string) {
  return (await outboxEmails()).filter((m) => m.to === email);
}
const LINK = /(https?:\/\/[^/\s]+)(\/es)?\/newsletter\/confirm\?token=([A-Za-z0-9_-]{43})/;
function tokenIn(text: string): string {
  const m = LINK.exec(text);
  expect(m, text).not.toBeNull();
  return m![3]!;
}
async function listed(email: string): Promise<{ items: Record<string, unknown>[]; csv: string }> {
  const page = await call(inbox, `/api/admin/email-subscribers?q=${encodeURIComponent(email)}`, {
    cookie: staff,
  });
  const csv = await call(inbox, '/api/admin/email-subscribers?format=csv', { cookie: staff });
  return {
    items: ((await page.json()) as { items: Record<string, unknown>[] }).items,
    csv: await csv.text(),
  };
}

describe('the bot check', () => {
  it('150 posts from one IP without a captcha token: every one refused (400, or 429 past the IP limit), nothing stored, nothing sent', async () => {
    const before = (await keysOf('subscribers')).length;
    const mailsBefore = (await outboxEmails()).length;
    const ip = '203.0.113.77';
    const answers = await Promise.all(
      Array.from({ length: 150 }, async (_, i) => {
        const email = `bot-${i}-${Date.now().toString(36)}@example.org`;
        // Half as a script's JSON, half as a faked HTML form post; some with a made-up token.
        if (i % 2 === 0) {
          const r = await call(subscribers, '/api/email-subscribers', {
            json: i % 4 === 0 ? { email } : { email, captcha: `forged-${i}` },
            ip,
          });
          return { status: r.status, body: (await r.json()) as { error: string } };
        }
        const r = await call(subscribers, '/api/email-subscribers', {
          body: new URLSearchParams({ email, sourcePage: '/blog' }).toString(),
          headers: FORM,
          ip,
        });
        return { status: r.status, location: r.headers.get('location') ?? '' };
      }),
    );
    // The per-IP limit (docs/decisions/159-public-forms.md) is checked before the captcha, so past it a
    // post is refused with 429 instead; before it, every missing or forged token is a 400.
    for (const a of answers.filter((_, i) => i % 2 === 0)) {
      expect([400, 429]).toContain(a.status);
      const error = (a as { body?: { error?: string } }).body?.error;
      expect(a.status === 429 || error === 'Please complete the CAPTCHA', `${a.status}: ${error}`).toBe(true);
    }
    for (const a of answers.filter((_, i) => i % 2 === 1)) {
      expect(a.status).toBe(303);
      expect((a as { location: string }).location).toMatch(/^\/forms\/newsletter\?outcome=/);
    }
    expect(answers.filter((a) => a.status === 400).length).toBeGreaterThan(0);
    expect((await keysOf('subscribers')).length).toBe(before);
    expect((await outboxEmails()).length).toBe(mailsBefore);
  });
});

describe('double opt-in', () => {
  it('a valid post stores the address as pending and sends one confirmation email; pending is not exported', async () => {
    const email = address('pending');
    const res = await subscribe(email);
    expect(res.status).toBe(202);
    const body = (await res.json()) as { message: string; description: string };
    expect(body.message).toBe('Thank you for subscribing!');
    expect(body.description).toContain('check your inbox');
    expect(await stored(email)).toMatchObject({
      email,
      status: 'pending',
      confirmedAt: null,
      sourcePage: '/blog',
      consentText: EMAIL_CONSENT.en.text,
      lang: 'en',
    });
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Please confirm your subscription');
    expect(mails[0]!.text).toContain(`expires in ${NEWSLETTER_CONFIRM.days} days`);
    expect(LINK.exec(mails[0]!.text)?.[1]).toBe('http://localhost:4321');
    expect(LINK.exec(mails[0]!.text)?.[2]).toBeUndefined();
    // Only the token's hash is stored: the token itself is nowhere in the store (records, and the list's summary
    // index, gzip, that another test's listing may have written).
    const token = tokenIn(mails[0]!.text);
    for (const k of await keysOf('subscribers')) {
      expect(k).not.toContain(token);
      expect(await storedText(k)).not.toContain(token);
    }
    const { items, csv } = await listed(email);
    expect(items).toEqual([]);
    expect(csv).not.toContain(email);
  });

  it('confirming flips the address to subscribed once; then it is listed and exported', async () => {
    const email = address('confirm');
    await subscribe(email);
    const token = tokenIn((await mailsTo(email))[0]!.text);
    const first = await confirm(token);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ status: 'confirmed' });
    const after = await stored(email);
    expect(after?.status).toBe('subscribed');
    expect(after?.confirmIp).toMatch(/^198\.51\./);
    expect(Date.parse(after!.confirmedAt!)).not.toBeNaN();
    // A second use: kindly "already confirmed", and nothing changes.
    const again = await confirm(token);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ status: 'already_confirmed' });
    expect((await stored(email))?.confirmedAt).toBe(after!.confirmedAt);
    const { items, csv } = await listed(email);
    expect(items).toMatchObject([{ email, status: 'subscribed' }]);
    const [header, ...rows] = csv.split('\r\n');
    // Each time column is followed by the campaign's clock (docs/decisions/156-exports.md).
    expect(header).toBe(
      'email,subscribed_at,subscribed_at_local,source_page,consent_version,consent_text,confirmed_at,confirmed_at_local,status,status_at,status_at_local',
    );
    expect(rows.find((r) => r.startsWith(email))).toMatch(
      new RegExp(`,${after!.confirmedAt},\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d$`),
    );
  });

  it('20 concurrent uses of one link confirm once; the others answer already confirmed', async () => {
    const email = address('race');
    await subscribe(email);
    const token = tokenIn((await mailsTo(email))[0]!.text);
    const answers = await Promise.all(
      Array.from(
        { length: 20 },
        async () => ((await (await confirm(token)).json()) as { status: string }).status,
      ),
    );
    expect(answers.filter((s) => s === 'confirmed')).toHaveLength(1);
    expect(answers.filter((s) => s === 'already_confirmed')).toHaveLength(19);
    expect((await stored(email))?.status).toBe('subscribed');
  });

  it('an expired link is refused and the address stays pending; an unknown or malformed one too', async () => {
    const email = address('expired');
    await subscribe(email);
    const token = tokenIn((await mailsTo(email))[0]!.text);
    const later = new Date(Date.now() + CONFIRM_TTL_MS + 1000);
    await expect(confirmSubscription(token, { ip: null, userAgent: null }, later)).rejects.toMatchObject({
      status: 400,
      message: NEWSLETTER_LINK_INVALID,
    });
    expect((await stored(email))?.status).toBe('pending');
    // Just inside the window it still works.
    const inside = new Date(Date.now() + CONFIRM_TTL_MS - 60_000);
    expect(await confirmSubscription(token, { ip: null, userAgent: null }, inside)).toBe('confirmed');
    for (const bad of ['A'.repeat(43), 'short', `${token}x`, '']) {
      const res = await confirm(bad);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe(NEWSLETTER_LINK_INVALID);
    }
    expect((await confirm(token, { extra: 1 })).status).toBe(400);
  });

  it('re-subscribing a pending address re-sends at most the bound, then none until the window passes', async () => {
    const email = address('bomb');
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await subscribe(email));
    const bodies = await Promise.all(answers.map(async (r) => [r.status, await r.text()]));
    // Every post is answered the same: nothing tells a stranger the emails stopped.
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(NEWSLETTER_CONFIRM.maxEmails);
    // Each email's link works (any of them confirms; one confirms it all).
    const tokens = mails.map((m) => tokenIn(m.text));
    expect(new Set(tokens).size).toBe(NEWSLETTER_CONFIRM.maxEmails);
    // After the window one more can be sent.
    const later = new Date(Date.now() + CONFIRM_TTL_MS + 1000);
    const meta = { ip: '192.0.2.1', userAgent: null };
    const input = { email, captcha: TURNSTILE_TEST_TOKEN, sourcePage: '/blog' };
    expect((await subscribeEmail(input, meta, later)).mail).toBe('confirm');
    expect((await subscribeEmail(input, meta, later)).mail).toBe('confirm');
    expect((await subscribeEmail(input, meta, later)).mail).toBe('confirm');
    expect((await subscribeEmail(input, meta, later)).mail).toBeNull();
    expect(await mailsTo(email)).toHaveLength(2 * NEWSLETTER_CONFIRM.maxEmails);
    expect(await confirm(tokens[1]!).then((r) => r.json())).toMatchObject({ status: 'confirmed' });
  });

  it('30 concurrent posts of one new address: one record, at most the bound of emails', async () => {
    const email = address('burst');
    const answers = await Promise.all(Array.from({ length: 30 }, () => subscribe(email)));
    for (const a of answers) expect(a.status).toBe(202);
    expect(await keysOf('subscribers', subscriberKey(email))).toHaveLength(1);
    const sent = (await mailsTo(email)).length;
    expect(sent).toBeGreaterThanOrEqual(1);
    expect(sent).toBeLessThanOrEqual(NEWSLETTER_CONFIRM.maxEmails);
  });

  it('an address already subscribed gets the same answer and a note, never a new link', async () => {
    const email = address('known');
    await subscribe(email);
    await confirm(tokenIn((await mailsTo(email))[0]!.text));
    const fresh = await subscribe(address('fresh'));
    const known = await subscribe(email);
    expect(known.status).toBe(fresh.status);
    expect(await known.text()).toBe(await fresh.text());
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe('You are already subscribed');
    expect(LINK.test(mails[1]!.text)).toBe(false);
    expect((await stored(email))?.status).toBe('subscribed');
  });

  it('a record from before double opt-in reads as subscribed (kept on the list)', async () => {
    const email = address('legacy');
    await kv('subscribers').create(subscriberKey(email), {
      id: subscriberKey(email).split('/')[1],
      email,
      sourcePage: '/blog',
      consentText: EMAIL_CONSENT.en.text,
      consentVersion: EMAIL_CONSENT.en.version,
      createdAt: new Date().toISOString(),
      ip: null,
      userAgent: null,
    });
    // Such records were stored before the lists had summary indexes: the first read after the deploy that brought
    // them rebuilds the index from the records (docs/decisions/155-inbox-and-staff-lists.md), as this does.
    await reindexInbox('email-subscribers');
    expect((await listed(email)).items).toMatchObject([{ email, status: 'subscribed', confirmedAt: null }]);
  });

  it('the link is built from SITE_URL, never from the Host the post came in on', async () => {
    setEnv({ SITE_URL: 'https://campaign.example' });
    try {
      const email = address('host');
      await call(subscribers, '/api/email-subscribers', {
        json: { email, captcha: TURNSTILE_TEST_TOKEN },
        headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
        ip: uniqueIp(),
      });
      expect(LINK.exec((await mailsTo(email))[0]!.text)?.[1]).toBe('https://campaign.example');
    } finally {
      setEnv({ SITE_URL: undefined });
    }
  });
});

describe('in Spanish', () => {
  it('the Spanish box sends the Spanish email with the Spanish page, and its form posts land on Spanish pages', async () => {
    const email = address('es');
    const post = await call(subscribers, '/api/email-subscribers', {
      body: new URLSearchParams({
        email,
        sourcePage: '/es/blog',
        lang: 'es',
        'cf-turnstile-response': TURNSTILE_TEST_TOKEN,
      }).toString(),
      headers: FORM,
      ip: uniqueIp(),
    });
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe('/es/forms/newsletter/sent');
    expect(await stored(email)).toMatchObject({
      status: 'pending',
      lang: 'es',
      consentText: EMAIL_CONSENT.es.text,
    });
    const [mail] = await mailsTo(email);
    expect(mail!.subject).toBe('Confirme su suscripción');
    expect(mail!.text).toContain('Confirmar mi suscripción');
    expect(LINK.exec(mail!.text)?.[2]).toBe('/es');
    const token = tokenIn(mail!.text);
    const press = () =>
      call(confirmFn, '/api/email-subscribers/confirm', {
        body: new URLSearchParams({ token, lang: 'es' }).toString(),
        headers: FORM,
        ip: uniqueIp(),
      });
    expect((await press()).headers.get('location')).toBe('/es/forms/newsletter-confirm/sent');
    expect((await press()).headers.get('location')).toBe('/es/forms/newsletter-confirm/already_confirmed');
    const bad = await call(confirmFn, '/api/email-subscribers/confirm', {
      body: new URLSearchParams({ token: 'B'.repeat(43), lang: 'es' }).toString(),
      headers: FORM,
      ip: uniqueIp(),
    });
    expect(bad.headers.get('location')).toMatch(/^\/es\/forms\/newsletter-confirm\?outcome=/);
  });

  it('an English form post of the Confirm button lands on the English pages', async () => {
    const email = address('en-post');
    await subscribe(email);
    const token = tokenIn((await mailsTo(email))[0]!.text);
    const res = await call(confirmFn, '/api/email-subscribers/confirm', {
      body: new URLSearchParams({ token, lang: 'en' }).toString(),
      headers: FORM,
      ip: uniqueIp(),
    });
    expect(res.headers.get('location')).toBe('/forms/newsletter-confirm/sent');
  });
});
