import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  flushOutbox,
  OUTBOX_KEY,
  OUTBOX_MAX_AGE_MS,
  readOutbox,
  saveForRetry,
} from '../../src/lib/client/volunteer-outbox.ts';

/** A Map-backed localStorage, as the browser's. */
class MemoryStorage {
  private readonly data = new Map<string, string>();
  getItem(k: string) {
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.data.set(k, String(v));
  }
  removeItem(k: string) {
    this.data.delete(k);
  }
}

let store: MemoryStorage;
beforeEach(() => {
  store = new MemoryStorage();
  vi.stubGlobal('localStorage', store);
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2025-09-20T12:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('volunteer retry outbox (docs/decisions/163-tests.md: personal data kept at most 24 hours)', () => {
  it('an entry older than 24 hours is deleted from storage on the next read, not just hidden', () => {
    expect(saveForRetry({ firstName: 'Vera', email: 'vera@example.com' })).toBe(true);
    expect(readOutbox()).toHaveLength(1);
    vi.setSystemTime(Date.now() + OUTBOX_MAX_AGE_MS - 1000);
    expect(readOutbox()).toHaveLength(1);
    vi.setSystemTime(Date.now() + 2000);
    expect(readOutbox()).toHaveLength(0);
    expect(store.getItem(OUTBOX_KEY)).toBeNull();
  });

  it('keeps fresh entries while dropping expired ones', () => {
    saveForRetry({ firstName: 'Old' });
    vi.setSystemTime(Date.now() + 20 * 60 * 60 * 1000);
    saveForRetry({ firstName: 'New' });
    vi.setSystemTime(Date.now() + 5 * 60 * 60 * 1000);
    expect(readOutbox().map((e) => e.payload.firstName)).toEqual(['New']);
    expect(store.getItem(OUTBOX_KEY)).not.toContain('Old');
  });

  it('a successful send clears the entry, and an empty outbox leaves no key behind', async () => {
    saveForRetry({ firstName: 'Vera' });
    saveForRetry({ firstName: 'Walt' });
    const left = await flushOutbox(() => Promise.resolve({ status: 201 }));
    expect(left).toEqual([]);
    expect(store.getItem(OUTBOX_KEY)).toBeNull();
  });

  it('a server still down keeps the entry for a later retry (within the 24 hours)', async () => {
    saveForRetry({ firstName: 'Vera' });
    expect(await flushOutbox(() => Promise.resolve({ status: 503 }))).toHaveLength(1);
    expect(store.getItem(OUTBOX_KEY)).toContain('Vera');
  });

  it('unreadable storage is removed', () => {
    store.setItem(OUTBOX_KEY, '{not json');
    expect(readOutbox()).toEqual([]);
    expect(store.getItem(OUTBOX_KEY)).toBeNull();
  });
});
