import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as inbox from '../../netlify/functions/admin-inbox.mts';
import * as newsletter from '../../netlify/functions/text-signup.mts';
import * as volunteers from '../../netlify/functions/volunteers-sendgrid.mts';
import * as contact from '../../netlify/functions/contact.mts';
import * as subscribers from '../../netlify/functions/email-subscribers.mts';
import * as confirmSubscriber from '../../netlify/functions/email-subscribers-confirm.mts';
import { TURNSTILE_TEST_TOKEN } from '../../src/lib/server/env.ts';
import { createSessionCookie } from '../../src/lib/server/auth/session.ts';
import { createUser } from '../../src/lib/server/auth/users.ts';
import { csvCell, toCsv } from '../../src/lib/server/exports/csv.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';
import { localProviders, validContact, validSignup, validVolunteer } from '../helpers/forms.ts';
import { outboxEmails } from '../helpers/users.ts';

let blobs: Awaited<ReturnType<typeof startBlobs>>;
const cookies: Record<string, string> = {};
const PATHS = [
  '/api/admin/volunteers',
  '/api/admin/contacts',
  '/api/admin/text-signups',
  '/api/admin/email-subscribers',
];

const pair = (setCookie: string) => setCookie.split(';')[0] as string;

/**
 * A staff CSV's text, after checking it starts with the UTF-8 byte-order mark Excel needs
 * (docs/decisions/156-exports.md); `Response.text()` would drop the mark unseen.
 */
async function csvOf(res: Response): Promise<string> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return new TextDecoder().decode(bytes);
}

beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    const u = await createUser({
      username: `${role}1`,
      email: `${role}@example.org`,
      password: 'inbox staff password',
      role,
    });
    cookies[role] = pair(await createSessionCookie(u));
  }
  const inactive = await createUser({
    username: 'gone',
    email: 'gone@example.org',
    password: 'inbox staff password',
    role: 'admin',
    isActive: false,
  });
  cookies.inactive = pair(await createSessionCookie(inactive));
  // Five volunteers, three messages, four text sign-ups, created in order.
  for (let i = 1; i <= 5; i++) {
    const r = await call(volunteers, '/api/volunteers-sendgrid', {
      json: validVolunteer({
        email: `vol${i}@example.com`,
        firstName: i === 3 ? '=HYPERLINK("http://x")' : `Vol${i}`,
        city: i % 2 ? 'New Orleans' : 'Metairie, "East"',
        interests: ['Canvassing'],
      }),
    });
    expect(r.status).toBe(201);
  }
  for (let i = 1; i <= 3; i++) {
    expect(
      (
        await call(contact, '/api/contact', {
          json: validContact({ email: `c${i}@example.com`, message: `Line one\nline ${i}` }),
        })
      ).status,
    ).toBe(201);
  }
  for (let i = 1; i <= 4; i++) {
    expect(
      (
        await call(newsletter, '/api/newsletter', {
          json: validSignup({ phone: `+1504555020${i}`, email: '', firstName: `Texter${i}` }),
        })
      ).status,
    ).toBe(201);
  }
}, 60_000);
afterAll(() => blobs.stop());

describe('staff inbox permissions', () => {
  it.each(PATHS)('%s: anonymous 401, viewer 403, inactive 401, editor and admin 200', async (path) => {
    expect((await call(inbox, path)).status).toBe(401);
    expect((await call(inbox, path, { cookie: cookies.viewer })).status).toBe(403);
    expect((await call(inbox, path, { cookie: cookies.inactive })).status).toBe(401);
    expect((await call(inbox, path, { cookie: cookies.editor })).status).toBe(200);
    expect((await call(inbox, path, { cookie: cookies.admin })).status).toBe(200);
    expect((await call(inbox, path, { method: 'POST', json: {}, cookie: cookies.admin })).status).toBe(405);
  });
});

describe('GET lists', () => {
  it('volunteers: newest first, total, page size, no-store', async () => {
    const res = await call(inbox, '/api/admin/volunteers', { cookie: cookies.editor });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as {
      items: { email: string }[];
      total: number;
      page: number;
      pageSize: number;
    };
    expect(body.total).toBe(5);
    expect(body.page).toBe(1);
    expect(body.pageSize).toBe(50);
    expect(body.items.map((v) => v.email)).toEqual([
      'vol5@example.com',
      'vol4@example.com',
      'vol3@example.com',
      'vol2@example.com',
      'vol1@example.com',
    ]);
  });

  it('pagination; malformed page queries refused', async () => {
    const p2 = (await (
      await call(inbox, '/api/admin/volunteers?page=2&pageSize=2', { cookie: cookies.admin })
    ).json()) as { items: { email: string }[]; total: number };
    expect(p2.total).toBe(5);
    expect(p2.items.map((v) => v.email)).toEqual(['vol3@example.com', 'vol2@example.com']);
    // The shared paging rules: a malformed page query is a 400, never guessed at.
    for (const bad of ['pageSize=5000', 'page=abc']) {
      const res = await call(inbox, `/api/admin/volunteers?${bad}`, { cookie: cookies.admin });
      expect(res.status, bad).toBe(400);
    }
  });

  it('?q filters case-insensitively', async () => {
    const res = (await (
      await call(inbox, '/api/admin/volunteers?q=METAIRIE', { cookie: cookies.admin })
    ).json()) as { items: unknown[]; total: number };
    expect(res.total).toBe(2);
    const contacts = (await (
      await call(inbox, '/api/admin/contacts?q=LINE%202', { cookie: cookies.admin })
    ).json()) as { items: { email: string }[] };
    expect(contacts.items.map((c) => c.email)).toEqual(['c2@example.com']);
    const texts = (await (
      await call(inbox, '/api/admin/text-signups?q=texter3', { cookie: cookies.admin })
    ).json()) as { items: { phone: string; smsStatus: string }[] };
    expect(texts.items).toEqual([
      expect.objectContaining({ phone: '+15045550203', smsStatus: 'subscribed' }),
    ]);
  });
});

describe('CSV export', () => {
  it('volunteers CSV: headers, filename, importable columns, injection-safe, RFC 4180 quoting', async () => {
    const res = await call(inbox, '/api/admin/volunteers?format=csv', { cookie: cookies.editor });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="volunteers-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    // Excel-friendly (docs/decisions/156-exports.md): a UTF-8 byte-order mark, and each time column
    // followed by the same instant on the campaign's clock.
    const text = await csvOf(res);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'first_name,last_name,email,phone,address1,address2,city,state,zip,interests,language,created_at,created_at_local,updated_at,updated_at_local,email_status,status,status_at,status_at_local',
    );
    expect(lines[1]).toMatch(/,\d{4}-\d\d-\d\dT[\d:.]+Z,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,/);
    expect(lines).toHaveLength(7); // header + 5 rows + trailing empty
    expect(text).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(text).toContain('"Metairie, ""East"""');
    expect(text).toContain(',+15045550101,');
  });

  it('contacts CSV keeps multi-line messages in one quoted cell', async () => {
    const text = await csvOf(await call(inbox, '/api/admin/contacts?format=csv', { cookie: cookies.admin }));
    expect(text.split('\r\n')[0]).toBe(
      'name,email,phone,subject,message,language,created_at,created_at_local,email_status',
    );
    expect(text).toContain('"Line one\nline 1"');
  });

  it('text sign-ups CSV has the opt-in status and consent time', async () => {
    const res = await call(inbox, '/api/admin/text-signups?format=csv', { cookie: cookies.admin });
    expect(res.headers.get('content-disposition')).toMatch(/filename="text-signups-\d{4}-\d{2}-\d{2}\.csv"/);
    const [head, first] = (await csvOf(res)).split('\r\n');
    expect(head).toBe(
      'first_name,phone,email,sms_opt_in,consent_at,consent_at_local,consent_version,language,opted_out_at,opted_out_at_local,source_page,created_at,created_at_local,confirmation_status,status,status_at,status_at_local',
    );
    expect(first).toMatch(
      /^Texter4,\+15045550204,,yes,\d{4}-[^,]+Z,[\d-]+ [\d:]+,2025-09-17\.[0-9a-f]{8},en,,,,[^,]+Z,[\d-]+ [\d:]+,sent,subscribed,[^,]+Z,[\d-]+ [\d:]+$/,
    );
  });

  it('newsletter subscribers: listed newest first and exported with the consent wording', async () => {
    // Double opt-in (docs/decisions/167-email-and-newsletter.md): listed once confirmed.
    for (const email of ['first@example.com', 'second@example.com']) {
      expect(
        (
          await call(subscribers, '/api/email-subscribers', {
            json: { email, sourcePage: '/blog', captcha: TURNSTILE_TEST_TOKEN },
          })
        ).status,
      ).toBe(202);
      const mail = (await outboxEmails()).find((m) => m.to === email);
      const token = /confirm\?token=([\w-]{43})/.exec(mail?.text ?? '')?.[1];
      const res = await call(confirmSubscriber, '/api/email-subscribers/confirm', { json: { token } });
      expect(res.status).toBe(200);
    }
    const page = (await (
      await call(inbox, '/api/admin/email-subscribers', { cookie: cookies.editor })
    ).json()) as {
      items: { email: string }[];
    };
    expect(page.items.map((i) => i.email).sort()).toEqual(['first@example.com', 'second@example.com']);
    const csv = await csvOf(
      await call(inbox, '/api/admin/email-subscribers?format=csv', { cookie: cookies.admin }),
    );
    const [header, ...rows] = csv.split('\r\n');
    expect(header).toBe(
      'email,subscribed_at,subscribed_at_local,source_page,consent_version,consent_text,confirmed_at,confirmed_at_local,status,status_at,status_at_local',
    );
    expect(rows.find((r) => r.startsWith('second@'))).toMatch(
      /^second@example\.com,[^,]+Z,[\d-]+ [\d:]+,\/blog,2025-09-17\.[0-9a-f]{8},"By subscribing[^"]+",[^,]+Z,[\d-]+ [\d:]+,subscribed,[^,]+Z,[\d-]+ [\d:]+$/,
    );
  });

  it('csvCell prefixes formula starts and quotes per RFC 4180', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1 call me')).toBe("'+1 call me");
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('+15045550100')).toBe('+15045550100');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(toCsv(['a', 'b'], [['1', '2']])).toBe('a,b\r\n1,2\r\n');
  });
});
