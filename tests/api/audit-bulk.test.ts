import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditKind } from '../../src/lib/schemas/audit.ts';
import { appendAudit, appendAuditBatch, type AuditInput } from '../../src/lib/server/audit/audit.ts';
import { readCheckpoint } from '../../src/lib/server/audit/checkpoint.ts';
import { verifyChain } from '../../src/lib/server/audit/verification.ts';
import { resetEnv } from '../../src/lib/server/env.ts';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';

/*
 * The seed's bulk append (appendAuditBatch, docs/decisions/154-audit-trail.md) leaves exactly what
 * appending the same entries one by one leaves: every chain entry, index key, day anchor and the head,
 * byte for byte; and then the checkpoint over them.
 */

const KINDS: AuditKind[] = ['auth.sign_in', 'article.update', 'event.update', 'inbox.export'];
const input = (i: number): AuditInput => ({
  kind: KINDS[i % KINDS.length]!,
  actor: i % 7 === 0 ? null : { id: 1 + (i % 3), username: `staff${i % 3}` },
  ...(i % 7 === 0 ? { actorName: 'unknown name 0a1b2c3d' } : {}),
  target: i % 2 ? { type: 'article', id: i, label: `Report ${i}` } : null,
  details: i % 5 ? {} : { rows: String(i), kind: 'volunteers' },
  ip: `198.51.100.${i % 250}`,
});
// Three days and a bit, with a midnight inside each batch.
const at = (i: number) => new Date(Date.parse('2026-05-01T20:00:00.000Z') + i * 97_000);

/** Every key and value of the audit store but the checkpoint's own (which one-by-one appends never write). */
async function contents(store: KV): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for await (const page of store.keys(''))
    for (const k of page)
      if (!k.startsWith('postings/') && !k.startsWith('segments/') && k !== 'checkpoint')
        out[k] = (await store.get(k))!.value;
  return out;
}

function isolated(): Map<StoreName, KV> {
  const stores = new Map<StoreName, KV>();
  setStoreFactory((name) => {
    let s = stores.get(name);
    if (!s) stores.set(name, (s = new MemoryKV()));
    return s;
  });
  return stores;
}

beforeAll(() => {
  process.env.APP_ENV ??= 'test';
  resetEnv();
});
afterAll(() => setStoreFactory(null));

describe('the bulk append', () => {
  for (const [what, prior] of [
    ['on a new trail', 0],
    ['continuing a trail', 25],
  ] as const)
    it(`writes exactly what one-by-one appends write, ${what}`, async () => {
      const total = 7000;
      const one = isolated();
      for (let i = 0; i < prior + total; i++) await appendAudit(input(i), at(i));
      const expected = await contents(one.get('audit')!);

      const bulk = isolated();
      for (let i = 0; i < prior; i++) await appendAudit(input(i), at(i));
      for (let i = prior; i < prior + total; i += 2000)
        await appendAuditBatch(
          Array.from({ length: Math.min(2000, prior + total - i) }, (_, j) => ({
            input: input(i + j),
            now: at(i + j),
          })),
        );
      expect(await contents(bulk.get('audit')!)).toEqual(expected);
      expect((await readCheckpoint()).cp.seq).toBe(prior + total);
      expect(await verifyChain()).toEqual({ ok: true, entries: prior + total });
    }, 240_000);

  it('over a head it cannot trust, marks its first entry as one-by-one appends do', async () => {
    const one = isolated();
    for (let i = 0; i < 3; i++) await appendAudit(input(i), at(i));
    const head = (await one.get('audit')!.get<Record<string, unknown>>('head'))!.value;
    await one.get('audit')!.put('head', { ...head, mac: undefined });
    for (let i = 3; i < 10; i++) await appendAudit(input(i), at(i));
    const expected = await contents(one.get('audit')!);

    const bulk = isolated();
    for (let i = 0; i < 3; i++) await appendAudit(input(i), at(i));
    await bulk.get('audit')!.put('head', { ...head, mac: undefined });
    await appendAuditBatch(Array.from({ length: 7 }, (_, j) => ({ input: input(3 + j), now: at(3 + j) })));
    expect(await contents(bulk.get('audit')!)).toEqual(expected);
  });
});
