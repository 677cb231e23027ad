import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { KV, StoreName } from '../../src/lib/server/storage/kv.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { MemoryKV } from '../../src/lib/server/storage/memory-kv.ts';
import { setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import type { StoredTextSignup } from '../../src/lib/schemas/inbox.ts';
import type { Clock } from '../../src/lib/server/broadcasts/clock.ts';
import { fakeProvider, sendJson, type FakeProvider, type RecordedRequest } from './forms.ts';

/** A clock tests move by hand: `sleep` advances it at once (docs/decisions/152-broadcasts.md). */
export class FakeClock implements Clock {
  ms: number;
  constructor(start: string | number) {
    this.ms = typeof start === 'string' ? Date.parse(start) : start;
  }
  now(): number {
    return this.ms;
  }
  /** Sleeping moves the clock to the wake-up time; sleepers at once share it (their waits overlap, as in real time). */
  async sleep(ms: number): Promise<void> {
    const wake = this.ms + Math.max(0, ms);
    await Promise.resolve();
    this.ms = Math.max(this.ms, wake);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/**
 * A subscriber of the text list as the sign-up path stores one (subscribed, consent at `at`), for tests that put
 * people on the list directly; `over` sets the fields a test cares about (name, language, source page).
 */
export function textSubscriber(
  phone: string,
  at: string,
  over: Partial<Omit<StoredTextSignup, 'id' | 'phone'>> = {},
): StoredTextSignup {
  return {
    id: hashed(phone),
    firstName: '',
    phone,
    email: null,
    smsStatus: 'subscribed',
    consentAt: at,
    consentVersion: 'v1',
    lang: 'en',
    optedOutAt: null,
    sourcePage: '/',
    createdAt: at,
    updatedAt: at,
    confirmation: null,
    ...over,
  };
}

export interface TwilioMessage {
  sid: string;
  to: string;
  body: string;
  /** The fake clock's time when the message reached the provider. */
  at: number;
  statusCallback: string | null;
}

/**
 * Twilio's Messages API on 127.0.0.1: POST creates a message (recorded with the fake clock's time),
 * GET lists them filtered by To (newest first), as the SDK's `messages.list` reads them; `failFor`
 * answers a number with a Twilio error code (e.g. 21610, the recipient opted out at the carrier); `dropFor` takes
 * a number's message and then drops the connection without answering (the sender cannot know it went).
 */
export async function fakeTwilio(
  clock: Clock,
): Promise<FakeProvider & { messages: TwilioMessage[]; failFor: Map<string, number>; dropFor: Set<string> }> {
  const messages: TwilioMessage[] = [];
  const failFor = new Map<string, number>();
  const dropFor = new Set<string>();
  const handler = (req: RecordedRequest, res: ServerResponse) => {
    const url = new URL(req.url, 'http://x');
    if (!/^\/2010-04-01\/Accounts\/AC[0-9a-f]{32}\/Messages\.json$/.test(url.pathname))
      return sendJson(res, 404, { code: 20404, message: 'Not found', status: 404 });
    if (req.method === 'GET') {
      const to = url.searchParams.get('To');
      const list = messages.filter((m) => !to || m.to === to).reverse();
      return sendJson(res, 200, {
        messages: list.map((m) => ({
          sid: m.sid,
          to: m.to,
          body: m.body,
          status: 'queued',
          date_created: new Date(m.at).toUTCString(),
          date_sent: null,
        })),
        page: 0,
        page_size: 50,
        next_page_uri: null,
        uri: url.pathname,
        first_page_uri: url.pathname,
        previous_page_uri: null,
      });
    }
    const form = new URLSearchParams(req.body);
    const to = form.get('To') ?? '';
    const code = failFor.get(to);
    if (code) return sendJson(res, 400, { code, message: 'refused', status: 400 });
    const m: TwilioMessage = {
      sid: `SM${randomBytes(16).toString('hex')}`,
      to,
      body: form.get('Body') ?? '',
      at: clock.now(),
      statusCallback: form.get('StatusCallback'),
    };
    messages.push(m);
    if (dropFor.has(to)) return void res.socket?.destroy();
    sendJson(res, 201, {
      sid: m.sid,
      status: 'queued',
      to,
      body: m.body,
      date_created: new Date(m.at).toUTCString(),
    });
  };
  const server = await fakeProvider(handler);
  return Object.assign(server, { messages, failFor, dropFor });
}

export class Killed extends Error {
  constructor() {
    super('killed');
    this.name = 'Killed';
  }
}

/**
 * Every store an atomic in-memory KV behind a kill switch: `arm(n)` makes the n-th store call of the
 * current process throw, and every later call of that process too (a killed worker does nothing
 * more); `restart()` starts a new process whose calls go through. Work runs as a process with `run`.
 * `spared` stores are not the worker's (the local outbox stands for the provider, which a dead worker
 * does not take down): their calls always go through and count for nothing.
 */
export function useKillableStores(spared: readonly StoreName[] = []) {
  const als = new AsyncLocalStorage<number>();
  const stores = new Map<StoreName, KV>();
  const state = { pid: 0, calls: 0, killAt: Infinity, dead: new Set<number>() };
  const gate = () => {
    const pid = als.getStore() ?? 0;
    if (state.dead.has(pid)) throw new Killed();
    state.calls += 1;
    if (pid === state.pid && state.calls >= state.killAt) {
      state.dead.add(pid);
      throw new Killed();
    }
  };
  const wrap = (inner: KV): KV => ({
    get: async (k) => (gate(), inner.get(k)),
    create: async (k, v) => (gate(), inner.create(k, v)),
    replace: async (k, v, e) => (gate(), inner.replace(k, v, e)),
    put: async (k, v) => (gate(), inner.put(k, v)),
    putBytes: async (k, d, m) => (gate(), inner.putBytes(k, d, m)),
    getBytes: async (k) => (gate(), inner.getBytes(k)),
    delete: async (k) => (gate(), inner.delete(k)),
    keys: (p) => {
      gate();
      return inner.keys(p);
    },
  });
  setStoreFactory((name) => {
    let s = stores.get(name);
    if (!s) stores.set(name, (s = spared.includes(name) ? new MemoryKV() : wrap(new MemoryKV())));
    return s;
  });
  return {
    /** Kill the current process at its n-th store call from now. */
    arm(n: number) {
      state.calls = 0;
      state.killAt = n;
    },
    disarm() {
      state.killAt = Infinity;
    },
    restart() {
      state.pid += 1;
      state.calls = 0;
      state.killAt = Infinity;
    },
    run<T>(fn: () => Promise<T>): Promise<T> {
      return als.run(state.pid, fn);
    },
  };
}
