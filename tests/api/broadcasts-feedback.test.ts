import { generateKeyPairSync, sign } from 'node:crypto';
import twilio from 'twilio';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as emailEvents from '../../netlify/functions/email-events.mts';
import * as smsStatus from '../../netlify/functions/sms-status.mts';
import * as unsubscribeFn from '../../netlify/functions/unsubscribe.mts';
import { IDENTITY, officeAddress } from '../../src/content/identity.ts';
import { sendEmail } from '../../src/lib/server/adapters/email.ts';
import { reportedCounts } from '../../src/lib/server/broadcasts/feedback.ts';
import { getPerson } from '../../src/lib/server/texting/text-list.ts';
import {
  composeBulkEmail,
  oneClickUrl,
  sendGuardedEmail,
  suppressionOf,
  unsubscribePageUrl,
} from '../../src/lib/server/messaging/email-guard.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { startBlobs } from '../helpers/blobs.ts';
import {
  fakeProvider,
  localProviders,
  messageSid,
  setEnv,
  TWILIO_TOKEN,
  type FakeProvider,
} from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';

/** docs/decisions/167-email-and-newsletter.md */
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stop } = await startBlobs());
});
afterAll(async () => {
  localProviders();
  await stop();
});

const STATUS_URL = 'http://localhost:4321/api/sms/status?b=7&c=p0.America%3AChicago&i=3';

function signedStatus(fields: Record<string, string>, token = TWILIO_TOKEN) {
  const signature = twilio.getExpectedTwilioSignature(token, STATUS_URL, fields);
  return {
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
  };
}

describe('Twilio status callback', () => {
  beforeEach(() => setEnv({ TWILIO_AUTH_TOKEN: TWILIO_TOKEN }));
  const path = STATUS_URL.replace('http://localhost:4321', '');

  it('refuses an unsigned or wrongly signed callback', async () => {
    const fields = { MessageSid: messageSid(), MessageStatus: 'delivered' };
    expect(
      (
        await call(smsStatus, path, {
          method: 'POST',
          body: new URLSearchParams(fields).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).status,
    ).toBe(403);
    const forged = signedStatus(fields, 'another-token');
    expect((await call(smsStatus, path, { method: 'POST', ...forged })).status).toBe(403);
  });

  it('records a final status once; a replay changes nothing', async () => {
    const fields = { MessageSid: messageSid(), MessageStatus: 'delivered', To: '+15045550177' };
    const first = await call(smsStatus, path, { method: 'POST', ...signedStatus(fields) });
    expect(await first.json()).toEqual({ applied: true });
    const again = await call(smsStatus, path, { method: 'POST', ...signedStatus(fields) });
    expect(await again.json()).toEqual({ applied: false });
    expect((await reportedCounts(7)).delivered).toBe(1);
  });

  it('a carrier opt-out (21610) is a STOP in the consent ledger', async () => {
    const to = '+15045550178';
    const fields = { MessageSid: messageSid(), MessageStatus: 'failed', ErrorCode: '21610', To: to };
    expect((await call(smsStatus, path, { method: 'POST', ...signedStatus(fields) })).status).toBe(200);
    expect((await getPerson(hashed(to)))?.smsStatus).toBe('opted_out');
  });
});

describe('SendGrid Event Webhook (ECDSA)', () => {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pub = publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  const signed = (events: unknown[], ts = Math.floor(Date.now() / 1000), key = privateKey) => {
    const body = JSON.stringify(events);
    const signature = sign('sha256', Buffer.from(String(ts) + body), key).toString('base64');
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'x-twilio-email-event-webhook-signature': signature,
        'x-twilio-email-event-webhook-timestamp': String(ts),
      },
    };
  };
  beforeEach(() => setEnv({ SENDGRID_WEBHOOK_PUBLIC_KEY: pub }));

  it('refuses unsigned, wrongly signed and replayed (stale) requests', async () => {
    const events = [{ email: 'x@example.org', event: 'bounce', sg_event_id: 'e1' }];
    const plain = { body: JSON.stringify(events), headers: { 'content-type': 'application/json' } };
    expect((await call(emailEvents, '/api/email/events', { method: 'POST', ...plain })).status).toBe(403);
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    expect(
      (await call(emailEvents, '/api/email/events', { method: 'POST', ...signed(events, undefined, other) }))
        .status,
    ).toBe(403);
    const stale = signed(events, Math.floor(Date.now() / 1000) - 3600);
    expect((await call(emailEvents, '/api/email/events', { method: 'POST', ...stale })).status).toBe(403);
    expect(await suppressionOf('x@example.org')).toBeNull();
  });

  it('bounces, spam reports and unsubscribes suppress the address, once per event', async () => {
    const events = [
      { email: 'bounce@example.org', event: 'bounce', sg_event_id: 'b1' },
      { email: 'spam@example.org', event: 'spamreport', sg_event_id: 's1' },
      { email: 'unsub@example.org', event: 'unsubscribe', sg_event_id: 'u1' },
      { email: 'fine@example.org', event: 'delivered', sg_event_id: 'd1', broadcast: '9' },
    ];
    const res = await call(emailEvents, '/api/email/events', { method: 'POST', ...signed(events) });
    expect(await res.json()).toEqual({ applied: 4 });
    const replay = await call(emailEvents, '/api/email/events', { method: 'POST', ...signed(events) });
    expect(await replay.json()).toEqual({ applied: 0 });
    expect((await suppressionOf('bounce@example.org'))?.reason).toBe('bounced');
    expect((await suppressionOf('spam@example.org'))?.reason).toBe('spam_reported');
    expect((await suppressionOf('unsub@example.org'))?.reason).toBe('unsubscribed');
    expect(await suppressionOf('fine@example.org')).toBeNull();
    expect((await reportedCounts(9)).delivered).toBe(1);
    expect(
      await sendGuardedEmail({
        to: 'spam@example.org',
        subject: 's',
        preview: '',
        html: '<p>x</p>',
        lang: 'en',
      }),
    ).toEqual({
      sent: false,
      refusal: 'suppressed',
      reason: 'spam_reported',
    });
  });
});

describe('every bulk email carries the disclaimer, the address, the unsubscribe link and headers', () => {
  let sg: FakeProvider;
  beforeAll(async () => {
    sg = await fakeProvider((_req, res) => {
      res.writeHead(202, { 'X-Message-Id': 'sg-1' });
      res.end();
    });
  });
  afterAll(() => sg.close());

  it.each(['en', 'es'] as const)('through SendGrid’s API (%s)', async (lang) => {
    setEnv({ SENDGRID_API_KEY: 'SG.test', SENDGRID_API_URL: sg.url, EMAIL_FROM: 'news@example.org' });
    const to = `reader-${lang}@example.org`;
    const r = await sendGuardedEmail({
      to,
      subject: 'Vote',
      preview: 'Polls open at 7',
      html: '<p>Hello</p>',
      lang,
    });
    expect(r).toEqual({ sent: true, id: 'sg-1' });
    const sent = JSON.parse(sg.requests.at(-1)!.body) as {
      headers: Record<string, string>;
      content: { type: string; value: string }[];
    };
    expect(sent.headers['List-Unsubscribe']).toContain(oneClickUrl(to));
    expect(sent.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    for (const part of sent.content) {
      expect(part.value).toContain(lang === 'en' ? 'Paid for by' : 'Pagado por');
      expect(part.value).toContain(IDENTITY.committeeName);
      expect(part.value).toContain(officeAddress);
      expect(part.value.replaceAll('&amp;', '&')).toContain(unsubscribePageUrl(to, lang));
    }
    localProviders();
  });

  it('the local outbox keeps the same message (npm run outbox shows it)', async () => {
    const m = composeBulkEmail({
      to: 'o@example.org',
      subject: 'S',
      preview: '',
      html: '<p>x</p>',
      lang: 'en',
    });
    expect((await sendEmail(m)).via).toBe('outbox');
  });
});

describe('unsubscribing', () => {
  const link = (address: string) => new URL(oneClickUrl(address));

  it('RFC 8058 one-click: a POST to the List-Unsubscribe URL records the opt-out at once', async () => {
    const u = link('one@example.org');
    const res = await call(unsubscribeFn, `${u.pathname}${u.search}`, {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect((await suppressionOf('one@example.org'))?.reason).toBe('unsubscribed');
  });

  it.each(['en', 'es'] as const)('the page’s form post (%s) lands on the done page', async (lang) => {
    const address = `page-${lang}@example.org`;
    const u = new URL(unsubscribePageUrl(address, lang));
    const body = new URLSearchParams({ u: u.searchParams.get('u')!, t: u.searchParams.get('t')!, lang });
    const res = await call(unsubscribeFn, '/api/unsubscribe', {
      method: 'POST',
      body: body.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(lang === 'en' ? '/unsubscribe/done' : '/es/unsubscribe/done');
    expect(await suppressionOf(address)).not.toBeNull();
  });

  it('a forged link is refused and records nothing', async () => {
    const res = await call(
      unsubscribeFn,
      `/api/unsubscribe?u=${hashed('victim@example.org')}&t=${'A'.repeat(43)}`,
      {
        method: 'POST',
        body: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
    );
    expect(res.status).toBe(400);
    expect(await suppressionOf('victim@example.org')).toBeNull();
  });
});
