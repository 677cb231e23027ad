import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as inboxFn from '../../netlify/functions/admin-inbox.mts';
import * as newsFn from '../../netlify/functions/news.mts';
import * as newsletterFn from '../../netlify/functions/text-signup.mts';
import * as smsInboundFn from '../../netlify/functions/sms-inbound.mts';
import * as uploadFn from '../../netlify/functions/upload.mts';
import * as uploadsFn from '../../netlify/functions/uploads.mts';
import * as meFn from '../../netlify/functions/auth-me.mts';
import { SECURITY_HEADERS } from '../../src/lib/server/security-headers.ts';
import { startBlobs } from '../helpers/blobs.ts';
import {
  localProviders,
  messageSid,
  setEnv,
  signedInbound,
  TWILIO_TOKEN,
  uniquePhone,
} from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';
import { signedIn } from '../helpers/users.ts';

/*
 * Every response a function sends goes through one helper (src/lib/server/http.ts
 * `respond`), so JSON, errors, CSV downloads, stored image bytes and the TwiML
 * reply all carry the shared security headers (SECURITY.md, "Headers").
 */
let blobs: Awaited<ReturnType<typeof startBlobs>>;
let editor: string;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
  editor = (await signedIn('editor')).cookie;
});
afterAll(() => blobs.stop());

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

function expectSharedHeaders(res: Response, what: string): void {
  const { 'Content-Security-Policy': _pagePolicy, ...others } = SECURITY_HEADERS;
  for (const [name, value] of Object.entries(others))
    expect(res.headers.get(name), `${what}: ${name}`).toBe(value);
  // API answers carry a stricter policy of their own; it must still forbid framing.
  expect(res.headers.get('Content-Security-Policy'), `${what}: CSP`).toMatch(
    /frame-ancestors 'none'|sandbox/,
  );
}

describe('every kind of API response carries the shared security headers', () => {
  it('JSON, a JSON error and a 405', async () => {
    expectSharedHeaders(await call(newsFn, '/api/news'), 'GET /api/news');
    expectSharedHeaders(await call(meFn, '/api/auth/me'), '401 from /api/auth/me');
    expectSharedHeaders(await call(newsFn, '/api/news', { method: 'DELETE' }), '405 from /api/news');
  });

  it('a CSV download', async () => {
    const res = await call(inboxFn, '/api/admin/contacts?format=csv', { cookie: editor });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="contacts-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expectSharedHeaders(res, 'CSV export');
  });

  it('an uploaded image, served with its own sandboxing policy', async () => {
    const form = new FormData();
    form.set('image', new Blob([PNG], { type: 'image/png' }), 'dot.png');
    const up = await call(uploadFn, '/api/upload', { method: 'POST', body: form, cookie: editor });
    expect(up.status).toBe(201);
    expectSharedHeaders(up, 'upload answer');
    const { imageUrl } = (await up.json()) as { imageUrl: string };
    const img = await call(uploadsFn, imageUrl);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(img.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expectSharedHeaders(img, 'stored image');
  });

  it("the TwiML reply to Twilio's webhook", async () => {
    setEnv({ TWILIO_AUTH_TOKEN: TWILIO_TOKEN });
    try {
      const phone = uniquePhone();
      await call(newsletterFn, '/api/newsletter', {
        json: { firstName: 'Tia', phone, email: '', smsConsent: true },
      });
      const inbound = signedInbound({ MessageSid: messageSid(), From: phone, Body: 'HELP' });
      const res = await call(smsInboundFn, '/api/sms/inbound', {
        method: 'POST',
        body: inbound.body,
        headers: inbound.headers,
        crossSite: true,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/xml/);
      expect(await res.text()).toContain('<Response>');
      expectSharedHeaders(res, 'TwiML');
    } finally {
      setEnv({ TWILIO_AUTH_TOKEN: undefined });
    }
  });
});
