import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendEmail, EmailSendError } from '../../src/lib/server/adapters/email.ts';
import { sendSms, SmsSendError, validTwilioSignature } from '../../src/lib/server/adapters/sms.ts';
import { verifyCaptcha } from '../../src/lib/server/adapters/captcha.ts';
import { ConfigError, TURNSTILE_TEST_SECRET, TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { HttpError } from '../../src/lib/server/errors.ts';
import { setTestBudgets } from '../../src/lib/server/time-budgets.ts';
import { startBlobs } from '../helpers/blobs.ts';
import {
  fakeProvider,
  keysOf,
  localProviders,
  sendJson,
  setEnv,
  signedInbound,
  twilioHandler,
  TWILIO_SID,
  TWILIO_TOKEN,
  valuesOf,
  INBOUND_URL,
  type FakeProvider,
} from '../helpers/forms.ts';

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(async () => {
  localProviders();
  await blobs.stop();
});
beforeEach(() => localProviders());

async function status(p: Promise<unknown>): Promise<number | string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (err instanceof HttpError) return err.status;
    return (err as Error).name;
  }
}

describe('email adapter (SendGrid /v3/mail/send)', () => {
  let sg: FakeProvider;
  let mode: 'ok' | 400 | 500 | 'hang' = 'ok';
  beforeAll(async () => {
    sg = await fakeProvider((_req, res) => {
      if (mode === 'hang') return;
      if (mode !== 'ok') return sendJson(res, mode, { errors: [{ message: 'secret provider detail' }] });
      res.writeHead(202, { 'X-Message-Id': 'sg-msg-1' });
      res.end();
    });
  });
  afterAll(() => sg.close());
  beforeEach(() => {
    mode = 'ok';
    sg.requests.length = 0;
    setEnv({ SENDGRID_API_KEY: 'SG.test', SENDGRID_API_URL: sg.url, EMAIL_FROM: 'site@example.org' });
  });

  it('posts the message with the API key and answers the message id on 202', async () => {
    const r = await sendEmail({
      to: 'team@example.org',
      subject: 'Hi',
      text: 'Body',
      replyTo: 'v@example.com',
    });
    expect(r).toEqual({ id: 'sg-msg-1', via: 'sendgrid' });
    const req = sg.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v3/mail/send');
    expect(req.headers.authorization).toBe('Bearer SG.test');
    expect(JSON.parse(req.body)).toEqual({
      personalizations: [{ to: [{ email: 'team@example.org' }] }],
      from: { email: 'site@example.org' },
      reply_to: { email: 'v@example.com' },
      subject: 'Hi',
      content: [{ type: 'text/plain', value: 'Body' }],
    });
  });

  it.each([400, 500] as const)('a %i answer is an EmailSendError without the provider body', async (code) => {
    mode = code;
    const err = await sendEmail({ to: 'a@b.co', subject: 's', text: 't' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmailSendError);
    expect((err as Error).message).toBe(`SendGrid answered ${code}`);
  });

  it('a hanging provider times out (its budget, shrunk here) as an EmailSendError', async () => {
    mode = 'hang';
    setTestBudgets({ emailMs: 200 });
    try {
      const err = await sendEmail({ to: 'a@b.co', subject: 's', text: 't' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EmailSendError);
    } finally {
      setTestBudgets(null);
    }
  });

  it('unconfigured: local mode writes the outbox, production refuses', async () => {
    setEnv({ SENDGRID_API_KEY: undefined });
    const r = await sendEmail({ to: 'a@b.co', subject: 'Local', text: 't' });
    expect(r.via).toBe('outbox');
    const mails = await valuesOf<{ subject: string }>('outbox', 'email/');
    expect(mails.some((m) => m.subject === 'Local')).toBe(true);
    setEnv({ APP_ENV: 'production' });
    await expect(sendEmail({ to: 'a@b.co', subject: 's', text: 't' })).rejects.toBeInstanceOf(ConfigError);
  });
});

describe('SMS adapter (Twilio Messages API through the twilio package)', () => {
  let tw: FakeProvider;
  let opts: { fail?: number; hang?: boolean } = {};
  beforeAll(async () => {
    tw = await fakeProvider((req, res) => twilioHandler(opts)(req, res));
  });
  afterAll(() => tw.close());
  beforeEach(() => {
    opts = {};
    tw.requests.length = 0;
    setEnv({
      TWILIO_ACCOUNT_SID: TWILIO_SID,
      TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
      TWILIO_MESSAGING_SERVICE_SID: 'MG' + 'a'.repeat(32),
      TWILIO_API_URL: tw.url,
    });
  });

  it('sends through the messaging service with basic auth and returns the SID', async () => {
    const r = await sendSms({ to: '+15045550100', body: 'Hello' });
    expect(r.via).toBe('twilio');
    expect(r.id).toMatch(/^SM[0-9a-f]{32}$/);
    const req = tw.requests[0]!;
    expect(req.url).toBe(`/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`);
    expect(req.headers.authorization).toBe(
      `Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN}`).toString('base64')}`,
    );
    const form = new URLSearchParams(req.body);
    expect(form.get('To')).toBe('+15045550100');
    expect(form.get('Body')).toBe('Hello');
    expect(form.get('MessagingServiceSid')).toBe('MG' + 'a'.repeat(32));
  });

  it('uses the from-number when no messaging service is set', async () => {
    setEnv({ TWILIO_MESSAGING_SERVICE_SID: undefined, TWILIO_FROM_NUMBER: '+15045550199' });
    await sendSms({ to: '+15045550100', body: 'Hi' });
    expect(new URLSearchParams(tw.requests[0]!.body).get('From')).toBe('+15045550199');
  });

  it.each([400, 500])('a %i answer is an SmsSendError with status and code only', async (code) => {
    opts = { fail: code };
    const err = await sendSms({ to: '+15045550100', body: 'Hi' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SmsSendError);
    expect((err as Error).message).toBe(`Twilio answered ${code} (code 20003)`);
  });

  it('a hanging API times out (its budget, shrunk here) as an SmsSendError', async () => {
    opts = { hang: true };
    setTestBudgets({ smsMs: 200 });
    try {
      const err = await sendSms({ to: '+15045550100', body: 'Hi' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SmsSendError);
    } finally {
      setTestBudgets(null);
    }
  });

  it('unconfigured: local mode writes the outbox (sms/...), production refuses', async () => {
    setEnv({ TWILIO_ACCOUNT_SID: undefined, TWILIO_AUTH_TOKEN: undefined });
    const r = await sendSms({ to: '+15045550111', body: 'Outbox text' });
    expect(r.via).toBe('outbox');
    expect(await keysOf('outbox', 'sms/')).not.toHaveLength(0);
    expect((await valuesOf<{ body: string }>('outbox', 'sms/')).some((m) => m.body === 'Outbox text')).toBe(
      true,
    );
    setEnv({ APP_ENV: 'production' });
    await expect(sendSms({ to: '+15045550100', body: 'x' })).rejects.toBeInstanceOf(ConfigError);
    expect(tw.requests).toHaveLength(0);
  });

  describe('production texts only when registered (Campaign Verify token and the Messaging Service)', () => {
    /** Everything production needs to text, with real-looking values (the fake Twilio takes any credentials). */
    const REGISTERED = {
      APP_ENV: 'production',
      TWILIO_AUTH_TOKEN: '0123456789abcdef0123456789abcdef',
      TWILIO_MESSAGING_SERVICE_SID: 'MG' + 'a'.repeat(32),
      CAMPAIGN_VERIFY_TOKEN: 'cv|1.0|tcr|10dlc|9957c339-d46f-49c7-a399-5b7e5f8bd92e|GQ3EM4tYXbj1wFp0q2mc',
    };

    it('with everything set, production sends through the Messaging Service', async () => {
      setEnv(REGISTERED);
      const r = await sendSms({ to: '+15045550100', body: 'Registered' });
      expect(r.via).toBe('twilio');
      expect(new URLSearchParams(tw.requests[0]!.body).get('MessagingServiceSid')).toBe(
        'MG' + 'a'.repeat(32),
      );
    });

    it.each([
      ['no Campaign Verify token', { CAMPAIGN_VERIFY_TOKEN: undefined }, /CAMPAIGN_VERIFY_TOKEN is not set/],
      [
        'a partial token',
        { CAMPAIGN_VERIFY_TOKEN: 'cv|1.0|tcr|10dlc' },
        /CAMPAIGN_VERIFY_TOKEN is not a whole/,
      ],
      [
        'a from-number instead of the Messaging Service',
        { TWILIO_MESSAGING_SERVICE_SID: undefined, TWILIO_FROM_NUMBER: '+15045550199' },
        /TWILIO_MESSAGING_SERVICE_SID is not set/,
      ],
      ['a malformed service', { TWILIO_MESSAGING_SERVICE_SID: 'MG123' }, /not a Messaging Service SID/],
    ] as const)(
      '%s: refused with a logged ConfigError naming it, nothing sent',
      async (_what, change, named) => {
        setEnv({ ...REGISTERED, ...change });
        const logged: unknown[][] = [];
        const spy = vi
          .spyOn(console, 'error')
          .mockImplementation((...args: unknown[]) => void logged.push(args));
        try {
          const err = await sendSms({ to: '+15045550100', body: 'Unregistered' }).catch((e: unknown) => e);
          expect(err).toBeInstanceOf(ConfigError);
          expect((err as Error).message).toMatch(named);
          expect(logged.map((a) => String(a[0])).join('\n')).toMatch(named);
          expect(tw.requests).toHaveLength(0);
        } finally {
          spy.mockRestore();
        }
      },
    );

    it('local mode keeps texting through a from-number without a token (tests against a Twilio test account)', async () => {
      setEnv({ TWILIO_MESSAGING_SERVICE_SID: undefined, TWILIO_FROM_NUMBER: '+15045550199' });
      expect((await sendSms({ to: '+15045550100', body: 'Local' })).via).toBe('twilio');
    });
  });

  it('validates X-Twilio-Signature against SITE_URL + path, not the Host', async () => {
    const fields = { MessageSid: 'SM' + '1'.repeat(32), From: '+15045550100', Body: 'STOP' };
    const signed = signedInbound(fields);
    const params = Object.fromEntries(new URLSearchParams(signed.body));
    const sig = signed.headers['x-twilio-signature'];
    expect(await validTwilioSignature(INBOUND_URL, sig, params)).toBe(true);
    // The same request arriving under another Host still checks against SITE_URL.
    expect(await validTwilioSignature('http://evil.example/api/sms/inbound', sig, params)).toBe(true);
    // Signed for another URL: refused.
    const other = signedInbound(fields, { url: 'http://evil.example/api/sms/inbound' });
    expect(await validTwilioSignature(INBOUND_URL, other.headers['x-twilio-signature'], params)).toBe(false);
    expect(await validTwilioSignature(INBOUND_URL, null, params)).toBe(false);
    expect(await validTwilioSignature(INBOUND_URL, sig, { ...params, Body: 'START' })).toBe(false);
    setEnv({ TWILIO_AUTH_TOKEN: undefined });
    expect(await validTwilioSignature(INBOUND_URL, sig, params)).toBe(false);
  });
});

describe('captcha adapter (Turnstile siteverify)', () => {
  let ts: FakeProvider;
  let mode: 'ok' | 500 | 'hang' = 'ok';
  beforeAll(async () => {
    ts = await fakeProvider((req, res) => {
      if (mode === 'hang') return;
      if (mode === 500) return sendJson(res, 500, { error: 'down' });
      const form = new URLSearchParams(req.body);
      const token = form.get('response') ?? '';
      if (form.get('secret') !== 'real-secret')
        return sendJson(res, 200, { success: false, 'error-codes': ['invalid-input-secret'] });
      if (token.startsWith('bad'))
        return sendJson(res, 200, { success: false, 'error-codes': ['invalid-input-response'] });
      if (token.startsWith('dup'))
        return sendJson(res, 200, { success: false, 'error-codes': ['timeout-or-duplicate'] });
      sendJson(res, 200, { success: true, hostname: 'localhost', 'error-codes': [] });
    });
  });
  afterAll(() => ts.close());
  beforeEach(() => {
    mode = 'ok';
    ts.requests.length = 0;
    setEnv({
      TURNSTILE_SECRET_KEY: 'real-secret',
      TURNSTILE_VERIFY_URL: `${ts.url}/turnstile/v0/siteverify`,
    });
  });

  it('posts secret, response and remoteip form-encoded and accepts success', async () => {
    await verifyCaptcha('good-token-1', '198.51.100.7');
    const req = ts.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/turnstile/v0/siteverify');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({
      secret: 'real-secret',
      response: 'good-token-1',
      remoteip: '198.51.100.7',
    });
  });

  it('missing, failed and duplicate tokens -> 400 Please complete the CAPTCHA', async () => {
    for (const t of [undefined, '', 'bad-token', 'dup-token']) {
      const err = await verifyCaptcha(t, '198.51.100.7').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).status).toBe(400);
      expect((err as HttpError).message).toBe('Please complete the CAPTCHA');
    }
  });

  it('a token accepted once is refused the second time (reuse record)', async () => {
    await verifyCaptcha('good-token-reuse');
    expect(await status(verifyCaptcha('good-token-reuse'))).toBe(400);
    expect(await keysOf('meta', 'captcha/')).not.toHaveLength(0);
  });

  it('verifier 5xx or hanging -> 503 (fail closed)', async () => {
    mode = 500;
    expect(await status(verifyCaptcha('good-token-2'))).toBe(503);
    mode = 'hang';
    setTestBudgets({ captchaMs: 200 });
    try {
      expect(await status(verifyCaptcha('good-token-3'))).toBe(503);
    } finally {
      setTestBudgets(null);
    }
  });

  it('verifier unreachable -> 503', async () => {
    setEnv({ TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9/siteverify' });
    expect(await status(verifyCaptcha('good-token-4'))).toBe(503);
  });

  it('a wrong secret is a configuration error, not the visitor’s', async () => {
    setEnv({ TURNSTILE_SECRET_KEY: 'wrong' });
    expect(await status(verifyCaptcha('good-token-5'))).toBe('ConfigError');
  });

  it('local mode without a secret accepts only the dummy token, without recording it', async () => {
    setEnv({ TURNSTILE_SECRET_KEY: undefined });
    await verifyCaptcha(TURNSTILE_TEST_TOKEN);
    await verifyCaptcha(TURNSTILE_TEST_TOKEN);
    expect(await status(verifyCaptcha('anything-else'))).toBe(400);
    expect(ts.requests).toHaveLength(0);
  });

  it('production refuses a missing secret and the test secret', async () => {
    setEnv({ APP_ENV: 'production', TURNSTILE_SECRET_KEY: undefined });
    expect(await status(verifyCaptcha(TURNSTILE_TEST_TOKEN))).toBe('ConfigError');
    setEnv({ TURNSTILE_SECRET_KEY: TURNSTILE_TEST_SECRET });
    expect(await status(verifyCaptcha(TURNSTILE_TEST_TOKEN))).toBe('ConfigError');
    expect(ts.requests).toHaveLength(0);
  });
});
