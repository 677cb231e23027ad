import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { BROADCAST_CHANGED } from '../../src/lib/schemas/broadcast-views.ts';
import type { BroadcastInput } from '../../src/lib/schemas/broadcasts.ts';
import { broadcastKey, getBroadcast, updateBroadcast } from '../../src/lib/server/broadcasts/repo.ts';
import { act, createDraft, updateDraft } from '../../src/lib/server/broadcasts/staff.ts';
import { broadcastVersion } from '../../src/lib/server/broadcasts/version.ts';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';

/**
 * Approval is for one version, against an atomic store (docs/decisions/152-broadcasts.md): the
 * local Blobs server's conditional writes are not atomic, so the swap between the admin's read and write is
 * replayed here on MemoryKV. An editor's edit and new preparation land after the admin's send has read the
 * broadcast and before it writes: the send's compare-and-set fails, its retry reads the new content, and the
 * version the admin named is no longer the broadcast's: a 409, nothing approved.
 */

/** A KV whose next write of `key` first lets `before` run (another person's whole change). */
function interceptable(inner: KV) {
  const hook: { key: string | null; before: (() => Promise<void>) | null } = { key: null, before: null };
  const kv: KV = {
    get: (k) => inner.get(k),
    create: (k, v) => inner.create(k, v),
    replace: async (k, v, etag) => {
      if (hook.before && k === hook.key) {
        const run = hook.before;
        hook.before = null;
        await run();
      }
      return inner.replace(k, v, etag);
    },
    put: (k, v) => inner.put(k, v),
    putBytes: (k, d, m) => inner.putBytes(k, d, m),
    getBytes: (k) => inner.getBytes(k),
    delete: (k) => inner.delete(k),
    keys: (p) => inner.keys(p),
  };
  return { kv, hook };
}

let broadcasts: ReturnType<typeof interceptable>;
beforeEach(() => {
  const stores = new Map<StoreName, KV>();
  broadcasts = interceptable(new MemoryKV());
  setStoreFactory((name) => {
    if (name === 'broadcasts') return broadcasts.kv;
    let s = stores.get(name);
    if (!s) stores.set(name, (s = new MemoryKV()));
    return s;
  });
});
afterAll(() => setStoreFactory(null));

const editor = { username: 'editor', email: 'editor@example.org', firstName: 'Ed' };
const admin = { username: 'admin', email: 'admin@example.org', firstName: 'Ada' };

const TEXT = (body: string): BroadcastInput => ({
  name: 'GOTV',
  channel: 'text',
  audience: { kind: 'text_subscribers' },
  text: { body, bodyEs: '', firstNameFallback: 'friend' },
});

/** Prepared and counted as the job leaves it (one recipient: sending needs someone). */
async function prepared(id: number, by = editor) {
  await act(id, 'prepare', by);
  return (await updateBroadcast(id, (b) => ({
    ...b,
    status: 'ready',
    run: { ...b.run, recipients: 1, resolved: true },
  })))!;
}

describe('the swap between the admin’s read and write (atomic store)', () => {
  for (const action of ['send', 'schedule'] as const)
    it(`${action}: the editor's change lands inside the admin's compare-and-set: 409, the new content not approved`, async () => {
      const draft = await createDraft(TEXT('Early voting starts Saturday.'), editor);
      const reviewed = broadcastVersion(await prepared(draft.id));
      // The admin's write of the broadcast is about to happen: the editor changes it and prepares it again first.
      broadcasts.hook.key = broadcastKey(draft.id);
      broadcasts.hook.before = async () => {
        await updateDraft(draft.id, TEXT('Your polling place moved: vote at evil.example/new'), editor);
        await prepared(draft.id);
      };
      const at = new Date(Date.now() + 3_600_000).toISOString();
      await expect(act(draft.id, action, admin, { version: reviewed, at })).rejects.toMatchObject({
        status: 409,
        message: BROADCAST_CHANGED,
      });
      expect(broadcasts.hook.before).toBeNull(); // the swap did happen in between
      const now = (await getBroadcast(draft.id))!;
      expect(now).toMatchObject({
        status: 'ready',
        approvedBy: null,
        approvedVersion: null,
        scheduledAt: null,
      });
      expect(now.text?.body).toBe('Your polling place moved: vote at evil.example/new');
      expect(broadcastVersion(now)).not.toBe(reviewed);
    });

  it('without a swap the same approval goes through, naming the version', async () => {
    const draft = await createDraft(TEXT('Early voting starts Saturday.'), editor);
    const version = broadcastVersion(await prepared(draft.id));
    const { after } = await act(draft.id, 'send', admin, { version });
    expect(after).toMatchObject({ status: 'sending', approvedBy: 'admin', approvedVersion: version });
  });
});
