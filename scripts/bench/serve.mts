import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setEnvironmentContext } from '@netlify/blobs';
import { BlobsServer } from '../dev/blobs-listing.mts';
import { STORE_NAMES, type StoreName } from '../../src/lib/server/storage/kv.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import type { Context } from '@netlify/functions';

type Handler = (req: Request, context: Context) => Promise<Response>;
interface FunctionModule {
  default: Handler;
  config: { path?: string | string[] };
}

/**
 * Serves real function modules on 127.0.0.1 the way Netlify routes them
 * (config.path patterns, platform IP in context.ip), for autocannon benchmarks.
 * `clientIpHeader` (benchmarks only) takes context.ip from that request header
 * instead of the socket, so a load test on loopback can stand for many people;
 * the functions themselves never read a client-sent IP.
 */
export async function serveFunctions(
  modules: FunctionModule[],
  options: { clientIpHeader?: string } = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const routes = modules.flatMap((m) =>
    (Array.isArray(m.config.path) ? m.config.path : m.config.path ? [m.config.path] : []).map((p) => ({
      pattern: new URLPattern({ pathname: p }),
      handler: m.default,
    })),
  );
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const route = routes.map((r) => ({ r, m: r.pattern.exec(url) })).find((x) => x.m);
    if (!route?.m) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const request = new Request(url, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
    });
    const params = Object.fromEntries(
      Object.entries(route.m.pathname.groups).filter((e): e is [string, string] => e[1] !== undefined),
    );
    const simulated = options.clientIpHeader ? req.headers[options.clientIpHeader] : undefined;
    const response = await route.r.handler(request, {
      ip: typeof simulated === 'string' ? simulated : (req.socket.remoteAddress ?? ''),
      params,
    } as unknown as Context);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  };
  const server: Server = createServer((req, res) => {
    serve(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

/** Starts a throwaway local Blobs server and points the SDK at it. */
export async function benchBlobs(): Promise<() => Promise<void>> {
  return (await benchBlobsStore()).stop;
}

/** benchBlobs, with where the store lives (a bench that writes the directory directly: scripts/lib/directory-kv.mts). */
export async function benchBlobsStore(): Promise<{
  directory: string;
  siteID: string;
  stop: () => Promise<void>;
}> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-blobs-'));
  const token = 'bench-token';
  const siteID = 'bench';
  const server = new BlobsServer({ directory, token, logger: () => {} });
  const { port } = await server.start();
  const url = `http://127.0.0.1:${port}`;
  setEnvironmentContext({ siteID, token, edgeURL: url, uncachedEdgeURL: url });
  // Stores opened against an earlier server are cached: start afresh.
  setStoreFactory(null);
  process.env.APP_ENV = 'test';
  return {
    directory,
    siteID,
    stop: async () => {
      await server.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * Counts the store calls of one request: `count(run)` points every store at a counting wrapper over the stores as
 * they are now, runs `run`, puts the stores back and answers how many calls it made (a key listing counts one per
 * page it yields: on Netlify each page is its own round trip).
 */
export function storeCallCounter(): { count: (run: () => Promise<unknown>) => Promise<number> } {
  const bases = new Map(STORE_NAMES.map((n) => [n, kv(n)] as const));
  const calls = { n: 0 };
  const wrap = (name: StoreName) =>
    new Proxy(bases.get(name)!, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (typeof v !== 'function') return v;
        if (prop === 'keys')
          return async function* (prefix?: string) {
            for await (const page of target.keys(prefix)) {
              calls.n++;
              yield page;
            }
          };
        return (...args: unknown[]) => {
          calls.n++;
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  return {
    count: async (run) => {
      setStoreFactory(wrap);
      calls.n = 0;
      await run();
      const n = calls.n;
      setStoreFactory(null);
      return n;
    },
  };
}
