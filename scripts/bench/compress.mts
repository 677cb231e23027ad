/**
 * A pass-through proxy that compresses text responses the way Netlify's CDN
 * does (brotli for browsers that accept it, else gzip). `netlify serve` sends
 * HTML, CSS and JS uncompressed, which no visitor of the live site ever gets;
 * Lighthouse's simulated phone network charges every byte on the wire, so
 * without this the bench would measure transfer sizes production never has.
 * The floor page and every page are measured through it alike.
 */
import { createServer, request, Agent, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/;
/** On-the-fly brotli at a moderate level, as a CDN compresses a response it has not cached yet. */
const BROTLI_QUALITY = 5;

async function readAll(res: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function compressingProxy(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers, host: upstream.host };
    delete headers['accept-encoding'];
    const out = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers, agent },
      (up) => {
        void readAll(up).then((body) => {
          const type = String(up.headers['content-type'] ?? '');
          const accepts = String(req.headers['accept-encoding'] ?? '');
          const responseHeaders = { ...up.headers };
          delete responseHeaders['content-length'];
          delete responseHeaders['transfer-encoding'];
          delete responseHeaders.connection;
          let payload = body;
          if (COMPRESSIBLE.test(type) && body.length > 0 && !up.headers['content-encoding']) {
            if (/\bbr\b/.test(accepts)) {
              payload = brotliCompressSync(body, {
                params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY },
              });
              responseHeaders['content-encoding'] = 'br';
            } else if (/\bgzip\b/.test(accepts)) {
              payload = gzipSync(body);
              responseHeaders['content-encoding'] = 'gzip';
            }
            responseHeaders.vary = 'Accept-Encoding';
          }
          responseHeaders['content-length'] = String(payload.length);
          res.writeHead(up.statusCode ?? 502, responseHeaders);
          res.end(req.method === 'HEAD' ? undefined : payload);
        });
      },
    );
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(out);
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
