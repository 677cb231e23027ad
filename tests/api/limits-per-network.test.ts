/**
 * Limits per network, not per address (docs/decisions/159-public-forms.md: the outside attack of 2026-11-29): one machine
 * with an IPv6 /64 rotating its address must meet every per-address limit as one client. Each limit is run against
 * a real local Blobs server: exhausted from many addresses of one /64, the next address of that /64 is refused, an
 * address of another /64 is not; an IPv4 client reported as IPv4-mapped IPv6 shares its IPv4 counter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contactFn from '../../netlify/functions/contact.mts';
import { recordRefusedSignIn } from '../../src/lib/server/audit/refused-sign-ins.ts';
import { LIMITS } from '../../src/lib/server/auth/rate-limit.ts';
import { login } from '../../src/lib/server/auth/login.ts';
import { requestPasswordReset } from '../../src/lib/server/auth/recovery.ts';
import { checkSecondFactor } from '../../src/lib/server/auth/two-factor.ts';
import { HttpError } from '../../src/lib/server/errors.ts';
import {
  FORM_POST_LIMITS,
  reserveFormPost,
  type LimitedForm,
} from '../../src/lib/server/public-forms/post-limits.ts';
import {
  reserveFromIp,
  reserveTextFromIp,
  TEXT_SIGNUP_LIMITS,
} from '../../src/lib/server/texting/text-limits.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { localProviders, validContact, valuesOf } from '../helpers/forms.ts';
import { call } from '../helpers/http.ts';

let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
  localProviders();
});
afterAll(() => blobs.stop());

/** The fake clock, with an explicit UTC offset. */
const NOW = new Date('2031-05-06T10:00:00-05:00');

let seq = 0;
/** A /64 no other test uses: `2001:db8:N:M::`, spelled with a prefix that takes an interface id. */
function fresh64(): string {
  seq += 1;
  return `2001:db8:${(0x100 + seq).toString(16)}:${seq.toString(16)}:`;
}
/** A fresh IPv4 address (TEST-NET-2), never used by another test. */
const freshV4 = () => `198.51.100.${++seq % 250}`;

/** Whether an attempt was refused by a limit (429); any other answer (even an error) got past it. */
async function limited(attempt: Promise<unknown>): Promise<boolean> {
  try {
    await attempt;
    return false;
  } catch (err) {
    return err instanceof HttpError && err.status === 429;
  }
}

interface Case {
  name: string;
  max: number;
  /** One attempt from `ip`; `i` makes account-level subjects distinct so only the per-client limit is in play. */
  attempt: (ip: string, i: number) => Promise<unknown>;
}

const CASES: Case[] = [
  ...(Object.keys(FORM_POST_LIMITS) as LimitedForm[]).map((form) => ({
    name: `form posts (${form})`,
    max: FORM_POST_LIMITS[form].max,
    attempt: (ip: string) => reserveFormPost(form, ip, NOW.getTime()),
  })),
  {
    name: 'text sign-ups per IP',
    max: TEXT_SIGNUP_LIMITS.signupsPerIp.max,
    attempt: (ip) => reserveFromIp(ip, false, NOW.getTime()),
  },
  {
    name: 'texts per IP (RSVP and plan reminders, confirmations)',
    max: TEXT_SIGNUP_LIMITS.textsPerIp.max,
    attempt: (ip) => reserveTextFromIp(ip, NOW.getTime()),
  },
  {
    name: 'sign-ins per IP',
    max: LIMITS.loginIp.max,
    attempt: (ip, i) => login({ username: `nobody-${seq}-${i}`, password: 'wrong password' }, ip, NOW),
  },
  {
    name: 'second-factor codes per IP',
    max: LIMITS.loginIp.max,
    attempt: (ip, i) => checkSecondFactor({ id: 900_000 + seq * 100 + i }, { code: '000000' }, ip, NOW),
  },
  {
    name: 'password resets per IP',
    max: LIMITS.forgotIp.max,
    attempt: (ip, i) => requestPasswordReset({ email: `nobody-${seq}-${i}@example.com` }, ip, NOW),
  },
];

describe.each(CASES)('$name', ({ max, attempt }) => {
  it('addresses of one /64 share the limit; another /64 has its own', async () => {
    const net = fresh64();
    const other = fresh64();
    const outcomes: boolean[] = [];
    // Every attempt from a new address of the same /64, written in several spellings.
    for (let i = 0; i < max; i++) {
      const ip =
        i % 2 ? `${net}:${(i + 1).toString(16)}` : `${net}${(i + 1).toString(16)}:0:0:${i.toString(16)}`;
      outcomes.push(await limited(attempt(ip, i)));
    }
    expect(outcomes).toEqual(Array<boolean>(max).fill(false));
    expect(await limited(attempt(`${net}ffff:ffff:ffff:ffff`, max))).toBe(true);
    expect(await limited(attempt(`${net.toUpperCase()}:beef`, max + 1))).toBe(true);
    expect(await limited(attempt(`${other}:1`, max + 2))).toBe(false);
  });

  it('an IPv4 client seen as IPv4-mapped IPv6 shares its IPv4 counter; its neighbour does not', async () => {
    const v4 = freshV4();
    for (let i = 0; i < max; i++) expect(await limited(attempt(i % 2 ? v4 : `::ffff:${v4}`, i))).toBe(false);
    expect(await limited(attempt(v4, max))).toBe(true);
    expect(await limited(attempt(`::FFFF:${v4}`, max + 1))).toBe(true);
    expect(await limited(attempt(`::ffff:${freshV4()}`, max + 2))).toBe(false);
  });
});

describe('bad input', () => {
  it('an address that is not one is counted as "unknown" (one shared counter), never an error', async () => {
    const statuses: boolean[] = [];
    for (const ip of ['', 'unknown', 'not-an-ip', '2001:db8::1::2', 'x'.repeat(5000)])
      statuses.push(await limited(reserveTextFromIp(ip, NOW.getTime())));
    expect(statuses).toEqual([false, false, false, false, false]);
    // They all spent one counter: the limit is reached after max attempts in total.
    for (let i = 5; i < TEXT_SIGNUP_LIMITS.textsPerIp.max; i++)
      expect(await limited(reserveTextFromIp(`garbage-${i}`, NOW.getTime()))).toBe(false);
    expect(await limited(reserveTextFromIp('still garbage', NOW.getTime()))).toBe(true);
  });
});

describe('through the real handler (POST /api/contact)', () => {
  it('the platform address of each request is counted per /64', async () => {
    const net = fresh64();
    const statuses: number[] = [];
    for (let i = 0; i < FORM_POST_LIMITS.contact.max; i++) {
      const res = await call(contactFn, '/api/contact', {
        json: validContact({ email: `net${i}@example.com` }),
        ip: `${net}:${(i + 1).toString(16)}`,
      });
      statuses.push(res.status);
    }
    expect(statuses.every((s) => s >= 200 && s < 300)).toBe(true);
    const refused = await call(contactFn, '/api/contact', {
      json: validContact({ email: 'net-last@example.com' }),
      ip: `${net}abcd:1234:5678:9abc`,
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const elsewhere = await call(contactFn, '/api/contact', {
      json: validContact({ email: 'net-other@example.com' }),
      ip: `${fresh64()}:1`,
    });
    expect(elsewhere.status).toBeLessThan(300);
  });
});

describe('refused sign-ins are aggregated per network too', () => {
  it('a /64 spraying addresses is one aggregate of its window, named by its /64', async () => {
    const net = fresh64();
    // A window of its own (the aggregates are keyed by window start), far from the other tests' clock.
    const at = new Date('2033-02-01T10:00:00-06:00');
    for (let i = 1; i <= 4; i++) await recordRefusedSignIn(`${net}:${i.toString(16)}`, 'nobody', 401, at);
    const windowStart =
      Math.floor(at.getTime() / (LIMITS.loginIp.windowSeconds * 1000)) * LIMITS.loginIp.windowSeconds * 1000;
    const aggregates = await valuesOf<{ ip: string; count: number }>('audit', `refused/${windowStart}/`);
    // `${net}:/64` is the /64 written canonically (its groups are already lower-case hex without leading zeros).
    expect(aggregates.map((a) => [a.ip, a.count])).toEqual([[`${net}:/64`, 4]]);
  });
});
