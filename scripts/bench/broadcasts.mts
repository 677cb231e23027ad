/**
 * The broadcast engine at 100,000 recipients (docs/decisions/152-broadcasts.md):
 * time and store calls to prepare (the audience read and queued), store calls per message sent,
 * and the achieved send rate against the configured one. Every store is an atomic in-memory KV
 * that counts its calls (on Netlify each is a round trip of ~30 ms); texts go to the local outbox
 * (its writes are reported apart: they stand for the provider call); time is a fake clock, so the
 * rate is the engine's pacing, not this machine's speed.
 *   npm exec -- node scripts/bench/broadcasts.mts [recipients]     (npm run bench runs it at 100,000)
 */
import {
  emptyRun,
  createBroadcast,
  getBroadcast,
  updateBroadcast,
} from '../../src/lib/server/broadcasts/repo.ts';
import { runBroadcasts } from '../../src/lib/server/broadcasts/engine.ts';
import type { Clock } from '../../src/lib/server/broadcasts/clock.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import { hashed, key } from '../../src/lib/server/storage/keys.ts';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';

const N = Number(process.argv[2] ?? 100_000);
const RATE = 3000;
process.env.APP_ENV = 'test';
// The outbox logs a line per text: not 100,000 of them here.
console.info = () => undefined;
process.env.BROADCAST_RATE_PER_MINUTE = String(RATE);
resetEnv();

const calls = new Map<StoreName, number>();
const counted = (name: StoreName, inner: KV): KV => {
  const tick = () => calls.set(name, (calls.get(name) ?? 0) + 1);
  return {
    get: (k) => (tick(), inner.get(k)),
    create: (k, v) => (tick(), inner.create(k, v)),
    replace: (k, v, e) => (tick(), inner.replace(k, v, e)),
    put: (k, v) => (tick(), inner.put(k, v)),
    putBytes: (k, d, m) => (tick(), inner.putBytes(k, d, m)),
    getBytes: (k) => (tick(), inner.getBytes(k)),
    delete: (k) => (tick(), inner.delete(k)),
    async *keys(p) {
      for await (const page of inner.keys(p)) {
        tick();
        yield page;
      }
    },
  };
};
const stores = new Map<StoreName, KV>();
const raw = new Map<StoreName, KV>();
setStoreFactory((name) => {
  let s = stores.get(name);
  if (!s) {
    raw.set(name, new MemoryKV());
    stores.set(name, (s = counted(name, raw.get(name)!)));
  }
  return s;
});
const total = (except: StoreName[] = []) =>
  [...calls].filter(([n]) => !except.includes(n)).reduce((a, [, c]) => a + c, 0);

// Every zone's window open (13:00 in New York, 10:00 in Los Angeles): the rate is the pacing's, not the quiet hours'.
let fake = Date.parse('2025-10-11T17:00:00Z');
const clock: Clock = {
  now: () => fake,
  sleep: async (ms) => {
    const wake = fake + Math.max(0, ms);
    await Promise.resolve();
    fake = Math.max(fake, wake);
  },
};

const AREAS = ['212', '404', '312', '504', '303', '602', '213', '415'];
const { kv } = await import('../../src/lib/server/storage/stores.ts');
for (let i = 0; i < N; i += 1000) {
  await Promise.all(
    Array.from({ length: Math.min(1000, N - i) }, (_, j) => {
      const n = i + j;
      const phone = `+1${AREAS[n % AREAS.length]}${2000000 + Math.floor(n / AREAS.length)}`;
      const at = '2025-09-01T12:00:00.000Z';
      return kv('signups').put(key('person', hashed(phone)), {
        id: hashed(phone),
        firstName: `V${n}`,
        phone,
        email: null,
        smsStatus: 'subscribed',
        consentAt: at,
        consentVersion: 'v1',
        lang: n % 5 === 0 ? 'es' : 'en',
        optedOutAt: null,
        sourcePage: '/',
        createdAt: at,
        updatedAt: at,
        confirmation: null,
      });
    }),
  );
}
calls.clear();

const b = await createBroadcast({
  name: 'Bench',
  channel: 'text',
  audience: { kind: 'text_subscribers' },
  text: {
    body: 'Hi {firstName}, polls are open until 8 tonight.',
    bodyEs: 'Hola {firstName}, las urnas cierran a las 8.',
    firstNameFallback: 'friend',
  },
  status: 'preparing',
  scheduledAt: null,
  createdBy: 'bench',
  createdAt: new Date(fake).toISOString(),
  updatedAt: new Date(fake).toISOString(),
  updatedBy: 'bench',
  approvedBy: null,
  approvedAt: null,
  run: emptyRun(1),
});
const runs = async (until: (s: string | undefined) => boolean) => {
  let n = 0;
  for (;;) {
    const cur = await getBroadcast(b.id);
    if (until(cur?.status)) return n;
    n += 1;
    await runBroadcasts({ clock, deadline: clock.now() + 22_000 });
    fake = (Math.floor(fake / 60_000) + 1) * 60_000;
  }
};

const t0 = performance.now();
await runs((s) => s === 'ready');
const prepareMs = performance.now() - t0;
const prepared = await getBroadcast(b.id);
const prepareCalls = total();
const sourceReads = calls.get('signups') ?? 0;
calls.clear();

await updateBroadcast(b.id, (cur) => ({ ...cur, status: 'sending' }));
const t1 = performance.now();
const sendRuns = await runs((s) => s === 'completed');
const sendMs = performance.now() - t1;
const done = await getBroadcast(b.id);
const sent = done?.run.counts.sent ?? 0;
const segments = prepared?.run.segments ?? 0;
// What the pacing let through each minute (its budget documents, read without counting).
const perMinute: number[] = [];
for await (const page of raw.get('broadcasts')!.keys('rate/'))
  for (const k of page)
    perMinute.push((await raw.get('broadcasts')!.get<{ used: number }>(k))?.value.used ?? 0);
const minutes = perMinute.filter((n) => n > 0).length;

const fmt = (n: number) => n.toLocaleString('en-US');
const perSent = (n: number) => (n / sent).toFixed(2);
const storeCalls = total(['outbox']);
// On Netlify a Blobs call takes about 30 ms; the list's records are read 50 at a time (audiences.ts).
const readSeconds = ((sourceReads / 50) * 0.03).toFixed(0);
console.log(
  [
    `## Broadcasts: ${fmt(N)} text recipients`,
    '',
    '`node scripts/bench/broadcasts.mts` (docs/decisions/152-broadcasts.md): the delivery engine with',
    'its production settings (4 lanes, batches of 25) on in-memory stores that count every call, texts to the local',
    'outbox (standing for the Twilio call), a fake clock (the rate is the pacing, not this machine). Eight area codes',
    'in five zones, every window open, one in five recipients in Spanish.',
    '',
    '| What | Figure |',
    '| --- | --- |',
    `| Enqueue (prepare): store calls | ${fmt(prepareCalls)}: ${fmt(sourceReads)} reading the list's records, ${fmt(prepareCalls - sourceReads)} queue writes and bookkeeping (${prepared?.run.chunks.length} chunks) |`,
    `| Enqueue: time here | ${(prepareMs / 1000).toFixed(1)} s of wall time on the shared machine |`,
    `| Enqueue: time on Netlify (estimate) | about ${readSeconds} s of record reads at 30 ms a call, 50 at once: ${Math.ceil(Number(readSeconds) / 22)} runs of the scheduled worker |`,
    `| Sent | ${fmt(sent)} texts, ${fmt(segments)} segments, in ${sendRuns} runs of the worker; ${(sendMs / 1000).toFixed(1)} s of wall time here |`,
    `| Store calls per message sent | ${perSent(storeCalls)} (${[...calls]
      .filter(([n]) => n !== 'outbox')
      .map(([n, c]) => `${n} ${perSent(c)}`)
      .join(
        ', ',
      )}), plus ${perSent(calls.get('outbox') ?? 0)} outbox writes standing for the provider call |`,
    `| Achieved rate | ${fmt(Math.round(segments / minutes))} segments a minute on average over ${minutes} minutes, ${fmt(Math.max(...perMinute))} in the busiest; configured ${fmt(RATE)} |`,
    '',
  ].join('\n'),
);
