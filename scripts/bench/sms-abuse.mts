/**
 * How many texts one IP can cause in an hour, through
 * every path (text sign-up confirmations and RSVP reminder texts, sent by the
 * reminder job the day before; target: at most the per-IP cap, texts per IP an
 * hour), and the text sign-up's latency with the bot check in place. The real handler runs over HTTP against a local
 * Blobs server; texts go to the local outbox (counted); the captcha is verified
 * over HTTP against a local stand-in for Turnstile's siteverify, so the figure
 * includes our verification path but not Cloudflare's network round trip.
 *   npm exec -- node scripts/bench/sms-abuse.mts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as newsletterFn from '../../netlify/functions/text-signup.mts';
import * as rsvpFn from '../../netlify/functions/event-rsvp.mts';
import { EventInputSchema } from '../../src/lib/schemas/event.ts';
import { toE164 } from '../../src/lib/schemas/fields.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import { campaignToday, createEvent } from '../../src/lib/server/content/events.ts';
import { campaignHour, campaignTomorrow, runReminders } from '../../src/lib/server/events/reminders.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { FORM_POST_LIMITS } from '../../src/lib/server/public-forms/post-limits.ts';
import { TEXT_SIGNUP_LIMITS } from '../../src/lib/server/texting/text-limits.ts';
import { benchBlobs, serveFunctions } from './serve.mts';

const IP_HEADER = 'x-bench-client-ip';

async function fakeSiteverify(): Promise<{ url: string; calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const server = createServer((req, res) => {
    calls += 1;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`,
    calls: () => calls,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function textsSent(): Promise<number> {
  let n = 0;
  for await (const page of kv('outbox').keys('sms/')) n += page.length;
  return n;
}

/** Texts in the outbox to any of `phones`. */
async function textsTo(phones: Set<string>): Promise<number> {
  let n = 0;
  for await (const page of kv('outbox').keys('sms/'))
    for (const k of page) {
      const m = await kv('outbox').get<{ to: string }>(k);
      if (m && phones.has(m.value.to)) n += 1;
    }
  return n;
}

/** 10:00 in New Orleans on the campaign day `date` (the reminder job's hour for the day before an event). */
function tenAm(date: string): Date {
  for (const offset of ['-05:00', '-06:00']) {
    const d = new Date(`${date}T10:00:00${offset}`);
    if (campaignHour(d) === 10) return d;
  }
  throw new Error('no 10:00 on that day');
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? 0;

export async function benchSmsAbuse(): Promise<{ markdown: string; textsFromOneIp: number; cap: number }> {
  const stopBlobs = await benchBlobs();
  const verifier = await fakeSiteverify();
  process.env.TURNSTILE_SECRET_KEY = 'bench-secret';
  process.env.TURNSTILE_VERIFY_URL = verifier.url;
  resetEnv();
  const quiet = console.info;
  console.info = () => {};
  try {
    const server = await serveFunctions([newsletterFn, rsvpFn], { clientIpHeader: IP_HEADER });
    let seq = 0;
    const signUp = async (ip: string, phones?: Set<string>) => {
      seq += 1;
      const phone = `+1504${String(3_000_000 + seq)}`;
      phones?.add(phone);
      const t = performance.now();
      const res = await fetch(`${server.url}/api/newsletter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url, [IP_HEADER]: ip },
        body: JSON.stringify({
          firstName: `Bench${seq}`,
          phone,
          smsConsent: true,
          captcha: `bench-token-${seq}`, // fresh per request: Turnstile tokens are single use
        }),
      });
      await res.arrayBuffer();
      return { status: res.status, ms: performance.now() - t };
    };
    // An event tomorrow (campaign time), the one the reminder job texts about.
    const today = campaignToday(new Date());
    const event = await createEvent(
      EventInputSchema.parse({
        title: 'Bench Town Hall',
        location: 'Mid-City Library',
        eventDate: campaignTomorrow(tenAm(today)),
        startTime: '18:00',
        endTime: '19:30',
        eventType: 'town_hall',
        isPublic: true,
        registrationRequired: true,
        registrationUrl: '',
        maxAttendees: null,
      }),
    );
    const rsvp = async (ip: string, phone: string, phones?: Set<string>) => {
      seq += 1;
      phones?.add(phone);
      const res = await fetch(`${server.url}/api/events/${event.id}/rsvp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url, [IP_HEADER]: ip },
        body: JSON.stringify({
          name: `Bench ${seq}`,
          email: `bench${seq}@example.org`,
          phone,
          smsReminder: true,
          captchaResponse: `bench-token-${seq}`,
        }),
      });
      await res.arrayBuffer();
      return res.status;
    };
    const tally = (statuses: number[]) => {
      const by = new Map<number, number>();
      for (const st of statuses) by.set(st, (by.get(st) ?? 0) + 1);
      return [...by].map(([st, c]) => `${c} x ${st}`).join(', ');
    };

    // 1. A script on one IP, as fast as it can, for 200 new numbers (well inside one hour).
    const attack = { sent: 0, accepted: 0, refused: 0 };
    const before = await textsSent();
    for (let i = 0; i < 200; i++) {
      const r = await signUp('203.0.113.66');
      attack.sent += 1;
      if (r.status < 300) attack.accepted += 1;
      else if (r.status === 429) attack.refused += 1;
    }
    const signupTexts = (await textsSent()) - before;

    // 2. RSVP reminders: one IP asks for 150 reminder texts to new numbers (the outside test's attack), and
    //    another mixes both paths, 75 sign-ups and 75 RSVPs with reminders; then the reminder job runs
    //    (the day before the event, 10:00 New Orleans). Texts counted by the numbers each IP gave.
    // As typed into the form; the outbox holds E.164.
    const typed = ['+44 7911 123456', '+1 876 555 1234', '+882 345 678 901', '+1 900 555 0123'];
    const premium = typed.map((p) => toE164(p) ?? p);
    const premiumStatuses: number[] = [];
    for (const phone of typed) premiumStatuses.push(await rsvp('203.0.113.55', phone));
    const rsvpPhones = new Set<string>();
    const rsvpStatuses: number[] = [];
    for (let i = 0; i < 150; i++)
      rsvpStatuses.push(await rsvp('203.0.113.77', `+1504${String(4_000_000 + i)}`, rsvpPhones));
    const mixedPhones = new Set<string>();
    const mixedStatuses: number[] = [];
    for (let i = 0; i < 75; i++) {
      mixedStatuses.push((await signUp('203.0.113.88', mixedPhones)).status);
      mixedStatuses.push(await rsvp('203.0.113.88', `+1504${String(5_000_000 + i)}`, mixedPhones));
    }
    const run = await runReminders(tenAm(today));
    const rsvpTexts = await textsTo(rsvpPhones);
    const mixedTexts = await textsTo(mixedPhones);
    const premiumTexts = await textsTo(new Set(premium));
    const textsFromOneIp = Math.max(signupTexts, rsvpTexts, mixedTexts);

    // 3. Real people: one sign-up each from its own IP, one after another (no contention), with the bot check.
    const times: number[] = [];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 60; i++) {
      const r = await signUp(`10.20.${Math.floor(i / 250)}.${(i % 250) + 1}`);
      if (i >= 10) times.push(r.ms); // the first ones warm up the modules and the store
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
    await server.close();
    const cap = TEXT_SIGNUP_LIMITS.textsPerIp.max;
    const markdown = [
      '## Text sign-up abuse limits (docs/decisions/151-texting.md)',
      '',
      'The real `/api/newsletter` and `/api/events/{id}/rsvp` handlers over HTTP on a local Blobs server, then the',
      'RSVP reminder job (`runReminders`, the day before the event at 10:00 New Orleans); every request carries a',
      "fresh captcha token, verified over HTTP by a local stand-in for Turnstile siteverify (add Cloudflare's round",
      'trip, typically tens of milliseconds, in production). Every text goes through the text guard',
      '(src/lib/server/texting/text-guard.ts).',
      '',
      '| measure | value |',
      '|---|---|',
      `| one IP, 200 sign-ups with new numbers in a loop: answered 2xx / 429 | ${attack.accepted} / ${attack.refused} |`,
      `| confirmation texts that IP triggered (per hour; target <= ${cap}, the per-IP cap) | **${signupTexts}**${signupTexts <= cap ? '' : ' ⚠'} |`,
      `| one IP, 150 RSVPs asking for reminder texts to new numbers: answers | ${tally(rsvpStatuses)} |`,
      `| reminder texts the job then sent to those numbers (target <= ${cap}) | **${rsvpTexts}**${rsvpTexts <= cap ? '' : ' ⚠'} |`,
      `| one IP, 75 sign-ups and 75 RSVPs with reminders, interleaved: answers | ${tally(mixedStatuses)} |`,
      `| texts that IP caused through both paths (confirmations + reminders; target <= ${cap}) | **${mixedTexts}**${mixedTexts <= cap ? '' : ' ⚠'} |`,
      `| RSVPs with the outside test's numbers (+44, +1 876, +882, +1 900): answers / texts | ${tally(premiumStatuses)} / ${premiumTexts} |`,
      `| the reminder job's run | ${run.texts} texts, ${run.textsSkipped} skipped, ${run.emails} emails |`,
      `| text sign-up latency with the bot check, one at a time: p50 / p95 (50 people) | ${pct(times, 50).toFixed(0)} ms / ${pct(times, 95).toFixed(0)} ms |`,
      `| their answers | ${[...statuses].map(([s, c]) => `${c} x ${s}`).join(', ')} |`,
      `| siteverify calls made | ${verifier.calls()} |`,
      '',
      `Limits (src/lib/server/texting/text-limits.ts, post-limits.ts): per IP ${TEXT_SIGNUP_LIMITS.signupsPerIp.max} sign-ups, ${FORM_POST_LIMITS.rsvp.max} RSVPs and ${cap} texts an hour (confirmations and reminder opt-ins together); per number ${TEXT_SIGNUP_LIMITS.signupsPerNumber.max} sign-ups an hour, ${TEXT_SIGNUP_LIMITS.confirmationsPerNumber.max} confirmation and ${TEXT_SIGNUP_LIMITS.textsPerNumber.max} texts of any kind a day; site-wide SMS_DAILY_CAP texts a day and TEXT_SIGNUP_HOURLY_CAP sign-ups an hour. Numbers only from SMS_ALLOWED_COUNTRIES, and of a textable type (no premium or special ranges).`,
      '',
    ].join('\n');
    return { markdown, textsFromOneIp, cap };
  } finally {
    console.info = quiet;
    delete process.env.TURNSTILE_SECRET_KEY;
    delete process.env.TURNSTILE_VERIFY_URL;
    resetEnv();
    await verifier.close();
    await stopBlobs();
  }
}

if (import.meta.main) {
  const { markdown, textsFromOneIp, cap } = await benchSmsAbuse();
  console.log(markdown);
  process.exit(textsFromOneIp <= cap ? 0 : 1);
}
