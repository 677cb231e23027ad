import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { setEnvironmentContext } from '@netlify/blobs';

/**
 * A fake of Netlify's Blobs service, served over HTTP so the real SDK (and
 * storage/blobs-kv.ts's storeFetch) talks to it exactly as it talks to Netlify. It behaves
 * like the service where the service and the local Blobs server differ
 * (docs/decisions/153-storage.md):
 *
 * - conditional writes are atomic: the check and the write happen in one
 *   synchronous step once the body is in, so of many writers with one ETag
 *   exactly one wins and the rest get 412 (which the SDK reports as
 *   `modified: false`);
 * - every read answers with the entry's ETag (the local server's GET has none);
 *   ETags are never reused;
 * - reads without `consistency: 'strong'` go to the cached edge (its own port)
 *   and see the store as it was at the last `propagate()`: stale for a while;
 * - lists come 1,000 keys a page with a cursor;
 * - faults on demand: a conditional write answered 5xx (the SDK then reports
 *   `modified: true` with an empty etag, the known trap), optionally after the
 *   write was applied; another writer winning just before a given write.
 */

interface Entry {
  body: Buffer;
  etag: string;
  metadata: string | null;
}

export interface FakeFault {
  /** Which requests it hits. */
  match: (r: { method: string; key: string | null; conditional: boolean }) => boolean;
  status: number;
  /** How many matching requests it answers (storeFetch retries a 5xx or 429 once, a conditional write only after a 429). */
  times: number;
  /** Apply the write before answering the error (a lost answer, not a lost write). */
  applied?: boolean;
}

export interface FakeStats {
  reads: number;
  eventualReads: number;
  writes: number;
  conditionalWrites: number;
  /** 412 answers: conditional writes that lost (a race or a stale ETag). */
  preconditionFailed: number;
  listPages: number;
  faults: number;
}

export const FAKE_LIST_PAGE = 1000;

export class FakeBlobsService {
  readonly token = randomBytes(16).toString('hex');
  readonly siteID = `fake-${randomBytes(6).toString('hex')}`;
  /** store name -> key -> entry: what a strong read sees. */
  private readonly data = new Map<string, Map<string, Entry>>();
  /** What the cached edge serves: a copy taken at the last propagate(). */
  private edge = new Map<string, Map<string, Entry>>();
  private seq = 0;
  private faults: FakeFault[] = [];
  /** Before the next write of this key is checked, another writer replaces it. */
  private readonly races = new Set<string>();
  stats: FakeStats = this.zeroStats();
  private servers: Server[] = [];
  strongURL = '';
  edgeURL = '';

  private zeroStats(): FakeStats {
    return {
      reads: 0,
      eventualReads: 0,
      writes: 0,
      conditionalWrites: 0,
      preconditionFailed: 0,
      listPages: 0,
      faults: 0,
    };
  }

  async start(): Promise<this> {
    const listen = (strong: boolean) =>
      new Promise<string>((resolve) => {
        const server = createServer((req, res) => {
          this.handle(req, res, strong).catch((err: unknown) => {
            res.statusCode = 500;
            res.end(String(err));
          });
        });
        this.servers.push(server);
        server.listen(0, '127.0.0.1', () => {
          const addr = server.address();
          resolve(`http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`);
        });
      });
    this.strongURL = await listen(true);
    this.edgeURL = await listen(false);
    return this;
  }

  /**
   * Points the SDK at this service. It is on 127.0.0.1, so under APP_ENV test
   * the default path would be the local one: use `new BlobsKV(name, { path: 'service' })`.
   */
  use(): void {
    setEnvironmentContext({
      siteID: this.siteID,
      token: this.token,
      edgeURL: this.edgeURL,
      uncachedEdgeURL: this.strongURL,
      apiURL: this.strongURL,
    });
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.closeAllConnections();
            s.close(() => resolve());
          }),
      ),
    );
  }

  /** The cached edge catches up with every write so far. */
  propagate(): void {
    this.edge = new Map([...this.data].map(([name, m]) => [name, new Map(m)]));
  }

  fault(f: FakeFault): void {
    this.faults.push({ ...f });
  }

  clearFaults(): void {
    this.faults = [];
    this.races.clear();
  }

  /** Another writer replaces `key` (in any store) just before the next write to it is checked. */
  loseNextRace(key: string): void {
    this.races.add(key);
  }

  resetStats(): FakeStats {
    const s = this.stats;
    this.stats = this.zeroStats();
    return s;
  }

  /** Writes entries directly (a large store without thousands of requests). */
  seed(storeSuffix: string, entries: Record<string, unknown>): void {
    const m = this.storeMap(this.data, `site:${storeSuffix}`);
    for (const [k, v] of Object.entries(entries))
      m.set(k, { body: Buffer.from(JSON.stringify(v)), etag: this.nextEtag(), metadata: null });
  }

  /** Every stored key of a store (strong view), for assertions. */
  keysOf(storeSuffix: string): string[] {
    return [...(this.data.get(`site:${storeSuffix}`)?.keys() ?? [])].sort();
  }

  private nextEtag(): string {
    this.seq += 1;
    return `"fake-${this.seq}"`;
  }

  private storeMap(root: Map<string, Map<string, Entry>>, name: string): Map<string, Entry> {
    let m = root.get(name);
    if (!m) root.set(name, (m = new Map<string, Entry>()));
    return m;
  }

  private takeFault(r: { method: string; key: string | null; conditional: boolean }): FakeFault | null {
    const f = this.faults.find((x) => x.times > 0 && x.match(r));
    if (!f) return null;
    f.times -= 1;
    this.stats.faults += 1;
    return f;
  }

  private async handle(req: IncomingMessage, res: ServerResponse, strong: boolean): Promise<void> {
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      res.statusCode = 401;
      res.end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    let parts = url.pathname.split('/').slice(1);
    if (parts[0]?.startsWith('region:')) parts = parts.slice(1);
    const [site, rawStore, ...rest] = parts;
    if (site !== this.siteID || !rawStore) {
      res.statusCode = 400;
      res.end();
      return;
    }
    const storeName = decodeURIComponent(rawStore);
    const key = rest.length ? decodeURIComponent(rest.join('/')) : null;
    const method = req.method ?? 'GET';
    const ifMatch = req.headers['if-match'];
    const ifNoneMatch = req.headers['if-none-match'];
    const conditional = method === 'PUT' && (typeof ifMatch === 'string' || ifNoneMatch === '*');
    const body = method === 'PUT' ? await readBody(req) : null;

    const fault = this.takeFault({ method, key, conditional });
    if (fault && !fault.applied) {
      res.statusCode = fault.status;
      res.end();
      return;
    }

    const view = strong ? this.data : this.edge;
    if (method === 'GET' && key === null) {
      this.stats.listPages += 1;
      const prefix = url.searchParams.get('prefix') ?? '';
      const cursor = url.searchParams.get('cursor');
      const all = [...(view.get(storeName)?.entries() ?? [])]
        .filter(([k]) => k.startsWith(prefix))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      const start = cursor ? all.findIndex(([k]) => k > cursor) : 0;
      const page = start < 0 ? [] : all.slice(start, start + FAKE_LIST_PAGE);
      const more = start >= 0 && start + FAKE_LIST_PAGE < all.length;
      sendJson(res, {
        blobs: page.map(([k, e]) => ({ key: k, etag: e.etag, size: e.body.length, last_modified: '' })),
        directories: [],
        ...(more ? { next_cursor: page[page.length - 1]![0] } : {}),
      });
      return;
    }
    if (key === null) {
      res.statusCode = 400;
      res.end();
      return;
    }
    if (method === 'GET' || method === 'HEAD') {
      this.stats.reads += 1;
      if (!strong) this.stats.eventualReads += 1;
      const e = view.get(storeName)?.get(key);
      if (!e) {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.setHeader('etag', e.etag);
      if (e.metadata) res.setHeader('x-amz-meta-user', e.metadata);
      res.statusCode = 200;
      res.end(method === 'HEAD' ? undefined : e.body);
      return;
    }
    if (method === 'DELETE') {
      this.data.get(storeName)?.delete(key);
      res.statusCode = 204;
      res.end();
      return;
    }
    if (method === 'PUT') {
      this.stats.writes += 1;
      if (conditional) this.stats.conditionalWrites += 1;
      const m = this.storeMap(this.data, storeName);
      if (this.races.delete(key)) {
        const cur = m.get(key);
        if (cur) m.set(key, { ...cur, etag: this.nextEtag() });
      }
      // From here to the write nothing awaits: the check and the write are one step.
      const cur = m.get(key);
      if ((ifNoneMatch === '*' && cur) || (typeof ifMatch === 'string' && cur?.etag !== ifMatch)) {
        this.stats.preconditionFailed += 1;
        res.statusCode = 412;
        res.end();
        return;
      }
      const metadata = req.headers['x-amz-meta-user'];
      const etag = this.nextEtag();
      m.set(key, { body: body!, etag, metadata: typeof metadata === 'string' ? metadata : null });
      if (fault) {
        res.statusCode = fault.status;
        res.end();
        return;
      }
      res.setHeader('etag', etag);
      res.statusCode = 200;
      res.end();
      return;
    }
    res.statusCode = 405;
    res.end();
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function sendJson(res: ServerResponse, body: unknown): void {
  res.setHeader('content-type', 'application/json');
  res.statusCode = 200;
  res.end(JSON.stringify(body));
}
