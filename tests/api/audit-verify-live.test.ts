import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditKind } from '../../src/lib/schemas/audit.ts';
import { appendAudit, type AuditInput } from '../../src/lib/server/audit/audit.ts';
import { BULK_STEP, checkStep, checkUntil, REQUEST_STEP } from '../../src/lib/server/audit/checkpoint.ts';
import { runFullVerification, verifyChain } from '../../src/lib/server/audit/verification.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';

/*
 * The full verification on a live site (docs/decisions/154-audit-trail.md): staff keep
 * working while it runs, so entries, index keys, day anchors, the head and the incremental check's
 * checkpoint move on under it at any moment. None of that is a broken record: the job checks the chain
 * as far as its walk reached, and whatever names a later position is an append made since. Here an
 * action lands before every k-th store call of the job (k = 1..6, so each read meets one at some point),
 * sometimes with the incremental check run beside it; the job must end "holds" every time. Real
 * tampering during the same traffic is still found (the last test).
 */

const KINDS: AuditKind[] = ['auth.sign_in', 'article.update', 'event.update', 'inbox.export'];
const input = (i: number): AuditInput => ({
  kind: KINDS[i % KINDS.length]!,
  actor: { id: 1 + (i % 3), username: `staff${i % 3}` },
  target: i % 2 ? { type: 'article', id: i, label: `Report ${i}` } : null,
  ip: `198.51.100.${i % 250}`,
});
// Entries a minute and a half apart, so the traffic crosses midnights (new day anchors) too.
const T0 = Date.parse('2026-05-01T23:00:00.000Z');
let n = 0;
const nextAppend = () => {
  const i = n++;
  return appendAudit(input(i), new Date(T0 + i * 90_000));
};

/**
 * The audit store of a fresh site, in memory, with `traffic` run before every `every`-th call made while
 * `live` is on (the traffic's own calls do not count: it runs alone, as one more request would).
 */
function liveSite(every: number, traffic: () => Promise<void>) {
  const stores = new Map<StoreName, KV>();
  const state = { live: false, busy: false, calls: 0, runs: 0 };
  const before = async () => {
    if (!state.live || state.busy || ++state.calls % every) return;
    state.busy = true;
    try {
      await traffic();
      state.runs++;
    } finally {
      state.busy = false;
    }
  };
  setStoreFactory((name) => {
    let s = stores.get(name);
    if (!s) {
      const inner = new MemoryKV();
      s =
        name !== 'audit'
          ? inner
          : new Proxy(inner, {
              get(target, prop, receiver) {
                const value: unknown = Reflect.get(target, prop, receiver);
                if (typeof value !== 'function') return value;
                if (prop === 'keys')
                  return async function* (prefix?: string) {
                    await before();
                    yield* target.keys(prefix);
                  };
                return async (...args: unknown[]) => {
                  await before();
                  return (value as (...a: unknown[]) => unknown).apply(target, args);
                };
              },
            });
      stores.set(name, s);
    }
    return s;
  });
  return { state, audit: () => stores.get('audit')! };
}

beforeAll(() => {
  process.env.APP_ENV ??= 'test';
  resetEnv();
});
afterAll(() => setStoreFactory(null));

describe('the full verification while staff keep working', () => {
  for (const every of [1, 2, 3, 4, 5, 6])
    it(`an action before every ${every}. store call of the job, the incremental check beside it: holds`, async () => {
      n = 0;
      let t = 0;
      const site = liveSite(every, async () => {
        await nextAppend();
        if (++t % 2 === 0) await checkStep(REQUEST_STEP);
      });
      for (let i = 0; i < 150; i++) await nextAppend();
      // The incremental check up to date, so that it goes past the walk's end during the job.
      await checkUntil(BULK_STEP, 60_000);
      // The background function's way (one run to the end), then the scheduled one's (a step a run).
      site.state.live = true;
      const status = await runFullVerification({ by: 'test', start: true, budgetMs: 60_000 });
      site.state.live = false;
      expect(site.state.runs).toBeGreaterThan(0);
      expect(status.state).toBe('done');
      expect(status.result).toEqual({ ok: true, entries: status.result!.entries });
      expect(status.result!.entries).toBeGreaterThanOrEqual(150);

      site.state.live = true;
      let stepped = await runFullVerification({ by: 'test', start: true, budgetMs: 0 });
      for (let i = 0; i < 50 && stepped.state !== 'done'; i++)
        stepped = await runFullVerification({
          by: 'schedule',
          start: false,
          budgetMs: 0,
          now: new Date(Date.now() + 10 * 60_000),
        });
      site.state.live = false;
      expect(stepped.state).toBe('done');
      expect(stepped.result).toEqual({ ok: true, entries: stepped.result!.entries });
      // Once the traffic stops, the whole chain holds, the appends made during the jobs included.
      expect(await verifyChain()).toEqual({ ok: true, entries: n });
    });

  it('an entry removed from the middle during the same traffic is still found', async () => {
    n = 0;
    const site = liveSite(3, () => nextAppend().then(() => undefined));
    for (let i = 0; i < 150; i++) await nextAppend();
    await site.audit().delete(`chain/${String(70).padStart(10, '0')}`);
    site.state.live = true;
    const status = await runFullVerification({ by: 'test', start: true, budgetMs: 60_000 });
    site.state.live = false;
    expect(status.result).toMatchObject({ ok: false, brokenAt: 70, reason: 'missing entry' });
  });
});
