import { createHash } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { cpSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { parse } from 'smol-toml';

/**
 * Serves the production build (dist/) with the headers Netlify applies to
 * static files: netlify.toml's [[headers]] rules, then the adapter's per-page
 * headers from .netlify/v1/config.json (the page CSP with Astro's script
 * hashes), the latter winning on the same header name, as `netlify serve` does.
 * A file no rule gives a Cache-Control gets Netlify's default (browsers
 * revalidate every time) and, like every static file on Netlify, an ETag that
 * a conditional request is answered against (304).
 * Only static files: on-demand pages and the API are not served here, unless
 * `fallback` names a server (the dev server) that every request for a file the
 * build does not have goes to: the production build's pages then talk to the
 * real API, and on-demand pages come from that server, on one origin.
 */

/**
 * Where the global setup keeps a copy of the build's on-demand function (.netlify/v1/functions/ssr
 * and the .netlify/build it imports, at the same relative depth): the dev server's Netlify adapter
 * empties both when it starts. helpers/built-responses.mts runs the copy.
 */
export const BUILT_FUNCTION_COPY = join('.netlify', 'tests-built-function');

/** Copies the on-demand function the build just made to BUILT_FUNCTION_COPY. */
export function keepBuiltFunction(root: string): void {
  const to = join(root, BUILT_FUNCTION_COPY);
  rmSync(to, { recursive: true, force: true });
  cpSync(join(root, '.netlify', 'build'), join(to, 'build'), { recursive: true });
  cpSync(join(root, '.netlify', 'v1', 'functions', 'ssr'), join(to, 'v1', 'functions', 'ssr'), {
    recursive: true,
  });
}

/** What Netlify's CDN sends for a static file that no header rule gives a Cache-Control. */
export const NETLIFY_DEFAULT_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

interface Rule {
  for: string;
  values: Record<string, string>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

function matches(pattern: string, path: string): boolean {
  if (pattern.endsWith('/*')) return path.startsWith(pattern.slice(0, -1)) || path === pattern.slice(0, -2);
  return pattern === path || `${pattern}/` === path;
}

export interface ProductionServerOptions {
  /** Origin every request for a path the build has no file for is passed to (e.g. the dev server). */
  fallback?: string;
}

export async function serveProductionBuild(
  root: string,
  options: ProductionServerOptions = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const toml = parse(readFileSync(join(root, 'netlify.toml'), 'utf8')) as unknown as { headers?: Rule[] };
  const framework = JSON.parse(readFileSync(join(root, '.netlify/v1/config.json'), 'utf8')) as {
    headers?: Rule[];
  };
  const rules = [...(toml.headers ?? []), ...(framework.headers ?? [])];
  const dist = join(root, 'dist');

  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const safe = normalize(path).replace(/^(\.\.[/\\])+/, '');
    let file = join(dist, safe);
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    else if (!existsSync(file) && existsSync(`${file}.html`)) file = `${file}.html`;
    let status = 200;
    if (!existsSync(file) && options.fallback) {
      passOn(req, res, options.fallback);
      return;
    }
    if (!existsSync(file)) {
      status = 404;
      file = join(dist, '404.html');
    }
    const body = readFileSync(file);
    const headers: Record<string, string> = {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      ETag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`,
    };
    for (const rule of rules) if (matches(rule.for, path)) Object.assign(headers, rule.values);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'cache-control'))
      headers['Cache-Control'] = NETLIFY_DEFAULT_CACHE_CONTROL;
    if (status === 200 && req.headers['if-none-match'] === headers.ETag) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(status, headers);
    res.end(body);
  });
  // The dev server's pages keep their live-reload connection (a lost one makes Vite reload the page).
  server.on('upgrade', (req: IncomingMessage, socket, head: Buffer) => {
    if (!options.fallback) return socket.destroy();
    const target = new URL(options.fallback);
    const upstream = connect(Number(target.port), target.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  // Node closes an idle keep-alive connection after 5 s; a client reusing it at that moment gets ECONNRESET, and a
  // POST is not retried (seen in a CI run: a test's POST /api/admin/events through this server). Connections stay
  // open for the run instead; the server tells clients so in its Keep-Alive header.
  server.keepAliveTimeout = 10 * 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Passes a request on to `origin` unchanged (the Host header too, so the origin sees one site). */
function passOn(req: IncomingMessage, res: ServerResponse, origin: string) {
  const target = new URL(origin);
  const upstream = request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
}
