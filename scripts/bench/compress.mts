/**
 * A pass-through proxy that compresses text responses the way Netlify's CDN
 * does (brotli for browsers that accept it, else gzip). `netlify serve` sends
 * HTML, CSS and JS uncompressed, which no visitor of the live site ever gets;
 * Lighthouse's simulated phone network charges every byte on the wire, so
 * without this the bench would measure transfer sizes production never has.
 * The floor page and every page are measured through it alike.
 *
 * Like the CDN, it also keeps the responses an on-demand page marks cacheable
 * (`Netlify-CDN-Cache-Control: s-maxage=N, stale-while-revalidate=M`: /blog,
 * /volunteer, articles) and answers from that copy while it is fresh or
 * within its stale window, revalidating in the background. `netlify serve`
 * renders every request in a fresh function worker (hundreds of ms on
 * loopback) where production answers from the CDN's copy: without this, the
 * on-demand pages' largest paint measured the emulator's start-up. The bench
 * fetches each page once before measuring it (a warm CDN, as for any page
 * with visitors); the time a render takes is the functions section's concern.
 */
import {
  createServer,
  request,
  Agent,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/;
/** On-the-fly brotli at a moderate level, as a CDN compresses a response it has not cached yet. */
const BROTLI_QUALITY = 5;

interface Cached {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
  freshUntil: number;
  staleUntil: number;
}

/** s-maxage and stale-while-revalidate of a Netlify-CDN-Cache-Control (or CDN-Cache-Control) header, if shared caching is allowed. */
function cdnLifetime(headers: IncomingMessage['headers']): { fresh: number; stale: number } | null {
  const value = String(headers['netlify-cdn-cache-control'] ?? headers['cdn-cache-control'] ?? '');
  if (!value || /\b(no-store|private)\b/.test(value)) return null;
  const fresh = Number(/s-maxage=(\d+)/.exec(value)?.[1] ?? /max-age=(\d+)/.exec(value)?.[1] ?? NaN);
  if (!Number.isFinite(fresh) || fresh <= 0) return null;
  const stale = Number(/stale-while-revalidate=(\d+)/.exec(value)?.[1] ?? 0);
  return { fresh, stale };
}

async function readAll(res: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function compressingProxy(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const cache = new Map<string, Cached>();

  /** Fetches from upstream; keeps a GET the origin marked CDN-cacheable. */
  const fetchUpstream = (req: IncomingMessage, body: Buffer | null): Promise<Cached> =>
    new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: upstream.host };
      delete headers['accept-encoding'];
      const out = request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers, agent },
        (up) => {
          void readAll(up).then((data) => {
            const now = Date.now();
            const life = req.method === 'GET' && up.statusCode === 200 ? cdnLifetime(up.headers) : null;
            const entry: Cached = {
              status: up.statusCode ?? 502,
              headers: up.headers,
              body: data,
              freshUntil: life ? now + life.fresh * 1000 : 0,
              staleUntil: life ? now + (life.fresh + life.stale) * 1000 : 0,
            };
            if (life && req.url) cache.set(req.url, entry);
            resolve(entry);
          }, reject);
        },
      );
      out.on('error', reject);
      out.end(body ?? undefined);
    });

  const send = (req: IncomingMessage, res: ServerResponse, entry: Cached, hit: boolean) => {
    const type = String(entry.headers['content-type'] ?? '');
    const accepts = String(req.headers['accept-encoding'] ?? '');
    const responseHeaders = { ...entry.headers };
    delete responseHeaders['content-length'];
    delete responseHeaders['transfer-encoding'];
    delete responseHeaders.connection;
    let payload = entry.body;
    if (COMPRESSIBLE.test(type) && entry.body.length > 0 && !entry.headers['content-encoding']) {
      if (/\bbr\b/.test(accepts)) {
        payload = brotliCompressSync(entry.body, {
          params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY },
        });
        responseHeaders['content-encoding'] = 'br';
      } else if (/\bgzip\b/.test(accepts)) {
        payload = gzipSync(entry.body);
        responseHeaders['content-encoding'] = 'gzip';
      }
      responseHeaders.vary = 'Accept-Encoding';
    }
    if (entry.freshUntil) responseHeaders['x-bench-cache'] = hit ? 'HIT' : 'MISS';
    responseHeaders['content-length'] = String(payload.length);
    res.writeHead(entry.status, responseHeaders);
    res.end(req.method === 'HEAD' ? undefined : payload);
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const now = Date.now();
      const cached = req.method === 'GET' && req.url ? cache.get(req.url) : undefined;
      if (cached && now < cached.staleUntil) {
        // Stale but within stale-while-revalidate: answer now, refresh behind (as the CDN does).
        if (now >= cached.freshUntil) void fetchUpstream(req, null).catch(() => cache.delete(req.url!));
        send(req, res, cached, true);
        return;
      }
      send(
        req,
        res,
        await fetchUpstream(req, req.method === 'GET' || req.method === 'HEAD' ? null : await readAll(req)),
        false,
      );
    })().catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => r());
      }),
  };
}
