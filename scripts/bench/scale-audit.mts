/**
 * The audit trail, an event's attendees and the two rushes at campaign scale
 * (docs/decisions/105-audit-at-scale.md, 106-rushes-that-refuse-no-one.md, 107-bounded-staff-lists.md).
 * Prints a markdown section; the scale section of `npm run bench` can call benchScaleAudit().
 *   npm exec -- node scripts/bench/scale-audit.mts
 *   BENCH_AUDIT_ENTRIES=100000 (entries in the trail)  BENCH_RSVPS=10000 (RSVPs to one event)
 *   BENCH_SKIP=csv,full,rsvps (leave out the long parts: the 100k-row CSV, the full verification, the RSVPs)
 * Progress goes to stderr.
 *
 * A real local Blobs server (the local-server path, as `npm run dev`), every store behind a counting
 * wrapper: each row gives the store calls of the request (what it costs on Netlify, ~30 ms each), its
 * wall time here, and the process's peak resident memory. Requests go through the real handlers.
 */
import { cpus } from 'node:os';
import type { AuditKind } from '../../src/lib/schemas/audit-kinds.ts';
import { benchBlobs } from './serve.mts';

const ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES ?? 100_000);
const RSVPS = Number(process.env.BENCH_RSVPS ?? 10_000);

const SKIP = new Set((process.env.BENCH_SKIP ?? '').split(',').filter(Boolean));

const KINDS: AuditKind[] = [
  'auth.sign_in',
  'article.update',
  'event.update',
  'inbox.export',
  'auth.sign_out',
];

interface Row {
  what: string;
  calls: number;
  ms: number;
  note: string;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

export async function benchScaleAudit(): Promise<string> {
  const stopBlobs = await benchBlobs();
  const quiet = { log: console.log, info: console.info, error: console.error };
  const rows: Row[] = [];
  try {
    const { resetEnv } = await import('../../src/lib/server/env.ts');
    const { BlobsKV, setStoreFactory } = await import('../../src/lib/server/store.ts');
    const { CountingKV, roundTrips } = await import('../../tests/helpers/counting-store.ts');
    process.env.ACTBLUE_WEBHOOK_USERNAME = 'bench';
    process.env.ACTBLUE_WEBHOOK_PASSWORD = 'bench-password';
    resetEnv();
    const counters = new Map<string, InstanceType<typeof CountingKV>>();
    setStoreFactory((name) => {
      let c = counters.get(name);
      if (!c) counters.set(name, (c = new CountingKV(new BlobsKV(name))));
      return c;
    });
    const calls = () => [...counters.values()].reduce((n, c) => n + roundTrips(c.counts), 0);
    const measure = async <T,>(what: string, work: () => Promise<T>, note: (v: T) => string = () => '') => {
      process.stderr.write(`[scale-audit] ${what}\n`);
      for (const c of counters.values()) c.reset();
      const t = performance.now();
      const value = await work();
      rows.push({ what, calls: calls(), ms: Math.round(performance.now() - t), note: note(value) });
      return value;
    };
    console.log = () => {};
    console.info = () => {};

    const { appendAudit, appendAuditBatch } = await import('../../src/lib/server/audit/audit.ts');
    const { auditExportSource } = await import('../../src/lib/server/audit/activity.ts');
    const { collectRows } = await import('../../src/lib/server/exports/source.ts');
    const { runFullVerification } = await import('../../src/lib/server/audit/verification.ts');
    const activityFn = await import('../../netlify/functions/admin-activity.mts');
    const rsvpsFn = await import('../../netlify/functions/admin-event-rsvps.mts');
    const { createUser } = await import('../../src/lib/server/auth/users.ts');
    const { createSessionCookie } = await import('../../src/lib/server/auth/session.ts');
    const admin = await createUser({
      username: 'bench-admin',
      email: 'bench-admin@example.org',
      password: 'bench-admin-password',
      role: 'admin',
      firstName: 'Bench',
      lastName: 'Admin',
    });
    const cookie = (await createSessionCookie(admin)).split(';')[0]!;
    const get = async (
      mod: { default: (r: Request, c: never) => Promise<Response> },
      path: string,
      params: Record<string, string> = {},
    ) => {
      const res = await mod.default(new Request(`http://localhost:4321${path}`, { headers: { cookie } }), {
        ip: '127.0.0.1',
        params,
      } as never);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res;
    };

    // The trail: ENTRIES entries over 200 days by five people, through the seed's bulk path.
    const t0 = Date.parse('2026-03-01T12:00:00.000Z');
    const step = (200 * 86_400_000) / ENTRIES;
    const input = (i: number) => ({
      input: {
        kind: KINDS[i % KINDS.length]!,
        actor: { id: 100 + (i % 5), username: `staff${i % 5}` },
        target: { type: 'article', id: i % 300, label: `Report ${i}` },
        ip: `198.51.100.${i % 250}`,
      },
      now: new Date(t0 + i * step),
    });
    await measure(
      `write ${ENTRIES.toLocaleString('en-US')} audit entries (the seed's bulk path, verified and indexed)`,
      async () => {
        for (let i = 0; i < ENTRIES; i += 2000)
          await appendAuditBatch(Array.from({ length: Math.min(2000, ENTRIES - i) }, (_, j) => input(i + j)));
      },
    );
    const day = new Date(t0 + (ENTRIES / 2) * step).toISOString().slice(0, 10);
    for (const [what, query] of [
      ['Activity page 1', ''],
      ['Activity page 1,000', '&page=1000'],
      ['Activity, one kind', '&kind=article.update'],
      ['Activity, one person and kind, page 100', '&actor=102&kind=event.update&page=100'],
      ['Activity, one day', `&from=${day}&to=${day}`],
    ] as const)
      await measure(
        what,
        async () =>
          (await (await get(activityFn, `/api/admin/activity?pageSize=50${query}`)).json()) as {
            total: number;
          },
        (p) => `total ${p.total.toLocaleString('en-US')}`,
      );
    for (let i = ENTRIES; i < ENTRIES + 200; i++) await appendAudit(input(i).input, input(i).now);
    const check = await measure(
      'incremental check, one request (200 new entries waiting)',
      async () => (await (await get(activityFn, '/api/admin/activity/verify')).json()) as { pending: number },
    );
    let steps = 1;
    for (let pending = check.pending; pending > 0; steps++)
      pending = ((await (await get(activityFn, '/api/admin/activity/verify')).json()) as { pending: number })
        .pending;
    rows.at(-1)!.note = `${steps} requests to catch up`;
    if (!SKIP.has('csv'))
      await measure(
        `Activity CSV, every entry (${ENTRIES.toLocaleString('en-US')} rows, read 500 at a time)`,
        async () => (await collectRows(await auditExportSource({}))).length,
        (n) => `${n.toLocaleString('en-US')} rows, peak RSS ${mib(process.resourceUsage().maxRSS * 1024)}`,
      );
    if (!SKIP.has('full'))
      await measure(
        'full verification (the background job, in one run)',
        // One run with room to finish here (on Netlify a background run has 13 minutes; a killed run is taken over).
        () => runFullVerification({ by: 'bench', start: true, budgetMs: 60 * 60_000 }),
        (s) => `${s.state}: ${JSON.stringify(s.result)}`,
      );

    async function attendees() {
      // One event with RSVPS RSVPs, through the real RSVP path (64 at a time), then its staff list.
      const { EventInputSchema } = await import('../../src/lib/schemas/event.ts');
      const { RsvpInputSchema } = await import('../../src/lib/schemas/rsvp.ts');
      const { createEvent, campaignToday } = await import('../../src/lib/server/content/events.ts');
      const { rsvp } = await import('../../src/lib/server/events/rsvp.ts');
      const event = await createEvent(
        EventInputSchema.parse({
          title: 'Bench rally',
          location: 'Congo Square',
          eventDate: campaignToday(new Date(Date.now() + 7 * 86_400_000)),
          startTime: '10:00',
          eventType: 'rally',
          isPublic: true,
          registrationRequired: true,
          maxAttendees: RSVPS - 10,
        }),
      );
      const join = (i: number) =>
        rsvp(
          event.id,
          RsvpInputSchema.parse({
            name: `Guest ${i}`,
            email: `guest${i}@example.org`,
            captchaResponse: 'bench',
          }),
          { ip: '203.0.113.7', userAgent: 'bench' },
        );
      await measure(
        `${(RSVPS - 200).toLocaleString('en-US')} RSVPs to one event, 64 at a time`,
        async () => {
          let next = 0;
          await Promise.all(
            Array.from({ length: 64 }, async () => {
              while (next < RSVPS - 200) await join(next++);
            }),
          );
        },
        () => `${(RSVPS - 200).toLocaleString('en-US')} RSVPs`,
      );
      // Fill the event to 10 seats short of its capacity, then the two rushes through the real handlers.
      for (let i = RSVPS - 200; i < RSVPS - 10; i++) await join(i);
      await measure('200 RSVPs at once for the last 10 seats', () => rsvpRush(event.id), tally);
      await measure('100 ActBlue deliveries at once for one day', actBlueRush, tally);
      for (const [what, query] of [
        ['attendee list, page 1 of 50', '?pageSize=50'],
        ['attendee list, page 150', '?page=150&pageSize=50'],
        ['attendee list, a name searched', '?q=guest777'],
        ['attendee CSV, every RSVP', '?format=csv'],
      ] as const)
        await measure(
          what,
          async () =>
            (
              await get(rsvpsFn, `/api/admin/events/${event.id}/rsvps${query}`, { id: String(event.id) })
            ).text(),
          (body) => (query.includes('csv') ? `${body.trim().split('\r\n').length - 1} rows` : ''),
        );
    }
    if (!SKIP.has('rsvps')) await attendees();
  } finally {
    Object.assign(console, quiet);
    await stopBlobs();
  }
  return [
    `## Audit, attendees and rushes at scale (${ENTRIES.toLocaleString('en-US')} audit entries, ${RSVPS.toLocaleString('en-US')} RSVPs)`,
    '',
    `Local Blobs server, every store call counted; Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}. ` +
      'Calls are what the request costs on Netlify (about 30 ms each, most of a page read 16 at a time).',
    '',
    '| Operation | Store calls | Wall time | Note |',
    '|---|---:|---:|---|',
    ...rows.map(
      (r) => `| ${r.what} | ${r.calls.toLocaleString('en-US')} | ${(r.ms / 1000).toFixed(2)} s | ${r.note} |`,
    ),
    '',
  ].join('\n');
}

const tally = (statuses: number[]) =>
  Object.entries(statuses.reduce<Record<number, number>>((m, x) => ({ ...m, [x]: (m[x] ?? 0) + 1 }), {}))
    .map(([k, n]) => `${n} x ${k}`)
    .join(', ');

/** 200 RSVPs at once through the RSVP handler, each from its own address; their statuses. */
async function rsvpRush(eventId: number): Promise<number[]> {
  const rsvpFn = await import('../../netlify/functions/event-rsvp.mts');
  const { TURNSTILE_TEST_TOKEN } = await import('../../src/lib/server/env.ts');
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      rsvpFn.default(
        new Request(`http://localhost:4321/api/events/${eventId}/rsvp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'http://localhost:4321' },
          body: JSON.stringify({
            name: `Rush ${i}`,
            email: `rush${i}@example.org`,
            captchaResponse: TURNSTILE_TEST_TOKEN,
          }),
        }),
        { ip: `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`, params: { id: String(eventId) } } as never,
      ),
    ),
  );
  return answers.map((r) => r.status);
}

/** 100 ActBlue deliveries of distinct gifts for one day at once through the webhook handler; their statuses. */
async function actBlueRush(): Promise<number[]> {
  const actblue = await import('../../netlify/functions/donations-actblue.mts');
  const auth = `Basic ${Buffer.from('bench:bench-password').toString('base64')}`;
  const answers = await Promise.all(
    Array.from({ length: 100 }, (_, n) =>
      actblue.default(
        new Request('http://localhost:4321/api/donations/actblue', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: auth },
          body: JSON.stringify({
            donor: { email: `donor${n}@example.org` },
            contribution: {
              orderNumber: `AB8${String(n).padStart(8, '0')}`,
              createdAt: '2026-11-20T15:00:00-06:00',
            },
            lineitems: [{ amount: '25.00', paidAt: '2026-11-20T15:00:01-06:00', lineitemId: 90_000 + n }],
          }),
        }),
        { ip: '127.0.0.1', params: {} } as never,
      ),
    ),
  );
  return answers.map((r) => r.status);
}

if (import.meta.main) console.log(await benchScaleAudit());
